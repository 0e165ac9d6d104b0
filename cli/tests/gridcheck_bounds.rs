//! `xcover gridcheck` and `xcover gridcheck merge` at their limits: endless or huge input
//! is an error with exit 1 (never an abort), a write that fails (`/dev/full`) is reported
//! with exit 1, the shard count is bounded, and a scan stopped by SIGTERM without a
//! journal prints what it found so far.
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::Duration;

mod common;
use common::send_signal;
use common::{gridcheck, stderr};
use common::{GRID18, MASK12};
#[path = "common/frames.rs"]
mod frames;

/// Exit status 1 with `wanted` in the message, no panic or abort.
fn fails_with(output: &Output, wanted: &str) {
    let message = stderr(output);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(message.contains(wanted), "wanted `{wanted}`: {message}");
    assert!(!message.contains("panicked"), "{message}");
}

#[test]
fn endless_input_is_an_error_not_an_abort() {
    let zero = gridcheck(&[
        "--clues",
        "18",
        "--file",
        "/dev/zero",
        "--max-memory",
        "64M",
    ])
    .output()
    .unwrap();
    fails_with(&zero, "/dev/zero line 1: longer than 256 bytes");

    // Valid grids without end on stdin.
    let mut child = gridcheck(&["--clues", "18", "--mask", MASK12, "--max-memory", "1M"])
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let line = format!("{GRID18}\n").repeat(100);
        while stdin.write_all(line.as_bytes()).is_ok() {}
    });
    let output = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    fails_with(&output, "stdin is larger than the limit");
    assert!(stderr(&output).contains("--max-memory"));

    // A UA file without end.
    let ua = gridcheck(&["--clues", "18", "--mask", MASK12, "--ua-file", "/dev/zero"])
        .args(["--max-memory", "16M", GRID18])
        .output()
        .unwrap();
    fails_with(&ua, "larger than the limit");
}

/// The parts of a 2-shard run, written into `dir`.
fn parts(dir: &Path) -> Vec<PathBuf> {
    (0..2)
        .map(|i| {
            let shard = format!("{i}/2");
            let args = ["--clues", "18", "--mask", MASK12, "--shard", &shard, GRID18];
            let output = gridcheck(&args).output().unwrap();
            assert!(output.status.success(), "{}", stderr(&output));
            let path = dir.join(format!("part-{i}"));
            std::fs::write(&path, &output.stdout).unwrap();
            path
        })
        .collect()
}

#[test]
fn a_full_disk_is_reported() {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    let puzzles = gridcheck(&["--clues", "18", "--mask", MASK12, GRID18])
        .stdout(full())
        .output()
        .unwrap();
    fails_with(&puzzles, "writing to stdout");
    let part = gridcheck(&["--clues", "18", "--mask", MASK12, "--shard", "0/2", GRID18])
        .stdout(full())
        .output()
        .unwrap();
    fails_with(&part, "No space left on device");
    let dir = tempfile::tempdir().unwrap();
    let parts = parts(dir.path());
    let names: Vec<&str> = parts.iter().map(|p| p.to_str().unwrap()).collect();
    let merged = gridcheck(&[&["merge"][..], &names].concat())
        .stdout(full())
        .output()
        .unwrap();
    fails_with(&merged, "writing to stdout");
    // Stderr full too: still exit 1, and no abort.
    let silent = gridcheck(&["--clues", "18", "--mask", MASK12, GRID18])
        .stdout(full())
        .stderr(full())
        .status()
        .unwrap();
    assert_eq!(silent.code(), Some(1));
}

#[test]
fn the_shard_count_is_bounded() {
    let huge = gridcheck(&[
        "--clues",
        "18",
        "--mask",
        MASK12,
        "--shard",
        "0/100000000000",
        GRID18,
    ])
    .output()
    .unwrap();
    assert_eq!(huge.status.code(), Some(2), "{}", stderr(&huge));
    assert!(stderr(&huge).contains("at most 65536"), "{}", stderr(&huge));

    // A part whose header (crc chain and trailer recomputed) claims 2^64-1 shards.
    let dir = tempfile::tempdir().unwrap();
    let parts = parts(dir.path());
    let bytes = std::fs::read(&parts[0]).unwrap();
    let (magic, records) = frames::frames(&bytes);
    let header = records[0]
        .text()
        .replacen("shard=0/2 ", "shard=0/18446744073709551615 ", 1);
    let mut forged: Vec<(&str, Vec<u8>)> = vec![("head", header.into_bytes())];
    forged.extend(
        records[1..records.len() - 1]
            .iter()
            .map(|f| (f.tag.as_str(), f.payload.clone())),
    );
    let path = dir.path().join("forged");
    std::fs::write(&path, frames::forge(&magic, &forged, true)).unwrap();
    let merged = gridcheck(&["merge", path.to_str().unwrap(), parts[1].to_str().unwrap()])
        .output()
        .unwrap();
    fails_with(&merged, "at most 65536");
    assert!(stderr(&merged).contains(path.to_str().unwrap()));
    assert!(merged.stdout.is_empty());
    // The same forging with the true header passes: only the count was wrong.
    forged[0].1 = records[0].payload.clone();
    std::fs::write(&path, frames::forge(&magic, &forged, true)).unwrap();
    let merged = gridcheck(&["merge", path.to_str().unwrap(), parts[1].to_str().unwrap()])
        .output()
        .unwrap();
    assert!(merged.status.success(), "{}", stderr(&merged));
}

#[test]
fn sigterm_without_a_journal_prints_the_puzzles_found_so_far() {
    // 4 forced cells, 18 clues: 82 puzzles in 60 chunks per grid, about a second per grid;
    // six grids (relabelings: the same work), two at once on two threads. The signal is
    // sent once grid 1 has ended, a fraction of grid 1's scan time later, so that it lands
    // inside the grids scanned next on a machine of any speed and load (a later attempt
    // waits longer, should they have found nothing yet).
    let dir = tempfile::tempdir().unwrap();
    let batch = dir.path().join("grids.txt");
    std::fs::write(&batch, common::relabeled_batch(GRID18, 6)).unwrap();
    let grids: Vec<String> = std::fs::read_to_string(&batch)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    let args = ["--clues", "18", "--mask", "...1..1..11*", "--threads", "2"];
    for fraction in [0.5, 0.8, 0.95] {
        let mut child = gridcheck(&args)
            .args(["--file", batch.to_str().unwrap()])
            .spawn()
            .unwrap();
        // stderr line by line: grid 1's summary says how long a grid's scan takes.
        let pipe = child.stderr.take().unwrap();
        let (lines_tx, lines_rx) = std::sync::mpsc::channel();
        let reader = std::thread::spawn(move || {
            let mut all = String::new();
            for line in BufReader::new(pipe).lines() {
                let line = line.unwrap();
                all.push_str(&line);
                all.push('\n');
                let _ = lines_tx.send(line);
            }
            all
        });
        let grid1 = loop {
            let line = lines_rx
                .recv_timeout(Duration::from_secs(300))
                .expect("grid 1 ends");
            if line.contains("grid 1/6:") {
                break line;
            }
        };
        let scan: f64 = grid1
            .split("scan ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{grid1}"));
        std::thread::sleep(Duration::from_secs_f64(scan * fraction));
        send_signal(&child, "-TERM");
        let output = child.wait_with_output().unwrap();
        let message = reader.join().unwrap();
        assert_eq!(output.status.code(), Some(143), "{message}");
        assert!(
            message.ends_with("xcover gridcheck: interrupted\n"),
            "{message}"
        );
        // Two grids are scanned at once (one a thread), so the signal cuts each grid in
        // flight: `xcover gridcheck: grid K/6: interrupted after C of 60 chunks; the
        // puzzles printed (P) are those found so far`. Every grid is printed whole, cut
        // (as far as it got), or not at all, and no grid is printed after one that is not.
        let text = String::from_utf8(output.stdout).unwrap();
        let (mut cut_lines, mut cuts, mut unprinted) = (0, 0, None);
        for (k, grid) in grids.iter().enumerate() {
            let lines: Vec<&str> = text
                .lines()
                .filter_map(|l| l.strip_prefix(grid.as_str())?.strip_prefix('\t'))
                .collect();
            let cut = format!("grid {}/6: interrupted after ", k + 1);
            let Some(summary) = message.lines().find(|l| l.contains(&cut)) else {
                match lines.len() {
                    0 => unprinted = unprinted.or(Some(k + 1)),
                    82 => assert_eq!(unprinted, None, "grid {} printed: {message}", k + 1),
                    n => panic!(
                        "grid {}: {n} lines, neither whole nor cut: {message}",
                        k + 1
                    ),
                }
                continue;
            };
            assert_eq!(unprinted, None, "grid {} cut: {message}", k + 1);
            cuts += 1;
            assert!(
                summary.contains(" of 60 chunks; the puzzles printed ("),
                "{summary}"
            );
            assert!(
                summary.contains(&format!("printed ({})", lines.len())),
                "{summary}"
            );
            let mut sorted = lines.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted, lines, "sorted, once each");
            for line in &lines {
                assert_eq!(line.len(), 81);
                assert_eq!(line.bytes().filter(|&b| b != b'0').count(), 18, "{line}");
                assert!(
                    line.bytes()
                        .zip(grid.bytes())
                        .all(|(p, g)| p == b'0' || p == g),
                    "{line} is not in grid {}",
                    k + 1
                );
            }
            cut_lines += lines.len();
        }
        assert!(cuts <= 2, "one grid in flight a thread: {message}");
        // In batch order, grid by grid.
        let order: Vec<usize> = text
            .lines()
            .map(|l| {
                grids
                    .iter()
                    .position(|g| l.starts_with(g.as_str()))
                    .unwrap()
            })
            .collect();
        assert!(order.windows(2).all(|w| w[0] <= w[1]), "{text}");
        if cut_lines > 0 {
            return;
        }
    }
    panic!("no puzzle of the grid being scanned was printed, in three attempts");
}

#[test]
fn merge_refuses_counters_that_wrap() {
    // Part 0 forged (chain and trailer recomputed) so that its chunks' nodes add up to
    // exactly 2^64-1: valid alone, but the merged count would wrap around.
    let dir = tempfile::tempdir().unwrap();
    let parts = parts(dir.path());
    let bytes = std::fs::read(&parts[0]).unwrap();
    let (magic, records) = frames::frames(&bytes);
    let nodes = |f: &frames::Frame| -> u64 { f.text().split(' ').nth(2).unwrap().parse().unwrap() };
    let chunks: Vec<&frames::Frame> = records.iter().filter(|f| f.tag == "chunk").collect();
    let others: u64 = chunks[1..].iter().map(|f| nodes(f)).sum();
    let mut forged: Vec<(&str, Vec<u8>)> = Vec::new();
    for frame in &records[..records.len() - 1] {
        let mut payload = frame.payload.clone();
        if frame.start == chunks[0].start {
            let text = frame.text();
            let words: Vec<&str> = text.split(' ').collect();
            let max = (u64::MAX - others).to_string();
            payload = format!("{} {} {max} {}", words[0], words[1], words[3]).into_bytes();
        }
        forged.push((frame.tag.as_str(), payload));
    }
    let path = dir.path().join("forged");
    std::fs::write(&path, frames::forge(&magic, &forged, true)).unwrap();
    let merged = gridcheck(&["merge", path.to_str().unwrap(), parts[1].to_str().unwrap()])
        .output()
        .unwrap();
    fails_with(&merged, "overflow");
    assert!(merged.stdout.is_empty());
}
