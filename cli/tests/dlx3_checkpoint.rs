//! `xcover dlx3 --checkpoint FILE [--resume]` (issue 39, finding 9): a one-process run,
//! with or without `--threads`, killed (SIGKILL) once some units are recorded, then
//! resumed, prints the uninterrupted run's stdout and stderr byte for byte; so does a
//! resumed complete checkpoint; a checkpoint of another run is refused untouched.
use std::fs::File;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;

use common::{queens, stderr};

fn xcover(args: &[&str], input: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_xcover"));
    cmd.arg("dlx3")
        .args(args)
        .stdin(File::open(input).unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

fn run(args: &[&str], input: &Path) -> Output {
    xcover(args, input).output().unwrap()
}

/// The unit records in a checkpoint file so far (frames tagged `done`).
fn units_recorded(path: &Path) -> usize {
    std::fs::read(path).map_or(0, |b| b.windows(6).filter(|w| w == b"\ndone ").count())
}

/// Starts a checkpointed run, kills it with SIGKILL once `units` unit records are in
/// the checkpoint, resumes it and checks both streams against the plain run.
fn killed_and_resumed(letters: &[&str], threads: Option<&str>, units: usize) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.dlx");
    std::fs::write(&input, queens(13)).unwrap();
    let plain = run(letters, &input);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    let ck = dir.path().join("ck");
    let mut args = letters.to_vec();
    args.extend(["--checkpoint", ck.to_str().unwrap()]);
    if let Some(t) = threads {
        args.extend(["--threads", t]);
    }
    let mut child = xcover(&args, &input)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while units_recorded(&ck) < units {
        assert!(
            child.try_wait().unwrap().is_none(),
            "finished before the kill"
        );
        assert!(t0.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let recorded = units_recorded(&ck);
    let total = plain_units(&dir.path().join("probe"), &input);
    assert!(
        recorded < total,
        "killed before the end ({recorded} of {total} units)"
    );
    args.push("--resume");
    let resumed = run(&args, &input);
    assert_eq!(resumed.status.code(), Some(0), "{}", stderr(&resumed));
    assert!(resumed.stdout == plain.stdout, "resumed stdout differs");
    assert_eq!(stderr(&resumed), stderr(&plain));
    // Complete now: resumed again, it prints the same from its records alone.
    assert_eq!(units_recorded(&ck), total);
    let again = run(&args, &input);
    assert!(
        again.stdout == plain.stdout,
        "stdout of a complete checkpoint differs"
    );
    assert_eq!(stderr(&again), stderr(&plain));
}

/// The number of units of the search (a complete checkpoint records each once).
fn plain_units(ck: &Path, input: &Path) -> usize {
    let out = run(&["m0", "--checkpoint", ck.to_str().unwrap()], input);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    units_recorded(ck)
}

#[test]
fn killed_and_resumed_one_worker() {
    // Every 97th solution printed, and progress reports among them.
    killed_and_resumed(&["m97", "v1", "d20000000"], None, 800);
}

#[test]
fn killed_and_resumed_two_threads() {
    killed_and_resumed(&["m1"], Some("2"), 1500);
}

#[test]
fn a_checkpoint_of_another_run_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.dlx");
    std::fs::write(&input, queens(8)).unwrap();
    let ck = dir.path().join("ck");
    let first = run(&["m1", "--checkpoint", ck.to_str().unwrap()], &input);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let before = std::fs::read(&ck).unwrap();
    let other = run(
        &["m2", "--checkpoint", ck.to_str().unwrap(), "--resume"],
        &input,
    );
    assert_eq!(other.status.code(), Some(1), "{}", stderr(&other));
    assert!(stderr(&other).contains("not resumed"), "{}", stderr(&other));
    assert!(other.stdout.is_empty());
    // Without --resume an existing checkpoint is never started again.
    let again = run(&["m1", "--checkpoint", ck.to_str().unwrap()], &input);
    assert_eq!(again.status.code(), Some(1), "{}", stderr(&again));
    assert_eq!(std::fs::read(&ck).unwrap(), before);
}
