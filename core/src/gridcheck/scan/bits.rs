//! Bit helpers of the enumeration's hot loops over `u128` cell and set masks.
#[cfg(doc)]
use super::table::{HitTable, ProbeScratch};

/// The position of `branch` (not empty) with the largest `key`, the lowest position of
/// those: the children's order of [`HitTable::most_unhit`] and
/// [`ProbeScratch::next_child`], which differ only in what they count.
#[inline(always)]
pub(super) fn position_with_most<K: Ord>(branch: u128, mut key: impl FnMut(u8) -> K) -> u8 {
    let mut best = branch.trailing_zeros() as u8;
    let mut most = key(best);
    let mut rest = branch & (branch - 1);
    while rest != 0 {
        let position = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let count = key(position);
        if count > most {
            most = count;
            best = position;
        }
    }
    best
}

/// Calls `f` with each position of `cells`, lowest first, one 64-bit half at a time: a
/// `u128` bit loop works on both halves at every step (`trailing_zeros`, `x &= x - 1`),
/// which the probes' hot loops pay for (docs/PERFORMANCE.md).
#[inline(always)]
pub(super) fn for_each_position(cells: u128, mut f: impl FnMut(usize)) {
    for (half, base) in [(cells as u64, 0), ((cells >> 64) as u64, 64)] {
        let mut bits = half;
        while bits != 0 {
            f(base | (bits.trailing_zeros() as usize & 63));
            bits &= bits - 1;
        }
    }
}

/// The number of bits set in `x`: the two halves' bit counts summed within the bytes
/// before the one multiply that adds the bytes (x86_64's baseline has no `popcnt`, and
/// `count_ones` on a `u128` counts each half to the end).
#[inline(always)]
pub(super) fn count_ones(x: u128) -> u32 {
    const ONES: u64 = 0x5555_5555_5555_5555;
    const PAIRS: u64 = 0x3333_3333_3333_3333;
    const NIBBLES: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    const BYTES: u64 = 0x0101_0101_0101_0101;
    let (a, b) = (x as u64, (x >> 64) as u64);
    let a = a - (a >> 1 & ONES);
    let b = b - (b >> 1 & ONES);
    // Fields of four bits: at most 4 + 4, then bytes: at most 16.
    let sum = (a & PAIRS) + (a >> 2 & PAIRS) + (b & PAIRS) + (b >> 2 & PAIRS);
    let bytes = (sum & NIBBLES) + (sum >> 4 & NIBBLES);
    (bytes.wrapping_mul(BYTES) >> 56) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gridcheck::scan::region_fit::tests::lcg;

    #[test]
    fn count_ones_matches_the_library() {
        let mut rng = lcg(3);
        for _ in 0..10_000 {
            let x = u128::from(rng()) << 97
                ^ u128::from(rng()) << 64
                ^ u128::from(rng()) << 31
                ^ u128::from(rng());
            for y in [x, !x, x & x >> 3, 0, u128::MAX] {
                assert_eq!(count_ones(y), y.count_ones());
            }
        }
    }
}
