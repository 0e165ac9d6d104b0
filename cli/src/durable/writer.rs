//! Writing a durable file: creating it (under an exclusive lock), continuing one after a
//! kill (`resume`: every record read back and checked first), or streaming one to stdout.
use std::fs::File;
use std::io::Write;
use std::path::Path;

use super::{DurableError, Format, Record};

/// What `create` does with an existing non-empty file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Existing {
    /// Refuse it ([`Problem::Exists`](super::Problem::Exists)): it may hold a run to resume.
    Refuse,
    /// Replace it (after taking its lock).
    Replace,
}

/// What the caller's check of a record during `resume` says.
#[derive(Debug)]
pub(crate) enum Visit {
    /// The record does not make sense: refused, naming the record.
    Invalid(String),
    /// A signal arrived: stop reading (the file is left as it was).
    Interrupted,
}

/// An earlier attempt at a file, read back.
pub(crate) enum Resumed {
    /// It ended with a valid trailer: it is complete (the file is unchanged).
    Complete,
    /// It is open for more records after its last whole one (a torn tail was cut).
    Open(Writer<File>),
}

/// Appends frames, keeping the chain and the record count.
pub(crate) struct Writer<W: Write> {
    _out: W,
}

impl Writer<File> {
    /// Creates `path` (or takes an existing file per `existing`) under an exclusive lock
    /// and writes the magic line and the header frame with `identity`, then syncs.
    pub(crate) fn create(
        path: &Path,
        format: Format,
        identity: &[u8],
        existing: Existing,
    ) -> Result<Self, DurableError> {
        todo!()
    }

    /// Continues `path`, written by a run whose identity is `identity`: takes the lock,
    /// reads every record back (at most `limit` bytes), checks each frame and hands each
    /// record to `visit` for its meaning; then cuts a torn tail, if any, and opens the
    /// file for appending. An empty file, or a prefix of this run's magic line and
    /// header, is started afresh. Any damage, another format or another run is an error
    /// and the file is left as it was.
    pub(crate) fn resume(
        path: &Path,
        format: Format,
        identity: &[u8],
        limit: u64,
        visit: &mut dyn FnMut(&Record) -> Result<(), Visit>,
    ) -> Result<Resumed, DurableError> {
        todo!()
    }

    /// Forces what was written to disk (`fdatasync`).
    pub(crate) fn sync(&mut self) -> Result<(), DurableError> {
        todo!()
    }
}

impl<W: Write> Writer<W> {
    /// Starts a file on a stream (stdout): the magic line and the header frame.
    pub(crate) fn stream(
        out: W,
        name: &Path,
        format: Format,
        identity: &[u8],
    ) -> Result<Self, DurableError> {
        todo!()
    }

    /// Appends one record (one `write` of the whole frame, then a flush).
    pub(crate) fn record(&mut self, tag: &str, payload: &[u8]) -> Result<(), DurableError> {
        todo!()
    }

    /// Records written, those of an earlier attempt included.
    pub(crate) fn records(&self) -> u64 {
        todo!()
    }

    /// Writes the trailer (closed formats), flushes and, for a file, syncs; returns the
    /// stream.
    pub(crate) fn finish(self) -> Result<W, DurableError> {
        todo!()
    }
}
