//! [`Search`]: the resumable backtracking search over [`Board`]s.
//!
//! No recursion: a guess pushes the "other branch" (the board with the guessed digit
//! forbidden on the cell) on an explicit stack and carries on with the digit placed. Every
//! guess places a cell on the current path, so the stack never holds more than 81 boards.
use super::board::{Board, Status};
use crate::gridcheck::cells::CELL_COUNT;

/// Maximum number of pending branches (one per guess on the current path).
const MAX_DEPTH: usize = CELL_COUNT;

/// A solution search that can be resumed solution by solution.
///
/// With a known solution (`known`), every guess tries that solution's digit first, so the
/// first solution found is the known one when it fits the givens; later solutions are the
/// ones "near" it.
pub struct Search<'g> {
    current: Board,
    stack: [Board; MAX_DEPTH],
    depth: usize,
    known: Option<&'g [u8; CELL_COUNT]>,
    /// `current` is a solution that was already reported: backtrack before going on.
    at_solution: bool,
    /// No solution is left.
    finished: bool,
}

impl<'g> Search<'g> {
    /// Starts a search from givens listed as `(cell, digit 1..9)` by `givens`.
    /// Repeated or clashing givens make a search with no solution.
    #[inline]
    pub fn new(
        givens: impl Iterator<Item = (u8, u8)>,
        known: Option<&'g [u8; CELL_COUNT]>,
    ) -> Search<'g> {
        let mut current = Board::EMPTY;
        let mut finished = false;
        for (cell, digit) in givens {
            if !(1..=9).contains(&digit) || (cell as usize) >= CELL_COUNT {
                continue;
            }
            if !current.place(digit as usize - 1, cell as usize) {
                finished = true;
                break;
            }
        }
        Search {
            current,
            stack: [Board::EMPTY; MAX_DEPTH],
            depth: 0,
            known,
            at_solution: false,
            finished,
        }
    }

    /// Moves to the next branch on the stack; false when none is left.
    #[inline]
    fn backtrack(&mut self) -> bool {
        if self.depth == 0 {
            self.finished = true;
            return false;
        }
        self.depth -= 1;
        self.current = self.stack[self.depth];
        true
    }

    /// Advances to the next solution; false when there is none. The solution is then
    /// available through [`Search::solution`].
    #[inline]
    pub fn advance(&mut self) -> bool {
        if self.finished {
            return false;
        }
        if self.at_solution {
            self.at_solution = false;
            if !self.backtrack() {
                return false;
            }
        }
        loop {
            match self.current.propagate() {
                Status::Contradiction => {
                    if !self.backtrack() {
                        return false;
                    }
                }
                Status::Solved => {
                    self.at_solution = true;
                    return true;
                }
                Status::Open => {
                    let Some(cell) = self.current.guess_cell() else {
                        // Unreachable for a consistent board (Open means a cell is
                        // unplaced); treat as a dead end rather than loop.
                        if !self.backtrack() {
                            return false;
                        }
                        continue;
                    };
                    let known_digit = self
                        .known
                        .map(|k| k[cell] as usize)
                        .filter(|&d| (1..=9).contains(&d) && self.current.allows(d - 1, cell))
                        .map(|d| d - 1);
                    let Some(digit) = known_digit.or_else(|| self.current.first_candidate(cell))
                    else {
                        if !self.backtrack() {
                            return false;
                        }
                        continue;
                    };
                    if self.depth == MAX_DEPTH {
                        // Cannot happen (each guess places a cell), but never overflow.
                        self.finished = true;
                        return false;
                    }
                    let mut other = self.current;
                    other.forbid(digit, cell);
                    self.stack[self.depth] = other;
                    self.depth += 1;
                    self.current.place(digit, cell);
                }
            }
        }
    }

    /// The digits of the solution found by the last successful [`Search::advance`].
    pub fn solution(&self) -> [u8; CELL_COUNT] {
        self.current.digits()
    }

    /// Counts solutions, stopping at `limit` (0 = no limit).
    pub fn count(&mut self, limit: u32) -> u32 {
        let mut found = 0u32;
        while (limit == 0 || found < limit) && self.advance() {
            found += 1;
        }
        found
    }
}
