//! [`Search`]: the resumable backtracking search over [`Board`]s.
//!
//! No recursion: a guess saves the board (and which digit it puts on which cell) on an
//! explicit stack and carries on with the digit placed; backtracking restores the board with
//! that digit forbidden on the cell instead. Every guess places a cell on the current path,
//! so [`FULL_DEPTH`] = 81 entries always suffice. A smaller `DEPTH` is cheaper to set up; a
//! search that would need more stops and reports [`Search::overflowed`] (callers then rerun
//! it with the full depth), so a small stack costs time, never a wrong answer.
use super::board::{Board, Snapshot, Status};
use crate::gridcheck::cells::CELL_COUNT;

/// A stack depth that no search can exceed.
pub(crate) const FULL_DEPTH: usize = CELL_COUNT;

/// A pending branch: the board at a guess, and the guess to forbid when coming back.
#[derive(Copy, Clone)]
struct Branch {
    board: Snapshot,
    digit: u8,
    cell: u8,
}

/// A placeholder for stack slots not yet used.
const EMPTY_BRANCH: Branch = Branch {
    board: Snapshot::EMPTY,
    digit: 0,
    cell: 0,
};

/// A solution search that can be resumed solution by solution.
///
/// With a known solution (`known`), every guess tries that solution's digit first, so the
/// first solution found is the known one when it fits the givens; later solutions are the
/// ones "near" it.
pub(crate) struct Search<'g, const DEPTH: usize> {
    current: Board,
    stack: [Branch; DEPTH],
    depth: usize,
    known: Option<&'g [u8; CELL_COUNT]>,
    /// `current` is a solution that was already reported: backtrack before going on.
    at_solution: bool,
    /// No solution is left (or the stack overflowed).
    finished: bool,
    /// The stack was too small: the search stopped early and its results are incomplete.
    overflowed: bool,
}

impl<'g, const DEPTH: usize> Search<'g, DEPTH> {
    /// Starts a search from givens listed as `(cell, digit 1..9)`. Out-of-range entries are
    /// ignored; repeated or clashing givens make a search with no solution.
    #[inline]
    pub(crate) fn new(
        givens: impl Iterator<Item = (u8, u8)>,
        known: Option<&'g [u8; CELL_COUNT]>,
    ) -> Search<'g, DEPTH> {
        let (current, finished) = match Board::with_givens(givens) {
            Some(board) => (board, false),
            None => (Board::EMPTY, true),
        };
        Search {
            current,
            stack: [EMPTY_BRANCH; DEPTH],
            depth: 0,
            known,
            at_solution: false,
            finished,
            overflowed: false,
        }
    }

    /// Starts a search from a board (propagated or not): its solutions are the solutions
    /// of the board.
    #[inline]
    pub(crate) fn from_board(
        board: Board,
        known: Option<&'g [u8; CELL_COUNT]>,
    ) -> Search<'g, DEPTH> {
        Search {
            current: board,
            stack: [EMPTY_BRANCH; DEPTH],
            depth: 0,
            known,
            at_solution: false,
            finished: false,
            overflowed: false,
        }
    }

    /// A search with nothing to do, to [`Search::take_over`] another one.
    #[inline]
    pub(crate) fn idle() -> Search<'g, DEPTH> {
        Search {
            current: Board::EMPTY,
            stack: [EMPTY_BRANCH; DEPTH],
            depth: 0,
            known: None,
            at_solution: false,
            finished: true,
            overflowed: false,
        }
    }

    /// Takes over a search that stopped because its stack (of any depth) was too small:
    /// the same pending branches and current board, so the search goes on where it stopped
    /// instead of starting again. False (and nothing changes) if `small` did not overflow
    /// or its branches do not fit with room to spare.
    ///
    /// Works in place: a search holds its whole stack, and moving a large one costs about
    /// as much as setting it up.
    #[inline]
    pub(crate) fn take_over<const SMALL: usize>(&mut self, small: &Search<'g, SMALL>) -> bool {
        if !small.overflowed || small.depth >= DEPTH {
            return false;
        }
        self.stack[..small.depth].copy_from_slice(&small.stack[..small.depth]);
        self.current = small.current;
        self.depth = small.depth;
        self.known = small.known;
        self.at_solution = false;
        self.finished = false;
        self.overflowed = false;
        true
    }

    /// Whether the search stopped because its stack was too small (see the module doc).
    pub(crate) fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// Moves to the next pending branch; false when none is left.
    #[inline]
    fn backtrack(&mut self) -> bool {
        if self.depth == 0 {
            self.finished = true;
            return false;
        }
        self.depth -= 1;
        let branch = &self.stack[self.depth];
        self.current.restore(&branch.board);
        self.current
            .forbid(branch.digit as usize, branch.cell as usize);
        true
    }

    /// The digit to try first on `cell`: the known solution's if still possible, else the
    /// lowest candidate.
    #[inline]
    fn first_digit(&self, cell: usize) -> Option<usize> {
        if let Some(known) = self.known {
            let d = known[cell] as usize;
            if (1..=9).contains(&d) && self.current.allows(d - 1, cell) {
                return Some(d - 1);
            }
        }
        self.current.first_candidate(cell)
    }

    /// Advances to the next solution; false when there is none (or on overflow). The
    /// solution is then available through [`Search::solution`].
    #[inline]
    pub(crate) fn advance(&mut self) -> bool {
        self.advance_guided(|_| Some((0, 0)))
    }

    /// [`Search::advance`], asking `guide` at each fixpoint of the propagation, before a
    /// guess: `None` skips the branch; `Some((keep, try_first))` (bitmaps of cells) names
    /// cells that need not hold anything but the known solution's digit below this board
    /// (every solution that changes one is of no use to the caller), and cells to guess
    /// on first. The cells of `keep` still open where that digit is still possible get it
    /// without a branch (no other digit is tried there), and the board is propagated
    /// again; with none, the search guesses on the first such cell of `try_first`, or
    /// where it would without one.
    #[inline]
    pub(crate) fn advance_guided(
        &mut self,
        mut guide: impl FnMut(&Board) -> Option<(u128, u128)>,
    ) -> bool {
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
                    let Some((forced, hint)) = guide(&self.current) else {
                        if !self.backtrack() {
                            return false;
                        }
                        continue;
                    };
                    // Cells that must keep the known digit get it without a branch.
                    if forced != 0
                        && self
                            .known
                            .is_some_and(|known| self.current.place_known(forced, known))
                    {
                        continue;
                    }
                    // Open means some cell is unplaced and every unplaced cell has at least
                    // two candidates, so both look-ups succeed; a dead end is the safe
                    // reading if they ever did not.
                    let Some((cell, digit)) = self
                        .known_still_open(hint)
                        .or_else(|| self.current.guess_cell())
                        .and_then(|c| Some((c, self.first_digit(c)?)))
                    else {
                        if !self.backtrack() {
                            return false;
                        }
                        continue;
                    };
                    if self.depth == DEPTH {
                        // Stop at this fixpoint, before the guess: a larger stack takes
                        // over from here (see `Search::take_over`).
                        self.overflowed = true;
                        self.finished = true;
                        return false;
                    }
                    self.stack[self.depth] = Branch {
                        board: self.current.snapshot(),
                        digit: digit as u8,
                        cell: cell as u8,
                    };
                    self.depth += 1;
                    self.current.place(digit, cell);
                }
            }
        }
    }

    /// The first open cell of `cells` (a bitmap) where the known solution's digit is still
    /// possible (the one [`Search::first_digit`] then gives).
    #[inline]
    fn known_still_open(&self, cells: u128) -> Option<usize> {
        if cells == 0 {
            return None;
        }
        let known = self.known?;
        (0..3).find_map(|b| {
            let mut open = (cells >> (27 * b)) as u32 & self.current.unsolved[b];
            while open != 0 {
                let cell = b * 27 + open.trailing_zeros() as usize;
                open &= open - 1;
                let d = known[cell] as usize;
                if (1..=9).contains(&d) && self.current.allows(d - 1, cell) {
                    return Some(cell);
                }
            }
            None
        })
    }

    /// The board of the solution found by the last successful [`Search::advance`].
    pub(crate) fn board(&self) -> &Board {
        &self.current
    }

    /// The digits of the solution found by the last successful [`Search::advance`].
    pub(crate) fn solution(&self) -> [u8; CELL_COUNT] {
        self.current.digits()
    }

    /// Counts solutions, stopping at `limit` (0 = no limit, saturating at `u32::MAX`).
    pub(crate) fn count(&mut self, limit: u32) -> u32 {
        let mut found = 0u32;
        while (limit == 0 || found < limit) && found < u32::MAX && self.advance() {
            found += 1;
        }
        found
    }
}
