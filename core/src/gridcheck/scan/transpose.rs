//! Transposition of a 128 × 128 bit matrix held as 128 `u128` rows, for the exact test's
//! per-position set masks ([`super::bitmap768::BitmapTable::prepare_probes`]): rows are
//! sets (bit `x` for position `x`), columns are positions (bit `i` for set `i`).
//!
//! The classic recursive block swap (Hacker's Delight, 7-3): at each of seven steps,
//! blocks of `j` bits swap across the diagonal, for `j` = 64, 32, ..., 1. It is branch
//! free, unlike scattering each set's positions (one mispredicted loop exit per set).

/// Transposes `rows` in place: afterwards bit `i` of `rows[x]` is what bit `x` of
/// `rows[i]` was.
pub(crate) fn transpose(rows: &mut [u128; 128]) {
    swap_blocks::<64>(rows, u128::from(u64::MAX));
    swap_blocks::<32>(rows, 0x0000_0000_FFFF_FFFF_0000_0000_FFFF_FFFF);
    swap_blocks::<16>(rows, 0x0000_FFFF_0000_FFFF_0000_FFFF_0000_FFFF);
    swap_blocks::<8>(rows, 0x00FF_00FF_00FF_00FF_00FF_00FF_00FF_00FF);
    swap_blocks::<4>(rows, 0x0F0F_0F0F_0F0F_0F0F_0F0F_0F0F_0F0F_0F0F);
    swap_blocks::<2>(rows, 0x3333_3333_3333_3333_3333_3333_3333_3333);
    swap_blocks::<1>(rows, 0x5555_5555_5555_5555_5555_5555_5555_5555);
}

/// One step: for every row pair `k`, `k + J` (bit `J` of `k` clear), the high `J`-bit
/// blocks of row `k` (`low`: the mask of the low blocks) trade places with the low blocks
/// of row `k + J`.
#[inline(always)]
fn swap_blocks<const J: usize>(rows: &mut [u128; 128], low: u128) {
    for base in (0..128).step_by(2 * J) {
        for k in base..base + J {
            let t = ((rows[k] >> J) ^ rows[k + J]) & low;
            rows[k] ^= t << J;
            rows[k + J] ^= t;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_bitwise_definition() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut rows = [0u128; 128];
        for row in rows.iter_mut() {
            *row = u128::from(next()) | u128::from(next()) << 64;
        }
        let original = rows;
        transpose(&mut rows);
        for (x, &column) in rows.iter().enumerate() {
            for (i, &row) in original.iter().enumerate() {
                assert_eq!(column >> i & 1, row >> x & 1, "bit {i} of column {x}");
            }
        }
        transpose(&mut rows);
        assert_eq!(rows, original);
    }
}
