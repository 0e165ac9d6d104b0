//! What the summary lines say, and SIGHUP: one thread is `(1 thread)`; a resumed grid's
//! line says whether its node and candidate counts cover the chunks done by an earlier run
//! (a shard's journal keeps their counters, so its resumed line counts the whole shard, as
//! an uninterrupted run does; a plain journal keeps none, and the line says the counts are
//! this run's); SIGHUP stops `xcover dlx3` and `xcover gridcheck` as SIGINT does, with
//! status 129.
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod common;
use common::{gridcheck, queens, send_signal, spawn_xcover, stderr};
#[path = "common/frames.rs"]
mod frames;
use frames::frames;

fn example(name: &str) -> String {
    format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xcover-summary-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The 18-clue minimal scan of the example grid and mask (68 chunks, 17 puzzles, well
/// under a second), on one thread, with `more` arguments.
fn example_scan(more: &[&str]) -> std::process::Output {
    let mask = std::fs::read_to_string(example("grid.mask")).unwrap();
    let file = example("grid.txt");
    let mut args = vec![
        "--clues",
        "18",
        "--minimal",
        "--mask",
        mask.trim(),
        "--file",
        &file,
        "--threads",
        "1",
    ];
    args.extend_from_slice(more);
    gridcheck(&args).output().unwrap()
}

/// The figure after `key ` in a summary line (`nodes 622` -> 622).
fn figure(line: &str, key: &str) -> u64 {
    let at = line
        .find(&format!("; {key} "))
        .unwrap_or_else(|| panic!("{key} in {line}"))
        + key.len()
        + 3;
    let digits: String = line[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().unwrap()
}

/// Cuts the journal at `path` just after its `keep`-th chunk record, as a kill after that
/// chunk leaves it.
fn cut_after_chunks(path: &Path, keep: usize) {
    let bytes = std::fs::read(path).unwrap();
    let (_, frames) = frames(&bytes);
    let cut = frames
        .iter()
        .filter(|f| f.tag == "chunk")
        .nth(keep - 1)
        .expect("enough chunk records")
        .end;
    std::fs::write(path, &bytes[..cut]).unwrap();
}

#[test]
fn one_thread_is_singular() {
    let out = example_scan(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).ends_with(" (1 thread)\n"), "{}", stderr(&out));
}

#[test]
fn a_resumed_grid_says_what_its_counts_cover() {
    let dir = scratch("plain");
    let journal = dir.join("journal");
    let journal = journal.to_str().unwrap();
    let whole = example_scan(&[]);
    assert!(whole.status.success(), "{}", stderr(&whole));
    let first = example_scan(&["--checkpoint", journal]);
    assert_eq!(first.stdout, whole.stdout);
    cut_after_chunks(Path::new(journal), 20);

    let resumed = example_scan(&["--checkpoint", journal, "--resume"]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert_eq!(resumed.stdout, whole.stdout);
    let (line, full) = (stderr(&resumed), stderr(&whole));
    assert!(
        line.contains(
            "; chunks 68 (20 done in an earlier run, not counted in nodes and candidates); "
        ),
        "{line}"
    );
    // This run's share only, and every puzzle.
    assert!(
        figure(&line, "nodes") < figure(&full, "nodes"),
        "{line}\n{full}"
    );
    assert_eq!(figure(&line, "found"), figure(&full, "found"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_resumed_shard_counts_the_whole_shard() {
    let dir = scratch("shard");
    let journal = dir.join("journal");
    let journal = journal.to_str().unwrap();
    let whole = example_scan(&["--shard", "0/1"]);
    assert!(whole.status.success(), "{}", stderr(&whole));
    let first = example_scan(&["--shard", "0/1", "--checkpoint", journal]);
    assert_eq!(first.stdout, whole.stdout);
    cut_after_chunks(Path::new(journal), 20);

    let resumed = example_scan(&["--shard", "0/1", "--checkpoint", journal, "--resume"]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    // The part, and the summary line but for the note and the seconds, are an
    // uninterrupted shard's.
    assert_eq!(resumed.stdout, whole.stdout);
    let note = " (20 done in an earlier run, counted from the journal)";
    let line = stderr(&resumed);
    assert!(line.contains(note), "{line}");
    let untimed = |text: &str| text[..text.find("; seconds: ").unwrap()].replace(note, "");
    assert_eq!(untimed(&line), untimed(&stderr(&whole)));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Waits for `child` after a signal; it must end within a few seconds.
fn wait_stopped(child: std::process::Child) -> std::process::Output {
    let sent = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(
        sent.elapsed() < Duration::from_secs(10),
        "{:?}",
        sent.elapsed()
    );
    out
}

/// Feeds `child` (an `xcover dlx3 m0`) n queens and sends it SIGHUP once it searches:
/// returns its status, the stderr after the input line, and how long it took to end.
fn hangup_during_the_search(
    mut child: std::process::Child,
    n: usize,
) -> (Option<i32>, String, Duration) {
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(queens(n).as_bytes()).unwrap();
    drop(stdin);
    // The handlers are installed once the input is read, right after its line on stderr
    // (`(256 options, ...)`): signal a moment after that line.
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    err.read_line(&mut first).unwrap();
    assert!(first.contains("successfully read"), "{first}");
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        child.try_wait().unwrap().is_none(),
        "{n} queens ended early"
    );
    send_signal(&child, "-HUP");
    let sent = Instant::now();
    let mut rest = String::new();
    err.read_to_string(&mut rest).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.code(), rest, sent.elapsed())
}

#[test]
fn sighup_stops_dlx3_like_sigint() {
    let child = spawn_xcover(&["dlx3", "m0"]);
    let (status, rest, took) = hangup_during_the_search(child, 16);
    assert!(took < Duration::from_secs(10), "{took:?}");
    assert_eq!(status, Some(129), "{rest}");
    assert!(rest.starts_with("INTERRUPTED!\nAltogether "), "{rest}");
}

#[test]
fn under_nohup_sighup_stays_ignored() {
    // `nohup` starts the program with SIGHUP ignored: the run must not take it back.
    let Ok(child) = std::process::Command::new("nohup")
        .arg(env!("CARGO_BIN_EXE_xcover"))
        .args(["dlx3", "m0"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
    else {
        eprintln!("skipped: no nohup on this machine");
        return;
    };
    let (status, rest, _) = hangup_during_the_search(child, 14);
    assert_eq!(status, Some(0), "{rest}");
    assert!(rest.starts_with("Altogether 365596 solutions,"), "{rest}");
}

#[test]
fn sighup_stops_gridcheck_and_the_journal_resumes() {
    let dir = scratch("hup");
    let journal = dir.join("journal");
    let grid = "216378945487259163359146782673521894948637251125894637591462378732985416864713529";
    let scan = [
        "--clues",
        "18",
        "--mask",
        "...1..1..11*",
        "--threads",
        "1",
        grid,
    ];
    let checkpoint = ["--checkpoint", journal.to_str().unwrap()];
    let child = gridcheck(&[&scan[..], &checkpoint].concat())
        .spawn()
        .unwrap();
    // Signal once the scan has journaled a chunk (the handlers are in place by then).
    let started = Instant::now();
    while !std::fs::read(&journal)
        .unwrap_or_default()
        .windows(6)
        .any(|w| w == b"\nchunk")
    {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no chunk journaled"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    send_signal(&child, "-HUP");
    let out = wait_stopped(child);
    if out.status.success() {
        // The scan ended before the signal came (a very fast machine): the resume below
        // still has to give the whole output.
        eprintln!("the scan finished before SIGHUP arrived");
    } else {
        assert_eq!(out.status.code(), Some(129), "{}", stderr(&out));
        assert!(
            stderr(&out).ends_with("xcover gridcheck: interrupted; resume with --resume\n"),
            "{}",
            stderr(&out)
        );
    }
    let resumed = gridcheck(&[&scan[..], &checkpoint, &["--resume"]].concat())
        .output()
        .unwrap();
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let whole = gridcheck(&scan).output().unwrap();
    assert_eq!(resumed.stdout, whole.stdout);
    std::fs::remove_dir_all(&dir).unwrap();
}
