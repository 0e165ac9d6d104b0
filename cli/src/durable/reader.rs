//! Reading a durable file from its start: the header, then records one at a time, each
//! checked (frame line, length bound, chained crc) before it is handed out.
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use super::error::{DurableError, Problem};
use super::format::{Format, MAX_FRAME_LINE};
use super::frame::{self, FrameLine, END, HEAD};
use super::lock;

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
#[derive(Clone, Debug, PartialEq, Eq)]
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
    inner: BufReader<R>,
    name: PathBuf,
    format: Format,
    limit: u64,
    /// Bytes consumed: the end of the last whole frame.
    offset: u64,
    /// The crc of the last whole frame (the chain so far).
    chain: u32,
    records: u64,
    /// The step that ended the file, repeated by later calls.
    ended: Option<Step>,
}

/// Reads a file from its start by positioned reads (`pread`), leaving the descriptor's
/// offset be: a file a [`Writer`](super::Writer) holds open (and locked) is read again
/// through a clone of its very descriptor, never through its path.
pub(crate) struct ReadAt {
    file: File,
    pos: u64,
}

impl ReadAt {
    /// A reader at the start of `file`.
    pub(crate) fn new(file: File) -> Self {
        ReadAt { file, pos: 0 }
    }
}

impl Read for ReadAt {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use std::os::unix::fs::FileExt as _;
        let n = self.file.read_at(buf, self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl Reader<File> {
    /// Opens `path` for reading, under a shared lock (a file a writer holds is refused
    /// with [`Problem::Locked`]); at most `limit` bytes are read.
    pub(crate) fn open(path: &Path, format: Format, limit: u64) -> Result<Self, DurableError> {
        let fail = |problem| DurableError {
            path: path.to_owned(),
            noun: format.noun,
            record: None,
            offset: None,
            problem,
        };
        let file = File::open(path).map_err(|e| fail(Problem::Io(e)))?;
        if !lock::shared(&file).map_err(|e| fail(Problem::Io(e)))? {
            return Err(fail(Problem::Locked));
        }
        Ok(Reader::new(file, path, format, limit))
    }
}

impl<R: Read> Reader<R> {
    /// A reader of `inner`, named `name` in errors; at most `limit` bytes are read.
    pub(crate) fn new(inner: R, name: &Path, format: Format, limit: u64) -> Self {
        Reader {
            inner: BufReader::new(inner),
            name: name.to_owned(),
            format,
            limit,
            offset: 0,
            chain: 0,
            records: 0,
            ended: None,
        }
    }

    fn error(&self, record: Option<u64>, offset: Option<u64>, problem: Problem) -> DurableError {
        DurableError {
            path: self.name.clone(),
            noun: self.format.noun,
            record,
            offset,
            problem,
        }
    }

    fn io(&self, e: std::io::Error) -> DurableError {
        self.error(None, Some(self.offset), Problem::Io(e))
    }

    /// Up to `max` bytes through the first newline (kept); fewer without one at the end.
    fn line(&mut self, max: usize) -> Result<Vec<u8>, DurableError> {
        let mut bytes = Vec::new();
        let r = (&mut self.inner)
            .take(max as u64)
            .read_until(b'\n', &mut bytes);
        r.map_err(|e| self.io(e))?;
        Ok(bytes)
    }

    /// Exactly `n` bytes, or fewer at the end of the file.
    fn bytes(&mut self, n: u64) -> Result<Vec<u8>, DurableError> {
        // Room for the whole payload up front (its length is within the caller's limit,
        // but a file cut short may hold less: at most 4 MiB before any byte is read), so
        // that it is read in one call, not grown through a few small ones.
        let mut bytes = Vec::with_capacity(n.min(1 << 22) as usize);
        let r = (&mut self.inner).take(n).read_to_end(&mut bytes);
        r.map_err(|e| self.io(e))?;
        Ok(bytes)
    }

    /// Whether everything left is zero bytes (what a power loss can leave past the last
    /// sync); reads at most up to the limit.
    fn rest_is_zeros(&mut self, consumed: u64) -> Result<bool, DurableError> {
        let mut left = self.limit.saturating_sub(self.offset + consumed);
        loop {
            let (n, nonzero) = match self.inner.fill_buf() {
                Ok(buf) => (buf.len(), buf.iter().any(|&b| b != 0)),
                Err(e) => return Err(self.io(e)),
            };
            if n == 0 {
                return Ok(true);
            }
            if nonzero {
                return Ok(false);
            }
            if n as u64 > left {
                return Ok(false);
            }
            left -= n as u64;
            self.inner.consume(n);
        }
    }

    /// Reads the magic line and the header frame; returns the identity payload.
    pub(crate) fn header(&mut self) -> Result<Vec<u8>, DurableError> {
        let want = frame::magic_line(self.format.magic, self.format.version);
        let line = self.line(want.len().max(MAX_FRAME_LINE))?;
        if line != want {
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end_matches('\n');
            let version = |rest: &str| {
                let digits = rest.strip_prefix(' ').unwrap_or("");
                !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
            };
            let magic_only = &want[..want.len() - 1];
            let problem = match text.strip_prefix(self.format.magic) {
                Some(rest) if version(rest) && line.ends_with(b"\n") => Problem::OtherVersion {
                    found: text.to_owned(),
                },
                // This kind's magic line, with its newline lost (changed or cut off).
                Some(rest) if version(rest) || line.starts_with(magic_only) => {
                    let what = format!(
                        "its magic line `{}` has lost its newline (a damaged or truncated file)",
                        &text[..text.len().min(magic_only.len())]
                    );
                    Problem::Damaged { what }
                }
                _ => Problem::NotThisFormat,
            };
            return Err(self.error(None, None, problem));
        }
        self.offset = line.len() as u64;
        self.chain = frame::seed(&line);
        let damaged = |what: &str| Problem::Damaged { what: what.into() };
        match self.frame(0)? {
            Framed::Whole(fl, payload) if fl.tag == HEAD => Ok(payload),
            Framed::Whole(..) => Err(self.error(Some(0), Some(self.offset), damaged("no header"))),
            Framed::End | Framed::Torn => Err(self.error(
                Some(0),
                Some(self.offset),
                damaged("the file ends inside it"),
            )),
        }
    }

    /// Reads one frame after `self.offset`, checking its line, its length and its crc;
    /// on success the chain and the offset move past it.
    /// `index` numbers the frame in errors (0: the header).
    fn frame(&mut self, index: u64) -> Result<Framed, DurableError> {
        let at = self.offset;
        let record = Some(index);
        let line = self.line(MAX_FRAME_LINE)?;
        if line.is_empty() {
            return Ok(Framed::End);
        }
        let damaged = |what: &str| Problem::Damaged { what: what.into() };
        if line.last() != Some(&b'\n') {
            // The end of the file inside a frame line, maybe with zero bytes after what
            // was written (a power loss): a torn tail.
            let written = line.iter().rposition(|&b| b != 0).map_or(0, |p| p + 1);
            let cut_short = line.len() < MAX_FRAME_LINE || written < line.len();
            if cut_short
                && frame::plausible_prefix(&line[..written])
                && self.rest_is_zeros(line.len() as u64)?
            {
                return Ok(Framed::Torn);
            }
            return Err(self.error(record, Some(at), damaged("its frame line is garbled")));
        }
        let Some(fl) = frame::parse_line(&line[..line.len() - 1]) else {
            return Err(self.error(record, Some(at), damaged("its frame line is garbled")));
        };
        let max = self.format.max_record;
        if fl.len > max {
            let problem = Problem::RecordTooLarge { limit: max };
            return Err(self.error(record, Some(at), problem));
        }
        let end = at + line.len() as u64 + fl.len;
        if end > self.limit {
            return Err(self.error(record, Some(at), Problem::TooLarge { limit: self.limit }));
        }
        let payload = self.bytes(fl.len)?;
        if (payload.len() as u64) < fl.len {
            return Ok(Framed::Torn);
        }
        if frame::body_crc(self.chain, &fl.tag, &payload) != fl.crc {
            // A payload that ends in zero bytes with nothing but zeros after it is one a
            // power loss cut (its line was written, not all of its bytes).
            let consumed = line.len() as u64 + fl.len;
            if payload.last() == Some(&0) && self.rest_is_zeros(consumed)? {
                return Ok(Framed::Torn);
            }
            let what = "its checksum does not match (changed, or moved from elsewhere)";
            return Err(self.error(record, Some(at), damaged(what)));
        }
        self.chain = fl.crc;
        self.offset = end;
        Ok(Framed::Whole(fl, payload))
    }

    /// The next record, the trailer, the end or a torn tail. Damage is an error naming the
    /// record. After `End`, `Eof` or `Torn`, further calls return the same step.
    pub(crate) fn next(&mut self) -> Result<Step, DurableError> {
        if let Some(step) = &self.ended {
            return Ok(step.clone());
        }
        let at = self.offset;
        let index = self.records + 1;
        let damaged = |what: String| Problem::Damaged { what };
        let step = match self.frame(index)? {
            Framed::End => Step::Eof,
            Framed::Torn => Step::Torn { at },
            Framed::Whole(fl, _) if fl.tag == HEAD => {
                let what = "a second header".to_owned();
                return Err(self.error(Some(index), Some(at), damaged(what)));
            }
            Framed::Whole(fl, payload) if fl.tag == END => {
                if !self.format.closed {
                    let what = format!("a trailer in a {}, which has none", self.format.noun);
                    return Err(self.error(Some(index), Some(at), damaged(what)));
                }
                let count = std::str::from_utf8(&payload)
                    .ok()
                    .and_then(|t| t.strip_suffix('\n'))
                    .and_then(frame::decimal);
                if count != Some(self.records) {
                    let what = format!(
                        "the trailer counts {} records, {} were read",
                        String::from_utf8_lossy(&payload).trim_end(),
                        self.records
                    );
                    return Err(self.error(Some(index), Some(at), damaged(what)));
                }
                if !self.bytes(1)?.is_empty() {
                    let offset = Some(self.offset);
                    return Err(self.error(None, offset, Problem::AfterTrailer));
                }
                Step::End {
                    records: self.records,
                }
            }
            Framed::Whole(fl, payload) => {
                self.records = index;
                return Ok(Step::Record(Record {
                    index,
                    offset: at,
                    tag: fl.tag,
                    payload,
                }));
            }
        };
        self.ended = Some(step.clone());
        Ok(step)
    }

    /// The next record of a closed file read whole: a record, or `None` at its (checked)
    /// trailer; a file without a trailer is [`Problem::Truncated`].
    pub(crate) fn next_strict(&mut self) -> Result<Option<Record>, DurableError> {
        match self.next()? {
            Step::Record(r) => Ok(Some(r)),
            Step::End { .. } => Ok(None),
            Step::Eof | Step::Torn { .. } => {
                Err(self.error(None, Some(self.offset), Problem::Truncated))
            }
        }
    }

    /// Bytes consumed so far (the end of the last whole frame).
    pub(crate) fn offset(&self) -> u64 {
        self.offset
    }

    /// Records read so far (header not counted).
    pub(crate) fn records(&self) -> u64 {
        self.records
    }

    /// The crc of the last whole frame (where a writer continues the chain; what a
    /// second read of a file checks it reads the same records).
    pub(crate) fn chain(&self) -> u32 {
        self.chain
    }

    /// The file (or stream) read, for reading it again from its start through the same
    /// descriptor (and lock).
    pub(crate) fn into_inner(self) -> R {
        self.inner.into_inner()
    }

    /// An error at `record` (for the caller's check of its meaning), naming this file.
    pub(crate) fn invalid(&self, record: &Record, what: impl std::fmt::Display) -> DurableError {
        let problem = Problem::Invalid {
            what: what.to_string(),
        };
        self.error(Some(record.index), Some(record.offset), problem)
    }
}

/// One frame read.
enum Framed {
    /// A whole, checked frame.
    Whole(FrameLine, Vec<u8>),
    /// The end of the file, between frames.
    End,
    /// The end of the file inside a frame.
    Torn,
}

/// The chain after the whole frames of `bytes` (for tests that forge frames).
#[cfg(test)]
pub(super) fn tests_chain_after(bytes: &[u8], format: Format) -> u32 {
    let mut r = Reader::new(bytes, Path::new("t"), format, u64::MAX);
    r.header().expect("a header");
    while let Ok(Step::Record(_)) = r.next() {}
    r.chain()
}
