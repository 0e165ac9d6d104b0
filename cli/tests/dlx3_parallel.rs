//! `xcover dlx3 --threads N`, `--shard I/N` and `merge` print exactly what one thread
//! prints: stdout, stderr and the exit status, byte for byte, over random problems (the
//! oracle's generator), the conformance corpus and heavier queens runs; `merge` refuses
//! parts that are missing, repeated, cut short or from another run; a killed shard resumes
//! to the same part file; SIGINT keeps its one-thread behaviour.
use std::fs;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

mod common;
mod dlx3_support;

use common::{queens, send_signal};
use dlx3_support::*;
use proptest::prelude::*;

/// Runs `xcover dlx3 args` with `input` on stdin.
fn dlx3(args: &[&str], input: &[u8]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_xcover"));
    c.arg("dlx3");
    spawn(c, args, input)
}

/// Runs the binary as `dlx3` (as the conformance corpus does: messages name `dlx3`).
fn as_dlx3(args: &[&str], input: &[u8]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_xcover"));
    c.arg0("dlx3");
    spawn(c, args, input)
}

fn spawn(mut c: Command, args: &[&str], input: &[u8]) -> Output {
    c.args(args);
    common::run_with_input(c, input)
}

/// (stdout, stderr, exit status) of a run.
fn seen(o: &Output) -> (String, String, Option<i32>) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code(),
    )
}

/// Runs the `parts` shards of `args` on `input` into `dir`, then merges them.
fn sharded(dir: &Path, input: &[u8], args: &[&str], parts: u64) -> Output {
    let mut files = Vec::new();
    for i in 0..parts {
        let file = dir.join(format!("part-{i}"));
        let shard = format!("{i}/{parts}");
        let out = dlx3(&[&["--shard", &shard][..], args].concat(), input);
        assert_eq!(out.status.code(), Some(0), "{}", seen(&out).1);
        fs::write(&file, &out.stdout).unwrap();
        files.push(file);
    }
    // The order of the arguments does not matter.
    files.reverse();
    merge(&files)
}

fn merge(files: &[PathBuf]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xcover"))
        .arg("dlx3")
        .arg("merge")
        .args(files)
        .output()
        .unwrap()
}

/// Knuth's letters the random runs use: every solution, a profile, item totals, progress
/// reports every few mems, the solution limit, the timeout.
const ARG_SETS: [&[&str]; 6] = [
    &["m1"],
    &["m2", "v129"],
    &["m1", "v641", "d40"],
    &["m1", "v385", "d90"],
    &["m1", "t3"],
    &["m3", "T150"],
];

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(120) })]

    #[test]
    fn threads_print_what_one_thread_prints(
        seed in problem_seed(6, 3, 14),
        which in 0..ARG_SETS.len(),
    ) {
        let problem = Problem::build(&seed);
        let args = ARG_SETS[which];
        let one = seen(&dlx3(args, problem.text.as_bytes()));
        for threads in ["2", "3", "8"] {
            let many = seen(&dlx3(&[&["--threads", threads][..], args].concat(), problem.text.as_bytes()));
            prop_assert_eq!(&many, &one, "--threads {} {:?}\n{}", threads, args, problem.text);
        }
    }

    #[test]
    fn shards_merge_to_what_one_run_prints(
        seed in problem_seed(6, 3, 14),
        which in 0..ARG_SETS.len(),
        parts in 1u64..6,
    ) {
        let problem = Problem::build(&seed);
        let args = ARG_SETS[which];
        let one = dlx3(args, problem.text.as_bytes());
        prop_assume!(one.status.code() == Some(0));
        let dir = tempfile::tempdir().unwrap();
        let merged = sharded(dir.path(), problem.text.as_bytes(), args, parts);
        prop_assert_eq!(seen(&merged), seen(&one), "{} parts {:?}\n{}", parts, args, problem.text);
    }
}

/// A conformance case: name, arguments, input, recorded stdout, stderr, exit status.
type Case = (String, Vec<String>, Vec<u8>, Vec<u8>, Vec<u8>, i32);

/// The conformance cases.
fn corpus() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dlx3");
    let mut cases: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("input.dlx").is_file())
        .collect();
    cases.sort();
    assert!(cases.len() >= 220, "the corpus is incomplete");
    cases
        .iter()
        .map(|c| {
            let read = |n: &str| fs::read(c.join(n)).unwrap();
            let args = String::from_utf8(read("args")).unwrap();
            let exit = String::from_utf8(read("exit"))
                .unwrap()
                .trim()
                .parse()
                .unwrap();
            let name = c.file_name().unwrap().to_string_lossy().into_owned();
            let args = args.split_whitespace().map(String::from).collect();
            (
                name,
                args,
                read("input.dlx"),
                read("stdout"),
                read("stderr"),
                exit,
            )
        })
        .collect()
}

/// Whether a case's letters follow one global sequence of events (random tie breaks, the
/// shape file, choice traces): such runs stay on one thread, and shards refuse them.
fn one_sequence(args: &[String]) -> bool {
    args.iter().any(|a| {
        a.starts_with('s')
            || a.starts_with('S')
            || a.strip_prefix('v')
                .and_then(|v| v.parse::<i64>().ok())
                .is_some_and(|v| v & 6 != 0)
    })
}

#[test]
fn the_conformance_corpus_with_threads_and_shards() {
    let (mut threaded, mut merged) = (0, 0);
    for (name, args, input, stdout, stderr, exit) in corpus() {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        // Cases that write a shape file run in a scratch directory in conformance_dlx3.
        if args.iter().any(|a| a.starts_with('S')) {
            continue;
        }
        let want = (
            String::from_utf8_lossy(&stdout).into_owned(),
            String::from_utf8_lossy(&stderr).into_owned(),
            Some(exit),
        );
        for threads in ["2", "3"] {
            let got = seen(&as_dlx3(
                &[&["--threads", threads][..], &args].concat(),
                &input,
            ));
            assert_eq!(got, want, "{name} --threads {threads}");
        }
        threaded += 1;
        if exit == 0 && !one_sequence(&args.iter().map(|a| a.to_string()).collect::<Vec<_>>()) {
            let dir = tempfile::tempdir().unwrap();
            let got = seen(&sharded(dir.path(), &input, &args, 3));
            assert_eq!(got, want, "{name} in 3 shards");
            merged += 1;
        }
    }
    assert!(
        threaded > 200 && merged > 60,
        "{threaded} threaded, {merged} merged"
    );
}

#[test]
fn queens_in_parts_and_threads() {
    let q = queens(10);
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["m1", "v129"][..],
        &["m7", "v641", "d200000"],
        &["m1", "t500"],
    ] {
        let one = seen(&dlx3(args, q.as_bytes()));
        for threads in ["2", "5"] {
            let got = seen(&dlx3(
                &[&["--threads", threads][..], args].concat(),
                q.as_bytes(),
            ));
            assert_eq!(got, one, "--threads {threads} {args:?}");
        }
        for parts in [1, 2, 7] {
            assert_eq!(seen(&sharded(dir.path(), q.as_bytes(), args, parts)), one);
        }
    }
    // `--threads 0` is all cores.
    let one = seen(&dlx3(&["m1"], q.as_bytes()));
    assert_eq!(seen(&dlx3(&["--threads", "0", "m1"], q.as_bytes())), one);
}

#[test]
fn bad_values_are_usage_errors() {
    let q = queens(4);
    for bad in [
        &["--threads", "x"][..],
        &["--threads", "-2"],
        &["--threads"],
        &["--shard", "3/3"],
        &["--shard", "0/0"],
        &["--shard", "1"],
        &["--shard", "a/2"],
        &["--shard", "0/2", "--threads", "2"],
        &["--output", "p"],
        &["--shard", "0/2", "--resume"],
        &["--shard", "0/2", "s3"],
        &["--shard", "0/2", "v3"],
    ] {
        let out = dlx3(bad, q.as_bytes());
        let (stdout, stderr, code) = seen(&out);
        assert_eq!(code, Some(255), "{bad:?}: {stderr}");
        assert!(
            stdout.is_empty() && stderr.contains("xcover"),
            "{bad:?}: {stderr}"
        );
    }
    // Letters that follow one sequence of events run on one thread, the same bytes.
    let one = seen(&dlx3(&["m1", "s5", "v3"], q.as_bytes()));
    assert_eq!(
        seen(&dlx3(&["--threads", "4", "m1", "s5", "v3"], q.as_bytes())),
        one
    );
}

#[test]
fn merge_refuses_parts_that_do_not_make_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let q = queens(8);
    let make = |i: u64, n: u64, input: &str, args: &[&str], name: &str| {
        let shard = format!("{i}/{n}");
        let out = dlx3(&[&["--shard", &shard][..], args].concat(), input.as_bytes());
        assert_eq!(out.status.code(), Some(0));
        fs::write(d.join(name), out.stdout).unwrap();
        d.join(name)
    };
    let p0 = make(0, 3, &q, &["m1"], "p0");
    let p1 = make(1, 3, &q, &["m1"], "p1");
    let p2 = make(2, 3, &q, &["m1"], "p2");
    assert_eq!(
        merge(&[p0.clone(), p1.clone(), p2.clone()]).status.code(),
        Some(0)
    );
    let refused = |files: &[PathBuf], says: &str| {
        let out = merge(files);
        let (stdout, stderr, code) = seen(&out);
        assert_eq!(code, Some(1), "{stderr}");
        assert!(stdout.is_empty(), "{stdout}");
        assert!(stderr.contains(says), "wanted {says:?} in {stderr}");
    };
    refused(&[p0.clone(), p2.clone()], "shard 1/3 is missing");
    refused(
        &[p0.clone(), p1.clone(), p1.clone(), p2.clone()],
        "p1: shard 1/3 again",
    );
    let other_args = make(1, 3, &q, &["m2"], "other-args");
    refused(
        &[p0.clone(), other_args, p2.clone()],
        "other-args: a part of another run",
    );
    let other_input = make(1, 3, &queens(7), &["m1"], "other-input");
    refused(
        &[p0.clone(), other_input, p2.clone()],
        "other-input: a part of another run",
    );
    let bytes = fs::read(&p1).unwrap();
    let cut = d.join("cut");
    fs::write(&cut, &bytes[..bytes.len() - 30]).unwrap();
    refused(&[p0.clone(), cut, p2.clone()], "cut: truncated");
    let mut damaged = bytes.clone();
    let at = damaged.len() / 2;
    damaged[at] ^= 1;
    let bad = d.join("damaged");
    fs::write(&bad, damaged).unwrap();
    refused(&[p0.clone(), bad, p2.clone()], "damaged:");
    let text = d.join("text");
    fs::write(&text, "not a part\n").unwrap();
    refused(&[p0, text, p2], "text: not an xcover part file");
    refused(&[d.join("absent")], "absent: No such file");
}

#[test]
fn a_killed_shard_resumes_to_the_same_part() {
    let dir = tempfile::tempdir().unwrap();
    let input = queens(13);
    let args = ["m1", "v129"];
    let whole = dir.path().join("whole");
    let run_shard = |shard: &str, file: &Path, resume: bool| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_xcover"));
        c.args(["dlx3", "--shard", shard, "--output"])
            .arg(file)
            .args(args);
        if resume {
            c.arg("--resume");
        }
        let mut child = c
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        child
    };
    let run = |file: &Path, resume: bool| run_shard("1/2", file, resume);
    let done = run(&whole, false).wait_with_output().unwrap();
    assert_eq!(done.status.code(), Some(0));
    let want = fs::read(&whole).unwrap();
    // Killed (SIGKILL: no chance to tidy up) after writing part of its records.
    let killed = dir.path().join("killed");
    let mut child = run(&killed, false);
    let mut waited = Duration::ZERO;
    while fs::metadata(&killed).map_or(0, |m| m.len()) < want.len() as u64 / 3 {
        std::thread::sleep(Duration::from_millis(5));
        waited += Duration::from_millis(5);
        assert!(waited < Duration::from_secs(60), "no progress");
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let partial = fs::read(&killed).unwrap();
    assert!(partial.len() < want.len(), "finished before the kill");
    let resumed = run(&killed, true).wait_with_output().unwrap();
    assert_eq!(resumed.status.code(), Some(0), "{}", seen(&resumed).1);
    assert!(
        fs::read(&killed).unwrap() == want,
        "the resumed part differs"
    );
    // Resuming a finished part does nothing; resuming another run's part is refused.
    assert_eq!(
        run(&killed, true).wait_with_output().unwrap().status.code(),
        Some(0)
    );
    assert!(fs::read(&killed).unwrap() == want);
    let other = run_shard("0/2", &killed, true).wait_with_output().unwrap();
    let (_, stderr, code) = seen(&other);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("a part of another run"), "{stderr}");
    assert!(
        fs::read(&killed).unwrap() == want,
        "a refused resume changed the part"
    );
}

/// A kill can cut a part file anywhere, in its header or in any record. Cutting the whole
/// part at many places in turn (every place a kill could leave, without the timing of a
/// real kill) and resuming gives the same bytes each time: records written after a resume
/// don't depend on what the killed attempt explored.
#[test]
fn a_part_cut_anywhere_resumes_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let input = queens(8);
    for (shard, args) in [
        ("0/3", &["m1", "v129"][..]),
        ("2/3", &["m7", "v641", "d2000"]),
    ] {
        let part = |file: &Path, resume: bool| {
            let mut a = vec!["dlx3", "--shard", shard, "--output", file.to_str().unwrap()];
            if resume {
                a.push("--resume");
            }
            a.extend(args);
            let mut c = Command::new(env!("CARGO_BIN_EXE_xcover"));
            c.args(&a[..1]);
            spawn(c, &a[1..], input.as_bytes())
        };
        let whole = dir.path().join(format!("whole-{}", &shard[..1]));
        assert_eq!(part(&whole, false).status.code(), Some(0));
        let want = fs::read(&whole).unwrap();
        let cut = dir.path().join("cut");
        // Where the header ends: parts are born whole, so a file cut before is not ours.
        let magic_end = want.iter().position(|&b| b == b'\n').unwrap() + 1;
        let line_end = magic_end + want[magic_end..].iter().position(|&b| b == b'\n').unwrap();
        let head = std::str::from_utf8(&want[magic_end..line_end]).unwrap();
        let head_len: usize = head.split(' ').nth(1).unwrap().parse().unwrap();
        let header_end = line_end + 1 + head_len;
        // Every 41st byte: the header and most records are cut, some in their first line.
        for len in (0..want.len()).step_by(41) {
            fs::write(&cut, &want[..len]).unwrap();
            let resumed = part(&cut, true);
            if len > 0 && len < header_end {
                assert_eq!(resumed.status.code(), Some(1), "{}", seen(&resumed).1);
                assert!(
                    fs::read(&cut).unwrap() == want[..len],
                    "cut at {len} changed"
                );
                continue;
            }
            assert_eq!(resumed.status.code(), Some(0), "{}", seen(&resumed).1);
            assert!(
                fs::read(&cut).unwrap() == want,
                "shard {shard} {args:?} cut at byte {len} resumed to other bytes"
            );
        }
    }
}

#[test]
fn sigint_with_threads_ends_like_one_thread() {
    let input = queens(16);
    let mut child = common::signals_at_default(&mut Command::new(env!("CARGO_BIN_EXE_xcover")))
        .args(["dlx3", "--threads", "2", "m1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert!(child.try_wait().unwrap().is_none(), "ended too soon");
    send_signal(&child, "-INT");
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr, code) = seen(&out);
    assert_eq!(code, Some(130), "{stderr}");
    let tail: Vec<&str> = stderr.lines().rev().take(2).collect();
    assert!(
        tail[1] == "INTERRUPTED!" && tail[0].starts_with("Altogether "),
        "{stderr}"
    );
    // Complete solutions only, numbered 1, 2, ... with 16 moves each; the report counts
    // them.
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        !lines.is_empty() && lines.len() % 17 == 0,
        "{} lines",
        lines.len()
    );
    for (k, chunk) in lines.chunks(17).enumerate() {
        assert_eq!(chunk[0], format!("{}:", k + 1));
    }
    let count = lines.len() / 17;
    let solutions = if count == 1 { "solution" } else { "solutions" };
    assert!(
        tail[0].starts_with(&format!("Altogether {count} {solutions},")),
        "{}",
        tail[0]
    );
}

#[test]
fn a_failure_inside_a_unit_ends_the_run_where_one_thread_ends_it() {
    // 520 items, each with an option of its own, and options for pairs: the search goes
    // deeper than the 500 levels; one thread prints the solutions it found, then `Too
    // many levels!` (exit 252). A worker that fails hands its unit back; the coordinator
    // explores it and fails at the same place.
    let n = 520;
    let mut text: String = (0..n).map(|i| format!("p{i} ")).collect();
    text.push('\n');
    for i in 0..n {
        text += &format!("p{i}\n");
    }
    for i in (0..n).step_by(2) {
        text += &format!("p{i} p{}\n", i + 1);
    }
    let one = seen(&dlx3(&["m1"], text.as_bytes()));
    assert_eq!(one.2, Some(252));
    assert!(one.1.ends_with("Too many levels!\n"), "{}", one.1);
    for threads in ["2", "3"] {
        let got = seen(&dlx3(&["--threads", threads, "m1"], text.as_bytes()));
        assert_eq!(got, one, "--threads {threads}");
    }
    // A shard can't finish its part: it says where, with the same status.
    let (stdout, stderr, code) = seen(&dlx3(&["--shard", "0/2", "m1"], text.as_bytes()));
    assert_eq!(code, Some(252));
    assert!(stderr.contains("Too many levels! in unit"), "{stderr}");
    assert!(!stdout.contains("\nend "), "a part with a trailer");
}

#[test]
fn max_memory_counts_every_engine_of_a_split_search() {
    // One engine of queens 8 fits in 40 KiB; four threads need six copies of the matrix
    // (the main engine, the image they are made from, one per worker), a shard three.
    let q = queens(8);
    assert_eq!(
        dlx3(&["--max-memory", "40K", "m0"], q.as_bytes())
            .status
            .code(),
        Some(0)
    );
    for args in [&["--threads", "4"][..], &["--shard", "0/2"]] {
        let out = dlx3(
            &[args, &["--max-memory", "40K", "m0"]].concat(),
            q.as_bytes(),
        );
        let (stdout, stderr, code) = seen(&out);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(
            stdout.is_empty() && stderr.contains("copies of its matrix"),
            "{stderr}"
        );
    }
    // Letters that keep the search on one thread need one copy.
    let one = dlx3(
        &["--threads", "4", "--max-memory", "40K", "m0", "s1"],
        q.as_bytes(),
    );
    assert_eq!(one.status.code(), Some(0), "{}", seen(&one).1);
}
