//! [`Antichain`]: the minimal sets among those offered, in caller scratch.
//!
//! While the solutions of one pseudo-puzzle are enumerated, each one's difference from the
//! grid is a UA, usually not minimal. The antichain keeps only sets with no kept subset:
//! a new set containing a kept one is rejected, and kept supersets of a new set are
//! removed. If the scratch fills up the result is marked incomplete: it might then hold
//! non-minimal sets (a subset that would have removed them was lost), so the caller must
//! drop it entirely.
use crate::gridcheck::cells::Cells;

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
    storage: &'s mut [Cells],
    len: usize,
    overflowed: bool,
}

impl<'s> Antichain<'s> {
    /// An empty antichain that can hold `storage.len()` sets.
    pub fn new(storage: &'s mut [Cells]) -> Antichain<'s> {
        Antichain {
            storage,
            len: 0,
            overflowed: false,
        }
    }

    /// Whether some kept set is a subset of (or equal to) `set`: then `set` and every
    /// superset of it are useless.
    #[inline]
    pub fn covers(&self, set: Cells) -> bool {
        self.storage[..self.len]
            .iter()
            .any(|kept| kept.is_subset_of(set))
    }

    /// Offers `set`: kept unless it contains a kept set; kept supersets of it are removed.
    /// Returns whether it was kept. If the storage is full, the antichain overflows.
    pub fn offer(&mut self, set: Cells) -> bool {
        if self.overflowed || self.covers(set) {
            return false;
        }
        let mut i = 0;
        while i < self.len {
            if set.is_subset_of(self.storage[i]) {
                self.len -= 1;
                self.storage[i] = self.storage[self.len];
            } else {
                i += 1;
            }
        }
        match self.storage.get_mut(self.len) {
            Some(slot) => {
                *slot = set;
                self.len += 1;
                true
            }
            None => {
                self.overflowed = true;
                false
            }
        }
    }

    /// Whether a set had to be refused for lack of room (the result is then unusable).
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// The kept sets (in no particular order).
    pub fn as_slice(&self) -> &[Cells] {
        &self.storage[..self.len]
    }

    /// Empties the antichain (and clears the overflow mark).
    pub fn clear(&mut self) {
        self.len = 0;
        self.overflowed = false;
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
