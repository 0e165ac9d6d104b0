//! Carving typed arrays out of the caller's workspace buffer, and sizing them.
//!
//! Every region starts on a `DLX3_WORKSPACE_ALIGN` boundary (so the size formula is the same
//! on every target: each region rounds up to a multiple of 8 bytes) and is zero-filled before
//! it is handed out, so the engine only ever sees initialized memory.

use super::types::DLX3_WORKSPACE_ALIGN;
use core::mem::{align_of, size_of};

/// Types that may be carved from raw bytes: every all-zero bit pattern is a valid value and
/// the alignment is at most `DLX3_WORKSPACE_ALIGN`.
///
/// # Safety
/// Implement only for plain-old-data types (integers, arrays and `repr(C)` structs of them).
pub unsafe trait Plain: Copy {}

// SAFETY: integers and byte arrays: zero is valid, alignment <= 8.
unsafe impl Plain for u8 {}
// SAFETY: as above.
unsafe impl Plain for u16 {}
// SAFETY: as above.
unsafe impl Plain for u32 {}
// SAFETY: as above.
unsafe impl Plain for i32 {}
// SAFETY: as above.
unsafe impl Plain for u64 {}
// SAFETY: as above.
unsafe impl Plain for i64 {}
// SAFETY: as above.
unsafe impl Plain for [u8; 8] {}

/// Rounds `bytes` up to the region alignment; None on overflow.
pub const fn round_up(bytes: usize) -> Option<usize> {
    match bytes.checked_add(DLX3_WORKSPACE_ALIGN - 1) {
        Some(padded) => Some(padded / DLX3_WORKSPACE_ALIGN * DLX3_WORKSPACE_ALIGN),
        None => None,
    }
}

/// Adds up region sizes the way [`Carver`] lays them out.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sizer {
    total: Option<usize>,
}

impl Sizer {
    /// Starts at `start` bytes (the workspace header).
    pub const fn new(start: usize) -> Sizer {
        Sizer {
            total: round_up(start),
        }
    }

    /// Accounts for an array of `count` values of `T`.
    pub fn array<T: Plain>(mut self, count: usize) -> Sizer {
        self.total = self.total.and_then(|t| {
            count
                .checked_mul(size_of::<T>())
                .and_then(round_up)
                .and_then(|r| t.checked_add(r))
        });
        self
    }

    /// The total, or None if it overflowed `usize` (also too big for `isize`).
    pub fn total(self) -> Option<usize> {
        self.total.filter(|&t| t <= isize::MAX as usize)
    }
}

/// Hands out consecutive zeroed regions of a buffer that the workspace owns from now on.
pub struct Carver {
    base: *mut u8,
    used: usize,
    limit: usize,
}

impl Carver {
    /// A carver over `limit` bytes at `base`, starting after the first `start` bytes.
    ///
    /// # Safety
    /// `base` is aligned to `DLX3_WORKSPACE_ALIGN` and valid for writes of `limit` bytes for
    /// as long as any carved slice is used ('static here: the C caller keeps the buffer alive
    /// and untouched until `dlx3_release` or the end of its use of the workspace).
    pub unsafe fn new(base: *mut u8, start: usize, limit: usize) -> Carver {
        Carver {
            base,
            used: round_up(start).unwrap_or(usize::MAX),
            limit,
        }
    }

    /// The next `count` zeroed values of `T`, or None if they do not fit.
    pub fn take<T: Plain>(&mut self, count: usize) -> Option<&'static mut [T]> {
        const { assert!(align_of::<T>() <= DLX3_WORKSPACE_ALIGN) };
        let bytes = count.checked_mul(size_of::<T>())?;
        let end = self.used.checked_add(round_up(bytes)?)?;
        if end > self.limit {
            return None;
        }
        // SAFETY: base + used .. base + end lies inside the buffer (end <= limit, and the
        // contract of `new` makes all `limit` bytes writable); regions never overlap because
        // `used` only grows; base is 8-aligned and `used` a multiple of 8, so the start is
        // aligned for T (align <= 8, asserted above); zero is a valid T (`Plain`).
        let slice = unsafe {
            let start = self.base.add(self.used);
            core::ptr::write_bytes(start, 0, bytes);
            core::slice::from_raw_parts_mut(start.cast::<T>(), count)
        };
        self.used = end;
        Some(slice)
    }

    /// Bytes used so far, header included.
    pub fn used(&self) -> usize {
        self.used
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizer_and_carver_agree_and_stay_inside() {
        let mut buf = [0xAAAA_AAAA_AAAA_AAAAu64; 32]; // 256 bytes, 8-aligned
        let sizer = Sizer::new(13)
            .array::<u32>(3)
            .array::<[u8; 8]>(2)
            .array::<u16>(5);
        assert_eq!(sizer.total(), Some(16 + 16 + 16 + 16));
        // SAFETY: buf is 8-aligned and 256 bytes long, alive for the whole test.
        let mut carver = unsafe { Carver::new(buf.as_mut_ptr().cast(), 13, 64) };
        let a = carver.take::<u32>(3).unwrap();
        assert_eq!(a, &[0, 0, 0]);
        a[2] = 7;
        carver.take::<[u8; 8]>(2).unwrap();
        carver.take::<u16>(5).unwrap();
        assert_eq!(carver.used(), 64);
        assert!(carver.take::<u8>(1).is_none(), "the limit is respected");
        assert_eq!(
            buf[8], 0xAAAA_AAAA_AAAA_AAAA,
            "nothing written past the limit"
        );
        assert_eq!(
            buf[0], 0xAAAA_AAAA_AAAA_AAAA,
            "the header area is not touched"
        );
    }

    #[test]
    fn overflow_is_none() {
        assert_eq!(Sizer::new(0).array::<u64>(usize::MAX / 4).total(), None);
    }
}
