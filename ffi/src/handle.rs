//! The header every workspace record starts with, and the checks both APIs make with it:
//! claiming the caller's buffer at init, and turning a handle from C into its record for
//! one call (NULL, alignment, magic number, state, dead or alive).

use crate::raw::{is_aligned, Checked};
use crate::status::xcover_status;
use core::ptr::NonNull;

/// What a call accepts of a dead workspace.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Dead {
    /// Return XCOVER_DEAD.
    Refuse,
    /// Go ahead (stats, state, release).
    Allow,
}

/// The first fields of every workspace record, at the same offsets in all of them: the
/// magic number that tells a live record from garbage or a released one, the life-cycle
/// state, and why the workspace died.
#[repr(C)]
pub struct Header {
    magic: u64,
    state: u32,
    /// Why the workspace died (XCOVER_OK while alive).
    pub failure: xcover_status,
}

/// A kind of workspace record.
///
/// # Safety
/// Implement only for `repr(C)` structs whose first field is a [`Header`] written by
/// [`Header::new::<Self>`].
pub unsafe trait Record {
    /// Marks a buffer that holds a record of this kind.
    const MAGIC: u64;
    /// Written over the magic number on release, so a released buffer is not "live".
    const RELEASED: u64;
    /// The first state; the states are FIRST_STATE..=DEAD.
    const FIRST_STATE: u32;
    /// The state of a dead record, the last one.
    const DEAD: u32;
}

impl Header {
    /// The header of a new record of kind `R` in `state`.
    pub fn new<R: Record>(state: u32) -> Header {
        Header {
            magic: R::MAGIC,
            state,
            failure: xcover_status::XCOVER_OK,
        }
    }

    /// The state.
    pub fn state(&self) -> u32 {
        self.state
    }

    /// Moves to `state`.
    pub fn set_state(&mut self, state: u32) {
        self.state = state;
    }

    /// Marks the record dead because of `why`, and returns `why`.
    pub fn kill<R: Record>(&mut self, why: xcover_status) -> xcover_status {
        self.state = R::DEAD;
        self.failure = why;
        why
    }

    /// Forgets the record: its handle is refused from now on and its buffer may be
    /// initialized again.
    pub fn release<R: Record>(&mut self) {
        self.magic = R::RELEASED;
    }
}

/// Checks a buffer handed to an init function: not NULL, aligned to `align`, at least the
/// `needed` bytes (None: the capacities overflow), and not holding a live record of kind
/// `R` (a dead one may be overwritten).
///
/// # Safety
/// `buf` is NULL or valid for reads of `len` bytes.
// Always inlined: each init function has its own call, and a shared copy costs more code
// (the Cortex-M footprint of queens8_min, measured by .ci/mcu).
#[inline(always)]
pub unsafe fn claim<R: Record>(
    buf: *mut u8,
    len: usize,
    needed: Option<usize>,
    align: usize,
) -> Checked<NonNull<u8>> {
    let base = NonNull::new(buf).ok_or(xcover_status::XCOVER_NULL_POINTER)?;
    if (buf as usize) % align != 0 {
        return Err(xcover_status::XCOVER_MISALIGNED);
    }
    let needed = needed.ok_or(xcover_status::XCOVER_BAD_ARGUMENT)?;
    if len < needed {
        return Err(xcover_status::XCOVER_BUFFER_TOO_SMALL);
    }
    let header = buf.cast::<Header>();
    // SAFETY: the buffer is longer than a header (every record starts with one and
    // `needed` covers a record) and aligned for it (`align` is at least the records'
    // alignment); the caller's bytes count as initialized (they come from C, where every
    // object representation of uint64_t is a value). Volatile: no assumption about fresh
    // memory.
    let magic = unsafe { core::ptr::addr_of!((*header).magic).read_volatile() };
    // SAFETY: as above; our magic number says an init function wrote this header.
    if magic == R::MAGIC && unsafe { (*header).state } != R::DEAD {
        return Err(xcover_status::XCOVER_ALREADY_INITIALIZED);
    }
    Ok(base)
}

/// Validates a handle from C: NULL, alignment, magic number, state, and (unless allowed)
/// dead; gives its record for the call.
///
/// # Safety
/// `handle` is NULL or points to at least a [`Header`]'s readable bytes; if they start with
/// `R::MAGIC`, to a record of kind `R` made by an init function whose buffer stays valid
/// during `'a`, used by no other thread then. (`'a` is the span of the exported call: the
/// record and its views are borrowed for that call only.)
pub unsafe fn open<'a, R: Record + 'a>(handle: *mut u8, dead: Dead) -> Checked<&'a mut R> {
    if handle.is_null() {
        return Err(xcover_status::XCOVER_NULL_POINTER);
    }
    let record = handle.cast::<R>();
    if !is_aligned(record) {
        return Err(xcover_status::XCOVER_MISALIGNED);
    }
    let header = record.cast::<Header>();
    // SAFETY: non-null and aligned (a record's alignment is at least its header's);
    // readable per this contract (volatile: the bytes may be anything C left there).
    if unsafe { core::ptr::addr_of!((*header).magic).read_volatile() } != R::MAGIC {
        return Err(xcover_status::XCOVER_NOT_INITIALIZED);
    }
    // SAFETY: the magic number says an init function wrote a header here.
    let state = unsafe { (*header).state };
    // (Two comparisons: RangeInclusive::contains is not always inlined at opt-level z.)
    if state < R::FIRST_STATE || state > R::DEAD {
        return Err(xcover_status::XCOVER_NOT_INITIALIZED);
    }
    if dead == Dead::Refuse && state == R::DEAD {
        return Err(xcover_status::XCOVER_DEAD);
    }
    // SAFETY: the magic number and the state say an init function wrote a record of kind
    // R here, and the caller guarantees that the buffer is valid and exclusively ours
    // during 'a.
    Ok(unsafe { &mut *record })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[repr(C)]
    struct Fake {
        header: Header,
        payload: u64,
    }

    // SAFETY: repr(C), the header first.
    unsafe impl Record for Fake {
        const MAGIC: u64 = u64::from_le_bytes(*b"TESTFAKE");
        const RELEASED: u64 = 0;
        const FIRST_STATE: u32 = 1;
        const DEAD: u32 = 3;
    }

    #[test]
    fn claim_and_open_follow_the_header() {
        let mut buf = [0u64; 4];
        let base = buf.as_mut_ptr().cast::<u8>();
        // SAFETY: `buf` is 32 readable and writable bytes, 8-aligned, used by nothing else
        // while the test runs; every record written is a Fake.
        unsafe {
            let status = |r: Checked<&mut Fake>| r.err();
            assert_eq!(
                status(open::<Fake>(core::ptr::null_mut(), Dead::Allow)),
                Some(xcover_status::XCOVER_NULL_POINTER)
            );
            assert_eq!(
                status(open::<Fake>(base.add(4), Dead::Allow)),
                Some(xcover_status::XCOVER_MISALIGNED)
            );
            assert_eq!(
                status(open::<Fake>(base, Dead::Allow)),
                Some(xcover_status::XCOVER_NOT_INITIALIZED)
            );
            assert_eq!(
                claim::<Fake>(base, 32, Some(33), 8).err(),
                Some(xcover_status::XCOVER_BUFFER_TOO_SMALL)
            );
            assert_eq!(
                claim::<Fake>(base, 32, None, 8).err(),
                Some(xcover_status::XCOVER_BAD_ARGUMENT)
            );
            assert_eq!(
                claim::<Fake>(base.add(4), 28, Some(16), 8).err(),
                Some(xcover_status::XCOVER_MISALIGNED)
            );
            assert!(claim::<Fake>(base, 32, Some(16), 8).is_ok());
            base.cast::<Fake>().write(Fake {
                header: Header::new::<Fake>(1),
                payload: 7,
            });
            assert_eq!(
                claim::<Fake>(base, 32, Some(16), 8).err(),
                Some(xcover_status::XCOVER_ALREADY_INITIALIZED)
            );
            let record = open::<Fake>(base, Dead::Refuse).unwrap();
            assert_eq!(record.payload, 7);
            record.header.set_state(9);
            assert_eq!(
                status(open::<Fake>(base, Dead::Allow)),
                Some(xcover_status::XCOVER_NOT_INITIALIZED)
            );
            let record = &mut *base.cast::<Fake>();
            record.header.set_state(1);
            assert_eq!(
                record
                    .header
                    .kill::<Fake>(xcover_status::XCOVER_INTERNAL_ERROR),
                xcover_status::XCOVER_INTERNAL_ERROR
            );
            assert_eq!(
                status(open::<Fake>(base, Dead::Refuse)),
                Some(xcover_status::XCOVER_DEAD)
            );
            assert_eq!(
                open::<Fake>(base, Dead::Allow).unwrap().header.failure,
                xcover_status::XCOVER_INTERNAL_ERROR
            );
            assert!(
                claim::<Fake>(base, 32, Some(16), 8).is_ok(),
                "a dead record may be overwritten"
            );
            open::<Fake>(base, Dead::Allow)
                .unwrap()
                .header
                .release::<Fake>();
            assert_eq!(
                status(open::<Fake>(base, Dead::Allow)),
                Some(xcover_status::XCOVER_NOT_INITIALIZED)
            );
        }
    }
}
