//! The table order of a set list: smallest first, then by bits.

/// Sorts `list` (sets of positions or cells below [`SIZE_SHIFT`]) smallest first, then
/// by bits: the enumeration's table order. Each set's size is written once above its bits
/// and plain numbers are sorted, instead of two bit counts per comparison (the baseline
/// x86-64 has no `popcnt`), then the sizes are cleared: the same order.
pub(crate) fn sort_size_order(list: &mut [u128]) {
    for set in list.iter_mut() {
        debug_assert!(*set >> SIZE_SHIFT == 0);
        *set |= u128::from(set.count_ones()) << SIZE_SHIFT;
    }
    list.sort_unstable();
    for set in list.iter_mut() {
        *set &= (1 << SIZE_SHIFT) - 1;
    }
}

/// The bit above every position and cell (81 at most) where [`sort_size_order`] keeps a
/// set's size while it sorts.
const SIZE_SHIFT: u32 = 96;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gridcheck::scan::region_fit::tests::lcg;
    use std::vec::Vec;

    #[test]
    fn sorts_by_size_then_bits() {
        let mut rng = lcg(17);
        for _ in 0..100 {
            let mut list: Vec<u128> = (0..rng() % 200)
                .map(|_| (0..1 + rng() % 12).fold(0, |set, _| set | 1u128 << (rng() % 81)))
                .collect();
            let mut by_key = list.clone();
            by_key.sort_unstable_by_key(|&set| (set.count_ones(), set));
            sort_size_order(&mut list);
            assert_eq!(list, by_key);
        }
    }
}
