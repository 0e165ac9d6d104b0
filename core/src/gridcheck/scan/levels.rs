//! The enumeration's depths: the frames of a run and the levels whose children are probed.
use crate::gridcheck::cells::CELL_COUNT;

/// Children with at most this many clues left are probed first (packing bound and exact
/// test, `HitTable::probe`). With the branch sets of [`HitTable::branch_set`] it pays up
/// to 12, which in a 16-clue whole-grid scan is every level below the chunk levels;
/// deeper probing gains nothing there (docs/PERFORMANCE.md).
///
/// [`HitTable::branch_set`]: super::table::HitTable::branch_set
pub(crate) const PACKING_LEVELS: usize = 12;

/// The same for the children placed by the general loop (the chunk levels, where a masked
/// scan's few free clues reach the probed levels; a whole-grid scan has more clues left
/// there): each chunk prepares these probes anew, so probing more levels there costs the
/// masked scans more than it saves (docs/PERFORMANCE.md).
pub(super) const CHUNK_PACKING_LEVELS: usize = 7;

/// Frames of a run: one per clue (at most one per cell), and the root's.
pub(super) const MAX_FRAMES: usize = CELL_COUNT + 1;
