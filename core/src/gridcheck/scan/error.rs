//! The one error type of the scan module.
use core::fmt;

/// Why a scan could not be prepared or run. A scan that is possible but finds nothing is
/// not an error (see `Prepared::impossible`).
///
/// ```
/// use xcover_core::gridcheck::scan::{ClueMask, ScanError};
///
/// let err = ClueMask::parse(&[b'.'; 82]).unwrap_err();
/// assert_eq!(err, ScanError::MaskTooLong { len: 82 });
/// let _: &dyn core::error::Error = &err;
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ScanError {
    /// The clue mask has more than 81 characters (after trimming the line end).
    MaskTooLong {
        /// Number of characters given.
        len: usize,
    },
    /// The clue count is outside 1..=81.
    BadClueCount {
        /// The count asked for.
        clues: u32,
    },
    /// The mask itself forces more givens than the clue count allows.
    TooManyForcedGivens {
        /// Givens forced by the mask (`1` characters).
        forced: u32,
        /// The clue count asked for.
        clues: u32,
    },
    /// An unavoidable set in the input list is empty (no cell), so it cannot be real.
    EmptyUa {
        /// Index of the set in the input list.
        index: usize,
    },
    /// Caller storage is too small.
    StorageTooSmall {
        /// Which buffer.
        what: &'static str,
        /// Entries needed.
        needed: usize,
        /// Entries given.
        given: usize,
    },
    /// A chunk id that does not belong to this prepared scan.
    BadChunk,
}

impl fmt::Display for ScanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ScanError::MaskTooLong { len } => {
                write!(f, "clue mask has {len} characters, at most 81 allowed")
            }
            ScanError::BadClueCount { clues } => {
                write!(f, "clue count {clues} is out of range 1..=81")
            }
            ScanError::TooManyForcedGivens { forced, clues } => write!(
                f,
                "clue mask forces {forced} givens but the clue count is only {clues}"
            ),
            ScanError::EmptyUa { index } => {
                write!(
                    f,
                    "unavoidable set #{index} is empty, so it is not a real UA"
                )
            }
            ScanError::StorageTooSmall {
                what,
                needed,
                given,
            } => write!(
                f,
                "scan storage `{what}` too small: {needed} entries needed, {given} given"
            ),
            ScanError::BadChunk => write!(f, "chunk id does not belong to this scan"),
        }
    }
}

impl core::error::Error for ScanError {}
