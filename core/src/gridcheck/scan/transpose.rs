//! Transposition of a 128 × 128 bit matrix held as 128 `u128` rows, for the exact test's
//! per-position set masks ([`super::table::HitTable::prepare_probes`]): rows are
//! sets (bit `x` for position `x`), columns are positions (bit `i` for set `i`).
//!
//! The classic recursive block swap (Hacker's Delight, 7-3): at each of seven steps,
//! blocks of `j` bits swap across the diagonal, for `j` = 64, 32, ..., 1. It is branch
//! free, unlike scattering each set's positions (one mispredicted loop exit per set).

/// Transposes `rows` in place: afterwards bit `i` of `rows[x]` is what bit `x` of
/// `rows[i]` was.
#[cfg(test)]
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
#[cfg(test)]
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

/// Positions below [`NARROW_COLUMNS`] only: the whole-grid scan's 81 cells (and masks).
pub(crate) const NARROW_COLUMNS: usize = 96;

/// Writes `columns[x]`, for each position `x` below [`NARROW_COLUMNS`]: bit `i` set when
/// `rows[i]` holds `x` (`rows`: at most 128 sets, no position from [`NARROW_COLUMNS`]
/// on). `columns[NARROW_COLUMNS..]` are left as they were.
///
/// Three 64 × 64 transpositions of `u64` blocks instead of one 128 × 128 of `u128`
/// rows: the low halves of rows 0..64, those of rows 64..128 (skipped when there are
/// none), and one block for bits 64..96 of all rows (32 bits of each of the two row
/// halves side by side): 3 × 6 steps on 64-bit words, about half the work.
pub(crate) fn transpose_narrow(rows: &[u128], columns: &mut [u128; 128]) {
    let len = rows.len().min(128);
    let (first, second) = rows[..len].split_at(len.min(64));
    let mut low = [0u64; 64];
    let mut high = [0u64; 64];
    let mut side = [0u64; 64];
    for (i, &row) in first.iter().enumerate() {
        low[i] = row as u64;
        side[i] = (row >> 64) as u64 & 0xFFFF_FFFF;
    }
    for (i, &row) in second.iter().enumerate() {
        high[i] = row as u64;
        side[i] |= ((row >> 64) as u64) << 32;
    }
    transpose64(&mut low);
    transpose64(&mut side);
    if second.is_empty() {
        for x in 0..64 {
            columns[x] = u128::from(low[x]);
        }
    } else {
        transpose64(&mut high);
        for x in 0..64 {
            columns[x] = u128::from(low[x]) | u128::from(high[x]) << 64;
        }
    }
    for x in 0..NARROW_COLUMNS - 64 {
        columns[64 + x] = u128::from(side[x]) | u128::from(side[32 + x]) << 64;
    }
}

/// Transposes a 64 × 64 bit matrix in place (bit `i` of `rows[x]` becomes bit `x` of
/// `rows[i]`), by the same block swaps on 64-bit rows.
#[inline(always)]
fn transpose64(rows: &mut [u64; 64]) {
    swap64::<32>(rows, 0x0000_0000_FFFF_FFFF);
    swap64::<16>(rows, 0x0000_FFFF_0000_FFFF);
    swap64::<8>(rows, 0x00FF_00FF_00FF_00FF);
    swap64::<4>(rows, 0x0F0F_0F0F_0F0F_0F0F);
    swap64::<2>(rows, 0x3333_3333_3333_3333);
    swap64::<1>(rows, 0x5555_5555_5555_5555);
}

/// One step of [`transpose64`], as `swap_blocks` on 64-bit rows.
#[inline(always)]
fn swap64<const J: usize>(rows: &mut [u64; 64], low: u64) {
    for base in (0..64).step_by(2 * J) {
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
    use std::vec::Vec;

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

    #[test]
    fn narrow_matches_the_bitwise_definition() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for len in [0, 1, 17, 63, 64, 65, 100, 127, 128] {
            let rows: Vec<u128> = (0..len)
                .map(|_| (u128::from(next()) | u128::from(next()) << 64) & (u128::MAX >> 32))
                .collect();
            let mut columns = [u128::MAX; 128];
            transpose_narrow(&rows, &mut columns);
            for (x, &column) in columns[..NARROW_COLUMNS].iter().enumerate() {
                for i in 0..128 {
                    let expect = rows.get(i).is_some_and(|row| row >> x & 1 == 1);
                    assert_eq!(
                        column >> i & 1 == 1,
                        expect,
                        "len {len}, bit {i} of column {x}"
                    );
                }
            }
            assert!(columns[NARROW_COLUMNS..].iter().all(|&c| c == u128::MAX));
        }
    }
}
