//! The set of active primary items as bits, mirroring the `prev`/`next` list.
//!
//! The active list always holds the active primary items in item order (removals and
//! reinsertions happen last-in first-out, so the order never changes), so choosing an item
//! can scan bits in increasing order instead of chasing `next` links, with the same result.

use super::storage::Width;

/// A bit set of active primary items, usable when all primary items are below 64 times
/// the width's word count (1024 for `u32` links, 256 for `u16`, whose engines are kept
/// small for RAM); choosing an item then scans bits instead of chasing `next` links.
#[derive(Clone, Debug)]
pub(super) struct ActiveSet<W: Width> {
    words: W::ActiveWords,
    /// Primary items are `1..limit`; 0 if the set is not in use (too many items).
    limit: u32,
}

/// Item `c`'s bit in its word, `1 << (c % 64)`. On 32-bit targets a variable 64-bit shift
/// is a library call (`__aeabi_llsl`, `__ashldi3`): there the bit is shifted in 32 bits and
/// placed in the word's half that holds it.
#[inline(always)]
fn bit(c: u32) -> u64 {
    if cfg!(target_pointer_width = "64") {
        1u64 << (c % 64)
    } else {
        // With an `if` on `c & 32` the optimizer made it a 64-bit shift again.
        let b = 1u32 << (c % 32);
        let upper = 0u32.wrapping_sub((c >> 5) & 1);
        u64::from(b & !upper) | (u64::from(b & upper) << 32)
    }
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
        if second as usize <= 64 * words.len() {
            for k in 1..second {
                words[(k / 64) as usize] |= bit(k);
            }
            self.limit = second;
        }
    }

    /// Whether the set is in use.
    #[inline(always)]
    pub fn in_use(&self) -> bool {
        self.limit != 0
    }

    /// The word holding item `c`'s bit. `c < limit <= 64 * words` when the set is in
    /// use, so the remainder changes nothing; it only lets the compiler drop the bounds
    /// check (the word count is a power of two known per width).
    #[inline(always)]
    fn word(&mut self, c: u32) -> &mut u64 {
        let words = self.words.as_mut();
        let n = words.len();
        debug_assert!(n.is_power_of_two() && (c / 64) < n as u32);
        &mut words[(c / 64) as usize & (n - 1)]
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

    /// The words in use (none if the set is not in use).
    #[inline(always)]
    pub fn used(&self) -> &[u64] {
        let words = self.words.as_ref();
        let n = (self.limit as usize).div_ceil(64);
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
                if !f(w as u32 * 64 + bits.trailing_zeros()) {
                    return;
                }
                bits &= bits - 1;
            }
        }
    }
}
