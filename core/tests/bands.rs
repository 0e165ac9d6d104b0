//! The band engine against the enumeration on real grids, through the public API: the
//! same puzzles on grids of the 17-clue list (their own puzzle among them), however the
//! runs are sliced, and the session's choice of engine by the storage it is lent.
//!
//! Built with the `bands` feature only, which `cargo test --workspace` turns on (the
//! command's dependency asks for it); `cargo test -p xcover-core --features bands` runs it
//! alone.
#![cfg(feature = "bands")]

mod support;

use std::collections::BTreeSet;
use std::mem::MaybeUninit;
use std::ops::ControlFlow;

use support::*;
use xcover_core::gridcheck::scan::{
    self, BitmapTable, ChunkId, ChunkRun, ClueMask, Engine, LevelState, Prepared, RunStats,
    RunStatus, ScanError, ScanOptions, WorkspaceSize, WorkspaceView,
};
use xcover_core::gridcheck::session::{Runs, Session, SessionError, Storage};
use xcover_core::gridcheck::ua::{budget, UaList};
use xcover_core::gridcheck::{Cells, Grid};

/// The default UA list of a whole-grid scan, as every front end generates it.
fn default_uas(grid: &Grid, clues: u8) -> Vec<Cells> {
    let recipe = budget::scan_recipe(grid, &ScanOptions::new(clues));
    let mut scratch = vec![Cells::EMPTY; 1 << 16];
    let mut storage = vec![Cells::EMPTY; 1 << 17];
    let mut list = UaList::new(&mut storage);
    recipe
        .generate(grid, 1, Cells::EMPTY, &mut list, &mut scratch)
        .expect("UA generation");
    list.as_slice().to_vec()
}

/// Every chunk of `prepared`, each run in slices of `budget` steps in one workspace: the
/// puzzles found and the counters summed.
fn run_all(prepared: &Prepared<'_>, budget: u64) -> (BTreeSet<Cells>, RunStats) {
    let size = WorkspaceSize::for_scan(prepared);
    let mut table = Box::new(BitmapTable::new());
    let mut states = vec![LevelState::ZERO; size.states];
    let mut band_words = vec![0u64; size.band_words];
    let (mut found, mut stats) = (BTreeSet::new(), RunStats::default());
    for chunk in prepared.chunks() {
        let view = WorkspaceView::new(&mut table, &mut states).with_bands(&mut band_words);
        let mut run = ChunkRun::new(prepared, view, chunk).expect("a listed chunk runs");
        let mut on_found = |givens| {
            assert!(found.insert(givens), "a puzzle found twice");
            ControlFlow::Continue(())
        };
        while run.run(budget, &mut on_found) == RunStatus::BudgetExhausted {}
        stats += run.stats();
    }
    (found, stats)
}

/// On grids of the 17-clue list, the band engine finds exactly the enumeration's 17-clue
/// puzzles, the list's own among them, each unique by DLX3; a run in slices of 1,000 steps
/// finds the same with the same counters.
#[test]
fn the_band_engine_finds_what_the_enumeration_finds() {
    let Some(lines) = sudoku17() else { return };
    // Line 40,000 scans in seconds; the heavy run adds two more.
    let picks: &[usize] = if heavy() {
        &[39_999, 10, 25_000]
    } else {
        &[39_999]
    };
    for &index in picks {
        let (puzzle, grid) = grid_of(&lines[index]);
        let uas = default_uas(&grid, 17);
        let options = ScanOptions::new(17);
        let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
        let bands = scan::prepare_with_bands(&grid, &uas, &options, &mut work).unwrap();
        assert_eq!(bands.engine(), Engine::Bands);
        let (found, stats) = run_all(&bands, u64::MAX);
        assert!(
            found.contains(&puzzle.givens()),
            "line {}: source not found",
            index + 1
        );
        for &givens in &found {
            assert_eq!(givens.len(), 17);
            assert_unique_by_dlx3(&grid, givens);
        }
        let (sliced, sliced_stats) = run_all(&bands, 1000);
        assert_eq!(
            (&sliced, sliced_stats),
            (&found, stats),
            "sliced runs differ"
        );
        let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
        let enumeration = scan::prepare(&grid, &uas, &options, &mut work).unwrap();
        assert_eq!(enumeration.engine(), Engine::Enumeration);
        assert_eq!(
            run_all(&enumeration, u64::MAX).0,
            found,
            "line {}",
            index + 1
        );
    }
}

/// The band engine takes whole grids only: a masked scan prepared with bands runs on the
/// enumeration, and finds what `prepare` finds.
#[test]
fn masked_scans_stay_on_the_enumeration() {
    let Some(lines) = sudoku17() else { return };
    let (puzzle, grid) = grid_of(&lines[7]);
    let forced = Rng(17).pick(puzzle.givens(), 12);
    let mut options = ScanOptions::new(17);
    options.mask = ClueMask::parse(mask_text(forced, Cells::EMPTY).as_bytes()).unwrap();
    let uas = generate_uas(&grid, 100, 1, forced);
    let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
    let prepared = scan::prepare_with_bands(&grid, &uas, &options, &mut work).unwrap();
    assert_eq!(prepared.engine(), Engine::Enumeration);
    assert_eq!(WorkspaceSize::for_scan(&prepared).band_words, 0);
    let (found, _) = run_all(&prepared, u64::MAX);
    assert!(found.contains(&puzzle.givens()));
    assert_eq!(found, scan_set(&grid, &uas, &options));
}

/// The storage a session is lent (the prepared scan's room lives beside it, since the
/// scan borrows from it).
struct Lent {
    grid: MaybeUninit<Grid>,
    uas: Vec<Cells>,
    work: Vec<u128>,
    table: Box<BitmapTable>,
    states: Vec<LevelState>,
    band_words: Vec<u64>,
}

impl Lent {
    fn new(uas: &[Cells], band_words: usize) -> Lent {
        Lent {
            grid: MaybeUninit::uninit(),
            uas: uas.to_vec(),
            work: vec![0u128; scan::prepare_work_entries(uas.len())],
            table: Box::new(BitmapTable::new()),
            states: vec![LevelState::ZERO; 18],
            band_words: vec![0; band_words],
        }
    }
}

/// A session prepared for `options` over `lent`, the prepared scan in `room`.
fn prepared_session<'s>(
    lent: &'s mut Lent,
    room: &'s mut MaybeUninit<Prepared<'s>>,
    grid: Grid,
    options: ScanOptions,
) -> Session<'s> {
    let held = lent.uas.len();
    let mut session = Session::new(Storage {
        grid: &mut lent.grid,
        prepared: room,
        uas: &mut lent.uas,
        uas_held: held,
        ua_scratch: &mut [],
        work: &mut lent.work,
        workspace: WorkspaceView::new(&mut lent.table, &mut lent.states)
            .with_bands(&mut lent.band_words),
    });
    session.set_grid(grid).unwrap();
    session.set_options(options).unwrap();
    session.prepare().unwrap();
    session
}

/// A session runs a whole grid on the band engine when its workspace has band words, and
/// on the enumeration otherwise or for a masked scan; another thread's runs of a band scan
/// need band words too, and an enumeration chunk id is not a band chunk.
#[test]
fn the_session_picks_the_engine_by_its_storage() {
    let Some(lines) = sudoku17() else { return };
    let (_, grid) = grid_of(&lines[39_999]);
    let uas = default_uas(&grid, 17);
    let engine = |band_words, options| {
        let (mut lent, mut room) = (Lent::new(&uas, band_words), MaybeUninit::uninit());
        let session = prepared_session(&mut lent, &mut room, grid, options);
        session.prepared().unwrap().engine()
    };
    let whole = ScanOptions::new(17);
    let mut masked = whole;
    masked.mask = ClueMask::parse(b"1*").unwrap();
    assert_eq!(engine(WorkspaceSize::BAND_WORDS, whole), Engine::Bands);
    assert_eq!(
        engine(WorkspaceSize::BAND_WORDS - 1, whole),
        Engine::Enumeration
    );
    assert_eq!(engine(0, whole), Engine::Enumeration);
    assert_eq!(
        engine(WorkspaceSize::BAND_WORDS, masked),
        Engine::Enumeration
    );

    let (mut lent, mut room) = (
        Lent::new(&uas, WorkspaceSize::BAND_WORDS),
        MaybeUninit::uninit(),
    );
    let mut session = prepared_session(&mut lent, &mut room, grid, whole);
    let prepared = session.prepared().unwrap();
    assert_eq!(
        WorkspaceSize::for_scan(prepared).band_words,
        WorkspaceSize::BAND_WORDS
    );
    let (mut table, mut states) = (Box::new(BitmapTable::new()), vec![LevelState::ZERO; 18]);
    let bare = WorkspaceView::new(&mut table, &mut states);
    assert!(matches!(
        Runs::new(prepared, bare),
        Err(SessionError::Scan(ScanError::StorageTooSmall {
            what: "band words",
            ..
        }))
    ));
    assert!(!prepared.chunk_fits(ChunkId::WHOLE));
    assert_eq!(
        session.begin_chunk(ChunkId::WHOLE),
        Err(SessionError::Scan(ScanError::BadChunk))
    );
    let first = prepared.chunks().next().unwrap();
    session.begin_chunk(first).unwrap();
    let status = session
        .run(u64::MAX, &mut |_| ControlFlow::Continue(()))
        .unwrap();
    assert_eq!(status, RunStatus::Done);
    assert!(session.totals().steps > 0);
}
