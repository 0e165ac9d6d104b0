//! A list of UA over storage the caller owns.
use crate::gridcheck::cells::{Cells, CELL_COUNT};
use crate::gridcheck::error::GridcheckError;

/// A list of cell sets in caller-provided storage (`len` used slots of `storage`).
///
/// ```
/// use xcover_core::gridcheck::ua::UaList;
/// use xcover_core::gridcheck::{Cells, GridcheckError};
///
/// let mut storage = [Cells::EMPTY; 2];
/// let mut list = UaList::new(&mut storage);
/// list.push(Cells::from_cells(&[3, 4]))?;
/// list.push(Cells::single(7))?;
/// assert_eq!(list.push(Cells::single(8)), Err(GridcheckError::ListFull { capacity: 2 }));
/// list.sort();
/// assert_eq!(list.as_slice()[0], Cells::single(7));
/// # Ok::<(), GridcheckError>(())
/// ```
#[derive(Debug)]
pub struct UaList<'a> {
    storage: &'a mut [Cells],
    len: usize,
}

impl<'a> UaList<'a> {
    /// An empty list that can hold `storage.len()` sets.
    pub fn new(storage: &'a mut [Cells]) -> UaList<'a> {
        UaList { storage, len: 0 }
    }

    /// Number of sets held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of sets the storage can hold.
    pub fn capacity(&self) -> usize {
        self.storage.len()
    }

    /// Appends `ua`; `Err(ListFull)` if the storage is full (the list is unchanged).
    pub fn push(&mut self, ua: Cells) -> Result<(), GridcheckError> {
        match self.storage.get_mut(self.len) {
            Some(slot) => {
                *slot = ua;
                self.len += 1;
                Ok(())
            }
            None => Err(GridcheckError::ListFull {
                capacity: self.storage.len(),
            }),
        }
    }

    /// Appends `ua`; if the storage is full, first removes duplicates (sorting the list) to
    /// make room. `Err(ListFull)` only if every held set is distinct.
    pub fn push_merging(&mut self, ua: Cells) -> Result<(), GridcheckError> {
        if self.len == self.storage.len() {
            self.dedup();
        }
        self.push(ua)
    }

    /// The sets held.
    pub fn as_slice(&self) -> &[Cells] {
        &self.storage[..self.len]
    }

    /// Empties the list.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Sorts by (size, bitmap).
    pub fn sort(&mut self) {
        let held = &mut self.storage[..self.len];
        if held.iter().all(|ua| ua.is_subset_of(Cells::ALL)) {
            // (size, bitmap) order is the numeric order of `size << 81 | bitmap`: put the size
            // in the unused bits above the grid once per set and sort plain numbers, instead
            // of counting two sets' cells at every comparison (no popcount instruction on
            // the baseline x86-64 target). The sizes are cleared afterwards.
            for ua in held.iter_mut() {
                ua.0 |= (ua.len() as u128) << CELL_COUNT;
            }
            held.sort_unstable();
            for ua in held.iter_mut() {
                ua.0 &= Cells::ALL.0;
            }
        } else {
            // Stray bits above the grid (a caller's own sets): the key as it is.
            held.sort_unstable_by_key(|ua| (ua.len(), ua.0));
        }
    }

    /// Sorts by (size, bitmap) and removes exact duplicates.
    pub fn dedup(&mut self) {
        self.sort();
        let held = &mut self.storage[..self.len];
        let mut kept = 0;
        for i in 0..held.len() {
            if kept == 0 || held[i] != held[kept - 1] {
                held[kept] = held[i];
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Whether the list holds exactly `ua`.
    pub fn contains(&self, ua: Cells) -> bool {
        self.as_slice().contains(&ua)
    }

    /// Number of sets of each size 0..=81 (`counts[s]` = sets of `s` cells).
    pub fn size_counts(&self) -> [u32; CELL_COUNT + 1] {
        let mut counts = [0u32; CELL_COUNT + 1];
        for ua in self.as_slice() {
            counts[ua.len() as usize] += 1;
        }
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_push_full_sort_dedup() {
        let mut storage = [Cells::EMPTY; 4];
        let mut list = UaList::new(&mut storage);
        assert!(list.is_empty());
        let a = Cells::from_cells(&[1, 2, 3, 4]);
        let b = Cells::from_cells(&[5, 6]);
        list.push(a).unwrap();
        list.push(b).unwrap();
        list.push(a).unwrap();
        list.push(b).unwrap();
        assert_eq!(list.push(a), Err(GridcheckError::ListFull { capacity: 4 }));
        assert_eq!(list.len(), 4);
        // Merging push makes room by removing duplicates.
        let c = Cells::from_cells(&[7, 8, 9]);
        list.push_merging(c).unwrap();
        assert_eq!(list.as_slice(), &[b, a, c][..]);
        list.sort();
        assert_eq!(list.as_slice(), &[b, c, a][..]);
        assert!(list.contains(c) && !list.contains(Cells::single(7)));
        assert_eq!(list.size_counts()[2], 1);
        list.push_merging(Cells::single(0)).unwrap();
        assert_eq!(
            list.push_merging(Cells::single(1)),
            Err(GridcheckError::ListFull { capacity: 4 })
        );
        list.clear();
        assert_eq!(list.len(), 0);
        assert_eq!(list.capacity(), 4);
    }

    #[test]
    fn sort_orders_by_size_then_bitmap_and_leaves_the_sets_unchanged() {
        let sets = [
            Cells::from_cells(&[80, 79]),
            Cells::from_cells(&[0, 1, 2]),
            Cells::single(80),
            Cells::from_cells(&[3, 4]),
            Cells::single(0),
            Cells::from_cells(&[0, 80, 40]),
            Cells::EMPTY,
            Cells::ALL,
        ];
        let mut expected = sets;
        expected.sort_by_key(|ua| (ua.len(), ua.0));
        let mut storage = [Cells::EMPTY; 8];
        let mut list = UaList::new(&mut storage);
        for ua in sets {
            list.push(ua).unwrap();
        }
        list.sort();
        assert_eq!(list.as_slice(), &expected[..]);
        // A set with stray bits above the grid: sorted on the same key (its size counts the
        // grid's cells only, its bitmap all bits), bits kept.
        let stray = Cells(1 << 100 | 1 << 5);
        let mut with_stray = [Cells::EMPTY; 3];
        let mut list = UaList::new(&mut with_stray);
        for ua in [Cells::from_cells(&[1, 2]), stray, Cells::single(6)] {
            list.push(ua).unwrap();
        }
        list.sort();
        assert_eq!(
            list.as_slice(),
            &[Cells::single(6), stray, Cells::from_cells(&[1, 2])][..]
        );
    }
}
