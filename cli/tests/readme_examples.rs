//! The README's examples and figures that a command can produce, produced and compared, so
//! that the README cannot drift from the program:
//!
//! - the first-run command (the `-- dlx3 ...` line of the first `sh` block) prints the
//!   block after `<!-- readme-first-run-output -->`, stderr and stdout as a terminal
//!   interleaves them;
//! - the input after `<!-- readme-tiny-input -->` run with `dlx3 m1` prints the block after
//!   `<!-- readme-tiny-output -->`;
//! - `cluster/slurm/queens.sh`, the Slurm example's input, writes the n-queens problem
//!   (the tests' own generator) and its solutions count as the README says;
//! - the size of a counts-only dlx3 part (`Langford pairs n=12 in 4 shards with m1000:
//!   about N KB a part`), every part within 5 %;
//! - the worked plan's shard journal size (`N bytes for the 76 chunks of the fixture
//!   grid`), within 5 %;
//! - the x86_64 footprint of `c-examples/queens8_min.c` in the footprint table, text and
//!   RAM, within 3 % (built by `make -C c-examples` with `-Wl,--gc-sections` against the
//!   release `libxcover.a`, whose LTO the figure depends on; `XCOVER_SKIP_C=1` skips it,
//!   saying so).
//!
//! - the complete C program after `<!-- readme-c-program -->`, as a new C user copies it:
//!   compiled with `-std=c99 -Wall -Wextra -Werror -pedantic` against `include/` and the
//!   release `libxcover.a`, run, its output compared with the block after
//!   `<!-- readme-c-output -->`; and its text size built without and with `--gc-sections`
//!   (the paragraph after `<!-- readme-c-link-small -->`), each within 5 %
//!   (`XCOVER_SKIP_C=1` skips both, saying so).
//!
//! Timings (the Performance table) are not checked: they depend on the machine.
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod common;
use common::{langford, queens, run_with_input, xcover};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn readme() -> String {
    std::fs::read_to_string(repo().join("README.md")).expect("README.md")
}

/// The body of the fenced block that follows `marker` in `text`.
fn block_after<'t>(text: &'t str, marker: &str) -> &'t str {
    let after = &text[text
        .find(marker)
        .unwrap_or_else(|| panic!("README has no {marker}"))..];
    let open = after
        .find("```")
        .expect("a fenced block follows the marker");
    let body = &after[open..];
    let body = &body[body.find('\n').expect("fence line ends") + 1..];
    &body[..body.find("\n```").expect("the fenced block is closed") + 1]
}

/// The number (digits and thousands commas) that ends just before `before` in `text`,
/// searched from the first occurrence of `after`.
fn figure_before(text: &str, after: &str, before: &str) -> u64 {
    let from = text
        .find(after)
        .unwrap_or_else(|| panic!("README has no `{after}`"));
    let end = from
        + text[from..]
            .find(before)
            .unwrap_or_else(|| panic!("README has no `{before}` after `{after}`"));
    let digits: String = text[..end]
        .trim_end()
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no figure before `{before}` after `{after}`"))
}

fn assert_within(measured: u64, shown: u64, percent: u64, what: &str) {
    assert!(
        measured.abs_diff(shown) * 100 <= shown * percent,
        "{what}: the README shows {shown}, measured {measured} (more than {percent} % off): \
         update the README"
    );
}

#[test]
fn the_first_run_prints_what_the_readme_shows() {
    let readme = readme();
    let first_run = &readme[readme.find("## Install and first run").unwrap()..];
    let command = first_run
        .lines()
        .find(|l| l.starts_with("cargo run ") && l.contains(" -- dlx3 "))
        .expect("the first-run command");
    // `cargo run ... -- dlx3 ARGS < FILE`: the binary's arguments and its stdin.
    let (args, file) = command
        .split_once(" -- ")
        .unwrap()
        .1
        .split_once(" < ")
        .unwrap();
    let args: Vec<&str> = args.split_whitespace().collect();
    let input = std::fs::read(repo().join(file.trim())).expect("the example file");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_xcover"));
    cmd.args(&args);
    let out = run_with_input(cmd, &input);
    assert!(out.status.success(), "{command}: {:?}", out.status);
    // Knuth's program writes the input's line to stderr before searching, and the
    // statistics after it.
    let err = String::from_utf8(out.stderr).unwrap();
    let (read, closing) = err.split_at(err.find('\n').expect("a line on stderr") + 1);
    let shown = format!("{read}{}{closing}", String::from_utf8(out.stdout).unwrap());
    assert_eq!(
        shown,
        block_after(&readme, "<!-- readme-first-run-output -->")
    );
}

#[test]
fn the_tiny_example_prints_what_the_readme_shows() {
    let readme = readme();
    let input = block_after(&readme, "<!-- readme-tiny-input -->");
    let out = xcover(&["dlx3", "m1"], input);
    assert!(out.status.success(), "{:?}", out.status);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        block_after(&readme, "<!-- readme-tiny-output -->")
    );
}

fn queens_sh(n: usize) -> String {
    let out = Command::new("bash")
        .arg(repo().join("cluster/slurm/queens.sh"))
        .arg(n.to_string())
        .stderr(Stdio::inherit())
        .output()
        .expect("bash runs");
    assert!(out.status.success(), "queens.sh {n}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_slurm_examples_queens_input_is_n_queens() {
    for n in [1, 8, 13] {
        assert_eq!(queens_sh(n), queens(n), "queens.sh {n}");
    }
    let out = xcover(&["dlx3", "m0"], &queens_sh(8));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("Altogether 92 solutions,"), "{err}");
    // The README's count for the example's 18 queens, and the recipe's 15 (the known
    // values of the n-queens sequence; 18 is hours of search).
    let readme = readme();
    assert!(readme.contains("cluster/slurm/queens.sh 18 > queens18.dlx"));
    assert!(readme.contains("666,090,624 solutions"));
    let bad = Command::new("bash")
        .arg(repo().join("cluster/slurm/queens.sh"))
        .arg("0")
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn a_counts_only_dlx3_part_is_as_small_as_the_readme_says() {
    let readme = readme();
    let kb = figure_before(
        &readme,
        "Langford pairs n=12 in 4 shards with `m1000`",
        " KB a part",
    );
    let input = langford(12);
    for shard in 0..4 {
        let out = xcover(&["dlx3", "--shard", &format!("{shard}/4"), "m1000"], &input);
        assert!(out.status.success(), "shard {shard}/4: {:?}", out.status);
        let bytes = out.stdout.len() as u64;
        assert_within(bytes, kb * 1000, 5, &format!("the part of shard {shard}/4"));
    }
}

/// A scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xcover-readme-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_worked_plans_journal_size() {
    let readme = readme();
    let shown = figure_before(
        &readme,
        "A shard's journal holds",
        " bytes for the 76 chunks of",
    );
    let dir = scratch("journal");
    let journal = dir.join("journal");
    // The fixture grid of gridcheck_shard.rs, a whole-grid 16-clue scan as one shard.
    let grid = "216378945487259163359146782673521894948637251125894637591462378732985416864713529";
    let out = common::gridcheck(&[
        "--clues",
        "16",
        "--shard",
        "0/1",
        "--checkpoint",
        journal.to_str().unwrap(),
        grid,
    ])
    .output()
    .unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert!(common::stderr(&out).contains("; chunks 76 "));
    let bytes = std::fs::metadata(&journal).unwrap().len();
    assert_within(bytes, shown, 5, "the shard journal of 76 chunks");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Text bytes and RAM bytes (data + bss) of an ELF file, as `size` counts them.
fn text_and_ram(binary: &Path) -> (u64, u64) {
    let out = Command::new("size")
        .arg(binary)
        .output()
        .expect("size runs");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let row = text.lines().nth(1).expect("size prints a row");
    let columns: Vec<u64> = row
        .split_whitespace()
        .take(3)
        .map(|c| c.parse().unwrap())
        .collect();
    (columns[0], columns[1] + columns[2])
}

#[test]
fn the_x86_64_queens8_min_footprint() {
    if std::env::var_os("XCOVER_SKIP_C").is_some_and(|v| v == "1") {
        eprintln!("XCOVER_SKIP_C=1: queens8_min's footprint is not measured");
        return;
    }
    let readme = readme();
    let row = readme
        .lines()
        .find(|l| l.starts_with("| x86_64 (host `libxcover.a`"))
        .expect("the footprint table's x86_64 row");
    let shown_text = figure_before(row, "|", " bytes");
    let ram_cell = &row[row.find(" bytes").unwrap() + " bytes".len()..];
    let shown_ram = figure_before(ram_cell, "|", " bytes");
    let dir = scratch("footprint");
    let status = Command::new("make")
        .arg("-C")
        .arg(repo().join("c-examples"))
        .arg(format!("BUILD={}", dir.display()))
        .arg(dir.join("queens8_min"))
        .stdout(Stdio::null())
        .status()
        .expect("make runs");
    assert!(status.success(), "building queens8_min failed");
    let (text, ram) = text_and_ram(&dir.join("queens8_min"));
    assert_within(text, shown_text, 3, "x86_64 queens8_min text");
    assert_within(ram, shown_ram, 3, "x86_64 queens8_min RAM (data + bss)");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The release `libxcover.a`, built by `make -C c-examples lib` (cargo decides whether
/// anything changed).
fn release_libxcover() -> PathBuf {
    let status = Command::new("make")
        .arg("-C")
        .arg(repo().join("c-examples"))
        .arg("lib")
        .status()
        .expect("make runs");
    assert!(status.success(), "building libxcover.a failed");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|t| if t.is_relative() { repo().join(t) } else { t })
        .unwrap_or_else(|| repo().join("target"));
    target.join("release/libxcover.a")
}

/// Compiles the README's C program into `dir/name` with `cc`, the given flags and the
/// release library; returns the binary.
fn compile_readme_c(dir: &Path, name: &str, flags: &[&str], lib: &Path) -> PathBuf {
    let readme = readme();
    let source = dir.join("app.c");
    std::fs::write(&source, block_after(&readme, "<!-- readme-c-program -->")).unwrap();
    let binary = dir.join(name);
    let cc = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"])
        .args(flags)
        .arg("-I")
        .arg(repo().join("include"))
        .arg("-o")
        .arg(&binary)
        .arg(&source)
        .arg(lib)
        .output()
        .expect("cc runs");
    assert!(
        cc.status.success(),
        "the README's C program does not compile with {flags:?}:\n{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    binary
}

/// The README's C program (see the module comment).
#[test]
fn readme_c_program_compiles_strictly_and_prints_what_the_readme_says() {
    if std::env::var_os("XCOVER_SKIP_C").is_some_and(|v| v == "1") {
        eprintln!("XCOVER_SKIP_C=1: the README's C program is not built");
        return;
    }
    let readme = readme();
    let expected = block_after(&readme, "<!-- readme-c-output -->");
    let lib = release_libxcover();
    let dir = scratch("readme-c");
    let binary = compile_readme_c(&dir, "app", &[], &lib);
    let run = Command::new(&binary).output().expect("the program runs");
    std::fs::remove_dir_all(&dir).ok();
    assert!(run.status.success(), "exit status {:?}", run.status);
    assert_eq!(String::from_utf8_lossy(&run.stdout), expected);
}

/// "Link small": the README's C program, built with `cc -O2` without and with
/// `--gc-sections` (the README's command line), has the text sizes the README gives,
/// within 5 % (they depend on the C compiler and library a little).
#[test]
fn readme_c_program_links_as_small_as_the_readme_says() {
    if std::env::var_os("XCOVER_SKIP_C").is_some_and(|v| v == "1") {
        eprintln!("XCOVER_SKIP_C=1: the README's C program is not built");
        return;
    }
    let readme = readme();
    let section = &readme[readme
        .find("<!-- readme-c-link-small -->")
        .expect("README has the link-small paragraph")..];
    let command = block_after(section, "<!-- readme-c-link-small -->");
    for flag in [
        "-ffunction-sections",
        "-fdata-sections",
        "-Wl,--gc-sections",
        "-O2",
    ] {
        assert!(command.contains(flag), "the README's command has no {flag}");
    }
    // The sentence with the figures, its line breaks made spaces.
    let flat = section.split_whitespace().collect::<Vec<_>>().join(" ");
    let shown_whole = figure_before(&flat, "The program above", " bytes of text without");
    let shown_small = figure_before(&flat, "bytes of text without", " bytes with it");
    let lib = release_libxcover();
    let dir = scratch("readme-c-small");
    let whole = compile_readme_c(&dir, "whole", &["-O2"], &lib);
    let small = compile_readme_c(
        &dir,
        "small",
        &[
            "-O2",
            "-ffunction-sections",
            "-fdata-sections",
            "-Wl,--gc-sections",
        ],
        &lib,
    );
    let (whole_text, _) = text_and_ram(&whole);
    let (small_text, _) = text_and_ram(&small);
    std::fs::remove_dir_all(&dir).ok();
    println!("text: {whole_text} bytes whole, {small_text} with --gc-sections");
    assert_within(
        whole_text,
        shown_whole,
        5,
        "the README's C program, whole library",
    );
    assert_within(
        small_text,
        shown_small,
        5,
        "the README's C program, --gc-sections",
    );
}
