//! Cross-check of the bitboard solver against a plain backtracking solver written here, on a
//! few hundred puzzles derived from the shared 17-clue list: the 17s themselves, 14- to
//! 16-clue puzzles made by dropping clues (several solutions), and puzzles with a changed
//! clue (often no solution).
use std::ops::ControlFlow;

use xcover_core::gridcheck::{solver, Grid, Puzzle};

mod common;
use common::{sudoku17, Rng};

/// The 27 houses as lists of cells: rows, columns, boxes.
fn houses() -> Vec<[usize; 9]> {
    let mut hs = Vec::new();
    for h in 0..9 {
        hs.push(std::array::from_fn(|k| h * 9 + k));
        hs.push(std::array::from_fn(|k| k * 9 + h));
        hs.push(std::array::from_fn(|k| {
            (h / 3 * 3 + k / 3) * 9 + h % 3 * 3 + k % 3
        }));
    }
    hs
}

/// The plain solver: cells as digits, candidate masks recomputed from the houses, naked and
/// hidden singles filled in a loop, then recursion on the empty cell with the fewest
/// candidates. Collects up to `limit` solutions.
fn plain_solutions(
    cells: &mut [u8; 81],
    houses: &[[usize; 9]],
    limit: usize,
    found: &mut Vec<[u8; 81]>,
) {
    if found.len() >= limit {
        return;
    }
    let candidates = |cells: &[u8; 81], i: usize| -> u16 {
        let (r, c) = (i / 9, i % 9);
        let mut used = 0u16;
        for k in 0..9 {
            used |= 1 << cells[r * 9 + k];
            used |= 1 << cells[k * 9 + c];
            used |= 1 << cells[(r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3];
        }
        !used & 0x3fe
    };
    let mut work = *cells;
    // Singles until nothing changes.
    loop {
        let mut changed = false;
        for i in 0..81 {
            if work[i] == 0 {
                let free = candidates(&work, i);
                if free == 0 {
                    return;
                }
                if free.count_ones() == 1 {
                    work[i] = free.trailing_zeros() as u8;
                    changed = true;
                }
            }
        }
        for house in houses {
            for d in 1..=9u8 {
                if house.iter().any(|&i| work[i] == d) {
                    continue;
                }
                let spots: Vec<usize> = house
                    .iter()
                    .copied()
                    .filter(|&i| work[i] == 0 && candidates(&work, i) >> d & 1 == 1)
                    .collect();
                match spots.len() {
                    0 => return,
                    1 => {
                        work[spots[0]] = d;
                        changed = true;
                    }
                    _ => {}
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut best: Option<(usize, u16)> = None;
    for i in 0..81 {
        if work[i] == 0 {
            let free = candidates(&work, i);
            if best.map_or(true, |(_, b)| free.count_ones() < b.count_ones()) {
                best = Some((i, free));
            }
        }
    }
    let Some((i, free)) = best else {
        // Complete: singles never place a digit twice in a house only if every house is a
        // permutation; check it rather than assume.
        if houses
            .iter()
            .all(|h| h.iter().fold(0u16, |m, &i| m | 1 << work[i]) == 0x3fe)
        {
            found.push(work);
        }
        return;
    };
    for d in 1..=9u8 {
        if free >> d & 1 == 1 {
            work[i] = d;
            plain_solutions(&mut work, houses, limit, found);
            work[i] = 0;
        }
    }
}

/// Whether the givens clash in some house (the plain solver assumes they do not).
fn givens_clash(cells: &[u8; 81]) -> bool {
    (0..81).any(|i| {
        let d = cells[i];
        d != 0
            && (0..81).any(|j| {
                j != i
                    && cells[j] == d
                    && (i / 9 == j / 9
                        || i % 9 == j % 9
                        || (i / 27 == j / 27 && i % 9 / 3 == j % 9 / 3))
            })
    })
}

fn plain_count(p: &Puzzle, limit: usize) -> (usize, Vec<[u8; 81]>) {
    let mut cells = *p.digits();
    if givens_clash(&cells) {
        return (0, Vec::new());
    }
    let mut found = Vec::new();
    plain_solutions(&mut cells, &houses(), limit, &mut found);
    (found.len(), found)
}

#[test]
fn counts_agree_with_a_plain_backtracking_solver() {
    let Some(lines) = sudoku17() else {
        return;
    };
    let mut rng = Rng(2024);
    let limit = 40;
    let (mut unique, mut several, mut none) = (0, 0, 0);
    for round in 0..300 {
        let base = Puzzle::parse(lines[rng.below(lines.len())].as_bytes()).unwrap();
        let mut p = base;
        let givens: Vec<u8> = base.givens().iter().collect();
        match round % 3 {
            0 => {}
            1 => {
                for _ in 0..1 + rng.below(3) {
                    p.set(givens[rng.below(givens.len())], 0);
                }
            }
            _ => {
                let cell = givens[rng.below(givens.len())];
                p.set(cell, 1 + rng.below(9) as u8);
                p.set(givens[rng.below(givens.len())], 0);
            }
        }
        let (expected, plain_found) = plain_count(&p, limit);
        let got = solver::count_solutions(&p, limit as u32) as usize;
        assert_eq!(got, expected, "puzzle {p}");
        match expected {
            0 => none += 1,
            1 => unique += 1,
            _ => several += 1,
        }
        // Below the limit, the enumerations give the same sets of solutions.
        if expected < limit {
            let mut mine = Vec::new();
            solver::for_each_solution(&p, None, &mut |s| {
                mine.push(*s);
                ControlFlow::Continue(())
            });
            let mut theirs = plain_found;
            mine.sort_unstable();
            theirs.sort_unstable();
            assert_eq!(mine, theirs, "puzzle {p}");
        }
        // Grid-aware uniqueness agrees when the grid fits the givens.
        if let Some(first) = solver::solve(&p) {
            let grid = Grid::from_digits(first).unwrap();
            assert_eq!(
                solver::is_unique_with_grid(&grid, p.givens()),
                expected == 1,
                "{p}"
            );
        }
    }
    eprintln!("cross-checked: {unique} unique, {several} with several, {none} with no solution");
    assert!(
        unique > 50 && several > 50 && none > 10,
        "{unique} {several} {none}"
    );
}
