//! Bands, stacks and splits: where a cell set lies among the three bands, the transposed
//! grid's cells, and how a clue count splits over the bands.

/// Cells of one band, band-local (bit i = cell 27·band + i).
pub(super) const BAND: u32 = (1 << 27) - 1;

/// The most splits of a clue count under one band 3: a chunk id's first byte holds band 3
/// times this plus the split (at most 254, so `ChunkId::WHOLE`'s 255 stays free). Up to
/// 20 clues have at most 81.
pub(super) const MAX_SPLITS: usize = 85;

/// Band `b`'s part of `cells`, band-local.
#[inline]
pub(super) fn band_part(cells: u128, b: usize) -> u32 {
    (cells >> (27 * b)) as u32 & BAND
}

/// The bands `cells` meets, as bits 0-2.
pub(super) fn bands_met(cells: u128) -> u32 {
    (0..3)
        .filter(|&b| band_part(cells, b) != 0)
        .fold(0, |met, b| met | 1 << b)
}

/// `cells` with rows and columns swapped (stacks become bands).
pub(super) fn transpose(cells: u128) -> u128 {
    let mut out = 0u128;
    let mut rest = cells;
    while rest != 0 {
        let cell = rest.trailing_zeros();
        rest &= rest - 1;
        let (row, col) = (cell / 9, cell % 9);
        out |= 1u128 << (col * 9 + row);
    }
    out
}

/// The two bands other than band 3 (`t`), lower first.
pub(super) const fn other_bands(t: usize) -> (usize, usize) {
    match t {
        0 => (1, 2),
        1 => (0, 2),
        _ => (0, 1),
    }
}

/// C(n, k), 0 when k > n (exact for every count of cells of a band).
pub(super) const fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    let mut acc = 1u64;
    let mut i = 0;
    while i < k {
        acc = acc * (n - i) as u64 / (i + 1) as u64;
        i += 1;
    }
    acc
}

/// One split of the clues with band 3 `t`: `z` clues in band 3, `x` in the lower other
/// band, `y` in the higher.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Split {
    pub z: u32,
    pub x: u32,
    pub y: u32,
}

/// The splits of `clues` with `t` as band 3, in a fixed order: band 3 is the first band
/// holding the most clues (z ≥ 1, a band before `t` holds fewer than z, a band after it at
/// most z), so every distribution of the clues over the bands has exactly one split under
/// one band 3. Calls `f(index, split)`; returns how many there are.
pub(super) fn for_each_split(clues: u32, t: usize, mut f: impl FnMut(usize, Split)) -> usize {
    let (p, q) = other_bands(t);
    let mut index = 0;
    for z in clues.div_ceil(3).max(1)..=clues.min(27) {
        let (max_x, max_y) = (z - u32::from(p < t), z - u32::from(q < t));
        for x in 0..=(clues - z).min(max_x) {
            let y = clues - z - x;
            if y <= max_y {
                f(index, Split { z, x, y });
                index += 1;
            }
        }
    }
    index
}

/// Split number `index` of `clues` under band 3 `t`.
pub(super) fn split_at(clues: u32, t: usize, index: usize) -> Option<Split> {
    let mut found = None;
    for_each_split(clues, t, |i, split| {
        if i == index {
            found = Some(split);
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every distribution of the clues over the bands has one split (none for no clue).
    #[test]
    fn every_distribution_has_one_split() {
        assert!((0..3).all(|t| for_each_split(0, t, |_, _| {}) == 0));
        for clues in [1u32, 2, 5, 16, 17, 27] {
            let mut seen = std::collections::HashSet::new();
            for t in 0..3 {
                let (p, q) = other_bands(t);
                for_each_split(clues, t, |i, Split { z, x, y }| {
                    assert_eq!(split_at(clues, t, i), Some(Split { z, x, y }));
                    let mut d = [0; 3];
                    (d[t], d[p], d[q]) = (z, x, y);
                    assert!(seen.insert(d), "{d:?} twice");
                    // Band 3 is the first band holding the most clues.
                    assert!((0..3).all(|b| d[b] < z || (d[b] == z && b >= t)), "{d:?}");
                });
            }
            let all = (0..=clues)
                .flat_map(|a| (0..=clues - a).map(move |b| (a, b)))
                .count();
            assert_eq!(seen.len(), all, "clues {clues}");
        }
    }

    #[test]
    fn transposing_twice_gives_back_the_cells() {
        let cells = 0x1234_5678_9abc_def0_1357_9bdf_u128 & ((1u128 << 81) - 1);
        assert_eq!(transpose(transpose(cells)), cells);
        assert_eq!(transpose(1 << 1), 1 << 9);
        assert_eq!(bands_met(1 << 3 | 1 << 60), 0b101);
        assert_eq!(binomial(27, 8), 2_220_075);
        assert_eq!(binomial(3, 4), 0);
    }
}
