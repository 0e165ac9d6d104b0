//! Worst-case stack use of the core searches: `core/` has no recursion, so a search needs a
//! fixed amount of stack whatever the depth of the problem. Each test runs the work on a
//! thread whose stack is the bound stated in the README (release builds; debug builds get
//! four times as much, their frames are larger); overflowing it would abort the test.
//!
//! The bounds are twice the smallest stack that worked when measured (see the README):
//! `XCOVER_STACK_KIB=<n> cargo test --release --test stack_bounds` runs the same work with
//! another size, to measure again.
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use xcover_core::dlx3::{ArgOutcome, Dlx3, Event, HeapWorkspace, Settings, Sinks};
use xcover_core::gridcheck::scan::{
    self, BitmapTable, ChunkRun, ClueMask, LevelState, ScanOptions, WorkspaceSize,
};
use xcover_core::gridcheck::solver;
use xcover_core::gridcheck::{Cells, Grid, Puzzle};
use xcover_core::sink::Discard;

mod common;
use common::GRID18;

/// Stack bound of a dlx3 search (parse, search, reports), release build: measured to fit
/// in the smallest thread stack Linux gives (16 KiB).
const DLX3_STACK_KIB: usize = 32;
/// Stack bound of the Sudoku solver, release build (measured: 32 KiB; its branch stack of
/// 81 levels is an array in the frame).
const SUDOKU_STACK_KIB: usize = 64;
/// Stack bound of a gridcheck scan (prepare and chunk runs, uniqueness checks included),
/// release build (measured: 52 KiB).
const GRIDCHECK_STACK_KIB: usize = 128;

/// The stack a test thread gets: the bound, or `XCOVER_STACK_KIB` when measuring.
fn stack_bytes(bound_kib: usize) -> usize {
    let kib = std::env::var("XCOVER_STACK_KIB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) {
            4 * bound_kib
        } else {
            bound_kib
        });
    kib * 1024
}

/// Runs `work` on a thread with `bound_kib` KiB of stack; returns its result.
fn on_small_stack<T: Send + 'static>(
    bound_kib: usize,
    work: impl FnOnce() -> T + Send + 'static,
) -> T {
    std::thread::Builder::new()
        .stack_size(stack_bytes(bound_kib))
        .spawn(work)
        .expect("thread starts")
        .join()
        .expect("work finishes")
}

/// Runs one dlx3 problem to the end with `args`; returns (solutions, levels reached).
fn dlx3_run(input: &[u8], args: &[&[u8]]) -> (u64, u32) {
    let mut settings = Settings::DEFAULT;
    for arg in args.iter().rev() {
        if let ArgOutcome::Bad = settings.apply_arg(arg) {
            return (0, 0);
        }
    }
    let mut workspace = HeapWorkspace::for_input(input);
    let Ok(mut engine) = Dlx3::new(workspace.as_mut_view(), settings) else {
        return (0, 0);
    };
    // Discarding sinks still get every byte formatted (the stack use being measured).
    let (mut out, mut err, mut shape) = (Discard, Discard, Discard);
    if let Err(e) = engine.read_input(input, &mut err) {
        engine.write_error_report(&e, &mut err);
        return (0, 0);
    }
    loop {
        let mut sinks = Sinks {
            out: &mut out,
            err: &mut err,
            shape: Some(&mut shape),
        };
        match engine.run(1 << 16, &mut sinks) {
            Ok(Event::Done(_)) => break,
            Ok(_) => {}
            Err(e) => {
                engine.write_error_report(&e, &mut err);
                break;
            }
        }
    }
    engine.finish(&mut err);
    (engine.stats().count, engine.stats().maxl)
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dlx3")
}

#[test]
fn dlx3_conformance_corpus_runs_on_a_small_stack() {
    let mut cases = Vec::new();
    for entry in std::fs::read_dir(fixtures()).unwrap() {
        let dir = entry.unwrap().path();
        let (Ok(input), Ok(args)) = (
            std::fs::read(dir.join("input.dlx")),
            std::fs::read_to_string(dir.join("args")),
        ) else {
            continue;
        };
        // Shape files (`S...`) are written to the string sink instead.
        let args: Vec<Vec<u8>> = args
            .split_whitespace()
            .filter(|a| !a.starts_with('S'))
            .map(|a| a.as_bytes().to_vec())
            .collect();
        cases.push((input, args));
    }
    assert!(cases.len() > 100, "corpus found");
    let solved = on_small_stack(DLX3_STACK_KIB, move || {
        let mut solved = 0;
        for (input, args) in &cases {
            // Every trace and report flag on top of the case's own.
            for extra in [&b"v0"[..], b"v2047"] {
                let mut all: Vec<&[u8]> = args.iter().map(Vec::as_slice).collect();
                all.push(extra);
                all.push(b"m1");
                if dlx3_run(input, &all).0 > 0 {
                    solved += 1;
                }
            }
        }
        solved
    });
    assert!(solved > 50, "{solved}");
}

#[test]
fn dlx3_deep_search_runs_on_a_small_stack() {
    // 490 levels: items x0..x489, each covered by one of two one-item options (one of them
    // coloring a secondary item), every 7th with bounds 0:1 so slack moves happen too.
    let n = 490;
    let mut text = String::new();
    for i in 0..n {
        let bounds = if i % 7 == 3 { "0:1|" } else { "" };
        text.push_str(&format!("{bounds}x{i} "));
    }
    text.push_str("| s\n");
    for i in 0..n {
        text.push_str(&format!("x{i} s:a\nx{i}\n"));
    }
    let (count, depth) = on_small_stack(DLX3_STACK_KIB, move || {
        dlx3_run(text.as_bytes(), &[b"v1", b"m1", b"t3"])
    });
    assert_eq!(count, 3);
    assert!(depth as usize >= n - n / 7, "{depth}");
}

/// Puzzles of the 18-clue fixture, and the same with clues removed (many solutions).
fn puzzles() -> Vec<Puzzle> {
    let table = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gridcheck/cases18.tsv"),
    )
    .unwrap();
    let mut puzzles = Vec::new();
    for line in table.lines().skip(1) {
        let fields: Vec<&str> = line.split('\t').collect();
        let puzzle = Puzzle::parse(fields[2].as_bytes()).unwrap();
        puzzles.push(puzzle);
        let mut sparse = puzzle;
        for cell in puzzle.givens().iter().take(6) {
            sparse.set(cell, 0);
        }
        puzzles.push(sparse);
    }
    puzzles.push(Puzzle::parse(&[b'0'; 81]).unwrap());
    puzzles
}

#[test]
fn sudoku_solver_runs_on_a_small_stack() {
    let puzzles = puzzles();
    let counts = on_small_stack(SUDOKU_STACK_KIB, move || {
        puzzles
            .iter()
            .map(|p| solver::count_solutions(p, 1000))
            .collect::<Vec<u32>>()
    });
    assert_eq!(counts[0], 1);
    assert!(counts.contains(&1000), "{counts:?}");
}

/// Prepares a scan (with `bands`, as the command does: a whole grid on the band engine)
/// and runs `chunk_limit` chunks, each to its end or for `steps` steps; returns (chunks
/// run, puzzles).
fn gridcheck_run(
    uas: &[Cells],
    options: ScanOptions,
    bands: bool,
    chunk_limit: usize,
    steps: u64,
) -> (usize, usize) {
    let grid = Grid::parse(GRID18.as_bytes()).unwrap();
    let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
    let prepare = if bands {
        scan::prepare_with_bands
    } else {
        scan::prepare
    };
    let prepared = prepare(&grid, uas, &options, &mut work).unwrap();
    assert_eq!(
        prepared.engine() == scan::Engine::Bands,
        bands && options.mask.is_free()
    );
    let size = WorkspaceSize::for_scan(&prepared);
    let mut table = Box::new(BitmapTable::new());
    let mut states = vec![LevelState::ZERO; size.states];
    let mut band_words = vec![0u64; size.band_words];
    let mut found = 0;
    let mut ran = 0;
    for chunk in prepared.chunks().take(chunk_limit) {
        let workspace =
            scan::WorkspaceView::new(&mut table, &mut states).with_bands(&mut band_words);
        let mut run = ChunkRun::new(&prepared, workspace, chunk).unwrap();
        let mut spent = 0;
        while let scan::RunStatus::BudgetExhausted = run.run(1 << 12, &mut |_| {
            found += 1;
            ControlFlow::Continue(())
        }) {
            spent += 1 << 12;
            if spent >= steps {
                break;
            }
        }
        ran += 1;
    }
    (ran, found)
}

#[test]
fn gridcheck_scan_runs_on_a_small_stack() {
    let grid = Grid::parse(GRID18.as_bytes()).unwrap();
    let mask = "...1..1..11..........1.....11..1...........11.1.....1";
    let mut masked = ScanOptions::new(18);
    masked.mask = ClueMask::parse(mask.as_bytes()).unwrap();
    masked.truncation = Some(scan::TruncationLimits { total: 768 });
    let masked_uas =
        xcover_cli::gridcheck::ua_source::generate(&grid, 300, 1, masked.mask.givens).unwrap();
    // A whole-grid 17-clue scan (its first chunks only), on each engine.
    let whole = ScanOptions::new(17);
    let whole_uas =
        xcover_cli::gridcheck::ua_source::generate(&grid, 3000, 1, Cells::EMPTY).unwrap();
    let mut minimal = whole;
    minimal.minimal_only = true;
    let results = on_small_stack(GRIDCHECK_STACK_KIB, move || {
        [
            gridcheck_run(&masked_uas, masked, true, usize::MAX, u64::MAX),
            gridcheck_run(&whole_uas, whole, false, 3, 1 << 21),
            gridcheck_run(&whole_uas, minimal, false, 1, 1 << 21),
            gridcheck_run(&whole_uas, whole, true, 3, 1 << 21),
            gridcheck_run(&whole_uas, minimal, true, 1, 1 << 21),
        ]
    });
    assert_eq!(results[0].1, 81, "the fixture's puzzles");
    assert!(results[1].0 == 3 && results[2].0 == 1);
    assert!(results[3].0 == 3 && results[4].0 == 1);
}
