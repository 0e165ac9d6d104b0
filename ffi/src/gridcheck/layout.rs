//! The gridcheck workspace layout: sizes from the limits, and carving the caller's buffer
//! into 16-byte aligned regions (the grid checker's sets are `u128`).
//!
//! Layout: the handle at offset 0 (the buffer is 8-aligned), then, from the first 16-byte
//! boundary, the slots of the scan objects inside `GRIDCHECK_HEADER_BYTES`, then the
//! arrays. Every region is a multiple of 16 bytes, so the only padding is the one 8-byte
//! step to the first boundary, which the size always includes.

use super::types::{
    gridcheck_limits, GRIDCHECK_HEADER_BYTES, GRIDCHECK_SET_BYTES, GRIDCHECK_STATE_BYTES,
    GRIDCHECK_TABLE_BYTES, GRIDCHECK_WORKSPACE_ALIGN,
};
use core::mem::{align_of, size_of};
use xcover_core::gridcheck::scan::{BitmapTable, LevelState, TruncationLimits};
use xcover_core::gridcheck::Cells;

/// Alignment of every region after the handle.
pub const REGION_ALIGN: usize = 16;

const _: () = {
    assert!(size_of::<BitmapTable>().div_ceil(16) * 16 == GRIDCHECK_TABLE_BYTES);
    assert!(size_of::<LevelState>() == GRIDCHECK_STATE_BYTES);
    assert!(size_of::<Cells>() == GRIDCHECK_SET_BYTES);
    assert!(align_of::<BitmapTable>() <= REGION_ALIGN);
    assert!(align_of::<Cells>() <= REGION_ALIGN);
    assert!(GRIDCHECK_HEADER_BYTES % REGION_ALIGN == 0);
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

/// Bytes of a workspace with these array lengths (None on overflow).
pub fn bytes(counts: &Counts) -> Option<usize> {
    let sets = counts
        .uas
        .checked_add(counts.scratch)?
        .checked_add(counts.work)?
        .checked_mul(GRIDCHECK_SET_BYTES)?;
    let states = counts.states.checked_mul(GRIDCHECK_STATE_BYTES)?;
    let total = (REGION_ALIGN - GRIDCHECK_WORKSPACE_ALIGN)
        .checked_add(GRIDCHECK_HEADER_BYTES)?
        .checked_add(GRIDCHECK_TABLE_BYTES)?
        .checked_add(sets)?
        .checked_add(states)?;
    (total <= isize::MAX as usize).then_some(total)
}

/// Types that may be handed out zero-filled: every all-zero bit pattern is a valid value.
///
/// # Safety
/// Implement only for integers, arrays of them and structs made only of those.
pub unsafe trait Zeroable {}
// SAFETY: an integer.
unsafe impl Zeroable for u128 {}
// SAFETY: a struct holding one u128.
unsafe impl Zeroable for Cells {}
// SAFETY: a transparent wrapper of an array of u64 (`LevelState::ZERO` is all zero bits).
unsafe impl Zeroable for LevelState {}

/// Hands out consecutive regions of the caller's buffer.
pub struct Carver {
    next: *mut u8,
    end: *mut u8,
}

impl Carver {
    /// A carver over `base .. base + len`, starting at the first 16-byte boundary at or
    /// after `base + skip`.
    ///
    /// # Safety
    /// `base .. base + len` is writable memory that belongs to the workspace from now on
    /// ('static: the C caller keeps it alive and untouched until `gridcheck_release`).
    pub unsafe fn new(base: *mut u8, skip: usize, len: usize) -> Carver {
        let start = (base as usize).wrapping_add(skip);
        let pad = start.wrapping_neg() % REGION_ALIGN;
        Carver {
            // Stays inside (or one past) the buffer: the caller checked `len` covers the
            // skip and the padding (`bytes` includes both).
            next: base.wrapping_add(skip + pad),
            end: base.wrapping_add(len),
        }
    }

    /// The next `bytes` bytes (rounded up to 16), or None if they do not fit.
    fn take_bytes(&mut self, bytes: usize) -> Option<*mut u8> {
        let rounded = bytes.checked_next_multiple_of(REGION_ALIGN)?;
        let room = (self.end as usize).checked_sub(self.next as usize)?;
        if rounded > room {
            return None;
        }
        let start = self.next;
        self.next = self.next.wrapping_add(rounded);
        Some(start)
    }

    /// Room for one `T`, uninitialized.
    pub fn slot<T>(&mut self) -> Option<*mut T> {
        const { assert!(align_of::<T>() <= REGION_ALIGN) };
        self.take_bytes(size_of::<T>()).map(|p| p.cast::<T>())
    }

    /// `count` zeroed values of `T`.
    pub fn zeroed<T: Zeroable>(&mut self, count: usize) -> Option<&'static mut [T]> {
        const { assert!(align_of::<T>() <= REGION_ALIGN) };
        let bytes = count.checked_mul(size_of::<T>())?;
        let start = self.take_bytes(bytes)?;
        // SAFETY: `take_bytes` returned a region of at least `bytes` bytes inside the
        // buffer (the contract of `new`), 16-aligned (every region is a multiple of 16
        // from a 16-byte boundary), not handed out before; zero is a valid T (`Zeroable`).
        unsafe {
            core::ptr::write_bytes(start, 0, bytes);
            Some(core::slice::from_raw_parts_mut(start.cast::<T>(), count))
        }
    }

    /// Address of the next free byte (for the layout test).
    pub fn next(&self) -> *mut u8 {
        self.next
    }
}

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

    #[test]
    fn carver_aligns_and_stays_inside() {
        let mut buf = [0xAAu8; 256 + 16];
        // An address that is 8 mod 16.
        let off = (16 - (buf.as_ptr() as usize % 16) + 8) % 16;
        let base = buf[off..].as_mut_ptr();
        // SAFETY: base .. base + 200 lies inside `buf`, which outlives the carver's use.
        // Skipping 16 bytes lands on 8 mod 16: the carver pads 8 bytes to the boundary.
        let mut carver = unsafe { Carver::new(base, 16, 200) };
        let a = carver.zeroed::<u128>(3).unwrap();
        assert_eq!(a.as_ptr() as usize % 16, 0);
        assert_eq!(a.as_ptr() as usize - base as usize, 16 + 8);
        assert!(carver.zeroed::<u128>(20).is_none());
        let s = carver.slot::<[u64; 3]>().unwrap();
        assert_eq!(s as usize % 16, 0);
        assert!(carver.next() as usize <= base as usize + 200);
        assert_eq!(buf[off + 200], 0xAA);
    }
}
