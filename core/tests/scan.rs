//! Integration tests of the grid scan on the core API: found puzzles against reference
//! cases, brute force and each other (chunked, resumed, truncated, stop-at-first). Every
//! puzzle any test finds is also checked unique by DLX3 (a second, independent route).
mod support;

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use support::*;
use xcover_core::gridcheck::scan::{
    self, BitmapTable, ChunkId, ChunkRun, ClueMask, LevelState, RunStatus, ScanOptions, Workspace,
    WorkspaceSize, WorkspaceView,
};
use xcover_core::gridcheck::{solver, ua, Cells, Grid, Puzzle};

/// Random pseudo-puzzles for the tests' UA lists (a pruning device only).
const TEST_UA_RANDOM: u32 = 100;

fn options(clues: u8, forced: Cells, empty: Cells) -> ScanOptions {
    let mut options = ScanOptions::new(clues);
    options.mask = ClueMask {
        givens: forced,
        empties: empty,
    };
    options
}

/// Checks the found puzzles: N clues, inside the mask, unique by DLX3.
fn check_found(grid: &Grid, found: &BTreeSet<Cells>, options: &ScanOptions) {
    for &givens in found {
        assert_eq!(givens.len(), u32::from(options.clues), "clue count");
        assert!(
            options.mask.givens.is_subset_of(givens),
            "forced givens kept"
        );
        assert!(
            givens.is_disjoint(options.mask.empties),
            "forced empties respected"
        );
        assert_unique_by_dlx3(grid, givens);
    }
}

#[test]
fn sudoku17_sources_are_found_with_10_to_12_forced_clues() {
    let Some(lines) = sudoku17() else { return };
    let count = if heavy() { 50 } else { 6 };
    let mut rng = Rng(0x17_2024);
    for round in 0..count {
        let line = &lines[rng.below(lines.len())];
        let (puzzle, grid) = grid_of(line);
        let forced = rng.pick(puzzle.givens(), 10 + round % 3);
        let mask = ClueMask::parse(mask_text(forced, Cells::EMPTY).as_bytes()).unwrap();
        assert_eq!(mask.givens, forced);
        let uas = generate_uas(&grid, TEST_UA_RANDOM, round as u64, forced);
        let options = options(17, forced, Cells::EMPTY);
        let found = scan_set(&grid, &uas, &options);
        assert!(
            found.contains(&puzzle.givens()),
            "source {line} not found (forced {})",
            forced.len()
        );
        check_found(&grid, &found, &options);
    }
}

/// The one-cell extensions of `givens` inside the grid.
fn extensions(givens: Cells) -> BTreeSet<Cells> {
    Cells::ALL
        .difference(givens)
        .iter()
        .map(|c| givens.union(Cells::single(c)))
        .collect()
}

fn tsv_set(field: &str) -> BTreeSet<String> {
    field
        .split(';')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

fn as_lines(grid: &Grid, found: &BTreeSet<Cells>) -> BTreeSet<String> {
    found
        .iter()
        .map(|&g| Puzzle::from_grid(grid, g).to_string())
        .collect()
}

#[test]
fn n18_plain_and_minimal_match_reference_cases() {
    let text = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../cli/tests/fixtures/gridcheck/cases18.tsv"
    ));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let mut cases = 0;
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let grid = Grid::parse(f[col("grid")].as_bytes()).unwrap();
        let p17 = Puzzle::parse(f[col("puzzle17")].as_bytes()).unwrap();
        let mask = ClueMask::parse(f[col("cluemask")].as_bytes()).unwrap();
        let clues: u8 = f[col("N")].parse().unwrap();
        let uas = generate_uas(&grid, TEST_UA_RANDOM, 7, mask.givens);
        let mut opts = ScanOptions::new(clues);
        opts.mask = mask;
        let plain = scan_set(&grid, &uas, &opts);
        check_found(&grid, &plain, &opts);
        assert_eq!(as_lines(&grid, &plain), tsv_set(f[col("puzzles")]));
        assert_eq!(plain.len(), f[col("n_found")].parse::<usize>().unwrap());
        let ext = extensions(p17.givens());
        assert_eq!(ext.len(), 64);
        assert!(
            ext.is_subset(&plain),
            "all 64 one-cell extensions of the 17 are found"
        );

        opts.minimal_only = true;
        let minimal = scan_set(&grid, &uas, &opts);
        check_found(&grid, &minimal, &opts);
        assert_eq!(
            as_lines(&grid, &minimal),
            tsv_set(f[col("puzzles_minimals")])
        );
        // --minimal removes exactly the non-minimal ones.
        let removed: BTreeSet<Cells> = plain.difference(&minimal).copied().collect();
        assert!(ext.is_subset(&removed));
        for &g in &plain {
            let non_minimal = g
                .iter()
                .any(|c| solver::is_unique_with_grid(&grid, g.difference(Cells::single(c))));
            assert_eq!(removed.contains(&g), non_minimal);
        }
        cases += 1;
    }
    assert!(cases >= 2);
}

#[test]
fn n18_extensions_on_seeded_sources() {
    let Some(lines) = sudoku17() else { return };
    let mut rng = Rng(18);
    for _ in 0..if heavy() { 6 } else { 2 } {
        let (puzzle, grid) = grid_of(&lines[rng.below(lines.len())]);
        let forced = rng.pick(puzzle.givens(), 12);
        let uas = generate_uas(&grid, TEST_UA_RANDOM, 3, forced);
        let mut opts = options(18, forced, Cells::EMPTY);
        let plain = scan_set(&grid, &uas, &opts);
        check_found(&grid, &plain, &opts);
        let ext = extensions(puzzle.givens());
        assert!(ext.is_subset(&plain));
        opts.minimal_only = true;
        let minimal = scan_set(&grid, &uas, &opts);
        assert!(minimal.is_subset(&plain));
        assert!(minimal.is_disjoint(&ext));
        for &g in plain.difference(&minimal) {
            assert!(g
                .iter()
                .any(|c| solver::is_unique_with_grid(&grid, g.difference(Cells::single(c)))));
        }
        for &g in &minimal {
            assert!(g
                .iter()
                .all(|c| !solver::is_unique_with_grid(&grid, g.difference(Cells::single(c)))));
        }
    }
}

/// Every `k`-subset of the cells in `free`, as a list.
fn subsets(free: &[u8], k: usize) -> Vec<Cells> {
    let mut out = Vec::new();
    let mut pick: Vec<usize> = (0..k).collect();
    if k > free.len() {
        return out;
    }
    loop {
        out.push(
            pick.iter()
                .fold(Cells::EMPTY, |acc, &i| acc.union(Cells::single(free[i]))),
        );
        let mut i = k;
        loop {
            if i == 0 {
                return out;
            }
            i -= 1;
            if pick[i] < free.len() - k + i {
                break;
            }
            if i == 0 {
                return out;
            }
        }
        if pick[i] >= free.len() - k + i {
            return out;
        }
        pick[i] += 1;
        for j in i + 1..k {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

/// Every `clues`-clue set of `forced` plus cells of `free` that has a unique solution
/// (and, with `minimal`, loses it without any one of its clues), by trying them all.
fn brute_force(
    grid: &Grid,
    free: &[u8],
    forced: Cells,
    clues: u8,
    minimal: bool,
) -> BTreeSet<Cells> {
    subsets(free, usize::from(clues) - forced.len() as usize)
        .into_iter()
        .map(|s| s.union(forced))
        .filter(|&g| solver::is_unique_with_grid(grid, g))
        .filter(|&g| {
            !minimal
                || g.iter()
                    .all(|c| !solver::is_unique_with_grid(grid, g.difference(Cells::single(c))))
        })
        .collect()
}

#[test]
fn brute_force_oracle_on_small_cases() {
    let Some(lines) = sudoku17() else { return };
    let mut rng = Rng(0xb7u64);
    let rounds = if heavy() { 24 } else { 8 };
    for round in 0..rounds {
        let (puzzle, grid) = grid_of(&lines[rng.below(lines.len())]);
        // Force 12..14 of the 17 clues, leave 14..18 free cells (the other clues among them
        // most of the time), every other cell forced empty.
        let forced = rng.pick(puzzle.givens(), 12 + round % 3);
        let other_clues = puzzle.givens().difference(forced);
        let keep_clues = if round % 4 == 3 {
            rng.pick(other_clues, other_clues.len() as usize - 1)
        } else {
            other_clues
        };
        let free_count = 14 + round % 5;
        let rest = Cells::ALL.difference(puzzle.givens());
        let free = keep_clues.union(rng.pick(rest, free_count - keep_clues.len() as usize));
        let empty = Cells::ALL.difference(free).difference(forced);
        let free_list: Vec<u8> = free.iter().collect();
        let uas = generate_uas(&grid, 20, round as u64, forced);
        for clues in [17u8, 18] {
            for minimal in [false, true] {
                let mut opts = options(clues, forced, empty);
                opts.minimal_only = minimal;
                let found = scan_set(&grid, &uas, &opts);
                let oracle = brute_force(&grid, &free_list, forced, clues, minimal);
                assert_eq!(found, oracle, "round {round} N={clues} minimal={minimal}");
                check_found(&grid, &found, &opts);
            }
        }
    }
}

/// A grid from the slow tail of whole-grid scans: random grid 3 of `grid_median --random
/// 200 --grid-seed 11` (benches/), whose 16-clue scan makes the most placements of the
/// first ten (2.3 M; 3.3 M before the scan branched on the set with the fewest live
/// cells and rated by weight alone, docs/PERFORMANCE.md).
const TAIL_GRID: &[u8] =
    b"325716849476839521981425367547692183893154672612378495154967238269583714738241956";

/// The branch choice and the cell order change the search tree, never the puzzles: on the
/// tail grid, masked scans around a minimal puzzle made from it find exactly the clue
/// sets brute force finds unique.
#[test]
fn a_tail_grid_finds_what_brute_force_finds() {
    let grid = Grid::parse(TAIL_GRID).unwrap();
    let mut rng = Rng(0x7a11);
    // A minimal puzzle of the grid: drop cells in random order while the rest stays unique.
    let mut puzzle = Cells::ALL;
    let mut order: Vec<u8> = Cells::ALL.iter().collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    for cell in order {
        let fewer = puzzle.difference(Cells::single(cell));
        if solver::is_unique_with_grid(&grid, fewer) {
            puzzle = fewer;
        }
    }
    let size = puzzle.len() as u8;
    assert!((17..=30).contains(&size), "{size} clues");
    // Three clues of the puzzle left free (with every other non-puzzle cell): the puzzle
    // itself is among the finds; with N one more, its one-cell extensions are too.
    for (round, (clues, free_of_puzzle)) in [(size, 3), (size, 3), (size + 1, 2)]
        .into_iter()
        .enumerate()
    {
        let forced = rng.pick(puzzle, puzzle.len() as usize - free_of_puzzle);
        let free_list: Vec<u8> = forced.complement().iter().collect();
        let uas = generate_uas(&grid, TEST_UA_RANDOM, round as u64, forced);
        for minimal in [false, true] {
            let mut opts = options(clues, forced, Cells::EMPTY);
            opts.minimal_only = minimal;
            let found = scan_set(&grid, &uas, &opts);
            let oracle = brute_force(&grid, &free_list, forced, clues, minimal);
            assert_eq!(found, oracle, "round {round} N={clues} minimal={minimal}");
            assert_eq!(found.contains(&puzzle), clues == size, "round {round}");
            check_found(&grid, &found, &opts);
        }
    }
}

/// The children's order (most-held first at the probed levels and, on a grid with a
/// small clique such as the tail grid, most-unhit first above them) is decided from what a
/// resumed run keeps: every chunk of the tail grid's whole-grid 14-clue scan makes the
/// same placements and candidates in slices of 97 steps as in one go.
#[test]
fn a_tail_grid_scan_resumes_to_the_same_tree() {
    let grid = Grid::parse(TAIL_GRID).unwrap();
    let uas = generate_uas(&grid, TEST_UA_RANDOM, 1, Cells::EMPTY);
    let opts = ScanOptions::new(14);
    let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
    let prepared = scan::prepare(&grid, &uas, &opts, &mut work).unwrap();
    // A clique of at most 10 members turns the order above the probed levels on.
    assert!(prepared.clique_members().len() <= 10);
    let size = WorkspaceSize::for_scan(&prepared);
    let mut table = Box::new(BitmapTable::new());
    let mut states = vec![LevelState::ZERO; size.states];
    let (mut placements, mut resumptions) = (0, 0);
    for id in prepared.chunks() {
        let mut counts = [(0, 0); 2];
        for (budget, count) in [u64::MAX, 97].into_iter().zip(&mut counts) {
            let workspace = WorkspaceView::new(&mut table, &mut states);
            let mut run = ChunkRun::new(&prepared, workspace, id).unwrap();
            let mut none = |_| ControlFlow::Continue(());
            while run.run(budget, &mut none) == RunStatus::BudgetExhausted {
                resumptions += 1;
            }
            *count = (run.stats().steps, run.stats().candidates);
        }
        assert_eq!(counts[1], counts[0], "chunk {}", id.to_u32());
        placements += counts[0].0;
    }
    assert!(
        placements > 10_000 && resumptions > 100,
        "{placements} {resumptions}"
    );
}

#[test]
fn subsets_enumerates_all() {
    let free = [1u8, 5, 9, 20, 33];
    assert_eq!(subsets(&free, 2).len(), 10);
    assert_eq!(subsets(&free, 5).len(), 1);
    assert_eq!(subsets(&free, 0).len(), 1);
    let all: BTreeSet<Cells> = subsets(&free, 3).into_iter().collect();
    assert_eq!(all.len(), 10);
}

/// Runs every chunk separately, resumed with a tiny budget, and unions the results.
fn chunked_set(
    grid: &Grid,
    uas: &[Cells],
    opts: &ScanOptions,
    budget: u64,
) -> (BTreeSet<Cells>, usize) {
    let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
    let prepared = scan::prepare(grid, uas, opts, &mut work).unwrap();
    let size = WorkspaceSize::for_scan(&prepared);
    let mut table = Box::new(BitmapTable::new());
    let mut states = vec![LevelState::ZERO; size.states];
    let mut found = BTreeSet::new();
    let ids: Vec<ChunkId> = prepared.chunks().collect();
    let mut resumptions = 0;
    for &id in ids.iter().rev() {
        let id = ChunkId::from_u32(id.to_u32()).unwrap();
        let workspace = WorkspaceView::new(&mut table, &mut states);
        let mut run = ChunkRun::new(&prepared, workspace, id).unwrap();
        loop {
            match run.run(budget, &mut |g| {
                found.insert(g);
                ControlFlow::Continue(())
            }) {
                RunStatus::Done => break,
                RunStatus::BudgetExhausted => resumptions += 1,
                RunStatus::Stopped => panic!("not asked to stop"),
            }
        }
    }
    (found, resumptions)
}

#[test]
fn chunked_resumed_runs_equal_one_run() {
    let Some(lines) = sudoku17() else { return };
    let mut rng = Rng(77);
    for clues in [17u8, 18] {
        let (puzzle, grid) = grid_of(&lines[rng.below(lines.len())]);
        let forced = rng.pick(puzzle.givens(), 12);
        let uas = generate_uas(&grid, TEST_UA_RANDOM, 1, forced);
        let opts = options(clues, forced, Cells::EMPTY);
        let whole = scan_set(&grid, &uas, &opts);
        let (chunked, resumptions) = chunked_set(&grid, &uas, &opts, 2);
        assert!(resumptions > 0);
        assert_eq!(chunked, whole);
        assert!(whole.contains(&puzzle.givens()) || clues == 18);
        check_found(&grid, &whole, &opts);
        // One ChunkRun over the whole scan agrees too.
        let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
        let prepared = scan::prepare(&grid, &uas, &opts, &mut work).unwrap();
        let size = WorkspaceSize::for_scan(&prepared);
        let mut table = Box::new(BitmapTable::new());
        let mut states = vec![LevelState::ZERO; size.states];
        let mut run = ChunkRun::new(
            &prepared,
            WorkspaceView::new(&mut table, &mut states),
            ChunkId::WHOLE,
        )
        .unwrap();
        let mut found = BTreeSet::new();
        assert_eq!(
            run.run(u64::MAX, &mut |g| {
                found.insert(g);
                ControlFlow::Continue(())
            }),
            RunStatus::Done
        );
        assert_eq!(found, whole);
    }
}

#[test]
fn fully_forced_tests_the_single_candidate() {
    let Some(lines) = sudoku17() else { return };
    let (puzzle, grid) = grid_of(&lines[10]);
    let opts = options(17, puzzle.givens(), Cells::EMPTY);
    let found = scan_set(&grid, &[], &opts);
    assert_eq!(found.into_iter().collect::<Vec<_>>(), vec![puzzle.givens()]);
    // Drop one clue from the forced set and ask for 16: not unique, nothing found.
    let fewer = puzzle
        .givens()
        .difference(Cells::single(puzzle.givens().lowest().unwrap()));
    assert!(scan_set(&grid, &[], &options(16, fewer, Cells::EMPTY)).is_empty());
}

#[test]
fn stop_at_first_reports_one_of_the_puzzles() {
    let Some(lines) = sudoku17() else { return };
    let (puzzle, grid) = grid_of(&lines[20]);
    let forced = Rng(3).pick(puzzle.givens(), 12);
    let uas = generate_uas(&grid, TEST_UA_RANDOM, 1, forced);
    let mut opts = options(18, forced, Cells::EMPTY);
    let all = scan_set(&grid, &uas, &opts);
    opts.stop_at_first = true;
    let first = scan_set(&grid, &uas, &opts);
    assert_eq!(first.len(), 1);
    assert!(first.is_subset(&all));
    // One run over the whole scan stops at its first puzzle, and stays stopped.
    let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
    let prepared = scan::prepare(&grid, &uas, &opts, &mut work).unwrap();
    let mut workspace: Box<Workspace<{ WorkspaceSize::for_clues(18).states }>> = Box::default();
    let mut run = ChunkRun::new(&prepared, workspace.as_mut_view(), ChunkId::WHOLE).unwrap();
    let mut reported = Vec::new();
    let mut on_found = |g| {
        reported.push(g);
        ControlFlow::Continue(())
    };
    assert_eq!(run.run(u64::MAX, &mut on_found), RunStatus::Stopped);
    assert_eq!(run.run(u64::MAX, &mut on_found), RunStatus::Stopped);
    assert_eq!(reported.len(), 1);
    assert!(all.contains(&reported[0]));
}

#[test]
fn verify_ua_refuses_a_set_that_is_no_ua() {
    // Generated sets are real UA; a box of a valid grid is none (its digits are forced).
    let Some(lines) = sudoku17() else { return };
    let (_, grid) = grid_of(&lines[0]);
    let uas = generate_uas(&grid, 0, 0, Cells::EMPTY);
    assert!(uas.iter().take(50).all(|&u| ua::verify_ua(&grid, u)));
    let box0 = Cells::from_cells(&[0, 1, 2, 9, 10, 11, 18, 19, 20]);
    assert!(!ua::verify_ua(&grid, box0));
}

#[test]
fn the_sets_kept_never_change_the_puzzles() {
    let Some(lines) = sudoku17() else { return };
    let mut rng = Rng(4096);
    let cases: &[u8] = &[17];
    for &clues in cases {
        let (puzzle, grid) = grid_of(&lines[rng.below(lines.len())]);
        let forced = rng.pick(puzzle.givens(), 12);
        // Real UA plus a thousand supersets of them (a superset of a UA is a UA too), so
        // that the table holds sets of many sizes and is full.
        let mut uas = generate_uas(&grid, TEST_UA_RANDOM, 9, forced);
        let base = uas.clone();
        let open = forced.complement();
        for _ in 0..1200 {
            let count = 1 + rng.below(3);
            let extra = rng.pick(open, count);
            uas.push(base[rng.below(base.len())].union(extra));
        }
        uas.sort_unstable();
        uas.dedup();
        for i in 0..20 {
            assert!(ua::verify_ua(&grid, uas[i * uas.len() / 20]));
        }
        let base = options(clues, forced, Cells::EMPTY);
        let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
        let prepared = scan::prepare(&grid, &uas, &base, &mut work).unwrap();
        assert!(
            prepared.kept_len() >= scan::TABLE_CAPACITY,
            "the default run fills the table"
        );
        let reference = scan_set(&grid, &uas, &base);
        check_found(&grid, &reference, &base);
        assert!(clues == 18 || reference.contains(&puzzle.givens()));
        let mut variants = Vec::new();
        // Fewer sets than the table holds: more candidates reach the solver.
        for total in [300, 40, 1] {
            let mut fewer = base;
            fewer.truncation = Some(scan::TruncationLimits { total });
            variants.push((total, fewer));
        }
        for (total, opts) in variants {
            assert_eq!(
                scan_set(&grid, &uas, &opts),
                reference,
                "{total} kept, N={clues}"
            );
        }
    }
}

/// Whole-grid 17-clue scans on grids of the 17-clue list: every list puzzle of the grid
/// (every line whose solution is that grid, digit for digit) is found, and every puzzle
/// found is unique (by DLX3). The grids: those of seeded random lines, one (four with the
/// heavy tests; a 17-clue whole-grid scan takes seconds). The list holds each of its grids once in this literal form (no two lines
/// share a solution), so each scan must find its source among what it reports.
#[test]
fn sudoku17_grids_whole_grid_scans_find_every_list_puzzle() {
    let Some(lines) = sudoku17() else { return };
    let mut by_grid: std::collections::HashMap<Grid, Vec<Cells>> = Default::default();
    let mut sources = Vec::new();
    for line in &lines {
        let (puzzle, grid) = grid_of(line);
        by_grid.entry(grid).or_default().push(puzzle.givens());
        sources.push(grid);
    }
    let mut rng = Rng(0x17_4040);
    let options = options(17, Cells::EMPTY, Cells::EMPTY);
    for round in 0..if heavy() { 4 } else { 1 } {
        let grid = sources[rng.below(sources.len())];
        let uas = generate_uas(&grid, TEST_UA_RANDOM, round, Cells::EMPTY);
        let found = scan_set(&grid, &uas, &options);
        for &puzzle in &by_grid[&grid] {
            assert!(
                found.contains(&puzzle),
                "grid {grid}: list puzzle {puzzle:?} not found ({} found)",
                found.len()
            );
        }
        check_found(&grid, &found, &options);
    }
}
