//! Carving the caller's buffer into typed regions, and the views a workspace keeps of them.
//!
//! Both workspaces (`dlx3_*` and `gridcheck_*`) live in one buffer the C caller owns: a
//! handle record at its start, then the regions a [`Carver`] hands out one after the other,
//! each starting on an `ALIGN`-byte boundary and taking a multiple of `ALIGN` bytes (8 for
//! DLX3's records, 16 for the grid checker's `u128` sets). [`Sizer`] adds up the same
//! regions, so the size functions and the carving cannot disagree.
//!
//! The handle does not keep Rust references to its regions: the buffer is borrowed from C
//! for as long as the caller keeps it (a span Rust cannot name), so the handle keeps
//! *views* — pointer and length, [`WeakSliceMut`] and [`WeakMut`], or room for a value not
//! yet written, [`Slot`] — and every call borrows the workspace, and through the views its
//! regions, for that call only (the lifetime `'buf` of a handle is the one the call's
//! `unsafe` handle check picks). This is zlib-rs's `WeakSliceMut` pattern.

use core::marker::PhantomData;
use core::mem::{align_of, size_of, MaybeUninit};
use core::ptr::NonNull;

/// Types that may be handed out zero-filled: every all-zero bit pattern is a valid value.
///
/// # Safety
/// Implement only for plain-old-data types: integers, arrays and `repr(C)` structs or
/// tuples made only of them.
pub unsafe trait Plain: Copy {}

// SAFETY: integers and byte arrays: zero is a valid value.
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
unsafe impl Plain for u128 {}
// SAFETY: as above.
unsafe impl Plain for [u8; 8] {}

/// Rounds `bytes` up to a multiple of `align` (a power of two); None on overflow.
pub const fn round_up(bytes: usize, align: usize) -> Option<usize> {
    match bytes.checked_add(align - 1) {
        Some(padded) => Some(padded / align * align),
        None => None,
    }
}

/// Adds up region sizes the way [`Carver`] lays them out.
#[derive(Clone, Copy, Debug)]
pub struct Sizer<const ALIGN: usize> {
    total: Option<usize>,
}

impl<const ALIGN: usize> Sizer<ALIGN> {
    /// Starts with `start` bytes (the handle and whatever precedes the regions).
    pub const fn new(start: usize) -> Self {
        Sizer {
            total: round_up(start, ALIGN),
        }
    }

    /// Accounts for a region of `bytes` bytes.
    pub fn bytes(mut self, bytes: usize) -> Self {
        self.total = self
            .total
            .and_then(|t| round_up(bytes, ALIGN).and_then(|r| t.checked_add(r)));
        self
    }

    /// Accounts for an array of `count` values of `T`.
    #[inline(always)]
    pub fn array<T>(self, count: usize) -> Self {
        self.elements(count, size_of::<T>())
    }

    /// Accounts for `count` elements of `size` bytes (not generic: one copy in the binary).
    fn elements(self, count: usize, size: usize) -> Self {
        match count.checked_mul(size) {
            Some(bytes) => self.bytes(bytes),
            None => Sizer { total: None },
        }
    }

    /// The total, or None if it overflowed (or is too big for `isize`).
    pub fn total(self) -> Option<usize> {
        self.total.filter(|&t| t <= isize::MAX as usize)
    }
}

/// Hands out consecutive regions of a buffer that belongs to the workspace from now on.
pub struct Carver<'buf, const ALIGN: usize> {
    base: NonNull<u8>,
    /// Offset of the next region from `base`.
    next: usize,
    /// Bytes of the buffer the carver may use.
    limit: usize,
    _buf: PhantomData<&'buf mut [u8]>,
}

impl<'buf, const ALIGN: usize> Carver<'buf, ALIGN> {
    /// A carver over `limit` bytes at `base`, whose first region starts at the first
    /// `ALIGN`-byte boundary at or after `base + skip` (the handle record comes first).
    ///
    /// # Safety
    /// `base .. base + limit` is writable memory that nothing else uses during `'buf`
    /// (the C caller's obligation: the buffer stays valid and untouched while the workspace
    /// is used).
    pub unsafe fn new(base: NonNull<u8>, skip: usize, limit: usize) -> Self {
        let start = (base.as_ptr() as usize).wrapping_add(skip);
        Carver {
            base,
            next: skip.saturating_add(start.wrapping_neg() % ALIGN),
            limit,
            _buf: PhantomData,
        }
    }

    /// The next `bytes` bytes (a multiple of `ALIGN` of them are taken), or None.
    fn take(&mut self, bytes: usize) -> Option<NonNull<u8>> {
        let end = self.next.checked_add(round_up(bytes, ALIGN)?)?;
        if end > self.limit {
            return None;
        }
        // SAFETY: `next < end <= limit`: inside the buffer (`new`'s contract), so the
        // offset stays in bounds of one allocation.
        let start = unsafe { self.base.add(self.next) };
        self.next = end;
        Some(start)
    }

    /// Room for one `T`, not written yet.
    pub fn slot<T>(&mut self) -> Option<Slot<'buf, T>> {
        const { assert!(align_of::<T>() <= ALIGN) };
        let ptr = self.take(size_of::<T>())?.cast::<T>();
        Some(Slot {
            ptr,
            _buf: PhantomData,
        })
    }

    /// `count` zeroed values of `T`.
    #[inline(always)]
    pub fn zeroed<T: Plain>(&mut self, count: usize) -> Option<WeakSliceMut<'buf, T>> {
        const { assert!(align_of::<T>() <= ALIGN) };
        let start = self.take_zeroed(count, size_of::<T>())?;
        Some(WeakSliceMut {
            // The region starts on an ALIGN boundary, ALIGN >= align_of::<T>(), and holds
            // `count` zeroed T (zero is a valid T: `Plain`).
            ptr: start.cast::<T>(),
            len: count,
            _buf: PhantomData,
        })
    }

    /// The next `count * size` bytes, zeroed (not generic: one copy in the binary).
    fn take_zeroed(&mut self, count: usize, size: usize) -> Option<NonNull<u8>> {
        let bytes = count.checked_mul(size)?;
        let start = self.take(bytes)?;
        // SAFETY: `take` returned `bytes` writable bytes inside the buffer, handed out to no
        // one else (regions never overlap: `next` only grows).
        unsafe { core::ptr::write_bytes(start.as_ptr(), 0, bytes) };
        Some(start)
    }

    /// Bytes from the start of the buffer to the end of the last region.
    pub fn used(&self) -> usize {
        self.next
    }
}

/// A region of `len` initialized values of `T` in the caller's buffer: a pointer and a
/// length, borrowed as a slice only for as long as the view itself is borrowed.
#[derive(Debug)]
pub struct WeakSliceMut<'buf, T> {
    ptr: NonNull<T>,
    len: usize,
    _buf: PhantomData<&'buf mut [T]>,
}

impl<'buf, T> WeakSliceMut<'buf, T> {
    /// The view of no values.
    pub fn empty() -> Self {
        WeakSliceMut {
            ptr: NonNull::dangling(),
            len: 0,
            _buf: PhantomData,
        }
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The values, for as long as the view is borrowed.
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: made by `Carver::zeroed`: `len` initialized, aligned values inside the
        // buffer, which stays valid during 'buf (the carver's contract), and no other view
        // covers them; `&self` lets only shared borrows coexist.
        unsafe { core::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    /// The values, mutably, for as long as the view is borrowed.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as in `as_slice`; `&mut self` makes this borrow the only one.
        unsafe { core::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }

    /// Gives the values to an owner for the whole of `'buf` (the engine of a workspace,
    /// which lives in the same buffer); the view is consumed.
    pub fn into_mut(self) -> &'buf mut [T] {
        // SAFETY: as in `as_slice`; consuming the one view of the region makes the returned
        // borrow the only one for 'buf.
        unsafe { core::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

/// Room for one `T` in the caller's buffer, written once its value is known (the value is
/// never dropped: the types kept here only borrow).
#[derive(Debug)]
pub struct Slot<'buf, T> {
    ptr: NonNull<T>,
    _buf: PhantomData<&'buf mut T>,
}

impl<'buf, T> Slot<'buf, T> {
    /// Writes `value` over whatever the slot held (nothing is dropped).
    pub fn write(&mut self, value: T) {
        // SAFETY: made by `Carver::slot`: room for a T, aligned, inside the buffer, valid
        // during 'buf, covered by no other view; `&mut self` makes the write exclusive.
        unsafe { self.ptr.as_ptr().write(value) }
    }

    /// Writes `value` and turns the slot into a view of it.
    pub fn init(mut self, value: T) -> WeakMut<'buf, T> {
        self.write(value);
        WeakMut {
            ptr: self.ptr,
            _buf: PhantomData,
        }
    }

    /// The slot's room, to build a value in place (large values that should never sit
    /// on the stack: the DLX3 engine on a microcontroller).
    pub fn uninit(&mut self) -> &mut MaybeUninit<T> {
        // SAFETY: made by `Carver::slot`: room for a T, aligned, inside the buffer, valid
        // during 'buf, covered by no other view; `&mut self` makes the borrow exclusive,
        // and MaybeUninit<T> has T's layout and asks nothing of the bytes.
        unsafe { &mut *self.ptr.as_ptr().cast::<MaybeUninit<T>>() }
    }

    /// Gives the slot's room to an owner for the whole of `'buf` (core's gridcheck session,
    /// which writes it once, safely); the slot is consumed.
    pub fn into_uninit(self) -> &'buf mut MaybeUninit<T> {
        // SAFETY: as in `uninit`; consuming the one view of the room makes the returned
        // borrow the only one for 'buf.
        unsafe { &mut *self.ptr.as_ptr().cast::<MaybeUninit<T>>() }
    }

    /// Writes `value` and gives it to an owner for the whole of `'buf`.
    pub fn into_init(self, value: T) -> &'buf mut T {
        self.into_uninit().write(value)
    }

    /// Turns the slot into a view of the value built in it through [`Slot::uninit`].
    ///
    /// # Safety
    /// A value was written (through `uninit`, or `write`).
    pub unsafe fn assume_init(self) -> WeakMut<'buf, T> {
        WeakMut {
            ptr: self.ptr,
            _buf: PhantomData,
        }
    }

    /// The value, for as long as the slot is borrowed.
    ///
    /// # Safety
    /// A value was written (`write`).
    pub unsafe fn assume_init_ref(&self) -> &T {
        // SAFETY: written (the caller's obligation), valid as in `write`.
        unsafe { &*self.ptr.as_ptr() }
    }
}

/// One initialized `T` in the caller's buffer, borrowed only for as long as the view is.
#[derive(Debug)]
pub struct WeakMut<'buf, T> {
    ptr: NonNull<T>,
    _buf: PhantomData<&'buf mut T>,
}

impl<T> WeakMut<'_, T> {
    /// The value.
    pub fn get(&self) -> &T {
        // SAFETY: made by `Slot::init` (written, aligned, inside the buffer, valid during
        // 'buf, no other view of it).
        unsafe { &*self.ptr.as_ptr() }
    }

    /// The value, mutably.
    pub fn get_mut(&mut self) -> &mut T {
        // SAFETY: as in `get`; `&mut self` makes the borrow exclusive.
        unsafe { &mut *self.ptr.as_ptr() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizer_and_carver_agree_and_stay_inside() {
        let mut buf = [0xAAAA_AAAA_AAAA_AAAAu64; 32]; // 256 bytes, 8-aligned
        let sizer = Sizer::<8>::new(13)
            .array::<u32>(3)
            .array::<[u8; 8]>(2)
            .array::<u16>(5);
        assert_eq!(sizer.total(), Some(16 + 16 + 16 + 16));
        // SAFETY: buf is 8-aligned and 256 bytes long, alive and unused during the test.
        let mut carver = unsafe { Carver::<8>::new(NonNull::from(&mut buf).cast(), 13, 64) };
        let mut a = carver.zeroed::<u32>(3).unwrap();
        assert_eq!(a.as_slice(), &[0, 0, 0]);
        a.as_mut_slice()[2] = 7;
        carver.zeroed::<[u8; 8]>(2).unwrap();
        carver.zeroed::<u16>(5).unwrap();
        assert_eq!(carver.used(), 64);
        assert!(carver.zeroed::<u8>(1).is_none(), "the limit is respected");
        assert_eq!(a.into_mut()[2], 7);
        assert_eq!(
            buf[8], 0xAAAA_AAAA_AAAA_AAAA,
            "nothing written past the limit"
        );
        assert_eq!(
            buf[0], 0xAAAA_AAAA_AAAA_AAAA,
            "the handle area is not touched"
        );
    }

    #[test]
    fn carver_aligns_to_16_from_an_8_aligned_base() {
        let mut buf = [0xAAu8; 256 + 16];
        // An address that is 8 mod 16.
        let off = (16 - (buf.as_ptr() as usize % 16) + 8) % 16;
        let base = buf[off..].as_mut_ptr();
        // SAFETY: base .. base + 200 lies inside `buf`, alive and unused during the test.
        // Skipping 16 bytes lands on 8 mod 16: the carver pads 8 bytes to the boundary.
        let mut carver = unsafe { Carver::<16>::new(NonNull::new(base).unwrap(), 16, 200) };
        let a = carver.zeroed::<u128>(3).unwrap();
        assert_eq!(a.as_slice().as_ptr() as usize % 16, 0);
        assert_eq!(a.as_slice().as_ptr() as usize - base as usize, 16 + 8);
        assert!(carver.zeroed::<u128>(20).is_none());
        let mut s = carver.slot::<[u64; 3]>().unwrap();
        s.write([1, 2, 3]);
        // SAFETY: written just above.
        assert_eq!(unsafe { s.assume_init_ref() }, &[1, 2, 3]);
        assert!(carver.used() <= 200);
        assert_eq!(buf[off + 200], 0xAA);
    }

    #[test]
    fn a_slot_is_written_once_and_read_through_its_view() {
        let mut buf = [0u64; 4];
        // SAFETY: buf is 8-aligned, 32 bytes, alive and unused during the test.
        let mut carver = unsafe { Carver::<8>::new(NonNull::from(&mut buf).cast(), 8, 24) };
        let mut engine = carver.slot::<u64>().unwrap().init(5);
        *engine.get_mut() += 1;
        assert_eq!(*engine.get(), 6);
        assert_eq!(carver.zeroed::<u64>(1).unwrap().as_slice(), &[0]);
        assert!(carver.slot::<u8>().is_none(), "the limit is respected");
        assert_eq!(buf[1], 6, "the slot is the second word");
    }

    #[test]
    fn overflow_is_none() {
        assert_eq!(
            Sizer::<8>::new(0).array::<u64>(usize::MAX / 4).total(),
            None
        );
        assert_eq!(Sizer::<16>::new(usize::MAX).total(), None);
    }
}
