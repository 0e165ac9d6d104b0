//! One durable record format for every file a long run writes and reads back: dlx3 shard
//! parts, gridcheck journals and gridcheck parts. One writer, one reader.
//!
//! A file is a magic line, a header frame, record frames and, for a *closed* format (a
//! part), a trailer frame:
//!
//! ```text
//! <magic> <version>\n                      e.g. `xcover-gridcheck-journal 3`
//! head <len> <crc> <lcrc>\n<len bytes>     the run's identity (fingerprint)
//! <tag> <len> <crc> <lcrc>\n<len bytes>    one record (tag: a-z, 0-9, `-`; at most 16)
//! ...
//! end <len> <crc> <lcrc>\n<records>\n      closed formats: the records between head and end
//! ```
//!
//! - `len` is the payload's length in decimal, `crc` and `lcrc` are CRC-32C (Castagnoli,
//!   from the `crc` crate) as 8 lowercase hex digits. `crc` covers the frame's tag, length
//!   and payload *and the previous frame's crc* (the first frame's is seeded with the
//!   magic line), so the crcs form a chain: a record that is changed, deleted, duplicated,
//!   moved or taken from another file breaks it, and the trailer's crc is a checksum of
//!   the whole file. `lcrc` covers the text `<tag> <len> <crc>`, so a damaged length is
//!   told apart from a record cut short.
//! - A *torn tail* is what a kill or a power loss leaves after the last whole record: a
//!   frame line without its newline, a payload shorter than its (checked) length, or zero
//!   bytes. [`Writer::resume`] cuts a torn tail and nothing else; any other damage is
//!   refused, naming the file and the record, and the file is left as it was. A file that
//!   does not start with the magic line, or whose header is another run's, is never
//!   truncated or overwritten.
//! - One writer at a time: a writer holds an exclusive advisory lock (`flock`) on its file
//!   for its life; a reader of a closed file takes a shared one, so a part still being
//!   written is refused rather than read.
//! - Every read is bounded: a frame line by [`MAX_FRAME_LINE`], a payload by the format's
//!   `max_record`, the whole file by the caller's limit (from `--max-memory`).
//!
//! Durability: each record is one `write` of its whole frame to the file (no user-space
//! buffer), so a killed process loses at most the record being written. What survives a
//! power loss is what was synced: [`Writer::sync`] (the caller's sync points), the header
//! at creation, and the trailer at [`Writer::finish`].
mod error;
mod frame;
mod lock;
mod reader;
mod writer;

pub(crate) use error::{DurableError, Problem};
/// What [`Reader::next`] returns; outside the layer only tests walk files step by step.
#[cfg(test)]
pub(crate) use reader::Step;
pub(crate) use reader::{Reader, Record};
pub(crate) use writer::{Resumed, Visit, Writer};

/// The longest frame line: a 16-byte tag, a 20-digit length, two crcs, spaces, newline.
pub(crate) const MAX_FRAME_LINE: usize = 64;

/// What distinguishes one kind of durable file from another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Format {
    /// The first word of the magic line, e.g. `xcover-dlx3-part`.
    pub magic: &'static str,
    /// The format version (the magic line's second word).
    pub version: u32,
    /// The largest payload a record of this format may have (the header's included).
    pub max_record: u64,
    /// Closed formats end with a trailer (`end`) frame; open ones (journals) do not.
    pub closed: bool,
    /// What a person calls this kind of file in a message: `part`, `journal`.
    pub noun: &'static str,
}

/// The byte ranges of the frames of `bytes` after its magic line (the header's first, a
/// trailer's last), for tests that cut, delete or move records. Reads the layout only.
#[cfg(test)]
pub(crate) fn frame_ranges(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let newline = |from: usize| from + bytes[from..].iter().position(|&b| b == b'\n').unwrap();
    let mut at = newline(0) + 1;
    let mut out = Vec::new();
    while at < bytes.len() {
        let line_end = newline(at);
        let line = std::str::from_utf8(&bytes[at..line_end]).unwrap();
        let len: usize = line.split(' ').nth(1).unwrap().parse().unwrap();
        out.push(at..line_end + 1 + len);
        at = line_end + 1 + len;
    }
    out
}

#[cfg(test)]
mod tests;
