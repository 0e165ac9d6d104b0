//! The part's promises, checked on every byte of a real scan's part: any flipped byte,
//! cut, deleted, duplicated or swapped record, or bytes after the trailer are refused; so
//! are well-framed parts (a valid trailer recomputed over them) whose records mean nothing:
//! a puzzle of the wrong clue count, outside the mask or the grid, a chunk id out of range,
//! counters that wrap, a shard count over the bound. Each refusal names the file and the
//! record; nothing panics.
use std::path::Path;

use xcover_core::gridcheck::{Cells, Puzzle};

use super::super::test_scan::Fixture;
use super::super::{puzzle_lines, runner};
use super::tests::read_bytes;
use super::*;
use crate::durable::testing::record_edits;

/// The fingerprint of the fixture's run (what merge reads the rules from).
fn fingerprint(fx: &Fixture) -> String {
    let mask = fx.options.mask;
    format!(
        "xcover=test clues={} mask={:032x}/{:032x} minimal=0 grids=1:00",
        fx.options.clues, mask.givens.0, mask.empties.0
    )
}

/// The part a single shard writes for the fixture, and its puzzles' givens.
fn real_part(fx: &Fixture) -> (Vec<u8>, Vec<Cells>) {
    fx.with_prepared(|prepared, chunks, figures| {
        let outcome =
            runner::run_chunks(prepared, chunks, 1, "test", runner::Control::default()).unwrap();
        let counts = outcome
            .chunk_stats
            .iter()
            .map(|(id, s)| {
                let counts = Counts {
                    nodes: s.steps,
                    candidates: s.candidates,
                };
                (id.to_u32(), counts)
            })
            .collect();
        let mut found = outcome.found.clone();
        found.sort_unstable();
        let lines = puzzle_lines(&fx.grid, outcome.found, &fx.options);
        let shard = Shard { index: 0, count: 1 };
        let mut out = Vec::new();
        let mut writer =
            PartWriter::new(&mut out, Path::new("mem"), shard, &fingerprint(fx)).unwrap();
        writer
            .grid(0, &fx.grid.to_string(), &figures, counts, lines)
            .unwrap();
        writer.finish().unwrap();
        (out, found)
    })
}

/// `bytes` is refused, naming the file; the message.
fn refused(bytes: &[u8], what: &str) -> String {
    match read_bytes(bytes) {
        Ok(_) => panic!("{what}: accepted"),
        Err(err) => {
            let message = format!("{err:#}");
            assert!(message.contains("part-x"), "{what}: {message}");
            message
        }
    }
}

#[test]
fn the_real_part_reads_back() {
    let fx = Fixture::new();
    let (bytes, found) = real_part(&fx);
    let part = read_bytes(&bytes).unwrap();
    assert_eq!(part.grids.len(), 1);
    assert_eq!(part.grids[0].puzzles.len(), 10);
    assert_eq!(found.len(), 10);
    assert_eq!(part.grids[0].chunks.len(), part.grids[0].prepared.chunks);
}

#[test]
fn every_change_to_a_real_part_is_refused() {
    let fx = Fixture::new();
    let (bytes, _) = real_part(&fx);
    for at in 0..bytes.len() {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x01;
        refused(&flipped, &format!("byte {at} flipped"));
    }
    for cut in 0..bytes.len() {
        refused(&bytes[..cut], &format!("cut at {cut}"));
    }
    for edit in record_edits(&bytes) {
        let message = refused(&edit.bytes, &edit.what);
        if edit.deleted {
            assert!(
                message.contains("record")
                    || message.contains("header")
                    || message.contains("trailer"),
                "{message}"
            );
        }
    }
    let message = refused(&[&bytes[..], &bytes[..]].concat(), "two parts end to end");
    assert!(message.contains("after its trailer"), "{message}");
}

/// A part with a valid chain and trailer over `identity` and `records`.
fn forged(identity: &str, records: &[(&str, String)]) -> Vec<u8> {
    let mut writer =
        Writer::stream(Vec::new(), Path::new("forged"), FORMAT, identity.as_bytes()).unwrap();
    for (tag, payload) in records {
        writer.record(tag, payload.as_bytes()).unwrap();
    }
    writer.finish().unwrap()
}

#[test]
fn well_framed_parts_that_mean_nothing_are_refused() {
    let fx = Fixture::new();
    let (bytes, found) = real_part(&fx);
    let part = read_bytes(&bytes).unwrap();
    let grid = &fx.grid;
    let identity = format!("shard=0/1 {}\n", fingerprint(&fx));
    let head = format!("0 {grid} {}\n", part.grids[0].prepared.encode());
    let text = |givens: Cells| Puzzle::from_grid(grid, givens).to_string();
    let real = found[0];
    let forced = fx.options.mask.givens;
    let free_given = real.difference(forced).lowest().unwrap();
    let mut fewer = real;
    fewer.remove(free_given);
    let mut in_empty = fewer;
    in_empty.insert(fx.options.mask.empties.lowest().unwrap());
    let mut unforced = real;
    unforced.remove(forced.lowest().unwrap());
    unforced.insert(
        Cells::ALL
            .difference(real)
            .difference(fx.options.mask.empties)
            .lowest()
            .unwrap(),
    );
    let puzzle = |givens: Cells| ("puzzle", format!("0 {}\n", text(givens)));
    let chunk = |id: &str, nodes: &str| ("chunk", format!("0 {id} {nodes} 1\n"));
    let grid_rec = ("grid", head.clone());
    // (header identity, records, what the refusal says)
    type Case<'a> = (String, Vec<(&'a str, String)>, &'a str);
    let cases: Vec<Case<'_>> = vec![
        (
            identity.clone(),
            vec![grid_rec.clone(), puzzle(fewer)],
            "17 clues",
        ),
        (
            identity.clone(),
            vec![grid_rec.clone(), puzzle(in_empty)],
            "forced empty",
        ),
        (
            identity.clone(),
            vec![grid_rec.clone(), puzzle(unforced)],
            "forced given",
        ),
        (
            identity.clone(),
            vec![
                grid_rec.clone(),
                ("puzzle", format!("0 {}\n", "x".repeat(81))),
            ],
            "not a puzzle",
        ),
        (
            identity.clone(),
            vec![grid_rec.clone(), chunk("16777216", "1")],
            "chunk id",
        ),
        (
            identity.clone(),
            vec![
                grid_rec.clone(),
                chunk("1", &u64::MAX.to_string()),
                chunk("2", "1"),
            ],
            "overflow",
        ),
        (
            identity.clone(),
            vec![grid_rec.clone(), chunk("1", "18446744073709551616")],
            "counter",
        ),
        (
            identity.clone(),
            vec![grid_rec.clone(), chunk("2", "1"), chunk("1", "1")],
            "out of order",
        ),
        (
            identity.clone(),
            vec![grid_rec.clone(), puzzle(real), puzzle(real)],
            "twice",
        ),
        (identity.clone(), vec![chunk("1", "1")], "out of place"),
        (
            identity.clone(),
            vec![("grid", format!("1 {grid} 1|a|\n"))],
            "grid index",
        ),
        (identity.clone(), vec![], "the header's run has 1"),
        (
            identity.clone(),
            vec![grid_rec.clone(), ("data", "0 1\n".into())],
            "unknown record",
        ),
        (
            format!("shard=0/100000000000 {}\n", fingerprint(&fx)),
            vec![grid_rec.clone()],
            "at most 65536",
        ),
        (
            format!("shard=0/18446744073709551615 {}\n", fingerprint(&fx)),
            vec![grid_rec.clone()],
            "at most 65536",
        ),
        (
            "shard=0/1 xcover=test grids=1:00\n".into(),
            vec![grid_rec.clone()],
            "clue count",
        ),
    ];
    for (identity, records, wanted) in &cases {
        let message = refused(&forged(identity, records), wanted);
        assert!(message.contains("record "), "{wanted}: {message}");
        assert!(message.contains(wanted), "wanted `{wanted}`: {message}");
    }
    // The same records with a meaningful header and order pass.
    let good = forged(&identity, &[grid_rec, puzzle(real)]);
    assert!(read_bytes(&good).is_ok());
}
