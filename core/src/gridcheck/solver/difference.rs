//! How every other solution differs from a grid: the engine of UA generation.
use super::board::{self, Board};
use super::search::{Search, FULL_DEPTH};
use crate::gridcheck::cells::Cells;
use crate::gridcheck::grid::Grid;
use core::ops::ControlFlow;

/// The grid as per-(digit, band) words: `[word(d, b)]` = cells of band `b` holding `d + 1`.
pub(super) fn grid_words(grid: &Grid) -> [u32; 27] {
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
    /// [`DifferenceSink::prune`]'s question with more to the answer: `None` skips the
    /// branch; `Some((keep, try_first))` names cells that must keep the grid's digit for a
    /// solution below to matter (a solution that changes one of them is of no use to the
    /// sink, as a pruned branch's are), which the search then places without a branch,
    /// and cells to guess on first when none is left to place (any order finds the same
    /// solutions; a good one prunes sooner). The same rule of reuse applies. By default,
    /// only the prune.
    #[inline]
    fn keep_or_prune(&self, placed_differently: Cells) -> Option<(Cells, Cells)> {
        if self.prune(placed_differently) {
            None
        } else {
            Some((Cells::EMPTY, Cells::EMPTY))
        }
    }
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
    // A short stack first: setting up the full one (81 boards) for each of a generation's
    // thousand pseudo-puzzles cost about 1 % of it, and few searches go that deep. One that
    // does goes on, from where it stopped, on the full stack (the same search, so the same
    // differences in the same order).
    let mut short = Search::<SHORT_DEPTH>::new(givens, Some(digits));
    let mut walk = Walk {
        words: &words,
        passed: 0,
        last: None,
    };
    if walk.run(&mut short, sink) && short.overflowed() {
        let mut full = Search::<FULL_DEPTH>::idle();
        if full.take_over(&short) {
            walk.run(&mut full, sink);
        }
    }
    walk.passed
}

/// Stack depth tried first by [`for_each_difference`].
pub(super) const SHORT_DEPTH: usize = 12;

/// The state of [`for_each_difference`] that outlives a change of stack.
struct Walk<'w> {
    words: &'w [u32; 27],
    /// Differences passed to the sink.
    passed: u64,
    /// The last prune question and its answer, until the sink is told of a difference: a
    /// guess that places the grid's digit often leaves the difference as it was, and
    /// asking again would scan the sink's sets for the same answer.
    last: Option<(Cells, Option<(Cells, Cells)>)>,
}

impl Walk<'_> {
    /// Passes the differences of `search`'s solutions to `sink` until the search ends;
    /// false if the sink stopped it.
    fn run<const DEPTH: usize>(
        &mut self,
        search: &mut Search<'_, DEPTH>,
        sink: &mut impl DifferenceSink,
    ) -> bool {
        while search.advance_guided(|board| self.ask(board, sink)) {
            let diff = Cells(search.board().differences(self.words));
            if diff.is_empty() {
                continue; // the grid itself
            }
            self.passed += 1;
            self.last = None;
            if sink.found(diff).is_break() {
                return false;
            }
        }
        true
    }

    /// The sink's answer for `board` ([`DifferenceSink::keep_or_prune`]), as bitmaps of
    /// cells. One copy for every stack depth (the browser's module counts its bytes).
    #[inline(never)]
    fn ask(&mut self, board: &Board, sink: &impl DifferenceSink) -> Option<(u128, u128)> {
        let placed_differently = Cells(board.differences(self.words));
        let answer = match self.last {
            Some((cells, answer)) if cells == placed_differently => answer,
            _ => {
                let answer = sink.keep_or_prune(placed_differently);
                self.last = Some((placed_differently, answer));
                answer
            }
        };
        answer.map(|(keep, hint)| (keep.0, hint.0))
    }
}
