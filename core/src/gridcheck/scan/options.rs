//! What a scan looks for: clue count, clue mask, stop-at-first, minimal-only, truncation.
use super::error::ScanError;
use super::mask::ClueMask;
use crate::gridcheck::cells::CELL_COUNT;

/// How many unavoidable sets a scan keeps: the `total` smallest. The enumeration loads
/// at most [`super::TABLE_CAPACITY`] of them into its table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TruncationLimits {
    /// Cap on the kept list.
    pub total: usize,
}

impl TruncationLimits {
    /// The default: as many as the enumeration's table holds.
    pub const DEFAULT: TruncationLimits = TruncationLimits {
        total: super::table::CAPACITY,
    };
}

/// Options of one scan.
///
/// ```
/// use xcover_core::gridcheck::scan::{ScanOptions, TruncationLimits, TABLE_CAPACITY};
///
/// let mut options = ScanOptions::new(17);
/// options.minimal_only = true;
/// assert_eq!(options.truncation_limits().total, TABLE_CAPACITY);
/// options.truncation = Some(TruncationLimits { total: 300 });
/// assert_eq!(options.truncation_limits(), TruncationLimits { total: 300 });
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ScanOptions {
    /// N: clues of every reported puzzle (forced givens included).
    pub clues: u8,
    /// Forced givens / forced empty cells.
    pub mask: ClueMask,
    /// Stop the run at the first puzzle found.
    pub stop_at_first: bool,
    /// Report only minimal puzzles (every one-clue removal has several solutions).
    pub minimal_only: bool,
    /// Truncation of the UA list; `None` is [`TruncationLimits::DEFAULT`].
    pub truncation: Option<TruncationLimits>,
}

impl ScanOptions {
    /// A whole-grid scan for `clues`-clue puzzles, everything else off.
    pub const fn new(clues: u8) -> ScanOptions {
        ScanOptions {
            clues,
            mask: ClueMask::FREE,
            stop_at_first: false,
            minimal_only: false,
            truncation: None,
        }
    }

    /// A whole-grid scan for `clues`-clue puzzles, if `clues` is in 1..=81 (the clue-count
    /// half of [`ScanOptions::check`], for a count not yet narrowed to `u8`).
    pub const fn for_clues(clues: u32) -> Result<ScanOptions, ScanError> {
        if clues == 0 || clues > CELL_COUNT as u32 {
            return Err(ScanError::BadClueCount { clues });
        }
        Ok(ScanOptions::new(clues as u8))
    }

    /// The rule every scan's options keep: 1..=81 clues, and a mask that forces no more
    /// givens than the clue count. `prepare` checks it; front ends check it when
    /// the options are set, to refuse them at once.
    ///
    /// ```
    /// use xcover_core::gridcheck::scan::{ClueMask, ScanError, ScanOptions};
    ///
    /// assert_eq!(
    ///     ScanOptions::for_clues(82),
    ///     Err(ScanError::BadClueCount { clues: 82 })
    /// );
    /// let mut options = ScanOptions::for_clues(1)?;
    /// options.mask = ClueMask::parse(b"11")?;
    /// assert_eq!(
    ///     options.check(),
    ///     Err(ScanError::TooManyForcedGivens { forced: 2, clues: 1 })
    /// );
    /// # Ok::<(), ScanError>(())
    /// ```
    pub const fn check(&self) -> Result<(), ScanError> {
        if let Err(e) = ScanOptions::for_clues(self.clues as u32) {
            return Err(e);
        }
        let forced = self.mask.givens.len();
        if forced > self.clues as u32 {
            return Err(ScanError::TooManyForcedGivens {
                forced,
                clues: self.clues as u32,
            });
        }
        Ok(())
    }

    /// The truncation limits in force.
    pub fn truncation_limits(&self) -> TruncationLimits {
        self.truncation.unwrap_or(TruncationLimits::DEFAULT)
    }
}
