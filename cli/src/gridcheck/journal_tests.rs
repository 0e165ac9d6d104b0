//! The journal on its own: records written and read back, a torn tail cut, other runs,
//! damaged and meaningless records refused (the file left as it was). The property tests
//! over a real scan's journal are in `journal_props.rs`.
use std::io::Write;
use std::sync::atomic::AtomicUsize;

use xcover_core::gridcheck::scan::{ClueMask, RunStats};

use super::*;

const GRID: &str =
    "123456789456789123789123456214365897365897214897214365531642978642978531978531642";

fn grid() -> Grid {
    Grid::parse(GRID.as_bytes()).unwrap()
}

fn givens(cells: &[u8]) -> Cells {
    Cells::from_cells(cells)
}

/// Three-clue puzzles, nothing forced.
const RULES: PuzzleRules = PuzzleRules {
    clues: 3,
    mask: ClueMask::FREE,
};

fn resume(path: &Path, identity: &str, grids: &[Grid], counted: bool) -> Result<Loaded> {
    let expect = Expect {
        grids,
        rules: RULES,
        counted,
    };
    Journal::resume(path, identity, &expect, 1 << 30, &AtomicUsize::new(0))
}

fn open(loaded: Result<Loaded>) -> (Journal, Vec<GridRecord>) {
    match loaded {
        Ok(Loaded::Open(journal, records)) => (journal, records),
        Ok(Loaded::Interrupted(_)) => panic!("interrupted"),
        Err(err) => panic!("{err:#}"),
    }
}

fn refused(loaded: Result<Loaded>) -> String {
    match loaded {
        Err(err) => format!("{err:#}"),
        Ok(_) => panic!("resumed"),
    }
}

#[test]
fn records_survive_a_torn_tail_and_duplicates_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j");
    let grids = [grid(), grid()];
    let journal = Journal::create(&path, "fp", 2, false).unwrap();
    journal.puzzle(1, &grids[1], givens(&[0, 5, 80])).unwrap();
    journal.puzzle(1, &grids[1], givens(&[0, 5, 80])).unwrap();
    journal.chunk_done(1, 513, RunStats::default()).unwrap();
    journal.grid_done(0).unwrap();
    drop(journal);
    let whole = std::fs::read(&path).unwrap();
    // A record cut short by kill -9.
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    file.write_all(b"puzzle 84 1234").unwrap();
    drop(file);

    let (journal, records) = open(resume(&path, "fp", &grids, false));
    assert_eq!(std::fs::read(&path).unwrap(), whole, "the torn tail is cut");
    assert!(records[0].done && records[0].puzzles.is_empty());
    assert_eq!(records[1].puzzles, HashSet::from([givens(&[0, 5, 80])]));
    assert_eq!(
        records[1].chunks_done.keys().copied().collect::<Vec<_>>(),
        [513]
    );
    assert!(!records[1].done);
    journal.puzzle(1, &grids[1], givens(&[0, 5, 80])).unwrap();
    journal.puzzle(1, &grids[1], givens(&[1, 2, 3])).unwrap();
    drop(journal);
    let text = String::from_utf8(std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(text.matches("\npuzzle ").count(), 2, "{text}");
    let (_, records) = open(resume(&path, "fp", &grids, false));
    assert_eq!(records[1].puzzles.len(), 2);
}

#[test]
fn a_file_without_a_whole_header_is_refused_untouched_and_an_empty_one_starts_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j");
    let grids = [grid()];
    // Journals are born whole (written beside, synced, then named): these are not ours.
    for torn in [
        &b"xcover-gridch"[..],
        b"xcover-gridcheck-journal 5\nhe",
        &[0; 4096],
    ] {
        std::fs::write(&path, torn).unwrap();
        let err = refused(resume(&path, "fp", &grids, false));
        assert!(err.contains(&path.display().to_string()), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), torn);
    }
    std::fs::write(&path, b"").unwrap();
    let (journal, records) = open(resume(&path, "fp", &grids, false));
    assert_eq!(records, vec![GridRecord::default()]);
    journal.grid_done(0).unwrap();
    drop(journal);
    let (_, records) = open(resume(&path, "fp", &grids, false));
    assert!(records[0].done);
}

#[test]
fn other_runs_other_files_and_a_held_lock_are_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j");
    let grids = [grid()];
    let journal = Journal::create(&path, "clues=17", 1, false).unwrap();
    let err = refused(resume(&path, "clues=17", &grids, false));
    assert!(err.contains("in use by another xcover"), "{err}");
    let err = Journal::create(&path, "clues=17", 1, false).err().unwrap();
    assert!(format!("{err:#}").contains("in use"), "{err:#}");
    drop(journal);
    let err = Journal::create(&path, "clues=17", 1, false).err().unwrap();
    assert!(format!("{err:#}").contains("already exists"), "{err:#}");
    let err = refused(resume(&path, "clues=18", &grids, false));
    assert!(err.contains("other arguments"), "{err}");
    for other in [
        &b"no newline here"[..],
        b"puzzle 0 1\n",
        b"xcover-gridcheck-journal 2 fp\nchunk 0 1287\n",
    ] {
        std::fs::write(&path, other).unwrap();
        let err = refused(resume(&path, "fp", &grids, false));
        assert!(err.contains(&path.display().to_string()), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), other, "left as it was");
    }
}

#[test]
fn a_shard_journal_keeps_chunk_counters_and_preparation_figures() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j");
    let grids = [grid()];
    let journal = Journal::create(&path, "fp", 1, true).unwrap();
    let figures = PreparedSummary {
        chunks: 64,
        text: "UA 12 (generated), 12 after forced cells, 12 kept".into(),
        impossible: String::new(),
    };
    journal.prepared(0, &figures).unwrap();
    let stats = RunStats {
        steps: 99,
        candidates: 7,
        ..RunStats::default()
    };
    journal.chunk_done(0, 1033, stats).unwrap();
    journal.chunk_done(0, 1034, RunStats::default()).unwrap();
    drop(journal);
    let (_, records) = open(resume(&path, "fp", &grids, true));
    assert_eq!(records[0].prepared, Some(figures));
    assert_eq!(records[0].chunks_done.len(), 2);
    assert_eq!(
        records[0].chunk_counts.get(&1033),
        Some(&Counts {
            nodes: 99,
            candidates: 7
        })
    );
    // Counters belong to shard journals only.
    let err = refused(resume(&path, "fp", &grids, false));
    assert!(
        err.contains("record 1") && err.contains("preparation"),
        "{err}"
    );
}

#[test]
fn a_chunk_outside_the_grids_list_is_refused_once_it_is_known() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j");
    let grids = [grid()];
    let journal = Journal::create(&path, "fp", 1, false).unwrap();
    journal
        .chunk_done(0, 0x01_0203, RunStats::default())
        .unwrap();
    drop(journal);
    let (_, records) = open(resume(&path, "fp", &grids, false));
    let listed = [ChunkId::from_u32(0x01_0203).unwrap()];
    records[0].check_chunks(&path, 0, &listed).unwrap();
    let err = records[0]
        .check_chunks(&path, 0, &[ChunkId::WHOLE])
        .unwrap_err();
    let err = format!("{err:#}");
    assert!(
        err.contains("record 1: chunk 66051 is not a chunk of grid 1"),
        "{err}"
    );
}

#[test]
fn a_signal_stops_the_reading_and_leaves_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j");
    let grids = [grid()];
    let journal = Journal::create(&path, "fp", 1, false).unwrap();
    journal.puzzle(0, &grids[0], givens(&[0, 1, 2])).unwrap();
    drop(journal);
    let before = std::fs::read(&path).unwrap();
    let expect = Expect {
        grids: &grids,
        rules: RULES,
        counted: false,
    };
    let flag = AtomicUsize::new(libc::SIGTERM as usize);
    match Journal::resume(&path, "fp", &expect, 1 << 30, &flag).unwrap() {
        Loaded::Interrupted(signal) => assert_eq!(signal, libc::SIGTERM),
        Loaded::Open(..) => panic!("not interrupted"),
    }
    assert_eq!(std::fs::read(&path).unwrap(), before);
}
