//! The set of active primary items as bits, mirroring the `prev`/`next` list.
//!
//! The active list always holds the active primary items in item order (removals and
//! reinsertions happen last-in first-out, so the order never changes), so choosing an item
//! can scan bits in increasing order instead of chasing `next` links, with the same result.

/// Number of 64-bit words in an [`ActiveSet`].
pub(super) const ACTIVE_WORDS: usize = 16;

/// A bit set of active primary items, usable when all primary items are below
/// `64 * ACTIVE_WORDS`; choosing an item then scans bits instead of chasing `next` links.
#[derive(Clone, Debug)]
pub(super) struct ActiveSet {
    words: [u64; ACTIVE_WORDS],
    /// Primary items are `1..limit`; 0 if the set is not in use (too many items).
    limit: u32,
}

impl ActiveSet {
    /// An unused set.
    pub const fn new() -> Self {
        ActiveSet {
            words: [0; ACTIVE_WORDS],
            limit: 0,
        }
    }

    /// Marks items `1..second` active, if they fit.
    pub fn fill(&mut self, second: u32) {
        self.words = [0; ACTIVE_WORDS];
        self.limit = 0;
        if second as usize <= 64 * ACTIVE_WORDS {
            for k in 1..second {
                self.words[(k / 64) as usize] |= 1 << (k % 64);
            }
            self.limit = second;
        }
    }

    /// Whether the set is in use.
    #[inline(always)]
    pub fn in_use(&self) -> bool {
        self.limit != 0
    }

    #[inline(always)]
    pub fn remove(&mut self, c: u32) {
        if c < self.limit {
            self.words[(c / 64) as usize] &= !(1u64 << (c % 64));
        }
    }

    #[inline(always)]
    pub fn insert(&mut self, c: u32) {
        if c < self.limit {
            self.words[(c / 64) as usize] |= 1u64 << (c % 64);
        }
    }

    /// The words in use.
    #[inline(always)]
    fn used(&self) -> &[u64] {
        let n = (self.limit as usize).div_ceil(64);
        &self.words[..n.min(ACTIVE_WORDS)]
    }

    /// Calls `f(k)` for the active items `k` in increasing order until `f` returns false.
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
