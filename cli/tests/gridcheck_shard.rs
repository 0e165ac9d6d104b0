//! `xcover gridcheck --shard I/N` and `xcover gridcheck merge`: the merged parts print
//! exactly what one run prints, a shard killed and resumed writes the same part, and merge
//! refuses a missing, duplicated, truncated or foreign part, naming it.
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

mod common;
use common::Rng;
use common::{gridcheck, stderr};
use common::{GRID18, MASK12, MASK6};
#[path = "common/frames.rs"]
mod frames;

/// Writes the grid and `count - 1` relabelings of it (same work, other puzzles).
fn batch_file(dir: &Path, count: usize) -> PathBuf {
    let path = dir.join(format!("grids{count}.txt"));
    std::fs::write(&path, common::relabeled_batch(GRID18, count)).unwrap();
    path
}

fn run(args: &[&str]) -> Output {
    gridcheck(args).output().unwrap()
}

/// Runs every shard of `n` with `args`, writes the parts into `dir`; returns their paths.
fn parts(dir: &Path, tag: &str, args: &[&str], n: usize) -> Vec<PathBuf> {
    (0..n)
        .map(|i| {
            let shard = format!("{i}/{n}");
            let output = run(&[args, &["--shard", &shard]].concat());
            assert!(output.status.success(), "{shard}: {}", stderr(&output));
            let path = dir.join(format!("{tag}-part-{i}"));
            std::fs::write(&path, &output.stdout).unwrap();
            path
        })
        .collect()
}

fn merge(paths: &[PathBuf]) -> Output {
    let names: Vec<&str> = paths.iter().map(|p| p.to_str().unwrap()).collect();
    run(&[&["merge"][..], &names].concat())
}

/// Summary lines without what depends on the run's timing (seconds / merged from).
fn deterministic_summaries(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .map(
            |l| match l.find("; seconds: ").or_else(|| l.find("; merged from ")) {
                Some(at) => l[..at].to_owned(),
                None => l.to_owned(),
            },
        )
        .collect()
}

#[test]
fn merged_parts_print_what_one_run_prints() {
    let dir = tempfile::tempdir().unwrap();
    let batch = batch_file(dir.path(), 3);
    let batch = batch.to_str().unwrap();
    let cases: [(&str, Vec<&str>); 3] = [
        (
            "batch",
            vec!["--clues", "18", "--mask", MASK6, "--file", batch],
        ),
        ("one", vec!["--clues", "18", "--mask", MASK6, GRID18]),
        (
            "minimal",
            vec!["--clues", "19", "--minimal", "--mask", MASK12, GRID18],
        ),
    ];
    for (tag, args) in &cases {
        let one = run(&[&args[..], &["--threads", "2"]].concat());
        assert!(one.status.success(), "{tag}: {}", stderr(&one));
        assert!(!one.stdout.is_empty(), "{tag}: finds puzzles");
        for n in [1, 2, 3, 5] {
            let mut paths = parts(
                dir.path(),
                &format!("{tag}{n}"),
                &[&args[..], &["--threads", "1"]].concat(),
                n,
            );
            paths.reverse(); // any order of arguments
            let merged = merge(&paths);
            assert!(merged.status.success(), "{tag} N={n}: {}", stderr(&merged));
            assert!(
                merged.stdout == one.stdout,
                "{tag} N={n}: merged stdout differs from one run's"
            );
            assert_eq!(
                deterministic_summaries(&stderr(&merged)),
                deterministic_summaries(&stderr(&one)),
                "{tag} N={n}"
            );
            let parts = match n {
                1 => "1 part".to_owned(),
                _ => format!("{n} parts"),
            };
            assert!(stderr(&merged).contains(&format!("merged from {parts}")));
        }
    }
}

#[test]
fn a_part_does_not_depend_on_threads() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--clues", "18", "--mask", MASK6, GRID18];
    let one = parts(
        dir.path(),
        "t1",
        &[&args[..], &["--threads", "1"]].concat(),
        3,
    );
    let two = parts(
        dir.path(),
        "t2",
        &[&args[..], &["--threads", "2"]].concat(),
        3,
    );
    for (a, b) in one.iter().zip(&two) {
        assert!(
            std::fs::read(a).unwrap() == std::fs::read(b).unwrap(),
            "{} and {} differ",
            a.display(),
            b.display()
        );
    }
}

#[test]
fn merge_refuses_bad_parts_and_names_them() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--clues", "18", "--threads", "1", "--mask", MASK12, GRID18];
    let good = parts(dir.path(), "good", &args, 4);
    let name = |p: &Path| p.to_str().unwrap().to_owned();
    let refused = |paths: &[PathBuf], wanted: &str| {
        let output = merge(paths);
        assert_eq!(output.status.code(), Some(1), "{wanted}");
        assert!(output.stdout.is_empty(), "{wanted}: nothing printed");
        let message = stderr(&output);
        assert!(
            message.contains(wanted),
            "wanted `{wanted}`, got: {message}"
        );
    };
    assert!(merge(&good).status.success());

    refused(&good[..3], "shard 3 of 4 missing");
    let unordered = [good[3].clone(), good[0].clone(), good[2].clone()];
    refused(&unordered, "shard 1 of 4 missing");

    let copy = dir.path().join("copy-of-1");
    std::fs::copy(&good[1], &copy).unwrap();
    let with_copy = [&good[..], std::slice::from_ref(&copy)].concat();
    refused(
        &with_copy,
        &format!(
            "{}: duplicate of shard 1 (also in {})",
            name(&copy),
            name(&good[1])
        ),
    );

    // Cut at the trailer, mid-record, and an altered record.
    let bytes = std::fs::read(&good[2]).unwrap();
    let (_, records) = frames::frames(&bytes);
    let trailer = records.last().unwrap();
    assert_eq!(trailer.tag, "end");
    let cut = dir.path().join("cut");
    for end in [trailer.start, trailer.start - 7, trailer.end - 1] {
        std::fs::write(&cut, &bytes[..end]).unwrap();
        let paths = [&good[..2], std::slice::from_ref(&cut), &good[3..]].concat();
        refused(&paths, &format!("{}: truncated", name(&cut)));
        refused(&paths, "it has no trailer");
    }
    let chunk = records.iter().find(|f| f.tag == "chunk").unwrap();
    let mut altered = bytes.clone();
    altered[chunk.end - 2] ^= 1; // the last digit of its candidate count
    std::fs::write(&cut, altered).unwrap();
    let paths = [&good[..2], std::slice::from_ref(&cut), &good[3..]].concat();
    refused(&paths, &format!("{}: record ", name(&cut)));
    refused(&paths, "is damaged");
    std::fs::write(&cut, [&bytes[..], &bytes[..]].concat()).unwrap();
    refused(&paths, &format!("{}: bytes after its trailer", name(&cut)));
    std::fs::write(&cut, "not a part\n").unwrap();
    refused(&paths, &format!("{}: not an xcover part file", name(&cut)));

    // Parts of other runs: another grid (relabeled), other options, another shard count.
    let relabeled: String = GRID18
        .bytes()
        .map(|c| char::from(b"234567891"[usize::from(c - b'1')]))
        .collect();
    let other_grid = parts(
        dir.path(),
        "grid",
        &[
            "--clues",
            "18",
            "--threads",
            "1",
            "--mask",
            MASK12,
            &relabeled,
        ],
        4,
    );
    let paths = [&good[..3], &other_grid[3..]].concat();
    refused(
        &paths,
        &format!(
            "{}: from another run (input hash differs)",
            name(&other_grid[3])
        ),
    );
    let other_clues = parts(
        dir.path(),
        "clues",
        &["--clues", "19", "--threads", "1", "--mask", MASK12, GRID18],
        4,
    );
    let paths = [&other_clues[..1], &good[1..]].concat();
    refused(
        &paths,
        &format!(
            "{}: from another run (options differ: clues=19",
            name(&other_clues[0])
        ),
    );
    let halves = parts(dir.path(), "halves", &args, 2);
    let paths = [&good[..3], &halves[1..]].concat();
    refused(
        &paths,
        &format!(
            "{}: from another run (split into 2 shards",
            name(&halves[1])
        ),
    );

    let missing = dir.path().join("no-such-part");
    refused(
        std::slice::from_ref(&missing),
        &format!("{}: cannot read", name(&missing)),
    );
    let usage = run(&["merge"]);
    assert_eq!(usage.status.code(), Some(2));
    assert!(stderr(&usage).contains("no part file given"));
}

#[test]
fn bad_shard_arguments_are_usage_errors() {
    for (value, wanted) in [
        ("4/4", "I must be below N"),
        ("0/0", "N must be at least 1"),
        ("x/2", "is not a number"),
        ("1/y", "is not a number"),
        ("3", "is not I/N"),
        ("", "is not I/N"),
    ] {
        let output = run(&["--clues", "18", "--mask", MASK12, "--shard", value, GRID18]);
        assert_eq!(output.status.code(), Some(2), "{value}");
        let message = stderr(&output);
        assert!(message.contains(wanted), "{value}: {message}");
        assert!(output.stdout.is_empty());
    }
    let first = run(&["--clues", "18", "--stop-at-first", "--shard", "0/2", GRID18]);
    assert_eq!(first.status.code(), Some(2));
    assert!(
        stderr(&first).contains("--stop-at-first"),
        "{}",
        stderr(&first)
    );
}

#[test]
fn a_killed_shard_resumed_writes_the_same_part() {
    let dir = tempfile::tempdir().unwrap();
    let batch = batch_file(dir.path(), 6);
    let base = [
        "--clues",
        "18",
        "--threads",
        "1",
        "--mask",
        MASK6,
        "--file",
        batch.to_str().unwrap(),
        "--shard",
        "1/2",
    ];
    let started = Instant::now();
    let reference = run(&base);
    let span = started.elapsed();
    assert!(reference.status.success(), "{}", stderr(&reference));

    let mut rng = Rng(0x5ba2_d017);
    let mut interrupted = 0;
    for trial in 0..4 {
        let journal = dir.path().join(format!("journal{trial}"));
        let journal_arg = journal.to_str().unwrap();
        let with_journal = [&base[..], &["--checkpoint", journal_arg]].concat();
        let mut child = gridcheck(&with_journal).spawn().unwrap();
        let delay = Duration::from_millis(30) + span.mul_f64(0.8 * rng.fraction());
        std::thread::sleep(delay);
        let killed = child.try_wait().unwrap().is_none();
        if killed {
            child.kill().unwrap(); // SIGKILL
            interrupted += 1;
        }
        let cut_short = child.wait_with_output().unwrap();
        if killed {
            // The part on stdout has no trailer: merge would refuse it.
            let path = dir.path().join("killed-part");
            std::fs::write(&path, &cut_short.stdout).unwrap();
            let output = merge(&[path]);
            assert_eq!(output.status.code(), Some(1));
            let message = stderr(&output);
            assert!(
                message.contains("it has no trailer") || message.contains("not an xcover part"),
                "{message}"
            );
        }
        let resumed = run(&[&with_journal[..], &["--resume"]].concat());
        assert!(
            resumed.status.success(),
            "trial {trial}: {}",
            stderr(&resumed)
        );
        assert!(
            resumed.stdout == reference.stdout,
            "trial {trial}: the resumed part differs"
        );
        // A finished journal writes the same part again without scanning.
        let again = run(&[&with_journal[..], &["--resume"]].concat());
        assert!(
            again.stdout == reference.stdout,
            "trial {trial}: replay differs"
        );
        assert!(stderr(&again).contains("finished in an earlier run"));
    }
    assert!(interrupted >= 3, "only {interrupted} runs were interrupted");

    // A shard's journal is refused for another shard.
    let journal = dir.path().join("journal0");
    let other = [
        &base[..8],
        &[
            "--shard",
            "0/2",
            "--checkpoint",
            journal.to_str().unwrap(),
            "--resume",
        ],
    ]
    .concat();
    let output = run(&other);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("other arguments"),
        "{}",
        stderr(&output)
    );
}
