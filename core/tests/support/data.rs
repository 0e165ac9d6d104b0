//! Test data and seeded choices shared by the core and CLI integration tests (the CLI's
//! `tests/common` includes this file with `#[path]`): the 17-clue list from ../shared, a
//! seeded generator, and grids of puzzle lines.
#![allow(dead_code)] // each test file uses a different subset

use std::path::PathBuf;

use xcover_core::gridcheck::{solver, Cells, Grid, Puzzle};

/// Lines of `../shared/data/sudoku17.txt` (beside the repository, never copied into it);
/// `None` (test skipped, reason printed) only when XCOVER_SKIP_SHARED=1 and the file is
/// missing.
pub fn sudoku17() -> Option<Vec<String>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/sudoku17.txt");
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(
            text.lines()
                .map(str::to_owned)
                .filter(|l| !l.trim().is_empty())
                .collect(),
        ),
        Err(err) => {
            if std::env::var("XCOVER_SKIP_SHARED").as_deref() == Ok("1") {
                eprintln!("skipped: {} missing ({err})", path.display());
                None
            } else {
                panic!(
                    "{} is needed by this test and is missing: {err}; it must sit in ../shared \
                     beside the repository (set XCOVER_SKIP_SHARED=1 to skip)",
                    path.display()
                );
            }
        }
    }
}

/// SplitMix64: fixed-seed choices, so a failure can be replayed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A number in `[0, 1)`.
    pub fn fraction(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Picking cells at random, for the scan tests.
pub trait Pick {
    /// `k` distinct members of `cells`, chosen at random.
    fn pick(&mut self, cells: Cells, k: usize) -> Cells;
}

impl Pick for Rng {
    fn pick(&mut self, cells: Cells, k: usize) -> Cells {
        let mut list: Vec<u8> = cells.iter().collect();
        let mut out = Cells::EMPTY;
        for _ in 0..k {
            let i = self.below(list.len());
            out.insert(list.swap_remove(i));
        }
        out
    }
}

/// The solution grid of a puzzle line.
pub fn grid_of(puzzle: &str) -> (Puzzle, Grid) {
    let puzzle = Puzzle::parse(puzzle.as_bytes()).expect("puzzle parses");
    let digits = solver::solve(&puzzle).expect("puzzle has a solution");
    (
        puzzle,
        Grid::from_digits(digits).expect("solution is a grid"),
    )
}

/// Mask text: `1` on `forced`, `0` on `empty`, `.` elsewhere.
pub fn mask_text(forced: Cells, empty: Cells) -> String {
    (0..81u8)
        .map(|c| {
            if forced.contains(c) {
                '1'
            } else if empty.contains(c) {
                '0'
            } else {
                '.'
            }
        })
        .collect()
}
