//! Where engines write text: a byte sink.
//!
//! Knuth's programs print raw bytes (item names and colors are whatever bytes the input
//! had), so the engines write `&[u8]`, never `str`: a sink receives exactly the bytes of the
//! reference program's output. Nothing in a search loop writes to a sink; the engines only
//! call one at solutions, reports and traces, and a search run without sinks links no
//! formatting code at all (see `dlx3::Dlx3::run_silent`).

use core::fmt;

/// A destination for output bytes: a file, a UART, a C callback, a buffer in RAM.
///
/// Writing cannot fail as far as the engine is concerned, as in Knuth's programs, which
/// never check `printf`'s result; a sink that can fail remembers it for its owner.
///
/// ```
/// use xcover_core::sink::ByteSink;
///
/// /// Counts the bytes written, e.g. to size a buffer before printing for real.
/// struct Counter(usize);
/// impl ByteSink for Counter {
///     fn write_bytes(&mut self, bytes: &[u8]) {
///         self.0 += bytes.len();
///     }
/// }
///
/// let mut c = Counter(0);
/// c.write_bytes(b"1:\n");
/// assert_eq!(c.0, 3);
/// ```
pub trait ByteSink {
    /// Appends `bytes` to the output.
    fn write_bytes(&mut self, bytes: &[u8]);
}

impl<S: ByteSink + ?Sized> ByteSink for &mut S {
    fn write_bytes(&mut self, bytes: &[u8]) {
        (**self).write_bytes(bytes);
    }
}

/// A sink that drops everything.
///
/// ```
/// use xcover_core::sink::{ByteSink, Discard};
/// Discard.write_bytes(b"gone");
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Discard;

impl ByteSink for Discard {
    fn write_bytes(&mut self, _: &[u8]) {}
}

/// `core::fmt` over a byte sink, for the numbers in reports (`write!(Fmt(sink), ...)`).
pub(crate) struct Fmt<'s>(pub &'s mut dyn ByteSink);

impl fmt::Write for Fmt<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.write_bytes(s.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
impl ByteSink for std::vec::Vec<u8> {
    fn write_bytes(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// Test output as text (bytes that are not UTF-8 become U+FFFD).
#[cfg(test)]
impl ByteSink for std::string::String {
    fn write_bytes(&mut self, bytes: &[u8]) {
        self.push_str(&std::string::String::from_utf8_lossy(bytes));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::fmt::Write;

    #[test]
    fn fmt_adapter_passes_bytes_through() {
        let mut v = std::vec::Vec::new();
        let _ = write!(Fmt(&mut v), "{} mems", 42);
        v.write_bytes(b" \xe9");
        assert_eq!(v, b"42 mems \xe9");
    }
}
