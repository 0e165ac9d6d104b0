//! A fast bitboard Sudoku solver.
//!
//! * [`count_solutions`]: number of solutions up to a limit;
//! * [`solve()`]: the first solution;
//! * [`is_unique_with_grid`]: the scan's hot call — do the grid's digits on `givens` have
//!   exactly one solution? The search follows the grid and only explores, at each guess,
//!   the branch where the cell does not hold the grid's digit;
//! * [`for_each_solution`]: every solution in turn;
//! * how every other solution differs from a grid: the engine of UA generation
//!   ([`crate::gridcheck::ua::generate`]).
//!
//! Design: candidates as 27-bit words per (digit, band); propagation applies
//! per word the band rule (each digit once per row and box: hidden singles, pointing and
//! claiming from one table look-up) and locked columns across bands, then naked singles and
//! hidden singles in columns; the search guesses on a two-candidate cell when there is one.
//! It keeps an explicit stack, no recursion, no allocation.

pub(crate) mod board;
mod difference;
pub(crate) mod search;
mod solve;
mod stacks;
pub(crate) mod tables;
pub(crate) mod unique;

pub(crate) use difference::{for_each_difference, DifferenceSink};
pub use solve::{count_solutions, for_each_solution, is_unique_with_grid, solve, solve_and_count};

#[cfg(test)]
mod tests;
