//! The counting calls' stacks: a search starts on a small stack and goes on, from where it
//! stopped, on larger ones only when it overflows.
use super::search::{Search, FULL_DEPTH};
use crate::gridcheck::cells::CELL_COUNT;

/// Stack depth tried first by the counting calls: enough for nearly every search, and cheap
/// to set up (every slot is written when the search starts). A search that needs more goes
/// on from where it stopped with [`MIDDLE_DEPTH`], then [`FULL_DEPTH`].
pub(super) const QUICK_DEPTH: usize = 8;

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
pub(super) fn count_givens<I: Iterator<Item = (u8, u8)>>(
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
pub(super) fn has_solution_on_larger_stacks(quick: &Search<'_, QUICK_DEPTH>) -> bool {
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
