//! Core's byte sink over an `io::Write`: the engine's bytes go out unchanged.
//! Write errors are ignored, as C's `fprintf` results are in Knuth's program, except that
//! a closed pipe is remembered (the CLI then stops, as SIGPIPE would stop Knuth's).
use std::io::Write;

/// A byte-exact output stream.
pub(crate) struct IoSink<W: Write> {
    inner: W,
    /// Set when a write failed because the reader went away (closed pipe).
    pub(crate) broken_pipe: bool,
    /// The first other write error (no space, I/O error), for callers that check.
    pub(crate) failed: Option<std::io::Error>,
}

impl<W: Write> IoSink<W> {
    pub(crate) fn new(inner: W) -> Self {
        IoSink {
            inner,
            broken_pipe: false,
            failed: None,
        }
    }

    pub(crate) fn flush(&mut self) {
        let r = self.inner.flush();
        self.note(r);
    }

    /// Remembers a closed pipe, and the first other write error (which Knuth's unchecked
    /// `printf` ignores; `merge` checks it).
    fn note(&mut self, r: std::io::Result<()>) {
        if let Err(e) = r {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                self.broken_pipe = true;
            } else if self.failed.is_none() {
                self.failed = Some(e);
            }
        }
    }
}

impl<W: Write> xcover_core::sink::ByteSink for IoSink<W> {
    fn write_bytes(&mut self, bytes: &[u8]) {
        let r = self.inner.write_all(bytes);
        self.note(r);
    }
}

impl<W: Write> IoSink<W> {
    /// This sink as an `io::Write` (for `xcover_solver::knuth`).
    pub(crate) fn as_io(&mut self) -> AsIo<'_, W> {
        AsIo(self)
    }
}

/// An [`IoSink`] as an `io::Write`: a write never fails here; a failure is remembered in
/// the sink, as for the engine's bytes.
pub(crate) struct AsIo<'s, W: Write>(&'s mut IoSink<W>);

impl<W: Write> Write for AsIo<'_, W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        xcover_core::sink::ByteSink::write_bytes(self.0, bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush();
        Ok(())
    }
}

/// `write!` on an [`IoSink`], for the CLI's own messages.
impl<W: Write> std::fmt::Write for IoSink<W> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        xcover_core::sink::ByteSink::write_bytes(self, s.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;
    use xcover_core::sink::ByteSink as _;

    #[test]
    fn bytes_pass_unchanged() {
        let mut s = IoSink::new(Vec::new());
        s.write_bytes(b"a\xe9b\xc3\xa9");
        s.write_str("!").unwrap();
        assert_eq!(s.inner, b"a\xe9b\xc3\xa9!");
    }

    #[test]
    fn a_closed_pipe_is_remembered() {
        struct Closed;
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut s = IoSink::new(Closed);
        s.write_bytes(b"x");
        assert!(s.broken_pipe);
    }
}
