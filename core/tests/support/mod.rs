//! Helpers of the core integration tests: the shared data ([`data`]), the UA list and
//! scan of a grid on the core API alone, and DLX3 as an independent uniqueness check.
#![allow(dead_code)] // each test file uses a different subset

mod data;

use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

pub use data::*;
use xcover_core::dlx3::{Dlx3, Event, Name, Settings, WorkspaceView};

use xcover_core::dlx3::image::{Item, Level, Node};
use xcover_core::gridcheck::scan::{
    self, ChunkId, ChunkRun, RunStatus, ScanOptions, Workspace, WorkspaceSize,
};
use xcover_core::gridcheck::ua::{generate, UaList};
use xcover_core::gridcheck::{Cells, Grid, GridcheckError, Puzzle};

/// Full-size runs (50 sources etc.) in release builds or with XCOVER_HEAVY_TESTS=1; debug
/// builds without it run a smaller sample of the same checks.
pub fn heavy() -> bool {
    !cfg!(debug_assertions) || std::env::var_os("XCOVER_HEAVY_TESTS").is_some()
}

/// The UA list of a scan (a pruning device only): all 4-digit subsets and `random`
/// pseudo-puzzles from `seed`, never blanking `keep`; the list grows until it fits.
pub fn generate_uas(grid: &Grid, random: u32, seed: u64, keep: Cells) -> Vec<Cells> {
    let mut scratch = vec![Cells::EMPTY; 1 << 16];
    let mut capacity = 16_384;
    loop {
        let mut storage = vec![Cells::EMPTY; capacity];
        let mut list = UaList::new(&mut storage);
        match generate::for_mask(grid, random, seed, keep, &mut list, &mut scratch) {
            Ok(_) => return list.as_slice().to_vec(),
            Err(GridcheckError::ListFull { .. }) => capacity *= 2,
            Err(err) => panic!("generating UA: {err}"),
        }
    }
}

/// Every puzzle of the scan: its chunks shared out to two threads, each with its own
/// owned workspace (a stop-at-first scan stops at the first puzzle of either thread).
pub fn scan_set(grid: &Grid, uas: &[Cells], options: &ScanOptions) -> BTreeSet<Cells> {
    let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
    let prepared = scan::prepare(grid, uas, options, &mut work).expect("scan prepares");
    let chunks: Vec<ChunkId> = prepared.chunks().collect();
    let (next, stop) = (AtomicUsize::new(0), AtomicBool::new(false));
    let found = Mutex::new(BTreeSet::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let mut workspace: Box<Workspace<{ WorkspaceSize::for_clues(81).states }>> =
                    Box::default();
                while let Some(&chunk) = chunks.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let view = workspace.as_mut_view();
                    let mut run = ChunkRun::new(&prepared, view, chunk).unwrap();
                    let status = run.run(u64::MAX, &mut |givens| {
                        found.lock().unwrap().insert(givens);
                        ControlFlow::Continue(())
                    });
                    match status {
                        RunStatus::Done => {}
                        RunStatus::Stopped => stop.store(true, Ordering::Relaxed),
                        RunStatus::BudgetExhausted => unreachable!("unlimited budget"),
                    }
                }
            });
        }
    });
    let mut found = found.into_inner().unwrap();
    if options.stop_at_first {
        // Each thread may have stopped at a puzzle: keep one, as one thread would.
        found = found.into_iter().take(1).collect();
    }
    found
}

/// Number of solutions (at most `limit`) by the second, independent route: Knuth's DLX3 on
/// the Sudoku exact-cover matrix (cell, row-digit, column-digit, box-digit items).
pub fn dlx3_count(puzzle: &Puzzle, limit: u64) -> u64 {
    let mut text = String::new();
    for kind in ['p', 'r', 'c', 'b'] {
        for a in 0..9 {
            for b in 0..9 {
                text.push_str(&format!("{kind}{a}{b} "));
            }
        }
    }
    text.push('\n');
    for cell in 0..81usize {
        let (r, c) = (cell / 9, cell % 9);
        let b = r / 3 * 3 + c / 3;
        let given = puzzle.digit(cell as u8);
        for d in 1..=9u8 {
            if given != 0 && given != d {
                continue;
            }
            let d = d - 1;
            text.push_str(&format!("p{r}{c} r{r}{d} c{c}{d} b{b}{d}\n"));
        }
    }
    let mut items = vec![Item::ZERO; 330];
    let mut names: Vec<Name> = vec![[0; 8]; 330];
    let mut nodes = vec![Node::ZERO; 330 + 729 * 5 + 10];
    let mut levels = vec![Level::ZERO; 100];
    let storage = WorkspaceView::new(&mut items, &mut names, &mut nodes, &mut levels);
    let settings = Settings::new()
        .verbosity(0)
        .print_interval(0)
        .max_solutions(limit);
    let mut engine = Dlx3::new(storage, settings).expect("dlx3 storage");
    engine
        .read_input(text.as_bytes(), &mut xcover_core::sink::Discard)
        .expect("dlx3 input");
    while !matches!(
        engine.run_silent(u64::MAX).expect("dlx3 run"),
        Event::Done(_)
    ) {}
    engine.stats().count
}

/// Asserts the puzzle with `givens` of `grid` is unique by DLX3.
pub fn assert_unique_by_dlx3(grid: &Grid, givens: Cells) {
    let puzzle = Puzzle::from_grid(grid, givens);
    assert_eq!(
        dlx3_count(&puzzle, 2),
        1,
        "DLX3 does not find exactly one solution for {puzzle}"
    );
}
