//! `--max-memory SIZE`: `xcover dlx3` and `xcover gridcheck` refuse inputs whose storage
//! would exceed the limit, before allocating it, with a message naming both figures; inputs
//! within the limit run exactly as without the flag.
use std::io::Write;
use std::process::{Command, Output, Stdio};

mod common;
use common::{queens, spawn_xcover};

const XCOVER: &str = env!("CARGO_BIN_EXE_xcover");
const GRID: &str =
    "216378945487259163359146782673521894948637251125894637591462378732985416864713529";
/// The 18-clue fixture's 12 forced cells (81 puzzles, a fraction of a second).
const MASK: &str = "...1..1..11..........1.....11..1...........11.1.....1*";

fn dlx3(input: &str, args: &[&str]) -> Output {
    let mut child = spawn_xcover(&[&["dlx3"], args].concat());
    let mut stdin = child.stdin.take().unwrap();
    // A refusal may come before the whole input is read (the input alone can be over the
    // limit): the pipe is then closed under us, which is not an error of the test.
    if let Err(err) = stdin.write_all(input.as_bytes()) {
        assert_eq!(err.kind(), std::io::ErrorKind::BrokenPipe, "{err}");
    }
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// The bytes a refusal message names: `needs X (N bytes)`.
fn needed(stderr: &str) -> u64 {
    let from = stderr.find(" needs ").expect("needs");
    let start = from + stderr[from..].find('(').expect("figure") + 1;
    let end = start + stderr[start..].find(" bytes").expect("bytes");
    stderr[start..end].parse().unwrap()
}

#[test]
fn dlx3_refuses_over_the_limit_and_runs_within_it() {
    let input = queens(8);
    let plain = dlx3(&input, &["m1"]);
    assert!(plain.status.success());

    let refused = dlx3(&input, &["m1", "--max-memory=4K"]);
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    assert!(refused.stdout.is_empty(), "nothing solved");
    assert!(
        stderr.contains("needs") && stderr.contains("--max-memory"),
        "{stderr}"
    );
    // The figure is the storage the run needs: a limit of exactly that passes.
    let need = needed(&stderr);
    assert!(need > 4096, "{stderr}");
    let exact = format!("--max-memory={need}");
    let just_enough = dlx3(&input, &[&exact, "m1"]);
    assert_eq!(just_enough.stdout, plain.stdout);
    assert_eq!(just_enough.stderr, plain.stderr);
    let one_less = format!("{}", need - 1);
    let short = dlx3(&input, &["m1", "--max-memory", &one_less]);
    assert_eq!(short.status.code(), Some(1));

    // Knuth's arguments around the flag keep their meaning.
    let within = dlx3(&input, &["m1", "--max-memory", "64M", "t3"]);
    assert!(within.status.success());
    assert_eq!(
        String::from_utf8_lossy(&within.stdout)
            .matches(":\n")
            .count(),
        3
    );

    for bad in [&["--max-memory=lots"][..], &["m1", "--max-memory"]] {
        let out = dlx3(&input, bad);
        assert_eq!(out.status.code(), Some(255), "{bad:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--max-memory"));
    }
}

#[test]
fn dlx3_refuses_an_input_file_larger_than_the_limit_before_reading_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("q.dlx");
    std::fs::write(&path, queens(12)).unwrap();
    let out = Command::new(XCOVER)
        .args(["dlx3", "--max-memory", "1K"])
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("the input file needs"), "{stderr}");
}

fn gridcheck(args: &[&str]) -> Output {
    Command::new(XCOVER)
        .args(["gridcheck", "--clues", "18", "--mask", MASK, GRID])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// A batch on N threads scans N grids at once, each within 1/N of the limit: the least
/// limit that holds a batch on one thread holds it on two only twice over, and a refusal
/// says why.
#[test]
fn a_batch_on_two_threads_gives_each_grid_half_the_limit() {
    let batch = |args: &[&str]| gridcheck(&[args, &[GRID]].concat());
    let plain = batch(&["--threads", "1"]);
    assert!(plain.status.success());
    assert_eq!(
        String::from_utf8_lossy(&plain.stdout).lines().count(),
        2 * 81
    );
    // Each refusal names what one check needs; a later check may need more.
    let mut one = 1024;
    loop {
        let out = batch(&["--threads", "1", "--max-memory", &one.to_string()]);
        if out.status.success() {
            assert_eq!(out.stdout, plain.stdout);
            break;
        }
        let need = needed(&String::from_utf8(out.stderr).unwrap());
        assert!(need > one, "{need} after {one}");
        one = need;
    }
    let refused = batch(&["--threads", "2", "--max-memory", &(2 * one - 2).to_string()]);
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("one of 2 grids scanned at once (each within 1/2 of the limit)"),
        "{stderr}"
    );
    assert!(refused.stdout.is_empty());
    let two = batch(&["--threads", "2", "--max-memory", &(2 * one).to_string()]);
    assert!(two.status.success());
    assert_eq!(two.stdout, plain.stdout);
}

#[test]
fn gridcheck_refuses_over_the_limit_and_runs_within_it() {
    let plain = gridcheck(&[]);
    assert!(plain.status.success());
    assert_eq!(String::from_utf8_lossy(&plain.stdout).lines().count(), 81);

    // Per-thread buffers (about 20 KiB each here) times one thread per chunk (1000 asked
    // for, 68 chunks), over UA generation's 1.4 MiB (1,464,320 bytes; the scan needs
    // 1,480,768).
    let refused = gridcheck(&["--threads", "1000", "--max-memory", "1440K"]);
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    assert!(refused.stdout.is_empty());
    assert!(
        stderr.contains("(68 threads of") && stderr.contains("--max-memory"),
        "{stderr}"
    );
    let need = needed(&stderr);
    let exact = need.to_string();
    assert!(need > 68 * 20 * 1024, "{stderr}");
    let short = (need - 1).to_string();
    let refused = gridcheck(&["--threads", "1000", "--max-memory", &short]);
    assert_eq!(refused.status.code(), Some(1));
    let just_enough = gridcheck(&["--threads", "1000", "--max-memory", &exact]);
    assert!(just_enough.status.success());
    assert_eq!(just_enough.stdout, plain.stdout);

    // UA generation: its list and scratch (1.4 MiB here) are checked first.
    let refused = gridcheck(&["--max-memory", "1M"]);
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("UA generation needs"), "{stderr}");

    // UA generation asked for absurdly many pseudo-puzzles: refused, not an abort.
    let huge = gridcheck(&["--ua-random", "4000000000"]);
    let stderr = String::from_utf8(huge.stderr).unwrap();
    assert_eq!(huge.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("UA generation needs"), "{stderr}");

    let bad = gridcheck(&["--max-memory", "12Q"]);
    assert_eq!(bad.status.code(), Some(2), "clap usage error");
}
