//! The wide bitmap mode for the top levels: up to 4096 kept sets.
//!
//! The reference tool filters a copy of the unhit list per level while more than 768 sets
//! are unhit ("list mode"), an O(#UA) pass per placement. Measured here that pass dominated
//! masked scans with a few thousand kept sets (10-70x slower than with a few hundred).
//! The wide mode does the same job with bits: one 4096-bit hitting mask per position, built
//! once per prepared scan (shared by all threads), and a 4096-bit unhit state per level.
//! When at most 768 sets are left, the branch switches to [`super::bitmap768`] as before.
//! The list mode stays for kept lists longer than [`WIDE_CAPACITY`].

/// Most sets the wide mode handles.
pub const WIDE_CAPACITY: usize = 4096;
/// 128-bit words per wide state.
pub const WIDE_WORDS: usize = WIDE_CAPACITY / 128;

/// A wide "still unhit" state: bit i set while kept set i is not hit.
pub type WideState = [u128; WIDE_WORDS];

/// Words needed for `sets` sets.
pub const fn words_for(sets: usize) -> usize {
    sets.div_ceil(128)
}

/// Hitting masks of the kept sets: `hits[position * words + w]`.
///
/// Active words: the sets are in scan order (lowest position descending). Once a clue sits
/// at position `p`, every set whose lowest position is `>= p` must already be hit (the
/// next clues all go below `p`; if one is unhit the branch has no candidates and dies), so
/// its bit is never needed again: a child of a clue at `p` reads and writes only the words
/// from [`WideHits::start_word`]`(p)` on. Deep in the tree, positions are low and only the
/// tail of the list stays active, so a placement touches few words.
#[derive(Copy, Clone, Debug)]
pub struct WideHits<'a> {
    hits: &'a [u128],
    words: usize,
    len: usize,
    start_word: [u8; 82],
}

/// Builds the hitting masks of `sets` (at most [`WIDE_CAPACITY`]) into `out`, which must
/// hold `81 * words_for(sets.len())` words; returns the table, or `None` when too small.
pub fn build<'a>(sets: &[u128], out: &'a mut [u128]) -> Option<WideHits<'a>> {
    let words = words_for(sets.len());
    if sets.len() > WIDE_CAPACITY || out.len() < 81 * words {
        return None;
    }
    let out = &mut out[..81 * words];
    out.fill(0);
    for (i, &set) in sets.iter().enumerate() {
        let mut rest = set;
        while rest != 0 {
            let position = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            out[position * words + i / 128] |= 1u128 << (i % 128);
        }
    }
    let mut start_word = [0u8; 82];
    for (position, start) in start_word.iter_mut().enumerate() {
        let before = sets
            .iter()
            .take_while(|s| s.trailing_zeros() as usize >= position)
            .count();
        *start = (before / 128) as u8;
    }
    Some(WideHits {
        hits: out,
        words,
        len: sets.len(),
        start_word,
    })
}

impl WideHits<'_> {
    /// The all-unhit state.
    pub fn full_state(&self) -> WideState {
        let mut state = [0u128; WIDE_WORDS];
        for (w, word) in state[..self.words].iter_mut().enumerate() {
            let bits = (self.len - w * 128).min(128);
            *word = if bits == 128 {
                u128::MAX
            } else {
                (1u128 << bits) - 1
            };
        }
        state
    }

    /// First word that can hold a set whose lowest position is below `position`.
    #[inline]
    pub fn start_word(&self, position: u8) -> usize {
        usize::from(self.start_word[usize::from(position)])
    }

    /// `out = state` minus the sets hit by `position`, over the active words `from..`;
    /// returns (unhit count, first unhit) over those words.
    #[inline]
    pub fn place(
        &self,
        state: &WideState,
        position: u8,
        out: &mut WideState,
        from: usize,
    ) -> (u32, Option<usize>) {
        let hit = &self.hits[usize::from(position) * self.words..][..self.words];
        let mut count = 0;
        let mut first = None;
        for w in (from..self.words).rev() {
            let word = state[w] & !hit[w];
            out[w] = word;
            count += word.count_ones();
            if word != 0 {
                first = Some(w * 128 + word.trailing_zeros() as usize);
            }
        }
        (count, first)
    }

    /// True when `position` hits every set still unhit in the active words `from..`.
    #[inline]
    pub fn hits_all(&self, state: &WideState, position: u8, from: usize) -> bool {
        let hit = &self.hits[usize::from(position) * self.words..][..self.words];
        (from..self.words).all(|w| state[w] & !hit[w] == 0)
    }

    /// Indices of the sets still unhit in the active words `from..`, ascending.
    pub fn unhit(&self, state: &WideState, from: usize) -> impl Iterator<Item = usize> + '_ {
        let words = *state;
        (from..self.words).flat_map(move |w| {
            let mut word = words[w];
            core::iter::from_fn(move || {
                if word == 0 {
                    return None;
                }
                let bit = word.trailing_zeros() as usize;
                word &= word - 1;
                Some(w * 128 + bit)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;
    use std::vec::Vec;

    #[test]
    fn matches_list_filtering() {
        let mut seed = 7u64;
        let mut rng = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        let mut sets: Vec<u128> = (0..3000)
            .map(|_| (0..6).fold(0u128, |acc, _| acc | 1u128 << (rng() % 81)))
            .collect();
        super::super::truncate::sort_scan_order(&mut sets);
        let mut out = vec![0u128; 81 * words_for(sets.len())];
        let table = build(&sets, &mut out).unwrap();
        let mut state = table.full_state();
        let mut unhit: Vec<usize> = (0..sets.len()).collect();
        assert_eq!(table.unhit(&state, 0).collect::<Vec<_>>(), unhit);
        for position in [80u8, 12, 44, 3, 60, 30, 71, 5, 19, 50] {
            let all = unhit.iter().all(|&i| sets[i] >> position & 1 == 1);
            assert_eq!(table.hits_all(&state, position, 0), all);
            let mut next = [0u128; WIDE_WORDS];
            let (count, first) = table.place(&state, position, &mut next, 0);
            unhit.retain(|&i| sets[i] >> position & 1 == 0);
            assert_eq!(count as usize, unhit.len());
            assert_eq!(first, unhit.first().copied());
            assert_eq!(table.unhit(&next, 0).collect::<Vec<_>>(), unhit);
            state = next;
        }
        // Active words: the words before start_word(p) hold only sets with lowest >= p.
        for position in 0..=81u8 {
            let start = table.start_word(position) * 128;
            assert!(sets[..start.min(sets.len())]
                .iter()
                .all(|s| s.trailing_zeros() >= u32::from(position)));
        }
        assert!(build(&sets, &mut [0u128; 10]).is_none());
    }
}
