//! Runs every case of the DLX3 conformance corpus (recorded from Knuth's reference `dlx3`)
//! through the built `xcover` binary, invoked through a link named `dlx3`, and compares
//! stdout, stderr, the exit status and the shape file byte for byte.
//!
//! Case layout: see `tests/fixtures/dlx3/README.md`.
use std::fs;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The corpus has this many cases; fewer means the fixtures are incomplete.
const EXPECTED_CASES: usize = 220;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dlx3")
}

/// The case folders, sorted by name.
fn cases() -> Vec<PathBuf> {
    let dir = corpus_dir();
    let entries = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("conformance corpus {} is missing: {e}", dir.display()));
    let mut cases: Vec<PathBuf> = entries
        .map(|e| e.expect("readable corpus entry").path())
        .filter(|p| p.join("input.dlx").is_file())
        .collect();
    cases.sort();
    cases
}

/// A readable description of the first difference between `expected` and `actual`.
fn first_difference(what: &str, expected: &[u8], actual: &[u8]) -> Option<String> {
    if expected == actual {
        return None;
    }
    let exp: Vec<&[u8]> = expected.split_inclusive(|&c| c == b'\n').collect();
    let act: Vec<&[u8]> = actual.split_inclusive(|&c| c == b'\n').collect();
    let i = exp
        .iter()
        .zip(act.iter())
        .take_while(|(a, b)| a == b)
        .count();
    let show = |lines: &[&[u8]]| -> String {
        let from = i.saturating_sub(1);
        let to = (i + 3).min(lines.len());
        let mut s = String::new();
        for (n, line) in lines[from..to].iter().enumerate() {
            let text = String::from_utf8_lossy(line);
            let text: String = text.chars().take(200).collect();
            s += &format!("      {:>5}| {:?}\n", from + n + 1, text);
        }
        if to == from {
            s += "      (end)\n";
        }
        s
    };
    Some(format!(
        "  {what} differs at line {} ({} vs {} lines, {} vs {} bytes)\n    expected:\n{}    actual:\n{}",
        i + 1,
        exp.len(),
        act.len(),
        expected.len(),
        actual.len(),
        show(&exp),
        show(&act)
    ))
}

/// Runs one case; returns a description of every difference.
fn run_case(dlx3: &Path, case: &Path) -> Vec<String> {
    let read = |name: &str| {
        fs::read(case.join(name)).unwrap_or_else(|e| panic!("{}: {e}", case.join(name).display()))
    };
    let args_line = String::from_utf8(read("args")).expect("args are text");
    let args: Vec<&str> = args_line.split_whitespace().collect();
    let expected_exit: i32 = String::from_utf8(read("exit"))
        .expect("exit is text")
        .trim()
        .parse()
        .expect("exit is a number");
    let work = tempfile::tempdir().expect("temp dir");
    let stdin = fs::File::open(case.join("input.dlx")).expect("input.dlx");
    let output = Command::new(dlx3)
        .arg0("dlx3")
        .args(&args)
        .current_dir(work.path())
        .stdin(Stdio::from(stdin))
        .output()
        .expect("run dlx3");
    let mut diffs = Vec::new();
    diffs.extend(first_difference("stdout", &read("stdout"), &output.stdout));
    diffs.extend(first_difference("stderr", &read("stderr"), &output.stderr));
    match output.status.code() {
        Some(code) if code == expected_exit => {}
        other => diffs.push(format!("  exit status {other:?}, expected {expected_exit}")),
    }
    if case.join("shape").is_file() {
        match fs::read(work.path().join("shape.out")) {
            Ok(shape) => diffs.extend(first_difference("shape", &read("shape"), &shape)),
            Err(e) => diffs.push(format!("  shape.out not written: {e}")),
        }
    }
    diffs
}

#[test]
fn dlx3_conformance_corpus() {
    let cases = cases();
    assert!(
        cases.len() >= EXPECTED_CASES,
        "conformance corpus {} has {} cases, expected at least {EXPECTED_CASES}",
        corpus_dir().display(),
        cases.len()
    );
    let bin_dir = tempfile::tempdir().expect("temp dir");
    let dlx3 = bin_dir.path().join("dlx3");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_xcover"), &dlx3).expect("symlink dlx3");

    let mut failures = Vec::new();
    for case in &cases {
        let diffs = run_case(&dlx3, case);
        if !diffs.is_empty() {
            let name = case
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            eprintln!("FAIL {name}\n{}", diffs.join("\n"));
            failures.push(name);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} conformance cases failed: {}",
        failures.len(),
        cases.len(),
        failures.join(" ")
    );
    eprintln!("all {} conformance cases pass", cases.len());
}
