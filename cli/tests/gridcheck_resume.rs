//! `xcover gridcheck --checkpoint FILE` / `--resume`: a batch killed at random moments
//! (SIGKILL, SIGINT, SIGTERM, several kills in a row) and resumed prints exactly what an
//! uninterrupted run prints, and its journal never holds a puzzle twice.
use std::collections::HashSet;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{send_signal, Rng};
use common::{GRID18, MASK6, XCOVER};
#[path = "common/frames.rs"]
mod frames;

/// Grids in the batch: enough for a run of about half a second, so that most kills land
/// mid-run.
const BATCH: usize = 6;

/// The batch: the grid and relabelings of it (same work, other puzzles).
fn batch_file(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("grids.txt");
    std::fs::write(&path, common::relabeled_batch(GRID18, BATCH)).unwrap();
    path
}

fn command(grids: &Path, extra: &[&str]) -> Command {
    let mut cmd = Command::new(XCOVER);
    common::signals_at_default(&mut cmd);
    cmd.args([
        "gridcheck",
        "--clues",
        "18",
        "--threads",
        "2",
        "--mask",
        MASK6,
    ])
    .arg("--file")
    .arg(grids)
    .args(extra)
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    cmd
}

/// A moment in `0.05 .. 0.05 + span` (the kill moments are seeded, so a failure can be
/// replayed).
fn moment(rng: &mut Rng, span: Duration) -> Duration {
    Duration::from_millis(50) + span.mul_f64(rng.fraction())
}

#[derive(Copy, Clone, Debug)]
enum Kill {
    Sigkill,
    Sigint,
    Sigterm,
}

/// Sends `kill` to the child after `delay` (unless it ended before); returns its output.
fn run_and_kill(mut child: Child, delay: Duration, kill: Kill) -> (Output, bool) {
    let started = Instant::now();
    let mut sent = false;
    while started.elapsed() < delay {
        if child.try_wait().unwrap().is_some() {
            return (child.wait_with_output().unwrap(), false);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    if child.try_wait().unwrap().is_none() {
        sent = true;
        match kill {
            Kill::Sigkill => child.kill().unwrap(),
            Kill::Sigint | Kill::Sigterm => {
                let signal = if matches!(kill, Kill::Sigint) {
                    "-INT"
                } else {
                    "-TERM"
                };
                send_signal(&child, signal);
            }
        }
    }
    let deadline = Instant::now();
    let output = child.wait_with_output().unwrap();
    if sent && !matches!(kill, Kill::Sigkill) {
        assert!(
            deadline.elapsed() < Duration::from_secs(3),
            "{kill:?}: stopping took {:?}",
            deadline.elapsed()
        );
    }
    (output, sent)
}

/// Every record of the journal is well formed, and no grid has a puzzle twice.
fn check_journal(path: &Path) {
    let bytes = std::fs::read(path).unwrap();
    let (magic, frames) = frames::frames(&bytes);
    assert_eq!(magic, "xcover-gridcheck-journal 5", "magic line");
    assert_eq!(frames.first().map(|f| f.tag.as_str()), Some("head"));
    let mut puzzles = HashSet::new();
    for frame in &frames[1..] {
        let text = frame.text();
        let line = text.strip_suffix('\n').expect("a payload is one line");
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words.len(), 2, "record `{} {line}`", frame.tag);
        match frame.tag.as_str() {
            "puzzle" => assert!(
                puzzles.insert((words[0].to_owned(), words[1].to_owned())),
                "duplicate puzzle record `{line}`"
            ),
            "chunk" => assert!(words[1].parse::<u32>().is_ok(), "`{line}`"),
            "grid" => assert_eq!(words[1], "done", "`{line}`"),
            other => panic!("unknown record {other}"),
        }
    }
    // `.ci/slurm` counts the chunks done with `grep -c '^chunk '`.
    let text = String::from_utf8_lossy(&bytes);
    let chunk_lines = text.lines().filter(|l| l.starts_with("chunk ")).count();
    assert_eq!(
        chunk_lines,
        frames.iter().filter(|f| f.tag == "chunk").count()
    );
}

#[test]
fn killed_and_resumed_batches_print_what_an_uninterrupted_run_prints() {
    let dir = tempfile::tempdir().unwrap();
    let grids = batch_file(dir.path());
    let started = Instant::now();
    let reference = command(&grids, &[]).output().unwrap();
    let span = started.elapsed();
    assert!(reference.status.success());
    let expected = String::from_utf8(reference.stdout).unwrap();
    assert_eq!(expected.lines().count(), BATCH * 82, "{expected}");

    let mut rng = Rng(0x5eed_2026);
    // Each trial: one or more interrupted runs, then a resume that runs to the end.
    let trials: [&[Kill]; 5] = [
        &[Kill::Sigkill],
        &[Kill::Sigint],
        &[Kill::Sigterm],
        &[Kill::Sigkill, Kill::Sigkill],
        &[Kill::Sigint, Kill::Sigkill, Kill::Sigterm],
    ];
    let mut interrupted = 0;
    for (trial, kills) in trials.iter().enumerate() {
        let journal = dir.path().join(format!("journal{trial}"));
        let journal_arg = journal.to_str().unwrap();
        for (round, &kill) in kills.iter().enumerate() {
            let mut extra = vec!["--checkpoint", journal_arg];
            if round > 0 {
                extra.push("--resume");
            }
            let child = command(&grids, &extra).spawn().unwrap();
            let delay = moment(&mut rng, span.mul_f64(0.9));
            let (output, sent) = run_and_kill(child, delay, kill);
            let stderr = String::from_utf8_lossy(&output.stderr);
            if !sent {
                assert!(output.status.success(), "{stderr}");
                continue;
            }
            interrupted += 1;
            let code = output.status.code();
            match kill {
                Kill::Sigkill => assert_eq!(code, None, "killed by a signal"),
                Kill::Sigint | Kill::Sigterm => {
                    // Interrupted (130/143), or ended before it noticed the signal.
                    let wanted = if matches!(kill, Kill::Sigint) {
                        130
                    } else {
                        143
                    };
                    let early = output.status.signal().is_some(); // before the handlers
                    assert!(
                        code == Some(wanted) || code == Some(0) || early,
                        "{code:?} {stderr}"
                    );
                    if code == Some(wanted) {
                        assert!(
                            stderr.contains("interrupted; resume with --resume"),
                            "{stderr}"
                        );
                    }
                }
            }
            if journal.exists() {
                check_journal(&journal);
            }
        }
        let resumed = command(&grids, &["--checkpoint", journal_arg, "--resume"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&resumed.stderr);
        assert!(resumed.status.success(), "trial {trial}: {stderr}");
        assert_eq!(
            String::from_utf8(resumed.stdout).unwrap(),
            expected,
            "trial {trial} ({kills:?}): resumed output differs"
        );
        check_journal(&journal);
    }
    assert!(interrupted >= 4, "only {interrupted} runs were interrupted");
}

#[test]
fn resume_is_refused_for_other_arguments_or_without_a_journal() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    let journal_arg = journal.to_str().unwrap();
    let run = |args: &[&str]| {
        let mut cmd = Command::new(XCOVER);
        // The fixture's 12 forced cells: 81 puzzles in a fraction of a second.
        cmd.args(["gridcheck", "--clues", "18", "--threads", "1"])
            .args([
                "--mask",
                "...1..1..11..........1.....11..1...........11.1.....1*",
            ])
            .arg(GRID18)
            .args(args);
        cmd.output().unwrap()
    };
    let missing = run(&["--checkpoint", journal_arg, "--resume"]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("--resume needs it"));

    let first = run(&["--checkpoint", journal_arg]);
    assert!(first.status.success(), "{first:?}");
    let again = run(&["--checkpoint", journal_arg]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));

    let resumed = run(&["--checkpoint", journal_arg, "--resume"]);
    assert!(resumed.status.success());
    assert_eq!(String::from_utf8_lossy(&first.stdout).lines().count(), 81);
    assert_eq!(
        resumed.stdout, first.stdout,
        "a finished journal replays its output"
    );

    for other in [&["--seed", "2"][..], &["--minimal"], &["--ua-random", "7"]] {
        let refused = run(&[&["--checkpoint", journal_arg, "--resume"][..], other].concat());
        assert!(!refused.status.success(), "{other:?}");
        let stderr = String::from_utf8_lossy(&refused.stderr);
        assert!(stderr.contains("other arguments"), "{other:?}: {stderr}");
    }
    let no_checkpoint = run(&["--resume"]);
    assert!(
        !no_checkpoint.status.success(),
        "--resume needs --checkpoint"
    );
}
