//! The band engine against brute force, cut every way, and its refusals.
use super::plan::{prepare_shaped, work_entries, Refused, Shape};
use super::{prepare, BandRun, BAND_WORDS};
use crate::gridcheck::scan::{ChunkId, ClueMask, RunStatus, ScanError, ScanOptions};
use crate::gridcheck::ua::budget::Recipe;
use crate::gridcheck::ua::UaList;
use crate::gridcheck::{Cells, Grid};
use core::ops::ControlFlow;
use std::collections::HashSet;
use std::vec;
use std::vec::Vec;

fn grid() -> Grid {
    Grid::parse(
        b"128465973534789261697231854271354698359876412486912735813647529965128347742593186",
    )
    .unwrap()
}

/// The UA of `grid` from its 4-digit subsets.
fn subset_uas(grid: &Grid) -> Vec<Cells> {
    let (mut storage, mut scratch) = (vec![Cells::EMPTY; 1 << 16], vec![Cells::EMPTY; 1 << 16]);
    let mut list = UaList::new(&mut storage);
    let recipe = Recipe::given(0);
    recipe
        .generate(grid, 1, Cells::EMPTY, &mut list, &mut scratch)
        .unwrap();
    list.as_slice().to_vec()
}

/// 14 UA of `grid`, of several kinds, that the cells 3, 31, 58 and 76 hit.
fn spread_uas(grid: &Grid) -> Vec<Cells> {
    let all = subset_uas(grid);
    let spread = Cells::from_cells(&[3, 31, 58, 76]);
    all.iter()
        .copied()
        .filter(|u| !u.is_disjoint(spread))
        .step_by(3)
        .take(14)
        .collect()
}

/// Every set the scan gives its final test when that test accepts all (each as often as
/// the scan gives it), prepared in `work` entries and running each chunk in slices of
/// `budget` steps.
fn candidates_in(grid: &Grid, uas: &[Cells], shape: Shape, budget: u64, work: usize) -> Vec<Cells> {
    let mut work = vec![0u128; work];
    let scan = prepare_shaped(grid, uas, &ScanOptions::new(4), &mut work, shape).unwrap();
    let mut words = vec![0u64; super::workspace::words_for(shape.block_sets)];
    let mut found = Vec::new();
    let chunks: Vec<ChunkId> = scan.chunks().collect();
    let distinct: HashSet<ChunkId> = chunks.iter().copied().collect();
    assert_eq!(distinct.len(), chunks.len());
    for chunk in chunks {
        let mut run = BandRun::new(&scan, &words, chunk).unwrap();
        run.unique = |_, _| true;
        let mut on_found = |givens: Cells| {
            found.push(givens);
            ControlFlow::Continue(())
        };
        while run.run(&mut words, budget, &mut on_found) == RunStatus::BudgetExhausted {}
        assert_eq!(run.stats().found, run.stats().candidates);
    }
    found.sort_unstable_by_key(|c| c.0);
    found
}

/// The 4-cell sets hitting every one of `uas`, sorted.
fn brute_force(uas: &[Cells]) -> Vec<Cells> {
    let mut brute = Vec::new();
    for a in 0..81 {
        for b in a + 1..81 {
            let ab = 1u128 << a | 1u128 << b;
            for c in b + 1..81 {
                for d in c + 1..81 {
                    let set = ab | 1u128 << c | 1u128 << d;
                    if uas.iter().all(|u| u.0 & set != 0) {
                        brute.push(Cells(set));
                    }
                }
            }
        }
    }
    brute.sort_unstable_by_key(|c| c.0);
    brute
}

/// The scan with every candidate accepted gives exactly the brute-force list of the 4-cell
/// sets hitting 14 UA of several kinds, each once: in both orientations, with vectors too
/// short for the list (so the cross UA beyond them and the leaves' UA are used too) or
/// with none, with sides cut into blocks of 3 sets, and run a step at a time.
#[test]
fn the_scan_finds_every_hitting_set() {
    let grid = grid();
    // The UA that four cells spread over the bands hit: the hitting sets include them.
    let spread = Cells::from_cells(&[3, 31, 58, 76]);
    let uas = spread_uas(&grid);
    let kinds: HashSet<u32> = uas
        .iter()
        .map(|u| super::geometry::bands_met(u.0))
        .collect();
    assert!(kinds.len() >= 4, "UA of several kinds: {kinds:?}");
    let brute = brute_force(&uas);
    assert!(brute.contains(&spread));
    let shape = |block_sets, vector_uas, stacks| Shape {
        block_sets,
        vector_uas,
        stacks,
    };
    for (shape, budget) in [
        (shape(16_384, 1024, Some(false)), u64::MAX),
        (shape(16_384, 1024, Some(true)), u64::MAX),
        (shape(16_384, 2, None), u64::MAX),
        (shape(16_384, 0, Some(true)), u64::MAX),
        (shape(3, 1024, None), u64::MAX),
        (shape(5, 2, Some(false)), 1),
    ] {
        let found = candidates_in(&grid, &uas, shape, budget, work_entries(uas.len()));
        assert_eq!(found.len(), brute.len(), "{shape:?}");
        assert!(found == brute, "{shape:?}: other sets");
    }
    // With room for the lists of 7 UA only, the scan keeps the 7 smallest.
    let mut smallest = uas.clone();
    smallest.sort_unstable_by_key(|u| (u.len(), u.0));
    smallest.truncate(7);
    let room = uas.len() + 5 * 7 + 4;
    let found = candidates_in(&grid, &uas, Shape::DEFAULT, u64::MAX, room);
    assert_eq!(found, brute_force(&smallest));
}

/// The final test decides, and stop-at-first ends the run at its first puzzle.
#[test]
fn the_final_test_decides_and_stop_at_first_stops() {
    let grid = grid();
    let uas = spread_uas(&grid);
    let mut options = ScanOptions::new(4);
    options.stop_at_first = true;
    let mut work = vec![0u128; work_entries(uas.len())];
    let scan = prepare(&grid, &uas, &options, &mut work).unwrap();
    let mut words = vec![0u64; BAND_WORDS];
    // The real test: candidates, but no 4-clue puzzle.
    let (mut candidates, mut rich) = (0, None);
    for chunk in scan.chunks() {
        let mut run = BandRun::new(&scan, &words, chunk).unwrap();
        let mut none = |_| ControlFlow::Continue(());
        assert_eq!(run.run(&mut words, u64::MAX, &mut none), RunStatus::Done);
        assert_eq!(run.stats().found, 0);
        candidates += run.stats().candidates;
        if run.stats().candidates > 1 {
            rich = rich.or(Some(chunk));
        }
    }
    assert!(candidates > 100, "{candidates}");
    let chunk = rich.unwrap();
    let mut run = BandRun::new(&scan, &words, chunk).unwrap();
    run.unique = |_, _| true;
    let mut reported = Vec::new();
    let mut on_found = |givens| {
        reported.push(givens);
        ControlFlow::Continue(())
    };
    let candidates_before = run.stats().candidates;
    assert_eq!(
        run.run(&mut words, u64::MAX, &mut on_found),
        RunStatus::Stopped
    );
    assert_eq!(
        run.run(&mut words, u64::MAX, &mut on_found),
        RunStatus::Stopped
    );
    assert_eq!((reported.len(), candidates_before), (1, 0));
}

/// Bad input is refused with the scan's errors, and nothing runs.
#[test]
fn bad_input_is_refused() {
    let grid = grid();
    let uas = subset_uas(&grid);
    let options = ScanOptions::new(17);
    let mut short = vec![0u128; uas.len() - 1];
    assert!(matches!(
        prepare(&grid, &uas, &options, &mut short),
        Err(Refused::Scan(ScanError::StorageTooSmall { .. }))
    ));
    let mut work = vec![0u128; work_entries(uas.len()) + 6];
    let mut masked = options;
    masked.mask = ClueMask::parse(b"1").unwrap();
    assert!(matches!(
        prepare(&grid, &uas, &masked, &mut work),
        Err(Refused::NotTaken(_))
    ));
    let mut with_empty = uas.clone();
    with_empty.push(Cells::EMPTY);
    assert_eq!(
        prepare(&grid, &with_empty, &options, &mut work).unwrap_err(),
        Refused::Scan(ScanError::EmptyUa { index: uas.len() })
    );
    assert_eq!(
        prepare(&grid, &uas, &ScanOptions::new(0), &mut work).unwrap_err(),
        Refused::Scan(ScanError::BadClueCount { clues: 0 })
    );
    // 30 clues split over the bands in more ways than a chunk id numbers.
    assert!(matches!(
        prepare(&grid, &uas, &ScanOptions::new(30), &mut work),
        Err(Refused::NotTaken(_))
    ));
    let scan = prepare(&grid, &uas, &options, &mut work).unwrap();
    let words = vec![0u64; BAND_WORDS];
    let listed: HashSet<ChunkId> = scan.chunks().collect();
    for chunk in [
        ChunkId::WHOLE,
        ChunkId {
            top: 84,
            second: 0,
            third: 0,
        },
        ChunkId {
            top: 255,
            second: 0,
            third: 0,
        },
    ] {
        assert!(!listed.contains(&chunk));
        assert_eq!(
            BandRun::new(&scan, &words, chunk).err(),
            Some(ScanError::BadChunk)
        );
    }
    let first = *listed.iter().next().unwrap();
    let past = ChunkId {
        second: 255,
        ..first
    };
    assert_eq!(
        BandRun::new(&scan, &words, past).err(),
        Some(ScanError::BadChunk)
    );
    assert!(matches!(
        BandRun::new(&scan, &words[1..], first).err(),
        Some(ScanError::StorageTooSmall { .. })
    ));
}
