//! Checks that turn the caller's raw pointers into references, or into a status.
//! Every function here is `unsafe`: the caller (an exported function) passes pointers it
//! received from C, and the checks cover what can be checked (NULL, alignment, lengths);
//! validity of the pointed-to memory is the C caller's documented obligation.

use crate::status::xcover_status;
use core::mem::align_of;

/// Result type of the checks: the error is the status to hand back to C.
pub type Checked<T> = Result<T, xcover_status>;

/// Whether `ptr` is aligned for `T`.
pub fn is_aligned<T>(ptr: *const T) -> bool {
    (ptr as usize) % align_of::<T>() == 0
}

/// `*mut T` output parameter -> `&mut T`, or NULL_POINTER / MISALIGNED.
///
/// # Safety
/// If not NULL, `ptr` must point to writable memory for one `T` that nothing else uses
/// during the call (C caller's obligation, stated in the header).
// Always inlined: the two checks take less code than a shared copy and its calls (the
// Cortex-M footprint of queens8_min, measured by .ci/mcu).
#[inline(always)]
pub unsafe fn out_param<'a, T>(ptr: *mut T) -> Checked<&'a mut T> {
    if ptr.is_null() {
        return Err(xcover_status::XCOVER_NULL_POINTER);
    }
    if !is_aligned(ptr) {
        return Err(xcover_status::XCOVER_MISALIGNED);
    }
    // SAFETY: non-null and aligned (checked above); valid and unaliased per this
    // function's contract.
    Ok(unsafe { &mut *ptr })
}

/// `const T *` input parameter -> `&T`, or NULL_POINTER / MISALIGNED.
///
/// # Safety
/// If not NULL, `ptr` must point to a readable, initialized `T` for the call's duration.
pub unsafe fn in_param<'a, T>(ptr: *const T) -> Checked<&'a T> {
    if ptr.is_null() {
        return Err(xcover_status::XCOVER_NULL_POINTER);
    }
    if !is_aligned(ptr) {
        return Err(xcover_status::XCOVER_MISALIGNED);
    }
    // SAFETY: non-null and aligned; readable and initialized per this function's contract.
    Ok(unsafe { &*ptr })
}

/// `(const T *array, size_t len)` -> `&[T]`. NULL is accepted only when `len == 0`.
///
/// # Safety
/// If `len > 0`, `ptr` must point to `len` readable, initialized `T`s for the call.
pub unsafe fn in_slice<'a, T>(ptr: *const T, len: usize) -> Checked<&'a [T]> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(xcover_status::XCOVER_NULL_POINTER);
    }
    if !is_aligned(ptr) {
        return Err(xcover_status::XCOVER_MISALIGNED);
    }
    if len
        .checked_mul(core::mem::size_of::<T>())
        .map_or(true, |bytes| bytes > isize::MAX as usize)
    {
        return Err(xcover_status::XCOVER_BAD_ARGUMENT);
    }
    // SAFETY: non-null, aligned, size fits isize (checked); readable for len elements per
    // this function's contract.
    Ok(unsafe { core::slice::from_raw_parts(ptr, len) })
}

/// Writes `value` through an optional output pointer (NULL means "not wanted").
///
/// # Safety
/// As for [`out_param`] when not NULL.
pub unsafe fn write_optional<T>(ptr: *mut T, value: T) -> Checked<()> {
    if ptr.is_null() {
        return Ok(());
    }
    // SAFETY: forwarded contract.
    *unsafe { out_param(ptr) }? = value;
    Ok(())
}

/// Collapses a checked computation into the status returned to C.
pub fn status_of(result: Checked<xcover_status>) -> xcover_status {
    match result {
        Ok(status) | Err(status) => status,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_and_misaligned_are_reported() {
        let mut word = [0u64; 2];
        // SAFETY: null and misaligned pointers are rejected before any dereference.
        unsafe {
            assert_eq!(
                out_param::<u64>(core::ptr::null_mut()).err(),
                Some(xcover_status::XCOVER_NULL_POINTER)
            );
            let odd = (word.as_mut_ptr() as *mut u8).add(1) as *mut u64;
            assert_eq!(out_param(odd).err(), Some(xcover_status::XCOVER_MISALIGNED));
            assert!(out_param(word.as_mut_ptr()).is_ok());
            assert_eq!(
                in_slice::<u32>(core::ptr::null(), 0).map(|s| s.len()),
                Ok(0)
            );
            assert_eq!(
                in_slice::<u32>(core::ptr::null(), 3).err(),
                Some(xcover_status::XCOVER_NULL_POINTER)
            );
            assert!(write_optional::<u64>(core::ptr::null_mut(), 5).is_ok());
            write_optional(word.as_mut_ptr(), 5).unwrap();
        }
        assert_eq!(word[0], 5);
    }
}
