//! One durable record format for every file a long run writes and reads back: dlx3 shard
//! parts (`xcover-dlx3-part`), second-pass plans and parts (`xcover-dlx3-plan`,
//! `xcover-dlx3-print`) and checkpoints (`xcover-dlx3-checkpoint`), gridcheck journals
//! and gridcheck parts. One writer, one reader. Every header holds the run's identity,
//! with a SHA-256 of its input.
//!
//! A file is a magic line, a header frame, record frames and, for a *closed* format (a
//! part), a trailer frame:
//!
//! ```text
//! <magic> <version>\n                      e.g. `xcover-gridcheck-journal 4`
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
//! - Files are born whole: [`Writer::create`] writes the magic line and the header to a
//!   temporary file beside the target, syncs it, and only then gives it its name (a hard
//!   link, which never replaces a file), so a file under our name always starts with a
//!   whole header.
//! - A *torn tail* is what a kill or a power loss leaves after the last whole record: a
//!   frame line without its newline, a payload shorter than its (checked) length, or zero
//!   bytes. [`Writer::resume`] cuts a torn tail and nothing else; any other damage is
//!   refused, naming the file and the record, and the file is left as it was. A file that
//!   does not start with a whole magic line and header (zero bytes, `x`, a prefix of the
//!   magic line), or whose header is another run's, is not ours: never truncated or
//!   overwritten. Only an empty file is started afresh.
//! - One writer at a time: a writer holds an exclusive advisory lock (`flock`) on its file
//!   for its life; a reader of a closed file takes a shared one, so a part still being
//!   written is refused rather than read.
//! - Every read is bounded: a frame line by [`MAX_FRAME_LINE`], a payload by the format's
//!   `max_record`, the whole file by the caller's limit (from `--max-memory`).
//!
//! Durability: each record is one `write` of its whole frame to the file (no user-space
//! buffer), so a killed process loses at most the record being written. What survives a
//! power loss is what was synced: [`Writer::sync`] (the caller's sync points), the header
//! before the file gets its name, and the trailer at [`Writer::finish`].
mod error;
mod format;
mod frame;
mod lock;
mod reader;
mod writer;

pub(crate) use error::{DurableError, Problem};
pub(crate) use format::Format;
pub(crate) use frame::crc32c;
/// What [`Reader::next`] returns; outside the layer only tests walk files step by step.
#[cfg(test)]
pub(crate) use reader::Step;
pub(crate) use reader::{ReadAt, Reader, Record};
pub(crate) use writer::{Resumed, Visit, Writer};

#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;
