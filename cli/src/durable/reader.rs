//! Reading a durable file from its start: the header, then records one at a time, each
//! checked (frame line, length bound, chained crc) before it is handed out.
use std::fs::File;
use std::io::Read;
use std::path::Path;

use super::{DurableError, Format};

/// One record, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Record {
    /// Its number: 1 for the first record after the header.
    pub index: u64,
    /// The byte offset of its frame line.
    pub offset: u64,
    pub tag: String,
    pub payload: Vec<u8>,
}

/// One step of reading.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A whole, checked record.
    Record(Record),
    /// The trailer of a closed format, checked (its count matches the records read and
    /// nothing follows it): the number of records.
    End { records: u64 },
    /// The end of the file, after a whole record (an open format's normal end; for a
    /// closed one, a file cut short exactly between records).
    Eof,
    /// A torn tail starts at this offset (see the module doc): a cut-short record.
    Torn { at: u64 },
}

/// A durable file read from its start.
pub(crate) struct Reader<R: Read> {
    _inner: R,
    _format: Format,
}

impl Reader<File> {
    /// Opens `path` for reading, under a shared lock (a file a writer holds is refused
    /// with [`Problem::Locked`](super::Problem::Locked)); at most `limit` bytes are read.
    pub(crate) fn open(path: &Path, format: Format, limit: u64) -> Result<Self, DurableError> {
        todo!()
    }
}

impl<R: Read> Reader<R> {
    /// A reader of `inner`, named `name` in errors; at most `limit` bytes are read.
    pub(crate) fn new(inner: R, name: &Path, format: Format, limit: u64) -> Self {
        todo!()
    }

    /// Reads the magic line and the header frame; returns the identity payload.
    pub(crate) fn header(&mut self) -> Result<Vec<u8>, DurableError> {
        todo!()
    }

    /// The next record, the trailer, the end or a torn tail. Damage is an error naming the
    /// record. After `End`, `Eof` or `Torn`, further calls return the same step.
    pub(crate) fn next(&mut self) -> Result<Step, DurableError> {
        todo!()
    }

    /// The next record of a closed file read whole: a record, or `None` at its (checked)
    /// trailer; a file without a trailer is [`Problem::Truncated`](super::Problem::Truncated).
    pub(crate) fn next_strict(&mut self) -> Result<Option<Record>, DurableError> {
        todo!()
    }

    /// Bytes consumed so far (the end of the last whole frame).
    pub(crate) fn offset(&self) -> u64 {
        todo!()
    }

    /// Records read so far (header not counted).
    pub(crate) fn records(&self) -> u64 {
        todo!()
    }

    /// An error at `record` (for the caller's check of its meaning), naming this file.
    pub(crate) fn invalid(&self, record: &Record, what: impl Into<String>) -> DurableError {
        todo!()
    }
}
