//! Writing a durable file: creating it (under an exclusive lock), continuing one after a
//! kill (`resume`: every record read back and checked first), or streaming one to stdout.
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::error::{DurableError, Problem};
use super::format::Format;
use super::frame::{self, END, HEAD};
use super::lock;
use super::reader::{Reader, Record, Step};

/// The most zero bytes after a cut header that are still taken for a power loss at the
/// file's creation (a few file-system blocks).
const ZERO_TAIL_AT_START: u64 = 1 << 16;

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
    out: W,
    name: PathBuf,
    format: Format,
    /// The crc of the last frame written.
    chain: u32,
    records: u64,
    /// Syncs the stream to disk (files only).
    sync: Option<fn(&mut W) -> std::io::Result<()>>,
    /// A write failed: the file may end in part of a frame, so nothing more is written.
    failed: bool,
}

/// `fdatasync` of a file.
fn sync_file(file: &mut File) -> std::io::Result<()> {
    file.sync_data()
}

/// The magic line and the header frame of a file of `format` with `identity`, and the
/// chain after them.
fn header_bytes(format: Format, identity: &[u8]) -> (Vec<u8>, u32) {
    let mut bytes = frame::magic_line(format.magic, format.version);
    let (head, chain) = frame::encode(frame::seed(&bytes), HEAD, identity);
    bytes.extend_from_slice(&head);
    (bytes, chain)
}

impl Writer<File> {
    /// Creates `path` under an exclusive lock and writes the magic line and the header
    /// frame with `identity`, then syncs. An existing empty file is taken; a non-empty one
    /// is refused ([`Problem::Exists`]): it may hold a run to resume.
    pub(crate) fn create(
        path: &Path,
        format: Format,
        identity: &[u8],
    ) -> Result<Self, DurableError> {
        let fail = |problem| error(path, format, None, None, problem);
        let io = |e| fail(Problem::Io(e));
        // Not truncated on open: the lock is taken first, and a refused file is kept.
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        if !lock::exclusive(&file).map_err(io)? {
            return Err(fail(Problem::Locked));
        }
        let len = file.metadata().map_err(io)?.len();
        if len > 0 {
            return Err(fail(Problem::Exists));
        }
        let writer = Writer::start_afresh(file, path, format, identity)?;
        sync_parent(path);
        Ok(writer)
    }

    /// Empties `file` (locked) and writes the header, synced.
    fn start_afresh(
        mut file: File,
        path: &Path,
        format: Format,
        identity: &[u8],
    ) -> Result<Self, DurableError> {
        let io = |e| error(path, format, Some(0), Some(0), Problem::Io(e));
        if identity.len() as u64 > format.max_record {
            let limit = format.max_record;
            return Err(error(
                path,
                format,
                Some(0),
                None,
                Problem::TooLarge { limit },
            ));
        }
        let (bytes, chain) = header_bytes(format, identity);
        file.set_len(0).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        file.write_all(&bytes).map_err(io)?;
        file.sync_data().map_err(io)?;
        Ok(Writer {
            out: file,
            name: path.to_owned(),
            format,
            chain,
            records: 0,
            sync: Some(sync_file),
            failed: false,
        })
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
        let fail = |problem| error(path, format, None, None, problem);
        let io = |e| fail(Problem::Io(e));
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(io)?;
        if !lock::exclusive(&file).map_err(io)? {
            return Err(fail(Problem::Locked));
        }
        let len = file.metadata().map_err(io)?.len();
        let (header, _) = header_bytes(format, identity);
        if len < header.len() as u64 + ZERO_TAIL_AT_START {
            // A kill while the header was written leaves a prefix of it, a power loss
            // maybe zero bytes after that: nothing was recorded, start afresh.
            let mut start = Vec::new();
            (&file).take(len).read_to_end(&mut start).map_err(io)?;
            let written = start.iter().rposition(|&b| b != 0).map_or(0, |p| p + 1);
            let prefix = written < header.len() && header.starts_with(&start[..written]);
            if prefix || start.is_empty() {
                return Ok(Resumed::Open(Writer::start_afresh(
                    file, path, format, identity,
                )?));
            }
            file.seek(SeekFrom::Start(0)).map_err(io)?;
        }
        let mut reader = Reader::new(&file, path, format, limit);
        let found = reader.header()?;
        if found != identity {
            return Err(error(
                path,
                format,
                Some(0),
                None,
                Problem::OtherRun { found },
            ));
        }
        let cut = loop {
            match reader.next()? {
                Step::Record(record) => match visit(&record) {
                    Ok(()) => {}
                    Err(Visit::Invalid(what)) => return Err(reader.invalid(&record, what)),
                    Err(Visit::Interrupted) => {
                        return Err(error(path, format, None, None, Problem::Interrupted))
                    }
                },
                Step::End { .. } => return Ok(Resumed::Complete),
                Step::Eof => break reader.offset(),
                Step::Torn { at } => break at,
            }
        };
        let (chain, records) = (reader.chain(), reader.records());
        drop(reader);
        if cut < len {
            file.set_len(cut).map_err(io)?;
            file.sync_data().map_err(io)?;
        }
        file.seek(SeekFrom::End(0)).map_err(io)?;
        Ok(Resumed::Open(Writer {
            out: file,
            name: path.to_owned(),
            format,
            chain,
            records,
            sync: Some(sync_file),
            failed: false,
        }))
    }

    /// Forces what was written to disk (`fdatasync`).
    pub(crate) fn sync(&mut self) -> Result<(), DurableError> {
        let r = self.out.sync_data();
        r.map_err(|e| self.error(None, Problem::Io(e)))
    }
}

impl<W: Write> Writer<W> {
    /// Starts a file on a stream (stdout): the magic line and the header frame.
    pub(crate) fn stream(
        mut out: W,
        name: &Path,
        format: Format,
        identity: &[u8],
    ) -> Result<Self, DurableError> {
        let io = |e| error(name, format, Some(0), Some(0), Problem::Io(e));
        let (bytes, chain) = header_bytes(format, identity);
        out.write_all(&bytes).map_err(io)?;
        out.flush().map_err(io)?;
        Ok(Writer {
            out,
            name: name.to_owned(),
            format,
            chain,
            records: 0,
            sync: None,
            failed: false,
        })
    }

    fn error(&self, record: Option<u64>, problem: Problem) -> DurableError {
        error(&self.name, self.format, record, None, problem)
    }

    /// Writes one frame (one `write` of all its bytes, then a flush).
    fn frame(&mut self, tag: &str, payload: &[u8]) -> Result<(), DurableError> {
        let index = Some(self.records + 1);
        if self.failed {
            let what = "an earlier write to it failed".to_owned();
            return Err(self.error(index, Problem::Invalid { what }));
        }
        if payload.len() as u64 > self.format.max_record {
            let limit = self.format.max_record;
            return Err(self.error(index, Problem::TooLarge { limit }));
        }
        let (bytes, chain) = frame::encode(self.chain, tag, payload);
        if let Err(e) = self.out.write_all(&bytes).and_then(|()| self.out.flush()) {
            self.failed = true;
            return Err(self.error(index, Problem::Io(e)));
        }
        self.chain = chain;
        Ok(())
    }

    /// Appends one record (one `write` of the whole frame, then a flush).
    pub(crate) fn record(&mut self, tag: &str, payload: &[u8]) -> Result<(), DurableError> {
        if !frame::valid_tag(tag) || tag == HEAD || tag == END {
            let what = format!("`{tag}` is not a record tag");
            return Err(self.error(None, Problem::Invalid { what }));
        }
        self.frame(tag, payload)?;
        self.records += 1;
        Ok(())
    }

    /// Records written, those of an earlier attempt included.
    pub(crate) fn records(&self) -> u64 {
        self.records
    }

    /// Writes the trailer (closed formats), flushes and, for a file, syncs; returns the
    /// stream.
    pub(crate) fn finish(mut self) -> Result<W, DurableError> {
        if self.format.closed {
            let count = format!("{}\n", self.records);
            self.frame(END, count.as_bytes())?;
        } else if let Err(e) = self.out.flush() {
            return Err(self.error(None, Problem::Io(e)));
        }
        if let Some(sync) = self.sync {
            if let Err(e) = sync(&mut self.out) {
                return Err(self.error(None, Problem::Io(e)));
            }
        }
        Ok(self.out)
    }
}

fn error(
    path: &Path,
    format: Format,
    record: Option<u64>,
    offset: Option<u64>,
    problem: Problem,
) -> DurableError {
    DurableError {
        path: path.to_owned(),
        noun: format.noun,
        record,
        offset,
        problem,
    }
}

/// Syncs the directory of a new file, so that its name survives a power loss too (best
/// effort: not every file system can).
fn sync_parent(path: &Path) {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if let Ok(dir) = File::open(parent) {
        let _ = dir.sync_all();
    }
}
