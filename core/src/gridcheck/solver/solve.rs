//! The solver's calls on puzzles and grids: counting, solving, enumerating, uniqueness.
use super::search::{Search, FULL_DEPTH};
use super::stacks::count_givens;
use super::unique;
use crate::gridcheck::cells::{Cells, CELL_COUNT};
use crate::gridcheck::grid::Grid;
use crate::gridcheck::puzzle::Puzzle;
use core::ops::ControlFlow;

/// The givens of a puzzle as `(cell, digit)`.
fn puzzle_givens(p: &Puzzle) -> impl Iterator<Item = (u8, u8)> + Clone + '_ {
    p.digits()
        .iter()
        .enumerate()
        .filter(|(_, &d)| d != 0)
        .map(|(c, &d)| (c as u8, d))
}

/// Number of solutions of `p`, counting at most `limit` (0 = count them all, saturating at
/// `u32::MAX`). A puzzle with clashing givens has 0.
///
/// ```
/// use xcover_core::gridcheck::{solver, Puzzle};
///
/// // No givens: far more than ten solutions; the count stops at the limit.
/// assert_eq!(solver::count_solutions(&Puzzle::EMPTY, 10), 10);
/// ```
pub fn count_solutions(p: &Puzzle, limit: u32) -> u32 {
    count_givens(puzzle_givens(p), None, limit)
}

/// The first solution of `p` (digits 1..9), or `None` if it has none. Use
/// [`count_solutions`] with limit 2 to know whether it is the only one.
///
/// ```
/// use xcover_core::gridcheck::{solver, Grid, Puzzle};
///
/// let grid = Grid::from_digits(solver::solve(&Puzzle::EMPTY).unwrap())?;
/// assert_eq!(grid.cells_of_digit(9).len(), 9);
/// # Ok::<(), xcover_core::gridcheck::GridcheckError>(())
/// ```
pub fn solve(p: &Puzzle) -> Option<[u8; CELL_COUNT]> {
    let mut search = Search::<FULL_DEPTH>::new(puzzle_givens(p), None);
    if search.advance() {
        Some(search.solution())
    } else {
        None
    }
}

/// The first solution of `p` and the number of solutions counted up to `limit` (at least 1
/// when a solution is returned; 0 = no limit): one search instead of [`solve`] followed by
/// [`count_solutions`]. With `limit` 2 this tells unique from ambiguous.
///
/// ```
/// use xcover_core::gridcheck::{solver, Puzzle};
///
/// let (first, count) = solver::solve_and_count(&Puzzle::EMPTY, 2);
/// assert!(first.is_some());
/// assert_eq!(count, 2);
/// ```
pub fn solve_and_count(p: &Puzzle, limit: u32) -> (Option<[u8; CELL_COUNT]>, u32) {
    let mut search = Search::<FULL_DEPTH>::new(puzzle_givens(p), None);
    if !search.advance() {
        return (None, 0);
    }
    let first = search.solution();
    let more = match limit {
        0 => search.count(0),
        1 => 0,
        _ => search.count(limit - 1),
    };
    (Some(first), more.saturating_add(1))
}

/// Whether the puzzle made of the grid's digits on `givens` has exactly one solution (which
/// is then the grid). The search follows the grid and only explores, at each guess, the
/// branch where the cell does not hold the grid's digit.
///
/// ```
/// use xcover_core::gridcheck::{solver, Cells, Grid};
///
/// let grid = Grid::parse(b"123456789456789123789123456214365897365897214897214365531642978642978531978531642")?;
/// // One blank cell is forced back; every cell of two digits blanked is not (swap them).
/// assert!(solver::is_unique_with_grid(&grid, Cells::ALL - Cells::single(0)));
/// let two_digits = grid.cells_of_digit(1) | grid.cells_of_digit(2);
/// assert!(!solver::is_unique_with_grid(&grid, Cells::ALL - two_digits));
/// # Ok::<(), xcover_core::gridcheck::GridcheckError>(())
/// ```
#[inline]
pub fn is_unique_with_grid(grid: &Grid, givens: Cells) -> bool {
    unique::is_unique(grid, givens)
}

/// Calls `f` with every solution of `p` until `f` breaks; returns the number of solutions
/// passed to `f`. With `known`, guesses try that grid's digits first (its solution comes
/// first when it fits the givens).
///
/// ```
/// use core::ops::ControlFlow;
/// use xcover_core::gridcheck::{solver, Cells, Grid, Puzzle};
///
/// let grid = Grid::parse(b"123456789456789123789123456214365897365897214897214365531642978642978531978531642")?;
/// let two_digits = grid.cells_of_digit(1) | grid.cells_of_digit(2);
/// let puzzle = Puzzle::from_grid(&grid, Cells::ALL - two_digits);
/// let mut seen = Vec::new();
/// solver::for_each_solution(&puzzle, Some(&grid), &mut |s| {
///     seen.push(*s);
///     ControlFlow::Continue(())
/// });
/// assert!(seen.len() >= 2);
/// assert_eq!(&seen[0], grid.digits()); // the known grid comes first
/// # Ok::<(), xcover_core::gridcheck::GridcheckError>(())
/// ```
pub fn for_each_solution(
    p: &Puzzle,
    known: Option<&Grid>,
    f: &mut dyn FnMut(&[u8; CELL_COUNT]) -> ControlFlow<()>,
) -> u64 {
    let mut search = Search::<FULL_DEPTH>::new(puzzle_givens(p), known.map(|g| g.digits()));
    let mut visited = 0u64;
    while search.advance() {
        visited += 1;
        if f(&search.solution()).is_break() {
            break;
        }
    }
    visited
}
