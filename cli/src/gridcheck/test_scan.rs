//! A real, small scan for the tests of journals and parts: a grid of the 18-clue fixtures,
//! 16 givens of its 17-clue puzzle forced and all but 11 other cells forced empty (18
//! clues: 10 puzzles in 10 chunks, milliseconds).
use xcover_core::gridcheck::scan::{self, ChunkId, Prepared, ScanOptions};
use xcover_core::gridcheck::{Cells, Grid};

use super::summary::PreparedSummary;
use super::{mask, ua_source};

pub(crate) const GRID: &str =
    "216378945487259163359146782673521894948637251125894637591462378732985416864713529";
pub(crate) const MASK: &str =
    "...1..1..11...0000000100000110010000000000011010000010101000000000010100000.00000";

/// The scan's inputs: the grid, the options and its UA list.
pub(crate) struct Fixture {
    pub grid: Grid,
    pub options: ScanOptions,
    pub uas: Vec<Cells>,
}

impl Fixture {
    pub(crate) fn new() -> Fixture {
        let grid = Grid::parse(GRID.as_bytes()).unwrap();
        let mut options = ScanOptions::new(18);
        options.mask = mask::parse(MASK).unwrap();
        let uas = ua_source::generate(&grid, 300, 1, options.mask.givens).unwrap();
        Fixture { grid, options, uas }
    }

    /// Prepares the scan and hands it, its chunks and its figures to `f`.
    pub(crate) fn with_prepared<T>(
        &self,
        f: impl FnOnce(&Prepared<'_>, &[ChunkId], PreparedSummary) -> T,
    ) -> T {
        let mut work = vec![0u128; scan::prepare_work_entries(self.uas.len())];
        let prepared = scan::prepare(&self.grid, &self.uas, &self.options, &mut work).unwrap();
        let chunks: Vec<ChunkId> = prepared.chunks().collect();
        let figures = PreparedSummary::new(&prepared, "generated");
        f(&prepared, &chunks, figures)
    }
}
