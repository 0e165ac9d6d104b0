//! The gridcheck workspace layout: sizes from the limits. The buffer is carved by
//! `crate::carve::Carver` into 16-byte aligned regions (the grid checker's sets are `u128`).
//!
//! Layout: the handle at offset 0 (the buffer is 8-aligned), then, from the first 16-byte
//! boundary, the slots of the scan objects inside `GRIDCHECK_HEADER_BYTES`, then the
//! arrays. Every region is a multiple of 16 bytes, so the only padding is the one 8-byte
//! step to the first boundary, which the size always includes.

use super::types::{
    gridcheck_limits, GRIDCHECK_HEADER_BYTES, GRIDCHECK_SET_BYTES, GRIDCHECK_STATE_BYTES,
    GRIDCHECK_TABLE_BYTES, GRIDCHECK_WORKSPACE_ALIGN,
};
use crate::carve::{Plain, Sizer};
use core::mem::{align_of, size_of};
use xcover_core::gridcheck::scan::{BitmapTable, LevelState, TruncationLimits};
use xcover_core::gridcheck::Cells;

/// Alignment of every region after the handle (the grid checker's sets are `u128`); the
/// workspace size includes the one step from GRIDCHECK_WORKSPACE_ALIGN up to it.
pub const GRIDCHECK_REGION_ALIGN: usize = 16;

const _: () = {
    assert!(size_of::<BitmapTable>().div_ceil(16) * 16 == GRIDCHECK_TABLE_BYTES);
    assert!(size_of::<LevelState>() == GRIDCHECK_STATE_BYTES);
    assert!(size_of::<Cells>() == GRIDCHECK_SET_BYTES);
    assert!(align_of::<BitmapTable>() <= GRIDCHECK_REGION_ALIGN);
    assert!(align_of::<Cells>() <= GRIDCHECK_REGION_ALIGN);
    assert!(GRIDCHECK_HEADER_BYTES % GRIDCHECK_REGION_ALIGN == 0);
};

/// The array lengths a workspace holds for its limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// UA list entries.
    pub uas: usize,
    /// Antichain scratch entries for generation.
    pub scratch: usize,
    /// Entries of the work list of `prepare`.
    pub work: usize,
    /// Bitmap states.
    pub states: usize,
}

/// The truncation the limits ask for (the CLI's `--keep-ua K`: the K smallest sets).
pub fn truncation(keep_ua: u32) -> TruncationLimits {
    let total = keep_ua as usize;
    TruncationLimits { total }
}

/// Checks the limits and derives the array lengths (None: a limit is out of range).
pub fn counts(limits: &gridcheck_limits) -> Option<Counts> {
    if limits.max_ua == 0 || limits.keep_ua == 0 || !(1..=81).contains(&limits.max_clues) {
        return None;
    }
    let uas = limits.max_ua as usize;
    let levels = limits.max_clues as usize;
    let work = xcover_core::gridcheck::scan::prepare_work_entries(uas);
    Some(Counts {
        uas,
        scratch: limits.ua_scratch as usize,
        work,
        states: levels + 1,
    })
}

/// Bytes of a workspace with these array lengths (None on overflow): the regions as the
/// carver lays them out, plus the 8 bytes the step to the first 16-byte boundary may cost.
pub fn bytes(counts: &Counts) -> Option<usize> {
    let regions = Sizer::<GRIDCHECK_REGION_ALIGN>::new(GRIDCHECK_HEADER_BYTES)
        .bytes(GRIDCHECK_TABLE_BYTES)
        .array::<Cells>(counts.uas)
        .array::<Cells>(counts.scratch)
        .array::<u128>(counts.work)
        .array::<LevelState>(counts.states)
        .total()?;
    let total = regions.checked_add(GRIDCHECK_REGION_ALIGN - GRIDCHECK_WORKSPACE_ALIGN)?;
    (total <= isize::MAX as usize).then_some(total)
}

// SAFETY: a struct holding one u128: zero is the empty set.
unsafe impl Plain for Cells {}
// SAFETY: an array of u64.
unsafe impl Plain for LevelState {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_of_the_readme() {
        let r16 = |n: usize| n.div_ceil(16) * 16;
        assert_eq!(r16(size_of::<BitmapTable>()), GRIDCHECK_TABLE_BYTES);
        for (max_ua, keep, scratch, clues) in [
            (1u32, 1u32, 0u32, 1u32),
            (512, 768, 4096, 18),
            (40_000, 2000, 65536, 17),
            (10_000, 5000, 0, 81),
        ] {
            let limits = gridcheck_limits {
                max_ua,
                keep_ua: keep,
                ua_scratch: scratch,
                max_clues: clues,
            };
            let (u, s, l) = (max_ua as usize, scratch as usize, clues as usize);
            let w = u + (8 * u).clamp(4096, 1 << 18);
            let expect = 8
                + GRIDCHECK_HEADER_BYTES
                + GRIDCHECK_TABLE_BYTES
                + 16 * (u + s + w)
                + 96 * (l + 1);
            assert_eq!(bytes(&counts(&limits).unwrap()), Some(expect));
        }
        let bad = gridcheck_limits {
            max_ua: 1,
            keep_ua: 1,
            ua_scratch: 0,
            max_clues: 82,
        };
        assert_eq!(counts(&bad), None);
    }
}
