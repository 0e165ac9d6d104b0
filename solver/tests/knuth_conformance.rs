//! The DLX3 conformance corpus (recorded from Knuth's reference `dlx3`, kept in
//! `cli/tests/fixtures/dlx3`) through `xcover_solver::knuth::run`: stdout, stderr, the
//! exit status and the shape file, byte for byte.
//!
//! One test in this file: it changes the working directory (the `S` argument names files
//! relative to it, as in the corpus).
use std::fs;
use std::path::{Path, PathBuf};

/// The corpus has this many cases; fewer means the fixtures are incomplete.
const EXPECTED_CASES: usize = 220;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../cli/tests/fixtures/dlx3")
}

/// The first differing line of `what`, or nothing when the bytes agree.
fn difference(what: &str, expected: &[u8], actual: &[u8]) -> Option<String> {
    if expected == actual {
        return None;
    }
    let exp: Vec<&[u8]> = expected.split_inclusive(|&c| c == b'\n').collect();
    let act: Vec<&[u8]> = actual.split_inclusive(|&c| c == b'\n').collect();
    let i = exp.iter().zip(&act).take_while(|(a, b)| a == b).count();
    let line = |l: &[&[u8]]| l.get(i).map(|t| String::from_utf8_lossy(t).into_owned());
    Some(format!(
        "  {what} differs at line {}: expected {:?}, got {:?}",
        i + 1,
        line(&exp),
        line(&act)
    ))
}

fn run_case(case: &Path, work: &Path) -> Vec<String> {
    let read = |name: &str| fs::read(case.join(name)).expect("case file");
    let args_line = String::from_utf8(read("args")).expect("args are text");
    let args: Vec<&str> = args_line.split_whitespace().collect();
    let exit: i32 = String::from_utf8(read("exit"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let _ = fs::remove_file(work.join("shape.out"));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let outcome = xcover_solver::knuth::run(&args, &read("input.dlx"), &mut out, &mut err)
        .expect("writes into memory never fail");
    let mut diffs = Vec::new();
    diffs.extend(difference("stdout", &read("stdout"), &out));
    diffs.extend(difference("stderr", &read("stderr"), &err));
    if outcome.status != exit {
        diffs.push(format!("  status {}, expected {exit}", outcome.status));
    }
    if case.join("shape").is_file() {
        match fs::read(work.join("shape.out")) {
            Ok(shape) => diffs.extend(difference("shape", &read("shape"), &shape)),
            Err(e) => diffs.push(format!("  shape.out not written: {e}")),
        }
    }
    diffs
}

#[test]
fn conformance_corpus_through_the_library() {
    let mut cases: Vec<PathBuf> = fs::read_dir(corpus_dir())
        .expect("conformance corpus")
        .map(|e| e.expect("corpus entry").path())
        .filter(|p| p.join("input.dlx").is_file())
        .collect();
    cases.sort();
    assert!(cases.len() >= EXPECTED_CASES, "{} cases", cases.len());
    let work = std::env::temp_dir().join(format!("xcover-knuth-{}", std::process::id()));
    fs::create_dir_all(&work).expect("work dir");
    std::env::set_current_dir(&work).expect("cd");
    let mut failures = Vec::new();
    for case in &cases {
        let diffs = run_case(case, &work);
        if !diffs.is_empty() {
            let name = case.file_name().unwrap().to_string_lossy().into_owned();
            eprintln!("FAIL {name}\n{}", diffs.join("\n"));
            failures.push(name);
        }
    }
    let _ = fs::remove_dir_all(&work);
    assert!(
        failures.is_empty(),
        "{} failed: {}",
        failures.len(),
        failures.join(" ")
    );
}
