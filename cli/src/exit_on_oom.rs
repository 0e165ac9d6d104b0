//! The program's allocator: the system's, except that an allocation the system refuses
//! ends the program with a message and exit status 1 instead of Rust's abort (status
//! 134, a core dump). `--max-memory` keeps what xcover plans for under a limit; this is
//! for what no plan foresees (a `ulimit -v`, a machine out of memory).
use std::alloc::{GlobalAlloc, Layout, System};

/// [`System`], exiting with status 1 when it returns no memory.
pub struct ExitOnOom;

/// Writes the message (without allocating: it runs when there is no memory) and exits.
#[cold]
fn out_of_memory(size: usize) -> ! {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = size;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let parts: [&[u8]; 3] = [
        b"xcover: out of memory (the system refused ",
        &digits[at..],
        b" bytes); give it more memory, or a smaller problem\n",
    ];
    for part in parts {
        // SAFETY: write(2) reads `part.len()` bytes of a live slice; its result does not
        // matter (there is nothing else to say it to).
        unsafe {
            libc::write(2, part.as_ptr().cast(), part.len());
        }
    }
    // SAFETY: _exit ends the process at once, without running code that may allocate.
    unsafe { libc::_exit(1) }
}

// SAFETY: every method passes its arguments to `System` unchanged and returns what it
// returned, so `System`'s guarantees hold; a null result ends the process instead.
unsafe impl GlobalAlloc for ExitOnOom {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's guarantees for `layout` are passed on.
        let p = unsafe { System.alloc(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, that is from `System`, with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `dealloc`; the caller's guarantees for `new_size` are passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            out_of_memory(new_size);
        }
        p
    }
}
