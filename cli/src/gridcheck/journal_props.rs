//! The journal's promises, checked on every byte of a real scan's journal: a file cut
//! anywhere resumes to exactly the uninterrupted run's puzzles; a flipped byte, a
//! deleted, duplicated or swapped record, two journals end to end, and records that are
//! well framed but mean nothing (a puzzle of the wrong clue count, outside the mask or
//! the grid, a chunk id out of range or outside the grid's list, counters that wrap) are
//! refused naming the file and the record, the file left as it was. Nothing panics.
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::AtomicUsize;

use xcover_core::gridcheck::scan::ChunkId;
use xcover_core::gridcheck::{Cells, Puzzle};

use super::super::test_scan::Fixture;
use super::super::{puzzle_lines, runner};
use super::*;
use crate::durable::testing::{frame_ranges, record_edits};

const IDENTITY: &str = "the test run";

fn expect(fx: &Fixture, counted: bool) -> Expect<'_> {
    Expect {
        grids: std::slice::from_ref(&fx.grid),
        rules: PuzzleRules::of(&fx.options),
        counted,
    }
}

/// Runs `chunks` of the scan journaling into `journal`, then marks the grid done; the
/// puzzle lines the run prints.
fn run(fx: &Fixture, journal: &Journal, skip: &HashMap<u32, u64>) -> Result<Vec<String>> {
    fx.with_prepared(|prepared, chunks, _| {
        let todo: Vec<ChunkId> = chunks
            .iter()
            .filter(|c| !skip.contains_key(&c.to_u32()))
            .copied()
            .collect();
        let control = runner::Control {
            interrupt: None,
            journal: Some((journal, 0, &fx.grid)),
            ..runner::Control::default()
        };
        runner::run_chunks(prepared, &todo, 1, "test", control)?;
        journal.grid_done(0)?;
        Ok(puzzle_lines(&fx.grid, journal.puzzles(0), &fx.options))
    })
}

/// Resumes `path` and finishes the run as `xcover gridcheck --resume` does: the printed
/// lines, or the refusal.
fn resume_and_finish(fx: &Fixture, path: &Path) -> Result<Vec<String>> {
    let flag = AtomicUsize::new(0);
    let (journal, records) =
        match Journal::resume(path, IDENTITY, &expect(fx, false), 1 << 24, &flag)? {
            Loaded::Open(journal, records) => (journal, records),
            Loaded::Interrupted(_) => panic!("no signal was sent"),
        };
    let record = &records[0];
    if record.done {
        return Ok(puzzle_lines(
            &fx.grid,
            record.puzzles.iter().copied().collect(),
            &fx.options,
        ));
    }
    fx.with_prepared(|_, chunks, _| record.check_chunks(path, 0, chunks))?;
    run(fx, &journal, &record.chunks_done)
}

/// The uninterrupted run: its journal's bytes and its lines.
fn reference(fx: &Fixture, dir: &Path) -> (Vec<u8>, Vec<String>) {
    let path = dir.join("reference");
    let journal = Journal::create(&path, IDENTITY, 1, false).unwrap();
    let lines = run(fx, &journal, &HashMap::new()).unwrap();
    drop(journal);
    assert_eq!(lines.len(), 10, "the fixture's puzzles");
    (std::fs::read(&path).unwrap(), lines)
}

/// What resuming `bytes` gave.
enum Outcome {
    Same,
    Refused(String),
}

/// Resumes a copy holding `bytes`: either it finishes with exactly `lines`, or it is
/// refused naming the file and leaves it unchanged. `memo` holds the lines of the states
/// already finished (keyed by what was recovered), so a cut is finished once per state.
fn check(fx: &Fixture, path: &Path, bytes: &[u8], lines: &[String], what: &str) -> Outcome {
    std::fs::write(path, bytes).unwrap();
    match resume_and_finish(fx, path) {
        Ok(got) => {
            assert_eq!(got, lines, "{what}: resumed to other puzzles");
            Outcome::Same
        }
        Err(err) => {
            let message = format!("{err:#}");
            assert!(
                message.contains(&path.display().to_string()),
                "{what}: the refusal does not name the file: {message}"
            );
            assert_eq!(std::fs::read(path).unwrap(), bytes, "{what}: file changed");
            Outcome::Refused(message)
        }
    }
}

#[test]
fn every_cut_resumes_to_the_uninterrupted_runs_puzzles() {
    let fx = Fixture::new();
    let dir = tempfile::tempdir().unwrap();
    let (bytes, lines) = reference(&fx, dir.path());
    let path = dir.path().join("cut");
    let ends: Vec<usize> = frame_ranges(&bytes).iter().map(|f| f.end).collect();
    for cut in 0..bytes.len() {
        std::fs::write(&path, &bytes[..cut]).unwrap();
        let flag = AtomicUsize::new(0);
        let loaded = Journal::resume(&path, IDENTITY, &expect(&fx, false), 1 << 24, &flag);
        if cut > 0 && cut < ends[0] {
            // Journals are born whole: a cut header is not one of ours, and is kept.
            assert!(loaded.is_err(), "cut at {cut} (in the header) resumed");
            assert_eq!(std::fs::read(&path).unwrap(), bytes[..cut], "cut at {cut}");
            continue;
        }
        let Ok(Loaded::Open(journal, _)) = loaded else {
            panic!("cut at {cut} refused");
        };
        drop(journal);
        // The torn tail, and nothing else, is cut (an empty file starts afresh).
        let kept = ends.iter().rev().find(|&&e| e <= cut).copied();
        let header_end = ends[0];
        let now = std::fs::read(&path).unwrap();
        assert_eq!(now, bytes[..kept.unwrap_or(header_end)], "cut at {cut}");
        // A cut at the end of a frame is a state a killed run leaves: it finishes with
        // exactly the uninterrupted run's puzzles.
        if kept == Some(cut) || cut == 0 {
            assert_eq!(
                resume_and_finish(&fx, &path).unwrap(),
                lines,
                "cut at {cut}: resumed to other puzzles"
            );
        }
    }
}

#[test]
fn every_flipped_byte_is_refused_or_harmless() {
    let fx = Fixture::new();
    let dir = tempfile::tempdir().unwrap();
    let (bytes, lines) = reference(&fx, dir.path());
    let path = dir.path().join("flipped");
    let mut refused = 0;
    for at in 0..bytes.len() {
        for bit in [0x01u8, 0x80] {
            let mut flipped = bytes.clone();
            flipped[at] ^= bit;
            let what = format!("byte {at} ^ {bit:#x}");
            if let Outcome::Refused(_) = check(&fx, &path, &flipped, &lines, &what) {
                refused += 1;
            }
        }
    }
    // Only a flip that makes the last frame look cut short can pass (and then resumes).
    assert!(
        refused + 4 >= 2 * bytes.len(),
        "{refused} of {}",
        2 * bytes.len()
    );
}

#[test]
fn deleted_duplicated_swapped_and_concatenated_records_are_refused() {
    let fx = Fixture::new();
    let dir = tempfile::tempdir().unwrap();
    let (bytes, lines) = reference(&fx, dir.path());
    let path = dir.path().join("edited");
    let named = |outcome: Outcome, what: &str| match outcome {
        Outcome::Refused(message) => {
            assert!(
                message.contains("record") || message.contains("header"),
                "{what}: {message}"
            );
        }
        Outcome::Same => panic!("{what}: accepted"),
    };
    for edit in record_edits(&bytes) {
        let outcome = check(&fx, &path, &edit.bytes, &lines, &edit.what);
        // Deleting the last record is a cut between records: it resumes.
        if !edit.cut_at_end {
            named(outcome, &edit.what);
        }
    }
    let twice = [&bytes[..], &bytes[..]].concat();
    named(
        check(&fx, &path, &twice, &lines, "concatenated"),
        "concatenated",
    );
}

/// A copy of a journal of the run that has not finished its grid, open for raw records
/// (well framed, the chain kept), in a shard's journal with `counted`.
fn unfinished(fx: &Fixture, path: &Path, counted: bool) -> Writer<File> {
    let _ = std::fs::remove_file(path);
    let journal = Journal::create(path, IDENTITY, 1, counted).unwrap();
    fx.with_prepared(|prepared, chunks, figures| {
        if counted {
            journal.prepared(0, &figures).unwrap();
        }
        let control = runner::Control {
            interrupt: None,
            journal: Some((&journal, 0, &fx.grid)),
            ..runner::Control::default()
        };
        runner::run_chunks(prepared, &chunks[..1], 1, "test", control).unwrap();
    });
    drop(journal);
    match Writer::resume(path, FORMAT, &header(IDENTITY), 1 << 24, &mut |_| Ok(())) {
        Ok(Resumed::Open(writer)) => writer,
        _ => panic!("resume"),
    }
}

#[test]
fn well_framed_records_that_mean_nothing_are_refused() {
    let fx = Fixture::new();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("meaningless");
    let grid = &fx.grid;
    let real = fx.with_prepared(|prepared, chunks, _| {
        let outcome =
            runner::run_chunks(prepared, chunks, 1, "test", runner::Control::default()).unwrap();
        outcome.found[0]
    });
    let text = |givens: Cells| Puzzle::from_grid(grid, givens).to_string();
    let forced = fx.options.mask.givens;
    let free_given = real.difference(forced).lowest().unwrap();
    let free_empty = Cells::ALL.difference(real).lowest().unwrap();
    let forced_cell = forced.lowest().unwrap();
    let mut fewer = real;
    fewer.remove(free_given);
    let mut more = real;
    more.insert(free_empty);
    let mut unforced = real;
    unforced.remove(forced_cell);
    unforced.insert(free_empty);
    let mut in_empty = fewer;
    in_empty.insert(fx.options.mask.empties.lowest().unwrap());
    let mut wrong_digit = text(real).into_bytes();
    let cell = usize::from(free_given);
    wrong_digit[cell] = if wrong_digit[cell] == b'9' {
        b'1'
    } else {
        wrong_digit[cell] + 1
    };
    let wrong_digit = String::from_utf8(wrong_digit).unwrap();
    let bad: Vec<(&str, String, &str)> = vec![
        ("puzzle", format!("0 {}\n", text(fewer)), "17 clues"),
        ("puzzle", format!("0 {}\n", text(more)), "19 clues"),
        ("puzzle", format!("0 {}\n", text(unforced)), "forced given"),
        ("puzzle", format!("0 {}\n", text(in_empty)), "forced empty"),
        ("puzzle", format!("0 {wrong_digit}\n"), "not in its grid"),
        ("puzzle", format!("0 {}\n", "x".repeat(81)), "not a puzzle"),
        (
            "puzzle",
            format!("0 {}\n", text(real).replace('0', ".")),
            "canonical",
        ),
        ("puzzle", format!("1 {}\n", text(real)), "grid index"),
        ("puzzle", format!("0 {}", text(real)), "one line"),
        ("chunk", "0 16777216\n".into(), "chunk id"),
        ("chunk", "0 -1\n".into(), "chunk id"),
        ("chunk", "0 5:1:1\n".into(), "counters"),
        ("grid", "0 finished\n".into(), "unknown record"),
        ("grid", "7 done\n".into(), "grid index"),
        ("prepared", "0 3|a|\n".into(), "preparation"),
        ("solution", "0 1\n".into(), "unknown record"),
    ];
    for (tag, payload, wanted) in &bad {
        let mut writer = unfinished(&fx, &path, false);
        writer.record(tag, payload.as_bytes()).unwrap();
        drop(writer);
        let before = std::fs::read(&path).unwrap();
        let err = format!(
            "{:#}",
            resume_and_finish(&fx, &path)
                .err()
                .unwrap_or_else(|| panic!("{tag} {payload:?} accepted"))
        );
        assert!(
            err.contains(&path.display().to_string()) && err.contains("record "),
            "{err}"
        );
        assert!(
            err.contains(wanted),
            "{tag} {payload:?}: wanted `{wanted}` in {err}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }
    // A puzzle or a chunk twice, a valid chunk id that is not one of the grid's.
    let puzzle = format!("0 {}\n", text(real));
    for (records, wanted) in [
        (
            vec![("puzzle", puzzle.clone()), ("puzzle", puzzle)],
            "twice",
        ),
        (
            vec![("chunk", "0 1\n".into()), ("chunk", "0 1\n".into())],
            "twice",
        ),
        (
            vec![("chunk", "0 16711422\n".into())],
            "not a chunk of grid 1",
        ),
        (
            vec![("grid", "0 done\n".into()), ("grid", "0 done\n".into())],
            "twice",
        ),
    ] {
        let mut writer = unfinished(&fx, &path, false);
        for (tag, payload) in &records {
            writer.record(tag, payload.as_bytes()).unwrap();
        }
        drop(writer);
        let err = format!("{:#}", resume_and_finish(&fx, &path).expect_err("refused"));
        assert!(
            err.contains("record ") && err.contains(wanted),
            "wanted `{wanted}`: {err}"
        );
    }
    // A shard's counters that wrap when added.
    let mut writer = unfinished(&fx, &path, true);
    writer
        .record("chunk", format!("0 1:{}:0\n", u64::MAX).as_bytes())
        .unwrap();
    writer.record("chunk", b"0 2:1:0\n").unwrap();
    drop(writer);
    let flag = AtomicUsize::new(0);
    let err = match Journal::resume(&path, IDENTITY, &expect(&fx, true), 1 << 24, &flag) {
        Err(err) => format!("{err:#}"),
        Ok(_) => panic!("wrapping counters accepted"),
    };
    assert!(err.contains("overflow") && err.contains("record "), "{err}");
}
