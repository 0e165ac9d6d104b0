//! Writing a durable file: creating it (under an exclusive lock), continuing one after a
//! kill (`resume`: every record read back and checked first), or streaming one to stdout.
use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::error::{DurableError, Problem};
use super::format::Format;
use super::frame::{self, END, HEAD};
use super::lock;
#[cfg(doc)]
use super::reader::ReadAt;
use super::reader::{Reader, Record, Step};

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
    /// It ended with a valid trailer: it is complete (the file is unchanged). The file
    /// stays open and locked here, for reading what was checked again ([`ReadAt`]).
    Complete(File),
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
    /// Creates `path` whole: the magic line and the header frame with `identity` are
    /// written to a temporary file beside it and synced, and only then does the file get
    /// its name (never replacing a file that appeared there meanwhile), so `path` never
    /// holds part of a header. The file stays under an exclusive lock for the writer's
    /// life. An existing empty file is replaced (it holds nothing); a non-empty one is
    /// refused ([`Problem::Exists`]): it may hold a run to resume, or be someone's.
    pub(crate) fn create(
        path: &Path,
        format: Format,
        identity: &[u8],
    ) -> Result<Self, DurableError> {
        let fail = |problem| error(path, format, None, None, problem);
        let io = |e| fail(Problem::Io(e));
        if identity.len() as u64 > format.max_record {
            let limit = format.max_record;
            let problem = Problem::RecordTooLarge { limit };
            return Err(error(path, format, Some(0), None, problem));
        }
        let (bytes, chain) = header_bytes(format, identity);
        let (temp, mut file) = temporary_beside(path).map_err(io)?;
        let written = lock::exclusive(&file)
            .and_then(|_| file.write_all(&bytes))
            .and_then(|()| file.sync_data());
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temp);
            return Err(io(e));
        }
        if let Err(problem) = publish(&temp, path) {
            let _ = std::fs::remove_file(&temp);
            return Err(fail(problem));
        }
        sync_parent(path);
        file.seek(SeekFrom::End(0)).map_err(io)?;
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
    /// file for appending. Files are born whole ([`Writer::create`]), so a file without
    /// this format's whole magic line and header is not one of ours: it is refused, as is
    /// any damage, another format or another run, and the file is left as it was. An
    /// empty file holds nothing and is started afresh.
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
        if len == 0 {
            drop(file);
            return Writer::create(path, format, identity).map(Resumed::Open);
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
                Step::End { .. } => break None,
                Step::Eof => break Some(reader.offset()),
                Step::Torn { at } => break Some(at),
            }
        };
        let Some(cut) = cut else {
            drop(reader);
            return Ok(Resumed::Complete(file));
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

    /// A second descriptor of the file written (the same open file and lock), for
    /// reading its records again through [`ReadAt`], which leaves the writer's offset be.
    pub(crate) fn try_clone_file(&self) -> std::io::Result<File> {
        self.out.try_clone()
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
            return Err(self.error(index, Problem::RecordTooLarge { limit }));
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

/// A new file beside `path` (same folder, so that a link or rename stays on its file
/// system), named `.NAME.tmp-PID-N` and created exclusively.
fn temporary_beside(path: &Path) -> std::io::Result<(PathBuf, File)> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file name"))?;
    loop {
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(name);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        temp_name.push(format!(".tmp-{}-{n}", std::process::id()));
        let temp = path.with_file_name(temp_name);
        let opened = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&temp);
        match opened {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Gives the whole file `temp` the name `path`: a hard link, which never replaces a file
/// (the temporary name then goes), or a rename over an empty file found there, once it
/// is locked. A non-empty file there is [`Problem::Exists`], one another writer holds
/// [`Problem::Locked`].
fn publish(temp: &Path, path: &Path) -> Result<(), Problem> {
    match std::fs::hard_link(temp, path) {
        Ok(()) => {
            let _ = std::fs::remove_file(temp);
            return Ok(());
        }
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
            // A file system without hard links: a rename, unless a file is there.
            if std::fs::symlink_metadata(path).is_ok() {
                return Err(Problem::Exists);
            }
            return std::fs::rename(temp, path).map_err(Problem::Io);
        }
        Err(_) => {}
    }
    let existing = File::open(path).map_err(Problem::Io)?;
    if !lock::exclusive(&existing).map_err(Problem::Io)? {
        return Err(Problem::Locked);
    }
    let meta = existing.metadata().map_err(Problem::Io)?;
    if !meta.is_file() || meta.len() > 0 {
        return Err(Problem::Exists);
    }
    std::fs::rename(temp, path).map_err(Problem::Io)
}
