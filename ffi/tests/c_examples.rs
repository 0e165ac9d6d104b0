//! Builds the C examples with their Makefile (`make -C c-examples`, which also builds the
//! release libxcover.a) and runs them: dlx3.c over the whole DLX3 conformance corpus,
//! preloaded.c (8 queens with malloc forbidden), budget.c (sliced runs == one run),
//! misuse.c (statuses, dead/usable workspaces, guard bytes), builder.c (dlx3_add_item /
//! dlx3_add_option == text), queens8_min.c, parts.c (8 queens in 3 parts add up to one run),
//! gridcheck.c (a masked scan from a static
//! workspace gives exactly the fixture's puzzles and `xcover gridcheck`'s output; every
//! gridcheck misuse gets its status). Also proves
//! the library is embeddable: the undefined symbols of libxcover.a are only mem*/bcmp-class
//! ones (no allocator, no std, no unwinder).
//!
//! Needs `cc`, `make`, `ar` and `readelf`. Set XCOVER_SKIP_C=1 to skip (prints why).
use std::collections::BTreeSet;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn skip() -> bool {
    if std::env::var_os("XCOVER_SKIP_C").is_some_and(|v| v == "1") {
        eprintln!("XCOVER_SKIP_C=1: C example tests skipped");
        return true;
    }
    false
}

/// Runs `make -C c-examples all` once for all tests; returns the build directory.
fn built() -> &'static Path {
    static BUILD: OnceLock<PathBuf> = OnceLock::new();
    BUILD.get_or_init(|| {
        let dir = repo().join("c-examples");
        let mut make = Command::new("make");
        make.arg("-C").arg(&dir).arg("all");
        make.arg(format!("LIBDIR={}", release_dir().display()));
        let status = make.status().expect("make runs");
        assert!(status.success(), "make -C c-examples all failed");
        dir.join("build")
    })
}

/// Where cargo puts the release libxcover.a (honours CARGO_TARGET_DIR).
fn release_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("target"));
    let target = if target.is_relative() {
        repo().join(target)
    } else {
        target
    };
    target.join("release")
}

fn corpus() -> PathBuf {
    let fixtures = repo().join("cli/tests/fixtures/dlx3");
    if fixtures.join("queens8_m1").exists() {
        return fixtures;
    }
    let shared = repo().join("../shared/conformance/dlx3");
    assert!(
        shared.exists(),
        "DLX3 conformance corpus not found at {} or {}",
        fixtures.display(),
        shared.display()
    );
    shared
}

#[test]
fn dlx3_c_passes_the_conformance_corpus() {
    if skip() {
        return;
    }
    let dlx3 = built().join("dlx3");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(corpus())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("input.dlx").exists())
        .collect();
    cases.sort();
    let mut failed = Vec::new();
    for case in &cases {
        let work = tempfile_dir(case);
        let args = std::fs::read_to_string(case.join("args")).unwrap();
        let input = std::fs::File::open(case.join("input.dlx")).unwrap();
        let output = Command::new(&dlx3)
            .arg0("dlx3")
            .args(args.split_whitespace())
            .current_dir(&work)
            .stdin(Stdio::from(input))
            .output()
            .expect("dlx3 runs");
        let want_exit: i32 = std::fs::read_to_string(case.join("exit"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let mut ok = output.stdout == std::fs::read(case.join("stdout")).unwrap()
            && output.stderr == std::fs::read(case.join("stderr")).unwrap()
            && output.status.code() == Some(want_exit);
        if case.join("shape").exists() {
            ok &= std::fs::read(work.join("shape.out")).ok()
                == std::fs::read(case.join("shape")).ok();
        }
        if !ok {
            failed.push(case.file_name().unwrap().to_string_lossy().into_owned());
        }
        let _ = std::fs::remove_dir_all(&work);
    }
    println!(
        "{} passed, {} failed",
        cases.len() - failed.len(),
        failed.len()
    );
    assert!(cases.len() >= 200, "only {} cases found", cases.len());
    assert!(
        failed.is_empty(),
        "dlx3.c differs from the reference on: {failed:?}"
    );
}

/// A fresh empty working directory for one case.
fn tempfile_dir(case: &Path) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "xcover-c-{}-{}",
        std::process::id(),
        case.file_name().unwrap().to_string_lossy()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run_ok(program: &Path, args: &[&str], stdin_file: Option<&Path>) -> String {
    let mut cmd = Command::new(program);
    cmd.args(args);
    if let Some(f) = stdin_file {
        cmd.stdin(Stdio::from(std::fs::File::open(f).unwrap()));
    }
    let out = cmd.output().expect("example runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{} {args:?} failed ({:?}):\n{text}",
        program.display(),
        out.status
    );
    text
}

#[test]
fn preloaded_solves_8_queens_without_any_allocation() {
    if skip() {
        return;
    }
    let text = run_ok(&built().join("preloaded"), &[], None);
    assert!(
        text.starts_with("92 solutions (library count 92, backtracking 92)"),
        "{text}"
    );
    // The minimal program returns its count as exit status.
    let status = Command::new(built().join("queens8_min")).status().unwrap();
    assert_eq!(status.code(), Some(92));
}

#[test]
fn budget_slices_give_the_same_results_as_one_run() {
    if skip() {
        return;
    }
    let budget = built().join("budget");
    let examples = repo().join("c-examples");
    let corpus = corpus();
    let runs: [(&str, PathBuf); 6] = [
        ("1", examples.join("queens8.dlx")),
        ("997", examples.join("queens8.dlx")),
        ("50", corpus.join("bricks_slack/input.dlx")),
        ("13", corpus.join("color_many/input.dlx")),
        ("1000", corpus.join("mult_mix_slack/input.dlx")),
        ("7", corpus.join("langford5_holes/input.dlx")),
    ];
    for (slice, input) in &runs {
        let text = run_ok(&budget, &[slice, "v7"], Some(input));
        assert!(text.contains("same as one run"), "{text}");
        if input.ends_with("queens8.dlx") {
            assert!(
                !text.contains(" 0 pauses"),
                "8 queens in slices of {slice} mems never paused: {text}"
            );
        }
        let text = run_ok(&budget, &[slice, "v1", "s3", "d100"], Some(input));
        assert!(text.contains("same as one run"), "{text}");
    }
}

#[test]
fn parts_add_up_to_one_run() {
    if skip() {
        return;
    }
    let text = run_ok(&built().join("parts"), &[], None);
    assert!(
        text.contains("parts: the 3 parts add up to one run"),
        "{text}"
    );
    let line = |who: &str| {
        let found = text.lines().find(|l| l.starts_with(who));
        found.map(|l| l[who.len()..].trim().to_string())
    };
    let sum = line("sum:");
    assert!(sum.is_some() && sum == line("one run:"), "{text}");
    assert!(text.contains("92 solutions,  246594 mems"), "{text}");
}

#[test]
fn misuse_gives_statuses_and_never_writes_outside_the_buffer() {
    if skip() {
        return;
    }
    let text = run_ok(&built().join("misuse"), &[], None);
    assert!(text.contains("misuse: all checks passed"), "{text}");
}

#[test]
fn built_matrix_searches_like_the_text() {
    if skip() {
        return;
    }
    let text = run_ok(&built().join("builder"), &[], None);
    assert!(text.contains("same as the text"), "{text}");
}

/// The rows of cli/tests/fixtures/gridcheck/cases18.tsv as (case, grid, mask, N, puzzles):
/// columns 1, 4, 6 and 8, and column 12 (the expected puzzles, `;`-separated).
fn gridcheck_cases() -> Vec<(String, String, String, String, Vec<String>)> {
    let path = repo().join("cli/tests/fixtures/gridcheck/cases18.tsv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    assert_eq!(
        (header[0], header[3], header[5], header[7], header[11]),
        ("case", "grid", "cluemask", "N", "puzzles"),
        "{} changed its columns",
        path.display()
    );
    lines
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let mut puzzles: Vec<String> = f[11].split(';').map(str::to_owned).collect();
            puzzles.sort();
            assert_eq!(puzzles.len().to_string(), f[8], "n_found of {}", f[0]);
            (
                f[0].to_owned(),
                f[3].to_owned(),
                f[5].to_owned(),
                f[7].to_owned(),
                puzzles,
            )
        })
        .collect()
}

/// Builds the `xcover` binary in this test's own profile (cargo decides whether anything
/// changed): the test binary is `<target>/<profile dir>/deps/c_examples-<hash>`, and the
/// `dev` profile's directory is `debug`.
fn xcover_cli() -> PathBuf {
    static CLI: OnceLock<PathBuf> = OnceLock::new();
    CLI.get_or_init(|| {
        let exe = std::env::current_exe().expect("the test binary's path");
        let dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("<target>/<profile>/deps");
        let profile = match dir.file_name().and_then(|n| n.to_str()) {
            Some("debug") => "dev",
            Some(name) => name,
            None => "release",
        };
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let status = Command::new(cargo)
            .current_dir(repo())
            .args(["build", "-p", "xcover-cli", "--profile", profile])
            .status()
            .expect("cargo runs");
        assert!(
            status.success(),
            "cargo build -p xcover-cli --profile {profile} failed"
        );
        dir.join("xcover")
    })
    .clone()
}

#[test]
fn gridcheck_c_finds_the_fixture_puzzles_like_the_cli() {
    if skip() {
        return;
    }
    let cases = gridcheck_cases();
    assert!(!cases.is_empty());
    let c00 = &cases[0];
    assert!(c00.0.starts_with("c00"), "first row is {}", c00.0);
    for (case, grid, mask, clues, puzzles) in &cases {
        let out = Command::new(built().join("gridcheck"))
            .args([clues, grid, mask])
            .output()
            .expect("gridcheck runs");
        let summary = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{case}: {summary}");
        println!("{case}: {summary}");
        let c_lines: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        assert_eq!(
            &c_lines, puzzles,
            "{case}: gridcheck.c differs from the fixture"
        );
        // Every line is an N-clue sub-puzzle of the grid that keeps the mask's givens.
        for line in &c_lines {
            let givens = line.bytes().filter(|&b| b != b'0').count();
            assert_eq!(givens.to_string(), *clues, "{case}: {line}");
            for ((p, g), m) in line.bytes().zip(grid.bytes()).zip(mask.bytes()) {
                assert!(p == b'0' || p == g, "{case}: {line} is not inside the grid");
                assert!(m != b'1' || p == g, "{case}: {line} drops a forced given");
                assert!(
                    m != b'0' || p == b'0',
                    "{case}: {line} fills a forced empty"
                );
            }
        }
        let cli = Command::new(xcover_cli())
            .args(["gridcheck", "--clues", clues, "--mask", mask, grid])
            .output()
            .expect("xcover runs");
        assert!(cli.status.success(), "{case}: xcover gridcheck failed");
        let cli_lines: Vec<String> = String::from_utf8(cli.stdout)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        assert_eq!(
            c_lines, cli_lines,
            "{case}: gridcheck.c differs from xcover gridcheck"
        );
    }
}

/// A grid the C program refuses gets the same words from `gridcheck_get_grid_error` as
/// from `xcover gridcheck`: a short grid, a bad character, and digits swapped within a row
/// (so a column or box repeats a digit) at the start and at the end of the grid.
#[test]
fn gridcheck_c_says_why_a_grid_is_bad_in_the_words_of_the_cli() {
    if skip() {
        return;
    }
    let grid = gridcheck_cases()[0].1.clone();
    let swapped = |a: usize, b: usize| {
        let mut bytes = grid.clone().into_bytes();
        bytes.swap(a, b);
        String::from_utf8(bytes).unwrap()
    };
    let bad_grids = [
        grid[1..].to_string(),
        format!("{}x{}", &grid[..40], &grid[41..]),
        swapped(0, 1),
        swapped(79, 80),
        swapped(3, 6),
    ];
    let mut kinds = BTreeSet::new();
    for bad in &bad_grids {
        let cli = Command::new(xcover_cli())
            .args(["gridcheck", "--clues", "18", bad])
            .output()
            .expect("xcover runs");
        assert!(!cli.status.success(), "xcover gridcheck accepted {bad}");
        let cli_err = String::from_utf8_lossy(&cli.stderr);
        let words = cli_err
            .split_once("bad grid: ")
            .unwrap_or_else(|| panic!("no `bad grid:` in {cli_err}"))
            .1
            .lines()
            .next()
            .unwrap();
        kinds.insert(
            words
                .split(':')
                .next()
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .to_owned(),
        );
        let c = Command::new(built().join("gridcheck"))
            .args(["18", bad])
            .output()
            .expect("gridcheck runs");
        assert_eq!(c.status.code(), Some(1), "gridcheck.c accepted {bad}");
        let c_err = String::from_utf8_lossy(&c.stderr);
        assert!(
            c_err.contains(&format!("gridcheck: bad grid: {words}\n")),
            "xcover gridcheck says `{words}`, gridcheck.c says:\n{c_err}"
        );
    }
    // The three kinds of problem were all seen ("expected", "character", "not").
    assert_eq!(kinds.len(), 3, "{kinds:?}");
}

#[test]
fn gridcheck_misuse_gives_statuses_and_keeps_the_guard_bytes() {
    if skip() {
        return;
    }
    let text = run_ok(&built().join("gridcheck"), &["--misuse"], None);
    assert!(
        text.contains("gridcheck misuse: all checks passed"),
        "{text}"
    );
    // Wrong usage is an error, not a crash.
    let out = Command::new(built().join("gridcheck"))
        .args(["18", "123"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a valid solution grid"));
}

/// Symbols that a freestanding C environment provides and that the library may use.
const ALLOWED_UNDEFINED: [&str; 6] = ["memcpy", "memmove", "memset", "memcmp", "bcmp", "strlen"];

#[test]
fn libxcover_a_needs_no_allocator_std_or_unwinder() {
    if skip() {
        return;
    }
    built();
    let lib = release_dir().join("libxcover.a");
    let dir = std::env::temp_dir().join(format!("xcover-ar-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // GNU nm misreads objects with LLVM bitcode sections: extract and use readelf.
    let status = Command::new("ar")
        .arg("x")
        .arg(&lib)
        .current_dir(&dir)
        .status()
        .expect("ar runs");
    assert!(status.success());
    let (mut undefined, mut defined) = (BTreeSet::new(), BTreeSet::new());
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let out = Command::new("readelf")
            .arg("-sW")
            .arg(&path)
            .output()
            .expect("readelf runs");
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() < 8 || !f[0].ends_with(':') {
                continue;
            }
            let (bind, ndx, name) = (f[4], f[6], f[7]);
            if ndx == "UND" {
                undefined.insert(name.to_owned());
            } else if bind == "GLOBAL" || bind == "WEAK" {
                defined.insert(name.to_owned());
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let missing: BTreeSet<&String> = undefined.difference(&defined).collect();
    let unexpected: Vec<&&String> = missing
        .iter()
        .filter(|s| !ALLOWED_UNDEFINED.contains(&s.as_str()))
        .collect();
    println!(
        "libxcover.a: {} bytes; undefined symbols: {missing:?}",
        std::fs::metadata(&lib).unwrap().len()
    );
    assert!(
        unexpected.is_empty(),
        "libxcover.a needs symbols a bare-metal C program lacks: {unexpected:?}"
    );
    for forbidden in [
        "malloc",
        "free",
        "calloc",
        "realloc",
        "__rust_alloc",
        "__rust_dealloc",
        "_Unwind_Resume",
    ] {
        assert!(
            !missing.contains(&forbidden.to_owned()),
            "{forbidden} is referenced"
        );
    }
    // Every function of the header is in the archive: ffi/staticlib links xcover-ffi with
    // LTO, and LTO must keep the `#[no_mangle]` functions of that upstream crate.
    let header = std::fs::read_to_string(repo().join("include/xcover.h")).unwrap();
    let declared = header_functions(&header);
    assert!(
        declared.len() >= 40 && declared.contains("dlx3_solve_step"),
        "include/xcover.h declares only {declared:?}"
    );
    let absent: Vec<&String> = declared.difference(&defined).collect();
    assert!(
        absent.is_empty(),
        "functions of include/xcover.h that libxcover.a does not define: {absent:?}"
    );
}

/// The names of the functions `xcover.h` declares: every `NAME(` of a `dlx3_`,
/// `gridcheck_` or `xcover_` identifier outside comments and `#define` lines.
fn header_functions(header: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut in_comment = false;
    for line in header.lines() {
        let mut code = String::new();
        let mut rest = line;
        loop {
            if in_comment {
                match rest.find("*/") {
                    Some(end) => {
                        rest = &rest[end + 2..];
                        in_comment = false;
                    }
                    None => break,
                }
            } else {
                match rest.find("/*") {
                    Some(start) => {
                        code.push_str(&rest[..start]);
                        rest = &rest[start + 2..];
                        in_comment = true;
                    }
                    None => {
                        code.push_str(rest);
                        break;
                    }
                }
            }
        }
        if code.trim_start().starts_with('#') {
            continue;
        }
        let bytes = code.as_bytes();
        for (i, _) in code.match_indices('(') {
            let start = code[..i]
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(0, |p| p + 1);
            let name = &code[start..i];
            let at_word_start = start == 0 || !bytes[start - 1].is_ascii_alphanumeric();
            if at_word_start
                && ["dlx3_", "gridcheck_", "xcover_"]
                    .iter()
                    .any(|p| name.starts_with(p))
            {
                names.insert(name.to_owned());
            }
        }
    }
    names
}

const PKG_APP: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcover.h>
int main(void)
{
    static const char text[] = "A B | C\nA C:x\nB C:x\nA\nB\n";
    size_t items, nodes, size;
    dlx3_workspace *ws;
    void *buf;
    unsigned long n = 0;
    if (dlx3_text_capacity((const unsigned char *)text, strlen(text), &items, &nodes) != XCOVER_OK
        || dlx3_workspace_size(items, nodes, 10, &size, NULL) != XCOVER_OK
        || !(buf = malloc(size))
        || dlx3_init(buf, size, items, nodes, 10, NULL, &ws) != XCOVER_OK
        || dlx3_parse(ws, (const unsigned char *)text, strlen(text), NULL) != XCOVER_OK)
        return 2;
    while (dlx3_solve_step(ws, UINT64_MAX) == XCOVER_SOLUTION)
        n++;
    printf("%lu\n", n);
    return 0;
}
"#;

#[test]
fn make_install_and_pkg_config_give_a_working_c_build() {
    if skip() {
        return;
    }
    built();
    let prefix = std::env::temp_dir().join(format!("xcover-prefix-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&prefix);
    let status = Command::new("make")
        .arg("-C")
        .arg(repo())
        .arg("install")
        .arg(format!("PREFIX={}", prefix.display()))
        .status()
        .expect("make install runs");
    assert!(status.success(), "make install failed");
    let pc_path = prefix.join("lib/pkgconfig");
    let flags = Command::new("pkg-config")
        .args(["--cflags", "--libs", "xcover"])
        .env("PKG_CONFIG_PATH", &pc_path)
        .output()
        .expect("pkg-config runs");
    assert!(flags.status.success(), "pkg-config does not find xcover.pc");
    let flags = String::from_utf8(flags.stdout).unwrap();
    let app = prefix.join("app.c");
    std::fs::write(&app, PKG_APP).unwrap();
    let exe = prefix.join("app");
    let status = Command::new("cc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"])
        .arg(&app)
        .arg("-o")
        .arg(&exe)
        .args(flags.split_whitespace())
        .status()
        .expect("cc runs");
    assert!(
        status.success(),
        "cc app.c $(pkg-config --cflags --libs xcover) failed"
    );
    // Solutions of A B | C with options {A C:x}, {B C:x}, {A}, {B}: {A C:x, B C:x}, {A C:x, B},
    // {A, B C:x}, {A, B} -- four.
    assert_eq!(run_ok(&exe, &[], None).trim(), "4");
    let _ = std::fs::remove_dir_all(&prefix);
}
