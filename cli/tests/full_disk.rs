//! Every write that carries a result is checked, in every subcommand: with standard output
//! or standard error on a full disk (`/dev/full`), the run ends with exit status 1 and,
//! where it can still write one, a message that gives the cause once. Nothing is lost
//! with exit 0.
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod common;
use common::{langford, queens, stderr, GRID18, MASK6, XCOVER};

fn full() -> File {
    OpenOptions::new().write(true).open("/dev/full").unwrap()
}

/// Which stream goes to the full disk.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Full {
    Stdout,
    Stderr,
}

/// Runs `xcover args` with `input` on stdin and the `full` stream on /dev/full.
fn run(args: &[&str], input: &[u8], full_stream: Full) -> Output {
    let mut cmd = Command::new(XCOVER);
    cmd.args(args).stdin(Stdio::piped());
    match full_stream {
        Full::Stdout => cmd.stdout(full()).stderr(Stdio::piped()),
        Full::Stderr => cmd.stdout(Stdio::piped()).stderr(full()),
    };
    let mut child = cmd.spawn().unwrap();
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
}

/// Asserts the run failed as a full disk must make it fail.
fn failed(what: &str, out: &Output, full_stream: Full) {
    let e = stderr(out);
    assert_eq!(out.status.code(), Some(1), "{what} ({full_stream:?}): {e}");
    if full_stream == Full::Stdout {
        assert_eq!(e.matches("No space left").count(), 1, "{what}: {e}");
    }
}

/// The part files of `args` on `input` in `n` shards, and gridcheck's parts.
fn dlx3_parts(dir: &Path, input: &[u8], args: &[&str], n: u64) -> Vec<PathBuf> {
    (0..n)
        .map(|i| {
            let p = dir.join(format!("p{i}-{}", args.join("")));
            let shard = format!("{i}/{n}");
            let mut a = vec!["dlx3", "--shard", &shard, "--output", p.to_str().unwrap()];
            a.extend_from_slice(args);
            let out = common::xcover(&a, std::str::from_utf8(input).unwrap());
            assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
            p
        })
        .collect()
}

#[test]
fn dlx3_one_process_threads_and_shards() {
    let q = queens(7);
    let dir = tempfile::tempdir().unwrap();
    let part = dir.path().join("part");
    let part = part.to_str().unwrap();
    for stream in [Full::Stdout, Full::Stderr] {
        for (what, args) in [
            ("one process", &["dlx3", "m1"][..]),
            ("one process, m0", &["dlx3", "m0"][..]),
            ("threads", &["dlx3", "--threads", "2", "m1"][..]),
            ("threads, m0", &["dlx3", "--threads", "2", "m0"][..]),
            ("a shard to stdout", &["dlx3", "--shard", "0/2", "m1"][..]),
        ] {
            if what.ends_with("m0") && stream == Full::Stdout {
                continue; // m0 writes nothing to stdout
            }
            failed(what, &run(args, q.as_bytes(), stream), stream);
        }
    }
    // A shard with --output writes its input's summary on stderr.
    let args = ["dlx3", "--shard", "1/2", "--output", part, "m1"];
    failed(
        "a shard",
        &run(&args, q.as_bytes(), Full::Stderr),
        Full::Stderr,
    );
    // The bytes are the same when the writes succeed.
    let piped = common::xcover(&["dlx3", "m1"], &q);
    let threads = common::xcover(&["dlx3", "--threads", "2", "m1"], &q);
    assert_eq!(piped.status.code(), Some(0));
    assert_eq!(
        (&piped.stdout, &piped.stderr),
        (&threads.stdout, &threads.stderr)
    );
}

/// A run with `--checkpoint` (one worker, two threads) and a second-pass shard printing
/// its part to stdout.
#[test]
fn dlx3_checkpoint_and_second_pass() {
    let q = queens(7);
    let dir = tempfile::tempdir().unwrap();
    for (n, stream) in [Full::Stdout, Full::Stderr].into_iter().enumerate() {
        for threads in ["1", "2"] {
            let ck = dir.path().join(format!("ck-{n}-{threads}"));
            let ck = ck.to_str().unwrap();
            let args = ["dlx3", "--checkpoint", ck, "--threads", threads, "m1"];
            failed(
                "a --checkpoint run",
                &run(&args, q.as_bytes(), stream),
                stream,
            );
        }
    }
    let parts = dlx3_parts(dir.path(), q.as_bytes(), &["m10"], 2);
    let plan = dir.path().join("plan");
    let plan = plan.to_str().unwrap();
    let mut a = vec!["dlx3", "merge", "--plan", plan];
    a.extend(parts.iter().map(|p| p.to_str().unwrap()));
    let out = common::xcover(&a, "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for stream in [Full::Stdout, Full::Stderr] {
        let args = ["dlx3", "--shard", "0/2", "--second-pass", plan, "m10"];
        failed("a second pass", &run(&args, q.as_bytes(), stream), stream);
    }
}

#[test]
fn dlx3_merge() {
    let dir = tempfile::tempdir().unwrap();
    let input = langford(7);
    for args in [&["m1"][..], &["m0"][..]] {
        let parts = dlx3_parts(dir.path(), input.as_bytes(), args, 2);
        let mut a = vec!["dlx3", "merge"];
        a.extend(parts.iter().map(|p| p.to_str().unwrap()));
        for stream in [Full::Stdout, Full::Stderr] {
            if args == ["m0"] && stream == Full::Stdout {
                continue; // m0's one result, `Altogether ...`, is on stderr
            }
            failed(&format!("merge {args:?}"), &run(&a, b"", stream), stream);
        }
    }
}

#[test]
fn gridcheck_and_its_merge() {
    let dir = tempfile::tempdir().unwrap();
    let base = [
        "gridcheck",
        "--clues",
        "18",
        "--mask",
        MASK6,
        "--threads",
        "1",
    ];
    let mut parts = Vec::new();
    for i in 0..2 {
        let shard = format!("{i}/2");
        let out = Command::new(XCOVER)
            .args(base)
            .args(["--shard", &shard, GRID18])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let p = dir.path().join(format!("g{i}"));
        std::fs::write(&p, &out.stdout).unwrap();
        parts.push(p);
    }
    let mut one = base.to_vec();
    one.push(GRID18);
    let mut merge = vec!["gridcheck", "merge"];
    merge.extend(parts.iter().map(|p| p.to_str().unwrap()));
    let mut shard = one.clone();
    shard.extend(["--shard", "0/2"]);
    for stream in [Full::Stdout, Full::Stderr] {
        failed("gridcheck", &run(&one, b"", stream), stream);
        failed("gridcheck --shard", &run(&shard, b"", stream), stream);
        failed("gridcheck merge", &run(&merge, b"", stream), stream);
    }
}

#[test]
fn sudoku() {
    let puzzles = format!("{}.\nnot a puzzle\n", &GRID18[..80]);
    for stream in [Full::Stdout, Full::Stderr] {
        for sub in ["solve", "count"] {
            let out = run(&["sudoku", sub], puzzles.as_bytes(), stream);
            failed(&format!("sudoku {sub}"), &out, stream);
        }
    }
}

#[test]
fn help_and_version_on_a_full_disk_fail_without_an_abort() {
    for args in [
        &["--help"][..],
        &["--version"][..],
        &["dlx3", "--help"][..],
        &["dlx3", "--version"][..],
        &["gridcheck", "--help"][..],
        &["sudoku", "--help"][..],
        &["help", "gridcheck"][..],
    ] {
        let out = run(args, b"", Full::Stdout);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
    }
}
