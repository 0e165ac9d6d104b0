//! Uniqueness with a known solution: [`is_unique`].
//!
//! The puzzle is the grid's digits on some cells, so the grid is one solution and the only
//! question is whether there is another. The search follows the grid: at each guess on a
//! cell, the branch "the cell holds the grid's digit" leads towards the grid and needs no
//! exploring of its own, so only the other branch, "the cell holds anything else", is
//! searched for a solution. Any solution there is a second one. When none of those branches
//! has a solution the puzzle is unique.
//!
//! Compared with counting to two (which finds the grid first and then backtracks through
//! every guess on its path), this keeps no stack for the path itself, and a branch that
//! propagation alone refutes (most of them) costs no search set-up.
use super::board::{Board, Status};
use super::search::Search;
use super::stacks::{has_solution_on_larger_stacks, QUICK_DEPTH};
use crate::gridcheck::cells::{Cells, CELL_COUNT};
use crate::gridcheck::grid::Grid;

/// Whether `grid`'s digits on `givens` have exactly one solution (the grid).
#[inline]
pub(crate) fn is_unique(grid: &Grid, givens: Cells) -> bool {
    let mut path = Board::with_grid_givens(grid, givens);
    let grid = grid.digits();
    loop {
        match path.propagate() {
            // Propagation never removes a digit of a solution, and the grid is one: the
            // solved board is the grid.
            Status::Solved => return true,
            // Not for a valid grid (it fits every placement on the path); no solution.
            Status::Contradiction => return false,
            Status::Open => {
                let Some(cell) = path.guess_cell() else {
                    return false;
                };
                let digit = grid[cell] as usize;
                if !(1..=9).contains(&digit) {
                    return false;
                }
                let mut other = path;
                other.forbid(digit - 1, cell);
                if has_solution(other, grid) {
                    return false;
                }
                if !path.place(digit - 1, cell) {
                    return false;
                }
            }
        }
    }
}

/// Whether `board` has a solution; guesses try the grid's digits first (a second solution
/// usually differs from the grid on few cells).
#[inline]
fn has_solution(mut board: Board, grid: &[u8; CELL_COUNT]) -> bool {
    match board.propagate() {
        Status::Contradiction => false,
        Status::Solved => true,
        Status::Open => {
            let mut search = Search::<QUICK_DEPTH>::from_board(board, Some(grid));
            if search.advance() {
                return true;
            }
            search.overflowed() && has_solution_on_larger_stacks(&search)
        }
    }
}
