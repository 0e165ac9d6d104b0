//! A fast bitboard Sudoku solver.
//!
//! * [`count_solutions`]: number of solutions up to a limit;
//! * [`solve`]: the first solution;
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
pub(crate) mod search;
pub(crate) mod tables;
pub(crate) mod unique;

use core::ops::ControlFlow;

use super::cells::{Cells, CELL_COUNT};
use super::grid::Grid;
use super::puzzle::Puzzle;
use search::{Search, FULL_DEPTH};

/// Stack depth tried first by the counting calls: enough for nearly every search, and cheap
/// to set up (every slot is written when the search starts). A search that needs more goes
/// on from where it stopped with [`MIDDLE_DEPTH`], then [`FULL_DEPTH`].
pub(crate) const QUICK_DEPTH: usize = 8;

/// The second stack depth (see [`QUICK_DEPTH`]): going from 8 straight to 81 would set up
/// 10 KB for searches that rarely need more than a dozen pending guesses.
const MIDDLE_DEPTH: usize = 24;

/// `limit` less the `found` solutions already counted (0 stays "no limit").
fn remaining(limit: u32, found: u32) -> u32 {
    if limit == 0 {
        0
    } else {
        limit.saturating_sub(found)
    }
}

/// Counts the solutions of `givens` up to `limit` with a small stack, going on with larger
/// ones when needed.
#[inline]
fn count_givens<I: Iterator<Item = (u8, u8)>>(
    givens: I,
    known: Option<&[u8; CELL_COUNT]>,
    limit: u32,
) -> u32 {
    let mut quick = Search::<QUICK_DEPTH>::new(givens, known);
    let n = quick.count(limit);
    if !quick.overflowed() {
        return n;
    }
    n.saturating_add(count_on_larger_stacks(&quick, remaining(limit, n)))
}

/// The rest of a count (up to `limit`) that overflowed its quick stack.
#[cold]
#[inline(never)]
fn count_on_larger_stacks(quick: &Search<'_, QUICK_DEPTH>, limit: u32) -> u32 {
    let mut middle = Search::<MIDDLE_DEPTH>::idle();
    if !middle.take_over(quick) {
        return 0;
    }
    let n = middle.count(limit);
    if !middle.overflowed() {
        return n;
    }
    n.saturating_add(count_on_full_stack(&middle, remaining(limit, n)))
}

/// The rest of a count (up to `limit`) that overflowed the middle stack.
#[cold]
#[inline(never)]
fn count_on_full_stack(middle: &Search<'_, MIDDLE_DEPTH>, limit: u32) -> u32 {
    let mut full = Search::<FULL_DEPTH>::idle();
    if full.take_over(middle) {
        full.count(limit)
    } else {
        0
    }
}

/// Whether a search that overflowed its quick stack finds a solution on larger ones.
#[cold]
#[inline(never)]
fn has_solution_on_larger_stacks(quick: &Search<'_, QUICK_DEPTH>) -> bool {
    let mut middle = Search::<MIDDLE_DEPTH>::idle();
    if !middle.take_over(quick) {
        return false;
    }
    if middle.advance() {
        return true;
    }
    middle.overflowed() && has_solution_on_full_stack(&middle)
}

/// Whether a search that overflowed the middle stack finds a solution on the full one.
#[cold]
#[inline(never)]
fn has_solution_on_full_stack(middle: &Search<'_, MIDDLE_DEPTH>) -> bool {
    let mut full = Search::<FULL_DEPTH>::idle();
    full.take_over(middle) && full.advance()
}

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

/// The grid as per-(digit, band) words: `[word(d, b)]` = cells of band `b` holding `d + 1`.
fn grid_words(grid: &Grid) -> [u32; 27] {
    let mut words = [0u32; 27];
    for (cell, &d) in grid.digits().iter().enumerate() {
        words[board::word(d as usize - 1, cell / 27)] |= 1 << (cell % 27);
    }
    words
}

/// Receives the solutions of [`for_each_difference`] as differences from the grid.
pub(crate) trait DifferenceSink {
    /// Called before each guess with the cells that can no longer hold the grid's digit
    /// (placed otherwise, or lost it as a candidate): true skips the branch (every solution
    /// below it differs from the grid on at least those cells). The answer must depend only
    /// on the cells and on the differences found so far: it is reused for the same cells
    /// until the next [`DifferenceSink::found`].
    fn prune(&self, placed_differently: Cells) -> bool;
    /// Called with each solution's difference from the grid (never empty); `Break` stops.
    fn found(&mut self, difference: Cells) -> ControlFlow<()>;
}

/// Enumerates the solutions of the grid's digits on `givens` other than the grid itself,
/// passing each one's *difference* (the cells where it differs from the grid) to `sink`,
/// which may also prune branches. Returns the number of differences passed.
///
/// This is the engine of UA generation: each difference is an unavoidable set (not
/// necessarily minimal), and a branch whose difference already contains a known UA can only
/// produce supersets of it.
pub(crate) fn for_each_difference(
    grid: &Grid,
    givens: Cells,
    sink: &mut impl DifferenceSink,
) -> u64 {
    let digits = grid.digits();
    let words = grid_words(grid);
    let givens = givens.iter().map(|c| (c, digits[c as usize]));
    let mut search = Search::<FULL_DEPTH>::new(givens, Some(digits));
    let mut passed = 0u64;
    // The last prune question and its answer, until the sink is told of a difference: a
    // guess that places the grid's digit often leaves the difference as it was, and asking
    // again would scan the sink's sets for the same answer.
    let mut last: Option<(Cells, bool)> = None;
    while search.advance_pruned(|board| {
        let placed_differently = Cells(board.differences(&words));
        match last {
            Some((cells, answer)) if cells == placed_differently => answer,
            _ => {
                let answer = sink.prune(placed_differently);
                last = Some((placed_differently, answer));
                answer
            }
        }
    }) {
        let diff = Cells(search.board().differences(&words));
        if diff.is_empty() {
            continue; // the grid itself
        }
        passed += 1;
        last = None;
        if sink.found(diff).is_break() {
            break;
        }
    }
    passed
}

#[cfg(test)]
mod tests;
