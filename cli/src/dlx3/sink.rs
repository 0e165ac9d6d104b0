//! A `fmt::Write` adapter over an `io::Write` that restores raw bytes the engine passed as
//! escape characters (`U+10FF00 + byte`, see `xcover_core::dlx3::write_bytes`).
//! Write errors are ignored, as C's `fprintf` results are in Knuth's program.
use std::fmt;
use std::io::Write;

use xcover_core::dlx3::BYTE_ESCAPE_BASE;

/// A byte-exact text sink.
pub(crate) struct ByteSink<W: Write> {
    inner: W,
    /// Set when a write failed because the reader went away (closed pipe).
    pub(crate) broken_pipe: bool,
    /// Flush after every write that ends a line (for the shape file, which Knuth flushes).
    flush_lines: bool,
}

impl<W: Write> ByteSink<W> {
    pub(crate) fn new(inner: W) -> Self {
        ByteSink {
            inner,
            broken_pipe: false,
            flush_lines: false,
        }
    }

    pub(crate) fn line_flushed(inner: W) -> Self {
        ByteSink {
            inner,
            broken_pipe: false,
            flush_lines: true,
        }
    }

    pub(crate) fn flush(&mut self) {
        let r = self.inner.flush();
        self.note(r);
    }

    /// Remembers a closed pipe; other write errors are ignored like unchecked `printf`.
    fn note(&mut self, r: std::io::Result<()>) {
        if let Err(e) = r {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                self.broken_pipe = true;
            }
        }
    }
}

/// The first byte of the UTF-8 encoding of every escape character.
const ESCAPE_LEAD: u8 = 0xf4;

impl<W: Write> fmt::Write for ByteSink<W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let bytes = s.as_bytes();
        if !bytes.contains(&ESCAPE_LEAD) {
            let r = self.inner.write_all(bytes);
            self.note(r);
        } else {
            for c in s.chars() {
                let v = u32::from(c);
                let r = if (BYTE_ESCAPE_BASE + 0x80..=BYTE_ESCAPE_BASE + 0xff).contains(&v) {
                    self.inner.write_all(&[(v - BYTE_ESCAPE_BASE) as u8])
                } else {
                    let mut buf = [0u8; 4];
                    self.inner.write_all(c.encode_utf8(&mut buf).as_bytes())
                };
                self.note(r);
            }
        }
        if self.flush_lines && bytes.last() == Some(&b'\n') {
            self.flush();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fmt::Write as _;

    #[test]
    fn escapes_become_bytes() {
        let mut s = ByteSink::new(Vec::new());
        xcover_core::dlx3::write_bytes(&mut s, b"a\xe9b\xc3\xa9");
        s.write_str("!").unwrap();
        assert_eq!(s.inner, b"a\xe9b\xc3\xa9!");
    }
}
