//! Grid-checker helpers shared by the bench programs: seeded random solution grids and the
//! UA list `xcover gridcheck` generates by default.

use xcover_core::gridcheck::ua::budget::{self, Recipe};
use xcover_core::gridcheck::ua::SplitMix64;
use xcover_core::gridcheck::{Cells, Grid};

/// A random solution grid: cells filled in row order by backtracking, each cell trying its
/// candidate digits in a random order drawn from `rng`. The same generator state gives the
/// same grid. Not exactly uniform over all grids (no simple generator is), but close where
/// a scan's cost is concerned: its grids hold as many 4-cell UA as the census of all grids
/// (README, Benchmarks). The grids of the known 17-clue puzzles, by contrast, hold few
/// small UA and are the hard cases of a 16-clue scan.
pub fn random_grid(rng: &mut SplitMix64) -> Grid {
    let mut digits = [0u8; 81];
    // Digits used per row, column and box, as bit masks (bit d for digit d).
    let mut rows = [0u16; 9];
    let mut cols = [0u16; 9];
    let mut boxes = [0u16; 9];
    // For each cell, the digits it has still to try (drawn once when the cell is reached).
    let mut to_try = [[0u8; 9]; 81];
    let mut tries_left = [0usize; 81];
    let mut cell = 0usize;
    let mut entering = true;
    while cell < 81 {
        let (r, c) = (cell / 9, cell % 9);
        let b = r / 3 * 3 + c / 3;
        if entering {
            let used = rows[r] | cols[c] | boxes[b];
            let mut n = 0;
            for d in 1..=9u8 {
                if used & 1 << d == 0 {
                    to_try[cell][n] = d;
                    n += 1;
                }
            }
            // Fisher-Yates shuffle of the candidates.
            for i in (1..n).rev() {
                let j = rng.below(i as u32 + 1) as usize;
                to_try[cell].swap(i, j);
            }
            tries_left[cell] = n;
        } else {
            // Back from a dead end: take this cell's digit away and try its next one.
            let bit = 1u16 << digits[cell];
            rows[r] &= !bit;
            cols[c] &= !bit;
            boxes[b] &= !bit;
            digits[cell] = 0;
        }
        if tries_left[cell] == 0 {
            // Every candidate failed: back to the previous cell (cell 0 always succeeds).
            cell -= 1;
            entering = false;
            continue;
        }
        tries_left[cell] -= 1;
        let d = to_try[cell][tries_left[cell]];
        let bit = 1u16 << d;
        digits[cell] = d;
        rows[r] |= bit;
        cols[c] |= bit;
        boxes[b] |= bit;
        cell += 1;
        entering = true;
    }
    Grid::from_digits(digits).expect("backtracking fills a valid grid")
}

/// `count` random grids ([`random_grid`]) from one generator seeded with `seed`.
pub fn random_grids(count: usize, seed: u64) -> Vec<Grid> {
    let mut rng = SplitMix64::new(seed);
    (0..count).map(|_| random_grid(&mut rng)).collect()
}

/// The UA list `xcover gridcheck --ua-random K` generates for a whole grid: the 126
/// 4-digit subsets and `ua_random` random 54-blank pseudo-puzzles (seed `seed`),
/// duplicates removed.
pub fn generate_uas(grid: &Grid, ua_random: u32, seed: u64) -> Result<Vec<Cells>, String> {
    generate_with(grid, Recipe::given(ua_random), seed)
}

/// The UA list `xcover gridcheck --clues N` generates for a whole grid by default: the
/// recipe `budget::whole_grid_recipe` chooses for the grid and N.
pub fn generate_default_uas(grid: &Grid, clues: u8, seed: u64) -> Result<Vec<Cells>, String> {
    generate_with(grid, budget::whole_grid_recipe(grid, clues), seed)
}

/// The UA list of `recipe` with `seed`, as the command generates it
/// (`Recipe::generate_to_vec`: the same list, the same growing storage).
fn generate_with(grid: &Grid, recipe: Recipe, seed: u64) -> Result<Vec<Cells>, String> {
    recipe
        .generate_to_vec(grid, seed, Cells::EMPTY)
        .map_err(|e| format!("generating UA: {e}"))
}
