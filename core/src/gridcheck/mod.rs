//! Sudoku grid checker: find every N-clue puzzle with a unique solution inside a solution grid.
//!
//! The foundation half lives here:
//!
//! * [`cells`]: [`Cells`](cells::Cells), an 81-cell set in one `u128` (bit i = cell i =
//!   row*9+col), the currency of everything else;
//! * [`grid`]: a complete, valid solution grid;
//! * [`puzzle`]: a puzzle (givens, `0` = empty);
//! * [`solver`]: a fast bitboard solver (counting, solving, enumerating, and the grid-aware
//!   uniqueness test the scan calls millions of times);
//! * [`ua`]: unavoidable sets (UA) of a grid: generation from pseudo-puzzles with a
//!   per-pseudo-puzzle antichain, verification, and the UA file format;
//! * [`error`]: the module's one error type.
//!
//! [`scan`] enumerates the N-clue sub-puzzles of a grid, using the UA to prune and the solver
//! to verify.
//!
//! Nothing here allocates; capacities (UA lists, scratch) are slices owned by the caller.

pub mod cells;
pub mod error;
pub mod grid;
pub mod puzzle;
pub mod scan;
pub mod solver;
pub mod ua;

pub use cells::Cells;
pub use error::GridcheckError;
pub use grid::Grid;
pub use puzzle::Puzzle;
