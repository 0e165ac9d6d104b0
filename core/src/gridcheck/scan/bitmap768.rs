//! The 768-set bitmap table of the enumeration.
//!
//! The enumeration works on up to 768 sets with bit operations: for every position a
//! 768-bit hitting mask (bit i set when set i contains the position), and per level a
//! 768-bit "still unhit" state. Placing a clue is one AND-NOT per used word; the first set
//! bit is the first unhit set in table order (the smallest, the enumeration's branch set).
//! Only as many 64-bit words as the set count needs are touched.

/// Capacity in sets.
pub const CAPACITY: usize = 768;
/// 64-bit words per state.
pub const WORDS: usize = CAPACITY / 64;

/// A "still unhit" state: bit i set while set i is not hit.
pub type State = [u64; WORDS];

/// What placing a clue leaves, from [`BitmapTable::probe`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Probe {
    /// Every set is hit.
    AllHit,
    /// The sets left unhit need more clues than are left.
    Pruned,
    /// Index of the first set left unhit.
    Head(usize),
}

/// Hitting masks and per-set data of the sets loaded at the last switch.
#[derive(Clone)]
pub struct BitmapTable {
    hit: [State; 81],
    sets: [u128; CAPACITY],
    len: usize,
    words: usize,
}

impl Default for BitmapTable {
    fn default() -> Self {
        Self::new()
    }
}

impl BitmapTable {
    /// An empty table (about 21 KB; keep it in caller storage).
    pub const fn new() -> BitmapTable {
        BitmapTable {
            hit: [[0; WORDS]; 81],
            sets: [0; CAPACITY],
            len: 0,
            words: 0,
        }
    }

    /// Loads `sets` (order kept, at most [`CAPACITY`], position bits < 81) and returns
    /// the all-unhit state. Returns `None` when there are too many sets.
    pub fn load(&mut self, sets: &[u128]) -> Option<State> {
        if sets.len() > CAPACITY {
            return None;
        }
        self.load_from(sets.iter().copied())
    }

    /// Like [`BitmapTable::load`] from an iterator; `None` (table unusable) when it yields
    /// more than [`CAPACITY`] sets.
    pub fn load_from(&mut self, sets: impl Iterator<Item = u128>) -> Option<State> {
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
        Some(state)
    }

    /// Sets loaded.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no set is loaded.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `out = state` minus the sets hit by `position`, over the active words `from..`;
    /// returns the index of the first still-unhit set there, or `None` when all are hit.
    #[inline]
    pub fn place(
        &self,
        state: &State,
        position: u8,
        out: &mut State,
        from: usize,
    ) -> Option<usize> {
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
    pub fn hits_all(&self, state: &State, position: u8, from: usize) -> bool {
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

    /// Placing `position` on `state` (words `from..`), read without writing the child
    /// state: [`Probe::AllHit`] when it hits every set; else [`Probe::Pruned`] when the
    /// sets it leaves unhit cannot all be hit by `clues` more clues outside `dead`, and the
    /// first set it leaves unhit otherwise. "Cannot" means: one of them has no live cell,
    /// or more than `clues` of them are pairwise disjoint on their live cells (a greedy
    /// packing in table order, smallest sets first). Most placements near the leaves are
    /// pruned here, so only the survivors pay for writing the child state with
    /// [`BitmapTable::place`].
    #[inline]
    pub fn probe(
        &self,
        state: &State,
        position: u8,
        from: usize,
        dead: u128,
        clues: usize,
    ) -> Probe {
        let hit = &self.hit[usize::from(position)];
        let mut used = 0u128;
        let mut disjoint = 0;
        let mut head = None;
        for w in from..self.words.min(WORDS) {
            let mut bits = state[w] & !hit[w];
            while bits != 0 {
                let index = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let set = self.sets[index];
                // `used` holds live cells only, so the dead cells need not be masked off
                // for the overlap test (most sets overlap).
                if set & used == 0 {
                    let live = set & !dead;
                    if live == 0 || disjoint == clues {
                        return Probe::Pruned;
                    }
                    if disjoint == 0 {
                        head = Some(index);
                    }
                    used |= live;
                    disjoint += 1;
                }
            }
        }
        match head {
            Some(index) => Probe::Head(index),
            None => Probe::AllHit,
        }
    }

    /// The cells of `within` lying in every set that `position` leaves unhit in `state`
    /// (words `from..`): the possible last clues after it (`within` itself when it hits
    /// every set). Stops at the first empty intersection.
    #[inline]
    pub fn common_after(&self, state: &State, position: u8, from: usize, within: u128) -> u128 {
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

    /// Positions of loaded set `index`.
    #[inline]
    pub fn set(&self, index: usize) -> u128 {
        self.sets[index]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::boxed::Box;
    use std::vec::Vec;

    /// Greedy packing on a plain list, as the table should compute it.
    fn needs_more_than(unhit: &[u128], dead: u128, clues: usize) -> bool {
        let mut used = 0u128;
        let mut disjoint = 0;
        for &set in unhit {
            let live = set & !dead;
            if live & used == 0 {
                if live == 0 || disjoint == clues {
                    return true;
                }
                used |= live;
                disjoint += 1;
            }
        }
        false
    }

    #[test]
    fn matches_list_filtering() {
        let mut state_rng = 99u64;
        let mut rng = || {
            state_rng = state_rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state_rng >> 33
        };
        let mut sets: Vec<u128> = (0..700)
            .map(|_| (0..5).fold(0u128, |acc, _| acc | 1u128 << (rng() % 81)))
            .collect();
        sets.sort_by_key(|s| (s.count_ones(), *s));
        let mut table = Box::new(BitmapTable::new());
        let mut state = table.load(&sets).unwrap();
        let mut unhit: Vec<u128> = sets.clone();
        let mut dead = 0u128;
        for position in [70u8, 3, 40, 12, 77, 0] {
            let mut next = [0u64; WORDS];
            let all = unhit.iter().all(|&s| s >> position & 1 == 1);
            assert_eq!(table.hits_all(&state, position, 0), all);
            let first = table.place(&state, position, &mut next, 0);
            unhit.retain(|&s| s >> position & 1 == 0);
            assert_eq!(first.map(|i| table.set(i)), unhit.first().copied());
            dead |= 1u128 << (rng() % 81);
            let from = 0;
            for clues in 0..12 {
                let expect = match first {
                    None => Probe::AllHit,
                    Some(_) if needs_more_than(&unhit, dead, clues) => Probe::Pruned,
                    Some(head) => Probe::Head(head),
                };
                assert_eq!(table.probe(&state, position, from, dead, clues), expect);
            }
            let within = !dead & (u128::MAX >> 47);
            let common = unhit.iter().fold(within, |acc, &s| acc & s);
            assert_eq!(table.common_after(&state, position, from, within), common);
            state = next;
        }
        assert!(table.load(&[0u128; CAPACITY + 1]).is_none());
    }
}
