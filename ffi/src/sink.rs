//! C write callbacks as core's byte sinks: the engine's bytes reach the caller's function
//! unchanged.
#![allow(non_camel_case_types)]

use core::ffi::{c_char, c_void};
use xcover_core::sink::ByteSink;

/// `void (*)(void *ctx, const char *bytes, size_t len)`: receives `len` bytes of output
/// (not NUL-terminated). Called from inside `dlx3_*` functions on the caller's thread; it
/// must not call back into the same workspace.
pub type xcover_write_fn =
    Option<unsafe extern "C" fn(ctx: *mut c_void, bytes: *const c_char, len: usize)>;

/// One output stream: a write function and the context pointer handed back to it.
/// A NULL `write` discards the stream's output.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct xcover_writer {
    /// The function that receives the bytes, or NULL to discard them.
    pub write: xcover_write_fn,
    /// Passed unchanged as the first argument of `write`.
    pub ctx: *mut c_void,
}

impl xcover_writer {
    /// A writer that discards everything.
    pub const DISCARD: xcover_writer = xcover_writer {
        write: None,
        ctx: core::ptr::null_mut(),
    };

    /// Whether output to this writer goes anywhere.
    pub fn is_connected(&self) -> bool {
        self.write.is_some()
    }
}

/// A byte sink over a C callback. Writing never fails (the callback returns nothing).
pub struct CallbackSink {
    writer: xcover_writer,
}

impl CallbackSink {
    /// Wraps `writer`; the caller of the exported function vouched for it (see
    /// `dlx3_settings`): `write`, if not NULL, is a valid function for `ctx`.
    pub fn new(writer: xcover_writer) -> CallbackSink {
        CallbackSink { writer }
    }
}

impl CallbackSink {
    fn emit(&mut self, bytes: &[u8]) {
        if let (Some(write), false) = (self.writer.write, bytes.is_empty()) {
            // SAFETY: the caller registered `write` together with `ctx` and promised (header
            // documentation of xcover_writer) that it can be called with them at any time
            // while the workspace lives; `bytes` is valid for `bytes.len()` bytes for the
            // duration of the call and the callback must not keep the pointer.
            unsafe {
                write(
                    self.writer.ctx,
                    bytes.as_ptr().cast::<c_char>(),
                    bytes.len(),
                )
            };
        }
    }
}

impl ByteSink for CallbackSink {
    fn write_bytes(&mut self, bytes: &[u8]) {
        self.emit(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Collected {
        bytes: [u8; 64],
        len: usize,
        calls: usize,
    }

    unsafe extern "C" fn collect(ctx: *mut c_void, bytes: *const c_char, len: usize) {
        // SAFETY: the test passes a `*mut Collected` as ctx and a valid byte range.
        let (target, data) = unsafe {
            (
                &mut *ctx.cast::<Collected>(),
                core::slice::from_raw_parts(bytes.cast::<u8>(), len),
            )
        };
        target.bytes[target.len..target.len + len].copy_from_slice(data);
        target.len += len;
        target.calls += 1;
    }

    #[test]
    fn bytes_reach_the_callback_unchanged() {
        let mut got = Collected {
            bytes: [0; 64],
            len: 0,
            calls: 0,
        };
        let writer = xcover_writer {
            write: Some(collect),
            ctx: (&mut got as *mut Collected).cast::<c_void>(),
        };
        let mut sink = CallbackSink::new(writer);
        sink.write_bytes(b"7: ");
        sink.write_bytes(b"A:x");
        assert_eq!(&got.bytes[..got.len], b"7: A:x");
        assert!(got.calls >= 1);
    }

    #[test]
    fn raw_bytes_come_out_raw() {
        let mut got = Collected {
            bytes: [0; 64],
            len: 0,
            calls: 0,
        };
        let writer = xcover_writer {
            write: Some(collect),
            ctx: (&mut got as *mut Collected).cast::<c_void>(),
        };
        let mut sink = CallbackSink::new(writer);
        sink.write_bytes(b"a\xE9b\xFF");
        sink.write_bytes(b"");
        assert_eq!(&got.bytes[..got.len], b"a\xE9b\xFF");
        assert_eq!(got.calls, 1, "empty writes do not reach C");
    }

    #[test]
    fn null_callback_discards() {
        let mut sink = CallbackSink::new(xcover_writer::DISCARD);
        sink.write_bytes(b"lost");
        assert!(!xcover_writer::DISCARD.is_connected());
    }
}
