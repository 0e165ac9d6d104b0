//! The hitting masks of the loaded sets: loading, placing a clue, reading what is left.
use super::level::{LevelState, State};
use super::limits::{CAPACITY, WORDS};
#[cfg(doc)]
use super::BitmapTable;
use crate::gridcheck::cells::CELL_COUNT;

/// Hitting masks and per-set data of the sets loaded at the last switch (the part of a
/// [`BitmapTable`] the probes read).
#[derive(Clone)]
pub(crate) struct HitTable {
    pub(super) hit: [[u64; WORDS]; CELL_COUNT],
    pub(super) sets: [u128; CAPACITY],
    pub(super) len: usize,
    pub(super) words: usize,
}

impl HitTable {
    /// An empty table.
    pub(crate) const fn new() -> HitTable {
        HitTable {
            hit: [[0; WORDS]; CELL_COUNT],
            sets: [0; CAPACITY],
            len: 0,
            words: 0,
        }
    }

    /// Loads `sets` (order kept, at most [`CAPACITY`], position bits < 81) and returns
    /// the all-unhit state. Returns `None` when there are too many sets.
    pub(crate) fn load(&mut self, sets: &[u128]) -> Option<State> {
        if sets.len() > CAPACITY {
            return None;
        }
        self.load_from(sets.iter().copied())
    }

    /// Like [`HitTable::load`] from an iterator; `None` (table unusable) when it yields
    /// more than [`CAPACITY`] sets.
    pub(crate) fn load_from(&mut self, sets: impl Iterator<Item = u128>) -> Option<State> {
        for row in self.hit.iter_mut() {
            *row = [0; WORDS];
        }
        let mut len = 0;
        for set in sets {
            if len == CAPACITY {
                self.len = 0;
                self.words = 0;
                return None;
            }
            self.sets[len] = set;
            let mut rest = set;
            while rest != 0 {
                let position = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                self.hit[position][len / 64] |= 1u64 << (len % 64);
            }
            len += 1;
        }
        let words = len.div_ceil(64);
        self.len = len;
        self.words = words;
        let mut state = [0u64; WORDS];
        for (w, word) in state[..words].iter_mut().enumerate() {
            let bits = (len - w * 64).min(64);
            *word = if bits == 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
        }
        Some(LevelState(state))
    }

    /// `out = state` minus the sets hit by `position`, over the active words `from..`;
    /// returns the index of the first still-unhit set there, or `None` when all are hit.
    #[inline]
    pub(crate) fn place(
        &self,
        state: &State,
        position: u8,
        out: &mut State,
        from: usize,
    ) -> Option<usize> {
        let (state, out) = (&state.0, &mut out.0);
        let hit = &self.hit[usize::from(position)];
        let words = self.words.min(WORDS);
        let from = from.min(words);
        // Two simple passes: the AND-NOT vectorises, the search usually stops at `from`.
        for ((o, s), h) in out[from..words]
            .iter_mut()
            .zip(&state[from..words])
            .zip(&hit[from..words])
        {
            *o = s & !h;
        }
        out[from..words]
            .iter()
            .position(|&word| word != 0)
            .map(|i| (from + i) * 64 + out[from + i].trailing_zeros() as usize)
    }

    /// True when `position` hits every set still unhit in the active words `from..`.
    #[inline]
    pub(crate) fn hits_all(&self, state: &State, position: u8, from: usize) -> bool {
        let state = &state.0;
        let hit = &self.hit[usize::from(position)];
        let words = self.words.min(WORDS);
        let from = from.min(words);
        // Branch-free OR of the leftovers (vectorises; the sets are few words).
        state[from..words]
            .iter()
            .zip(&hit[from..words])
            .fold(0u64, |acc, (s, h)| acc | (s & !h))
            == 0
    }

    /// The cells of `within` lying in every set that `position` leaves unhit in `state`
    /// (words `from..`): the possible last clues after it (`within` itself when it hits
    /// every set). Stops at the first empty intersection.
    #[inline]
    pub(crate) fn common_after(
        &self,
        state: &State,
        position: u8,
        from: usize,
        within: u128,
    ) -> u128 {
        let state = &state.0;
        let hit = &self.hit[usize::from(position)];
        let mut common = within;
        for w in from..self.words.min(WORDS) {
            let mut bits = state[w] & !hit[w];
            while bits != 0 {
                common &= self.sets[w * 64 + bits.trailing_zeros() as usize];
                if common == 0 {
                    return 0;
                }
                bits &= bits - 1;
            }
        }
        common
    }
}
