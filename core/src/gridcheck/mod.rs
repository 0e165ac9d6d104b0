//! Sudoku grid checker: find every N-clue puzzle with a unique solution inside a solution grid.
//!
//! The public surface:
//!
//! * [`Cells`]: an 81-cell set in one `u128` (bit i = cell i = row*9+col), the currency of
//!   everything else;
//! * [`Grid`]: a complete, valid solution grid; [`Puzzle`]: givens, `0` = empty;
//! * [`solver`]: a fast bitboard solver (counting, solving, enumerating, and the grid-aware
//!   uniqueness test the scan calls millions of times);
//! * [`ua`]: unavoidable sets (UA) of a grid: a list over caller storage, generation from
//!   pseudo-puzzles, verification, and the UA file format;
//! * [`scan`]: the N-clue sub-puzzles of a grid, using the UA to prune and the solver to
//!   verify, in independent chunks run as resumable state machines;
//! * [`session`]: the phases of a scan's life (grid, options, UA, prepare, chunk runs) and
//!   its counters, which the C ABI projects as its state;
//! * [`GridcheckError`]: the one error type of everything but the scan ([`scan::ScanError`]).
//!
//! Nothing here allocates; capacities (UA lists, scratch, the scan's work space) are
//! owned by the caller.
//!
//! ```
//! use xcover_core::gridcheck::{solver, Cells, Grid, Puzzle};
//!
//! let grid = Grid::parse(
//!     b"123456789456789123789123456214365897365897214897214365531642978642978531978531642",
//! )?;
//! // The grid's digits on every cell but the first row: the row is forced back.
//! let first_row = Cells::from_cells(&[0, 1, 2, 3, 4, 5, 6, 7, 8]);
//! let givens = Cells::ALL - first_row;
//! assert!(solver::is_unique_with_grid(&grid, givens));
//! let puzzle = Puzzle::from_grid(&grid, givens);
//! assert_eq!(solver::solve(&puzzle), Some(*grid.digits()));
//! # Ok::<(), xcover_core::gridcheck::GridcheckError>(())
//! ```

mod cells;
mod error;
mod grid;
mod puzzle;
pub mod scan;
pub mod session;
pub mod solver;
pub mod ua;

pub use cells::{Cells, CellsIter, CELL_COUNT};
pub use error::{GridcheckError, House, UaLineProblem};
pub use grid::Grid;
pub use puzzle::Puzzle;
