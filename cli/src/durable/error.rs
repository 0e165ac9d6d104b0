//! The durable layer's one error type. Its messages name the file, and where a record is
//! at fault its number (0 is the header) and byte offset.
use std::fmt;
use std::path::PathBuf;

/// What is wrong with a durable file.
#[derive(Debug)]
#[non_exhaustive]
pub(crate) enum Problem {
    /// Reading, writing, syncing or locking failed.
    Io(std::io::Error),
    /// The file does not start with this format's magic line (or is empty where a header
    /// was expected).
    NotThisFormat,
    /// The magic line is this kind's, of another version: the line found.
    OtherVersion { found: String },
    /// The header is valid but another run's (resume): the identity found there.
    OtherRun { found: Vec<u8> },
    /// A frame or a payload is damaged: what is wrong.
    Damaged { what: String },
    /// The caller's check of a record's meaning failed.
    Invalid { what: String },
    /// The file ends before its trailer (a closed format read whole), or inside a record.
    Truncated,
    /// Bytes follow the trailer.
    AfterTrailer,
    /// The file is larger than the caller allows (`--max-memory`).
    TooLarge { limit: u64 },
    /// A record is larger than any record of this format can be (a fixed size, which no
    /// option changes).
    RecordTooLarge { limit: u64 },
    /// Another process holds the file's lock.
    Locked,
    /// `create` found a non-empty file and was told not to replace it.
    Exists,
    /// A signal arrived while the file was read (resume).
    Interrupted,
}

/// A [`Problem`] with the file it is in and, for a record, which one.
#[derive(Debug)]
pub(crate) struct DurableError {
    pub path: PathBuf,
    /// What the file is to its user (`part`, `journal`), from its format.
    pub noun: &'static str,
    /// The record at fault (0: the header frame), if one is.
    pub record: Option<u64>,
    /// The byte offset of that record's frame (or of the problem).
    pub offset: Option<u64>,
    pub problem: Problem,
}

impl DurableError {
    /// Whether the file itself is at fault (not the system, a lock or a signal): damage,
    /// another format or run, a cut, a bad record.
    #[cfg(test)]
    pub(crate) fn is_bad_file(&self) -> bool {
        !matches!(
            self.problem,
            Problem::Io(_) | Problem::Locked | Problem::Interrupted | Problem::Exists
        )
    }

    /// ` record N (byte B)` where known.
    fn place(&self) -> String {
        match (self.record, self.offset) {
            (Some(0), _) => " its header".to_owned(),
            (Some(r), Some(b)) => format!(" record {r} (at byte {b})"),
            (Some(r), None) => format!(" record {r}"),
            (None, Some(b)) => format!(" at byte {b}"),
            (None, None) => String::new(),
        }
    }
}

impl fmt::Display for DurableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (path, noun) = (self.path.display(), self.noun);
        match &self.problem {
            Problem::Io(e) => write!(f, "{path}: {e}"),
            Problem::NotThisFormat => write!(f, "{path}: not an xcover {noun} file"),
            Problem::OtherVersion { found } => write!(
                f,
                "{path}: a {noun} of another format version (`{found}`), written by another \
                 version of xcover"
            ),
            Problem::OtherRun { .. } => write!(
                f,
                "{path}: a {noun} of another run (other input, arguments or shard)"
            ),
            Problem::Damaged { what } if self.place().is_empty() => {
                write!(f, "{path}: damaged: {what}")
            }
            Problem::Damaged { what } => write!(f, "{path}:{} is damaged: {what}", self.place()),
            Problem::Invalid { what } => write!(f, "{path}:{}: {what}", self.place()),
            Problem::Truncated => write!(
                f,
                "{path}: truncated{}: it has no trailer (the run that wrote it did not finish)",
                self.place()
            ),
            Problem::AfterTrailer => write!(f, "{path}: bytes after its trailer{}", self.place()),
            Problem::TooLarge { limit } => write!(
                f,
                "{path}:{} is larger than the limit of {limit} bytes (raise it with \
                 --max-memory SIZE)",
                self.place()
            ),
            Problem::RecordTooLarge { limit } => write!(
                f,
                "{path}:{} is larger than a {noun} record can be ({limit} bytes, fixed by the \
                 format): a damaged file, or more data than the format holds",
                self.place()
            ),
            Problem::Locked => write!(
                f,
                "{path}: in use by another xcover process (it holds the file's lock)"
            ),
            Problem::Exists => write!(
                f,
                "{path}: already exists; add --resume to continue that run, or remove it"
            ),
            Problem::Interrupted => write!(f, "{path}: interrupted while reading it"),
        }
    }
}

impl std::error::Error for DurableError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // An I/O error's text is already in the message (`path: error`): it is not
        // given again as a cause, so a chain of causes prints it once.
        None
    }
}
