//! The set of active primary items as bits, mirroring the `prev`/`next` list.
//!
//! The active list always holds the active primary items in item order (removals and
//! reinsertions happen last-in first-out, so the order never changes), so choosing an item
//! can scan bits in increasing order instead of chasing `next` links, with the same result.

use super::storage::Width;
use super::word::{Word, WORD_BITS};

/// A bit set of active primary items, usable when all primary items are below the set's
/// bit count (1024 for `u32` links, 256 for `u16`, whose engines are kept small for RAM);
/// choosing an item then scans bits instead of chasing `next` links.
#[derive(Clone, Debug)]
pub(super) struct ActiveSet<W: Width> {
    words: W::ActiveWords,
    /// Primary items are `1..limit`; 0 if the set is not in use (too many items).
    limit: u32,
}

/// Item `c`'s bit in its word.
#[inline(always)]
fn bit(c: u32) -> Word {
    1 << (c % WORD_BITS)
}

impl<W: Width> ActiveSet<W> {
    /// An unused set.
    pub const fn new() -> Self {
        ActiveSet {
            words: W::ACTIVE_ZERO,
            limit: 0,
        }
    }

    /// Marks items `1..second` active, if they fit.
    pub fn fill(&mut self, second: u32) {
        self.words = W::ACTIVE_ZERO;
        self.limit = 0;
        let words = self.words.as_mut();
        if second as usize <= WORD_BITS as usize * words.len() {
            for k in 1..second {
                words[(k / WORD_BITS) as usize] |= bit(k);
            }
            self.limit = second;
        }
    }

    /// Whether the set is in use.
    #[inline(always)]
    pub fn in_use(&self) -> bool {
        self.limit != 0
    }

    /// The word holding item `c`'s bit. `c < limit <= WORD_BITS * words` when the set is in
    /// use, so the remainder changes nothing; it only lets the compiler drop the bounds
    /// check (the word count is a power of two known per width).
    #[inline(always)]
    fn word(&mut self, c: u32) -> &mut Word {
        let words = self.words.as_mut();
        let n = words.len();
        debug_assert!(n.is_power_of_two() && (c / WORD_BITS) < n as u32);
        &mut words[(c / WORD_BITS) as usize & (n - 1)]
    }

    #[inline(always)]
    pub fn remove(&mut self, c: u32) {
        if c < self.limit {
            *self.word(c) &= !bit(c);
        }
    }

    #[inline(always)]
    pub fn insert(&mut self, c: u32) {
        if c < self.limit {
            *self.word(c) |= bit(c);
        }
    }

    /// [`remove`](ActiveSet::remove) for an item `c` below the limit (a primary item,
    /// while the set is in use): no test. (An item past it would clear another item's
    /// bit, never touch memory outside the set: `word` masks the index.)
    #[inline(always)]
    pub fn remove_below_limit(&mut self, c: u32) {
        debug_assert!(c < self.limit);
        *self.word(c) &= !bit(c);
    }

    /// [`insert`](ActiveSet::insert) for an item `c` below the limit.
    #[inline(always)]
    pub fn insert_below_limit(&mut self, c: u32) {
        debug_assert!(c < self.limit);
        *self.word(c) |= bit(c);
    }

    /// The words in use (none if the set is not in use).
    #[inline(always)]
    pub fn used(&self) -> &[Word] {
        let words = self.words.as_ref();
        let n = (self.limit as usize).div_ceil(WORD_BITS as usize);
        &words[..n.min(words.len())]
    }

    /// Calls `f(k)` for the active items `k` in increasing order until `f` returns false.
    /// (Firmware builds walk the words with `Dancer::next_active`.)
    #[cfg(not(target_os = "none"))]
    #[inline(always)]
    pub fn for_each_while(&self, mut f: impl FnMut(u32) -> bool) {
        for (w, &word) in self.used().iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                if !f(w as u32 * WORD_BITS + bits.trailing_zeros()) {
                    return;
                }
                bits &= bits - 1;
            }
        }
    }
}
