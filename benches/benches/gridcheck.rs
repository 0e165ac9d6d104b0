//! Grid scan benchmarks (xcover_core::gridcheck::scan), one thread.
//!
//! Grid `ga` = solution of line 1 of `../shared/data/sudoku17.txt` (read beside the
//! repository, never copied into it). Masked scans force the first k clues of that 17 (in
//! cell order, the reference's k-series) and scan N = 17; the UA list is built before timing
//! (4-digit subsets and 300 random pseudo-puzzles, forced givens kept given). Also: whole-grid
//! UA generation (4-digit subsets + 3000 random), the whole-grid N = 16 preparation, and one
//! chunk of that scan.
//! Run: `cargo bench -p xcover-benches --bench gridcheck`.
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use xcover_core::gridcheck::scan::{
    self, BitmapTable, ChunkId, ChunkRun, ClueMask, LevelState, ScanOptions, TruncationLimits,
    WorkspaceSize, WorkspaceView,
};
use xcover_core::gridcheck::ua::generate;
use xcover_core::gridcheck::ua::Antichain;
use xcover_core::gridcheck::ua::SplitMix64;
use xcover_core::gridcheck::ua::UaList;
use xcover_core::gridcheck::{solver, Cells, Grid, Puzzle};

fn first_17() -> (Puzzle, Grid) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/sudoku17.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {}: {e} (shared data beside the repository)",
            path.display()
        )
    });
    let line = text.lines().next().expect("a puzzle line");
    let puzzle = Puzzle::parse(line.as_bytes()).expect("puzzle");
    let grid = Grid::from_digits(solver::solve(&puzzle).expect("solvable")).expect("grid");
    (puzzle, grid)
}

/// Minimal UA avoiding `keep`: 4-digit subsets and `random` pseudo-puzzles over open cells.
fn uas_keeping(grid: &Grid, keep: Cells, random: u32) -> Vec<Cells> {
    let mut storage = vec![Cells::EMPTY; 1 << 20];
    let mut scratch = vec![Cells::EMPTY; 1 << 16];
    let mut list = UaList::new(&mut storage);
    let mut merge = |blanks: Cells, list: &mut UaList<'_>| {
        let mut chain = Antichain::new(&mut scratch);
        generate::minimal_ua_inside(grid, blanks, &mut chain);
        if !chain.overflowed() {
            for &ua in chain.as_slice() {
                list.push_merging(ua).expect("room");
            }
        }
    };
    for subset in (0u32..512).filter(|s| s.count_ones() == 4) {
        let cells = (0..9u8)
            .filter(|d| subset >> d & 1 == 1)
            .fold(Cells::EMPTY, |a, d| a | grid.cells_of_digit(d + 1));
        merge(cells - keep, &mut list);
    }
    let mut open: Vec<u8> = keep.complement().iter().collect();
    let blanks = open.len() * 2 / 3;
    let mut rng = SplitMix64::new(1);
    for _ in 0..random {
        let mut set = Cells::EMPTY;
        for i in 0..blanks {
            let j = i + rng.below((open.len() - i) as u32) as usize;
            open.swap(i, j);
            set.insert(open[i]);
        }
        merge(set, &mut list);
    }
    list.dedup();
    list.as_slice().to_vec()
}

/// Prepares and runs `chunk` on one thread; returns the puzzles found.
fn scan_once(grid: &Grid, uas: &[Cells], options: &ScanOptions, chunk: Option<usize>) -> usize {
    let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
    let prepared = scan::prepare(grid, uas, options, &mut work).expect("prepare");
    let size = WorkspaceSize::for_scan(&prepared);
    let mut table = Box::new(BitmapTable::new());
    let mut states = vec![LevelState::ZERO; size.states];
    let id = match chunk {
        Some(n) => prepared.chunks().nth(n).expect("chunk"),
        None => ChunkId::WHOLE,
    };
    let workspace = WorkspaceView::new(&mut table, &mut states);
    let mut run = ChunkRun::new(&prepared, workspace, id).expect("run");
    let mut found = 0;
    run.run(u64::MAX, &mut |_| {
        found += 1;
        ControlFlow::Continue(())
    });
    found
}

fn masked(c: &mut Criterion) {
    let (puzzle, grid) = first_17();
    let clues: Vec<u8> = puzzle.givens().iter().collect();
    let mut group = c.benchmark_group("gridcheck_masked_n17");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    for k in [12usize, 10, 8, 7, 6] {
        let forced = Cells::from_cells(&clues[..k]);
        let uas = uas_keeping(&grid, forced, 300);
        let mut options = ScanOptions::new(17);
        options.mask = ClueMask {
            givens: forced,
            empties: Cells::EMPTY,
        };
        options.truncation = Some(TruncationLimits { total: 768 });
        group.bench_function(format!("ga_k{k}"), |b| {
            b.iter(|| assert_eq!(scan_once(&grid, &uas, &options, None), 1))
        });
    }
    group.finish();
}

fn whole_grid(c: &mut Criterion) {
    let (_, grid) = first_17();
    let mut group = c.benchmark_group("gridcheck_whole");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("ga_ua_generation_3000", |b| {
        b.iter(|| {
            let mut storage = vec![Cells::EMPTY; 1 << 18];
            let mut scratch = vec![Cells::EMPTY; 1 << 16];
            let mut list = UaList::new(&mut storage);
            generate::from_digit_subsets(&grid, 4, &mut list, &mut scratch).expect("room");
            generate::from_random_blanks(&grid, 3000, 54, 1, &mut list, &mut scratch)
                .expect("room");
            list.len()
        })
    });
    let uas = uas_keeping(&grid, Cells::EMPTY, 3000);
    let options = ScanOptions::new(16);
    // Preparation alone: clique, disjoint-chain rating of members and cells, remap and
    // truncation.
    group.bench_function("ga_n16_prepare", |b| {
        b.iter(|| {
            let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
            let prepared = scan::prepare(&grid, &uas, &options, &mut work).expect("prepare");
            prepared.kept_len()
        })
    });
    // One of the 52 chunks (about 1/50 of the scan; `gridcheck_sample` times them all).
    group.bench_function("ga_n16_prepare_and_chunk_20", |b| {
        b.iter(|| scan_once(&grid, &uas, &options, Some(20)))
    });
    group.finish();
}

criterion_group!(benches, masked, whole_grid);
criterion_main!(benches);
