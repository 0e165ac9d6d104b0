//! [`Antichain`]: the minimal sets among those offered, in caller scratch.
//!
//! While the solutions of one pseudo-puzzle are enumerated, each one's difference from the
//! grid is a UA, usually not minimal. The antichain keeps only sets with no kept subset:
//! a new set containing a kept one is rejected, and kept supersets of a new set are
//! removed. If the scratch fills up the result is marked incomplete: it might then hold
//! non-minimal sets (a subset that would have removed them was lost), so the caller must
//! drop it entirely.
//!
//! The sets are kept sorted by size, with the end of each size class: a set can only hold
//! kept sets no larger than itself, so [`Antichain::covers`] (asked at every branch of the
//! enumeration) reads only those, and a new set's kept supersets are looked for only among
//! the sets at least as large.
use crate::gridcheck::cells::{Cells, CELL_COUNT};

/// An antichain (no member a subset of another) over caller storage.
///
/// ```
/// use xcover_core::gridcheck::ua::Antichain;
/// use xcover_core::gridcheck::Cells;
///
/// let mut storage = [Cells::EMPTY; 4];
/// let mut chain = Antichain::new(&mut storage);
/// chain.offer(Cells::from_cells(&[1, 2, 3]));
/// chain.offer(Cells::from_cells(&[1, 2])); // replaces its superset
/// chain.offer(Cells::from_cells(&[1, 2, 9])); // rejected: holds a kept set
/// assert_eq!(chain.as_slice(), &[Cells::from_cells(&[1, 2])][..]);
/// assert!(!chain.overflowed());
/// ```
#[derive(Debug)]
pub struct Antichain<'s> {
    /// The kept sets in `storage[..len]`, sorted by size.
    storage: &'s mut [Cells],
    len: usize,
    overflowed: bool,
    /// `ends[s]`: number of kept sets of at most `s` cells (where the sets larger than `s`
    /// start in `storage`).
    ends: [u32; CELL_COUNT + 1],
}

impl<'s> Antichain<'s> {
    /// An empty antichain that can hold `storage.len()` sets (at most `u32::MAX`).
    pub fn new(storage: &'s mut [Cells]) -> Antichain<'s> {
        // The size classes count in u32 (half the bytes to update): room beyond that is
        // never used.
        let room = storage.len().min(u32::MAX as usize);
        Antichain {
            storage: &mut storage[..room],
            len: 0,
            overflowed: false,
            ends: [0; CELL_COUNT + 1],
        }
    }

    /// Whether some kept set is a subset of (or equal to) `set`: then `set` and every
    /// superset of it are useless.
    #[inline]
    pub fn covers(&self, set: Cells) -> bool {
        // Only sets no larger than `set` can be inside it.
        self.storage[..self.no_larger_than(set.len())]
            .iter()
            .any(|kept| kept.is_subset_of(set))
    }

    /// [`Antichain::covers`] and more: `None` if some kept set is inside `set`, else
    /// `(completing, two_short)`: the cells that are the only one a kept set has outside
    /// `set` (adding any of them to `set` would make it cover that kept set), and the cells
    /// of the kept sets that have exactly two outside it (only those that two such sets
    /// share, when some do: the enumeration's best cells to guess on).
    #[inline]
    pub(crate) fn covers_or_completes(&self, set: Cells) -> Option<(Cells, Cells)> {
        let (mut completing, mut two_short, mut twice) = (0u128, 0u128, 0u128);
        // Only sets at most two larger than `set` can miss at most two of its cells.
        for kept in &self.storage[..self.no_larger_than(set.len() + 2)] {
            let outside = kept.0 & !set.0;
            if outside == 0 {
                return None;
            }
            let rest = outside & (outside - 1);
            if rest == 0 {
                completing |= outside;
            } else if rest & (rest - 1) == 0 {
                twice |= two_short & outside;
                two_short |= outside;
            }
        }
        Some((
            Cells(completing),
            Cells(if twice != 0 { twice } else { two_short }),
        ))
    }

    /// Number of kept sets of at most `size` cells (they come first in the storage).
    #[inline]
    fn no_larger_than(&self, size: u32) -> usize {
        self.ends[(size as usize).min(CELL_COUNT)] as usize
    }

    /// Adds `delta` (+1 or -1, wrapping) to the counts of the size classes from `size` up.
    #[inline]
    fn count_size(&mut self, size: u32, delta: u32) {
        for end in &mut self.ends[(size as usize).min(CELL_COUNT)..] {
            *end = end.wrapping_add(delta);
        }
    }

    /// Offers `set`: kept unless it contains a kept set; kept supersets of it are removed.
    /// Returns whether it was kept. If the storage is full, the antichain overflows.
    pub fn offer(&mut self, set: Cells) -> bool {
        if self.overflowed || self.covers(set) {
            return false;
        }
        // Remove the kept supersets, keeping the order: they are at least as large (a set
        // of the same size can differ only in stray bits above the grid).
        let size = set.len();
        let first = match size {
            0 => 0,
            _ => self.no_larger_than(size - 1),
        };
        let mut kept = first;
        for i in first..self.len {
            let other = self.storage[i];
            if set.is_subset_of(other) {
                self.count_size(other.len(), u32::MAX);
            } else {
                self.storage[kept] = other;
                kept += 1;
            }
        }
        self.len = kept;
        if self.len == self.storage.len() {
            self.overflowed = true;
            return false;
        }
        // Insert after the sets of its size.
        let at = self.no_larger_than(size);
        self.storage.copy_within(at..self.len, at + 1);
        self.storage[at] = set;
        self.len += 1;
        self.count_size(size, 1);
        true
    }

    /// Whether a set had to be refused for lack of room (the result is then unusable).
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// The kept sets (in no particular order: by size at present).
    pub fn as_slice(&self) -> &[Cells] {
        &self.storage[..self.len]
    }

    /// Empties the antichain (and clears the overflow mark).
    pub fn clear(&mut self) {
        self.len = 0;
        self.overflowed = false;
        self.ends = [0; CELL_COUNT + 1];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_minimal_sets() {
        let mut storage = [Cells::EMPTY; 8];
        let mut chain = Antichain::new(&mut storage);
        let big = Cells::from_cells(&[1, 2, 3, 4, 5]);
        let mid = Cells::from_cells(&[1, 2, 3]);
        let other = Cells::from_cells(&[7, 8]);
        assert!(chain.offer(big));
        assert!(chain.offer(other));
        assert!(chain.offer(mid)); // removes big
        assert!(!chain.offer(big));
        assert!(!chain.offer(mid)); // equal: rejected
        assert!(!chain.offer(Cells::from_cells(&[1, 2, 3, 9])));
        assert!(chain.covers(Cells::from_cells(&[7, 8, 40])));
        let mut kept: std::vec::Vec<Cells> = chain.as_slice().into();
        kept.sort();
        assert_eq!(kept, [mid, other]);
        assert!(!chain.overflowed());
    }

    #[test]
    fn matches_a_plain_antichain_and_stays_sorted_by_size() {
        use crate::gridcheck::ua::SplitMix64;
        use std::vec::Vec;
        let mut rng = SplitMix64::new(5);
        let mut storage = [Cells::EMPTY; 64];
        let mut chain = Antichain::new(&mut storage);
        for round in 0..20 {
            chain.clear();
            let mut plain: Vec<Cells> = Vec::new();
            for _ in 0..60 {
                // Small random sets over 12 cells (many inclusions), now and then with a
                // stray bit above the grid.
                let mut set = Cells::EMPTY;
                for _ in 0..1 + rng.below(6) {
                    set.insert(rng.below(12) as u8 * 7);
                }
                if rng.below(8) == 0 {
                    set = Cells(set.0 | 1 << 100);
                }
                let probe = Cells(set.0 | Cells::single(rng.below(81) as u8).0);
                let plain_covers = plain.iter().any(|k| k.is_subset_of(probe));
                assert_eq!(chain.covers(probe), plain_covers, "round {round}");
                // The cells that alone, or with one other, are missing from a kept set.
                let missing = |n: u32| {
                    plain
                        .iter()
                        .map(|k| k.difference(probe))
                        .filter(|outside| outside.0.count_ones() == n)
                        .fold(Cells::EMPTY, |acc, outside| acc | outside)
                };
                // The cells of two of the sets that lack two, or else of one.
                let two_short: Vec<Cells> = plain
                    .iter()
                    .map(|k| k.difference(probe))
                    .filter(|outside| outside.0.count_ones() == 2)
                    .collect();
                let twice = (0..128u8)
                    .map(|bit| Cells(1 << bit))
                    .filter(|&c| two_short.iter().filter(|o| !o.is_disjoint(c)).count() >= 2)
                    .fold(Cells::EMPTY, |acc, c| acc | c);
                let try_first = if twice.is_empty() { missing(2) } else { twice };
                let expected = (!plain_covers).then_some((missing(1), try_first));
                assert_eq!(chain.covers_or_completes(probe), expected, "round {round}");
                let keep = !plain.iter().any(|k| k.is_subset_of(set));
                if keep {
                    plain.retain(|k| !set.is_subset_of(*k));
                    plain.push(set);
                }
                assert_eq!(chain.offer(set), keep, "round {round}");
                let held = chain.as_slice();
                assert!(held.windows(2).all(|w| w[0].len() <= w[1].len()));
                for size in 0..=CELL_COUNT as u32 {
                    let n = held.iter().filter(|k| k.len() <= size).count();
                    assert_eq!(chain.no_larger_than(size), n);
                }
                let (mut a, mut b): (Vec<Cells>, Vec<Cells>) = (held.into(), plain.clone());
                a.sort();
                b.sort();
                assert_eq!(a, b, "round {round}");
            }
        }
        assert!(!chain.overflowed());
    }

    #[test]
    fn overflow_is_reported_and_sticky() {
        let mut storage = [Cells::EMPTY; 2];
        let mut chain = Antichain::new(&mut storage);
        assert!(chain.offer(Cells::single(1)));
        assert!(chain.offer(Cells::single(2)));
        assert!(!chain.offer(Cells::single(3)));
        assert!(chain.overflowed());
        assert!(!chain.offer(Cells::single(4)));
        chain.clear();
        assert!(!chain.overflowed() && chain.as_slice().is_empty());
    }
}
