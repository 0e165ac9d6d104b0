//! What a scan looks for: clue count, clue mask, stop-at-first, minimal-only, truncation.
use super::mask::ClueMask;

/// How many unavoidable sets the enumeration keeps (section "truncation" of the note):
/// every set of size <= S where S is the largest size with at most `small` sets that small,
/// then larger sets from the head of the scan order up to `total` in all.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TruncationLimits {
    /// Cap on the "all small sets" part.
    pub small: usize,
    /// Cap on the whole kept list.
    pub total: usize,
}

impl TruncationLimits {
    /// Limits for a whole-grid scan (1500 / 2000, as the reference tool).
    pub const WHOLE_GRID: TruncationLimits = TruncationLimits {
        small: 1500,
        total: 2000,
    };
    /// Limits for a masked scan (3000 / 4000, as the reference tool).
    pub const MASKED: TruncationLimits = TruncationLimits {
        small: 3000,
        total: 4000,
    };
}

/// Options of one scan.
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
    /// Truncation of the UA list; `None` picks [`TruncationLimits::WHOLE_GRID`] or
    /// [`TruncationLimits::MASKED`] from the mask.
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

    /// The truncation limits in force.
    pub fn truncation_limits(&self) -> TruncationLimits {
        match self.truncation {
            Some(t) => t,
            None if self.mask.is_free() => TruncationLimits::WHOLE_GRID,
            None => TruncationLimits::MASKED,
        }
    }
}
