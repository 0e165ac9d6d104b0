//! The <=768-set bitmap mode of the enumeration.
//!
//! When at most 768 sets are still unhit, the branch switches from filtering lists to bit
//! operations: for every position a 768-bit hitting mask (bit i set when set i contains the
//! position), and per level a 768-bit "still unhit" state. Placing a clue is one AND-NOT
//! per used word; the first set bit is the first unhit set in scan order, i.e. the head that
//! gives the lower bound. Only as many 64-bit words as the set count needs are touched.

/// Capacity in sets.
pub const CAPACITY: usize = 768;
/// 64-bit words per state.
pub const WORDS: usize = CAPACITY / 64;

/// A "still unhit" state: bit i set while set i is not hit.
pub type State = [u64; WORDS];

/// Where the head is when a placement is probed ([`BitmapTable::probe`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Index of the first set left unhit.
    pub head: usize,
    /// Its word.
    word: usize,
    /// The other sets left unhit in that word.
    rest: u64,
}

/// Hitting masks and per-set data of the sets loaded at the last switch.
#[derive(Clone)]
pub struct BitmapTable {
    hit: [State; 81],
    sets: [u128; CAPACITY],
    len: usize,
    words: usize,
    /// Per position `p`: how many loaded sets lie wholly at or above `p` (lowest position
    /// `>= p`). Scan order puts them first: they are the sets `0..at_or_above[p]`.
    at_or_above: [u16; 82],
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
            at_or_above: [0; 82],
        }
    }

    /// Loads `sets` (scan order kept, at most [`CAPACITY`], position bits < 81) and returns
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
        let mut before = 0;
        for position in (0..82usize).rev() {
            while before < len && self.sets[before].trailing_zeros() as usize >= position {
                before += 1;
            }
            self.at_or_above[position] = before as u16;
        }
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

    /// First word that can hold a set whose lowest position is below `position` (the
    /// same "active words" rule as [`super::wide::WideHits`]).
    #[inline]
    pub fn start_word(&self, position: u8) -> usize {
        usize::from(self.at_or_above[usize::from(position.min(81))]) / 64
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

    /// Placing `position` on `state` (active words `from..`) read without writing the
    /// child state: `None` when it hits every set, else where the first set it leaves
    /// unhit (the head) is. [`BitmapTable::place`] gives the same head. Most placements
    /// are pruned on the head and on [`BitmapTable::must_hit_after`], so only the
    /// survivors pay for the child state.
    #[inline]
    pub fn probe(&self, state: &State, position: u8, from: usize) -> Option<Probe> {
        let hit = &self.hit[usize::from(position)];
        let words = self.words.min(WORDS);
        (from.min(words)..words).find_map(|word| {
            let unhit = state[word] & !hit[word];
            (unhit != 0).then(|| Probe {
                head: word * 64 + unhit.trailing_zeros() as usize,
                word,
                rest: unhit & (unhit - 1),
            })
        })
    }

    /// [`BitmapTable::must_hit`] on the child of `state` by `position`, from its `probe`:
    /// the positions of `within` lying in every set still unhit after `position` whose
    /// lowest position is at least `bound`. Those sets come first in scan order, so when
    /// there are any the head is the first of them.
    #[inline]
    pub fn must_hit_after(
        &self,
        state: &State,
        position: u8,
        probe: Probe,
        bound: u8,
        within: u128,
    ) -> u128 {
        let count = usize::from(self.at_or_above[usize::from(bound.min(81))]);
        if probe.head >= count {
            return within;
        }
        let common = within & self.sets[probe.head];
        if common == 0 {
            return 0;
        }
        let hit = &self.hit[usize::from(position)];
        self.common_from(state, hit, probe.word, probe.rest, count, common)
    }

    /// The positions of `within` that lie in every still-unhit set (active words `from..`)
    /// whose lowest position is at least `bound`; `within` when there is none. When every
    /// later clue goes below `bound`, the next clue alone can hit those sets.
    #[inline]
    pub fn must_hit(&self, state: &State, from: usize, bound: u8, within: u128) -> u128 {
        let count = usize::from(self.at_or_above[usize::from(bound.min(81))]);
        match (from..self.words.min(WORDS)).find(|&w| state[w] != 0) {
            Some(word) => self.common_from(state, &[0; WORDS], word, state[word], count, within),
            None => within,
        }
    }

    /// `within` and every set among the first `count` that is still unhit: those of
    /// `first_bits` in word `first_word`, then those of `state` minus `hit` in the words
    /// after it. Stops at the first empty intersection.
    #[inline]
    fn common_from(
        &self,
        state: &State,
        hit: &State,
        first_word: usize,
        first_bits: u64,
        count: usize,
        within: u128,
    ) -> u128 {
        let end = count.div_ceil(64).min(WORDS);
        let mut common = within;
        let mut w = first_word;
        let mut word = first_bits;
        while w < end {
            let tail = count - w * 64;
            if tail < 64 {
                word &= (1u64 << tail) - 1;
            }
            while word != 0 {
                common &= self.sets[w * 64 + word.trailing_zeros() as usize];
                if common == 0 {
                    return 0;
                }
                word &= word - 1;
            }
            w += 1;
            if w < end {
                word = state[w] & !hit[w];
            }
        }
        common
    }

    /// First still-unhit set of `state` in the active words `from..`.
    #[inline]
    pub fn first_unhit(&self, state: &State, from: usize) -> Option<usize> {
        (from..self.words)
            .find(|&w| state[w] != 0)
            .map(|w| w * 64 + state[w].trailing_zeros() as usize)
    }

    /// Lowest position of loaded set `index`.
    #[inline]
    pub fn lowest(&self, index: usize) -> u8 {
        self.sets[index].trailing_zeros().min(128) as u8
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
        super::super::truncate::sort_scan_order(&mut sets);
        let mut table = Box::new(BitmapTable::new());
        let mut state = table.load(&sets).unwrap();
        let mut unhit: Vec<u128> = sets.clone();
        for position in [70u8, 3, 40, 12, 77, 0] {
            let mut next = [0u64; WORDS];
            let all = unhit.iter().all(|&s| s >> position & 1 == 1);
            assert_eq!(table.hits_all(&state, position, 0), all);
            let first = table.place(&state, position, &mut next, 0);
            let probe = table.probe(&state, position, 0);
            assert_eq!(probe.map(|p| p.head), first);
            for bound in [0u8, 9, 30, 55, 80, 81] {
                let within = u128::MAX >> 47;
                if let Some(probe) = probe {
                    assert_eq!(
                        table.must_hit_after(&state, position, probe, bound, within),
                        table.must_hit(&next, 0, bound, within)
                    );
                }
            }
            unhit.retain(|&s| s >> position & 1 == 0);
            assert_eq!(first.map(|i| table.set(i)), unhit.first().copied());
            assert_eq!(table.first_unhit(&next, 0), first);
            if let Some(i) = first {
                assert_eq!(table.lowest(i), unhit[0].trailing_zeros() as u8);
            }
            state = next;
            for bound in [0u8, 9, 30, 55, 80] {
                let within = u128::MAX >> 47;
                let expect = unhit
                    .iter()
                    .filter(|s| s.trailing_zeros() >= u32::from(bound))
                    .fold(within, |acc, &s| acc & s);
                assert_eq!(table.must_hit(&state, 0, bound, within), expect);
            }
        }
        for position in 0..=81u8 {
            let start = table.start_word(position) * 64;
            assert!(sets[..start]
                .iter()
                .all(|s| s.trailing_zeros() >= u32::from(position)));
        }
        assert!(table.load(&[0u128; CAPACITY + 1]).is_none());
    }
}
