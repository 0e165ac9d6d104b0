//! `xcover gridcheck --checkpoint FILE --resume` trusts nothing it did not write: a
//! flipped bit or a deleted record is refused naming the journal and the record; a file
//! that is not a journal is left byte for byte as it was; a second run on a journal in
//! use is refused and the first is unharmed; a signal during the reading of a large
//! journal stops it with the usual message and status.
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

mod common;
use common::send_signal;
use common::{gridcheck, stderr};
use common::{GRID18, MASK12, MASK6};
#[path = "common/frames.rs"]
mod frames;

/// The run with 12 forced cells, journaled in `journal` (resumed with `resume`).
fn run12(journal: &Path, resume: bool) -> Output {
    let mut args = vec![
        "--clues",
        "18",
        "--threads",
        "1",
        "--mask",
        MASK12,
        "--checkpoint",
        journal.to_str().unwrap(),
    ];
    if resume {
        args.push("--resume");
    }
    args.push(GRID18);
    gridcheck(&args).output().unwrap()
}

/// `--resume` on `journal` is refused with exit 1, naming it and `wanted`, printing
/// nothing and leaving the file as it was.
fn refused(journal: &Path, wanted: &str) {
    let before = std::fs::read(journal).unwrap();
    let output = run12(journal, true);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(output.stdout.is_empty(), "printed something: {message}");
    assert!(
        message.contains(&journal.display().to_string()) && message.contains(wanted),
        "wanted `{wanted}`: {message}"
    );
    assert_eq!(
        std::fs::read(journal).unwrap(),
        before,
        "the journal changed"
    );
}

#[test]
fn a_flipped_bit_or_a_deleted_puzzle_record_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("journal");
    let first = run12(&journal, false);
    assert!(first.status.success(), "{}", stderr(&first));
    assert_eq!(first.stdout.iter().filter(|&&b| b == b'\n').count(), 81);
    let bytes = std::fs::read(&journal).unwrap();
    let (_, records) = frames::frames(&bytes);
    let puzzles: Vec<&frames::Frame> = records.iter().filter(|f| f.tag == "puzzle").collect();
    assert_eq!(puzzles.len(), 81);

    // One bit turns a given `1` of an 18-clue puzzle into an empty cell: a 17-clue puzzle
    // of the grid, in an 18-clue run.
    let target = puzzles[40];
    let text = target.text();
    let digit = text.find('1').filter(|&i| i > 1).expect("a given 1");
    let mut flipped = bytes.clone();
    flipped[target.end - target.payload.len() + digit] ^= 0x01;
    std::fs::write(&journal, &flipped).unwrap();
    refused(&journal, "record ");

    // A puzzle record deleted.
    let deleted = [&bytes[..target.start], &bytes[target.end..]].concat();
    std::fs::write(&journal, &deleted).unwrap();
    refused(&journal, "record ");

    // The journal as written still resumes to the same output.
    std::fs::write(&journal, &bytes).unwrap();
    let again = run12(&journal, true);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(again.stdout, first.stdout);
}

#[test]
fn a_file_that_is_not_a_journal_is_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("notes.txt");
    for content in [
        &b"precious notes without a newline"[..],
        b"precious notes\nwith lines\n",
        b"xcover-gridcheck-journal 2 clues=18\npuzzle 0 1\n",
        b"\x00\x01\x02",
    ] {
        std::fs::write(&journal, content).unwrap();
        let output = run12(&journal, true);
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        assert!(
            stderr(&output).contains(&journal.display().to_string()),
            "{}",
            stderr(&output)
        );
        assert_eq!(std::fs::read(&journal).unwrap(), content);
        // Without --resume it is refused too.
        let output = run12(&journal, false);
        assert_eq!(output.status.code(), Some(1));
        assert!(
            stderr(&output).contains("already exists"),
            "{}",
            stderr(&output)
        );
        assert_eq!(std::fs::read(&journal).unwrap(), content);
    }
}

#[test]
fn a_second_run_on_a_journal_in_use_is_refused_and_the_first_is_unharmed() {
    let dir = tempfile::tempdir().unwrap();
    let grids = dir.path().join("grids.txt");
    std::fs::write(&grids, common::relabeled_batch(GRID18, 3)).unwrap();
    let journal = dir.path().join("journal");
    let args = |resume: bool| {
        let mut args = vec![
            "--clues",
            "18",
            "--threads",
            "1",
            "--mask",
            MASK6,
            "--file",
            grids.to_str().unwrap(),
            "--checkpoint",
            journal.to_str().unwrap(),
        ];
        if resume {
            args.push("--resume");
        }
        args
    };
    let reference = gridcheck(&args(false)[..8]).output().unwrap();
    assert!(reference.status.success(), "{}", stderr(&reference));

    let first = gridcheck(&args(false)).spawn().unwrap();
    // Wait until the first run holds its journal (the header is written under the lock).
    let started = Instant::now();
    while std::fs::metadata(&journal).map_or(0, |m| m.len()) == 0 {
        assert!(started.elapsed() < Duration::from_secs(20), "no journal");
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut seconds = Vec::new();
    for resume in [true, false] {
        let second = gridcheck(&args(resume)).output().unwrap();
        seconds.push(second);
    }
    let first = first.wait_with_output().unwrap();
    assert!(first.status.success(), "{}", stderr(&first));
    assert_eq!(first.stdout, reference.stdout, "the first run was harmed");
    for second in &seconds {
        assert_eq!(second.status.code(), Some(1), "{}", stderr(second));
        assert!(second.stdout.is_empty());
        assert!(
            stderr(second).contains("in use by another xcover"),
            "{}",
            stderr(second)
        );
    }
    let resumed = gridcheck(&args(true)).output().unwrap();
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert_eq!(resumed.stdout, reference.stdout);
}

/// Waits until `child` has `path` open (Linux: its `/proc/PID/fd` links).
fn wait_until_open(child: &std::process::Child, path: &std::path::Path) {
    let path = path.canonicalize().unwrap();
    let fds = format!("/proc/{}/fd", child.id());
    let started = Instant::now();
    loop {
        let open = std::fs::read_dir(&fds).is_ok_and(|entries| {
            entries
                .flatten()
                .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|target| target == path))
        });
        if open {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the journal was never opened"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn a_signal_while_a_large_journal_is_read_stops_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("large");
    let journal_arg = journal.to_str().unwrap();
    let args = [
        "--clues",
        "17",
        "--threads",
        "1",
        "--checkpoint",
        journal_arg,
        GRID18,
    ];
    // A finished journal: read to its end, the run would print its puzzles and exit 0.
    xcover_cli::gridcheck::synthetic::write_journal(&args, 300_000, true).unwrap();
    let before = std::fs::read(&journal).unwrap();
    for (signal, status) in [("-INT", 130), ("-TERM", 143)] {
        let child = gridcheck(&[&args[..], &["--resume"]].concat())
            .spawn()
            .unwrap();
        // The handlers are in place before the journal is opened: signal as soon as it is
        // open (a fixed wait let a fast machine read the whole journal first).
        wait_until_open(&child, &journal);
        send_signal(&child, signal);
        let sent = Instant::now();
        let output = child.wait_with_output().unwrap();
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(status), "{signal}: {message}");
        assert!(
            output.stdout.is_empty(),
            "{signal}: the journal was read to its end"
        );
        assert!(
            message.contains("interrupted; resume with --resume"),
            "{signal}: {message}"
        );
        assert!(
            sent.elapsed() < Duration::from_secs(2),
            "{signal}: {:?}",
            sent.elapsed()
        );
        assert_eq!(
            std::fs::read(&journal).unwrap(),
            before,
            "{signal}: changed"
        );
    }
    // Uninterrupted, it prints every puzzle.
    let output = gridcheck(&[&args[..], &["--resume"]].concat())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        output.stdout.iter().filter(|&&b| b == b'\n').count(),
        300_000
    );
}
