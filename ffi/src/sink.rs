//! C write callbacks as `core::fmt::Write` sinks: the engine formats Knuth's output into a
//! `fmt::Write`, and these pass the bytes on to the caller's function unchanged.
#![allow(non_camel_case_types)]

use core::ffi::{c_char, c_void};
use core::fmt;
use xcover_core::dlx3::BYTE_ESCAPE_BASE;

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

/// A `fmt::Write` over a C callback. Writing never fails (the callback returns nothing).
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

/// The engine passes bytes that are not UTF-8 (Knuth's output is raw bytes) as the
/// characters `BYTE_ESCAPE_BASE + byte`; C receives the raw byte again.
fn escaped_byte(c: char) -> Option<u8> {
    let offset = u32::from(c).checked_sub(BYTE_ESCAPE_BASE)?;
    u8::try_from(offset).ok()
}

impl fmt::Write for CallbackSink {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        if !self.writer.is_connected() {
            return Ok(());
        }
        // Escapes are 4-byte sequences starting with 0xF4; most text has none.
        if !text.as_bytes().contains(&0xF4) {
            self.emit(text.as_bytes());
            return Ok(());
        }
        let mut run_start = 0;
        for (at, c) in text.char_indices() {
            if let Some(byte) = escaped_byte(c) {
                self.emit(&text.as_bytes()[run_start..at]);
                self.emit(&[byte]);
                run_start = at + c.len_utf8();
            }
        }
        self.emit(&text.as_bytes()[run_start..]);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::fmt::Write;

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
        let item = "A:x";
        write!(sink, "{}: {item}", 7).unwrap();
        assert_eq!(&got.bytes[..got.len], b"7: A:x");
        assert!(got.calls >= 1);
    }

    #[test]
    fn escaped_bytes_come_out_raw() {
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
        let e9 = char::from_u32(BYTE_ESCAPE_BASE + 0xE9).unwrap();
        let ff = char::from_u32(BYTE_ESCAPE_BASE + 0xFF).unwrap();
        // U+10FEFF is below the escape range: it passes unchanged.
        write!(sink, "a{e9}b{ff}{ff}\u{10FEFF}").unwrap();
        assert_eq!(&got.bytes[..got.len], b"a\xE9b\xFF\xFF\xF4\x8F\xBB\xBF");
    }

    #[test]
    fn null_callback_discards() {
        let mut sink = CallbackSink::new(xcover_writer::DISCARD);
        assert!(write!(sink, "lost {}", 1).is_ok());
        assert!(!xcover_writer::DISCARD.is_connected());
    }
}
