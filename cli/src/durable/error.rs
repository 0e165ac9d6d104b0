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
    /// The magic line is this kind's, of another version.
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
    /// A payload or the file is larger than the format or the caller allows.
    TooLarge { limit: u64 },
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
    /// The record at fault (0: the header frame), if one is.
    pub record: Option<u64>,
    /// The byte offset of that record's frame (or of the problem).
    pub offset: Option<u64>,
    pub problem: Problem,
}

impl fmt::Display for DurableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        todo!("message naming the file, the record and the offset")
    }
}

impl std::error::Error for DurableError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.problem {
            Problem::Io(e) => Some(e),
            _ => None,
        }
    }
}
