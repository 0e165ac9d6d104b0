//! The sizes of the bitmap table and the bounds of its probes and branch rules.
#[cfg(doc)]
use super::{fewest_live, BitmapTable, HitTable};
use crate::gridcheck::scan::region_fit;
#[cfg(doc)]
use crate::gridcheck::scan::TruncationLimits;

/// Capacity in sets.
pub(crate) const CAPACITY: usize = 768;
/// 64-bit words per state.
pub(crate) const WORDS: usize = CAPACITY / 64;

/// Most UA a run loads into its [`BitmapTable`] (the head of the kept
/// list): the default of [`TruncationLimits`].
///
/// ```
/// use xcover_core::gridcheck::scan::{TruncationLimits, TABLE_CAPACITY};
///
/// assert_eq!(TruncationLimits::DEFAULT.total, TABLE_CAPACITY);
/// ```
pub const TABLE_CAPACITY: usize = CAPACITY;

/// family, only the first [`NARROW_PROBE_WORDS`] words of the state.
pub(crate) const NARROW_PROBE_CLUES: usize = 3;
/// Words (64 sets each) a narrow probe reads beyond the family: the 256 smallest sets.
pub(crate) const NARROW_PROBE_WORDS: usize = 4;
/// Live-size classes of the family's packing order ([`HitTable::prepare_probes`]):
/// sets of this many live cells or more share the last class.
pub(crate) const SIZE_CLASSES: usize = 32;
/// Most regions the exact test of [`HitTable::probe`] handles.
pub(crate) const TIGHT_REGIONS: usize = region_fit::MAX_REGIONS;
/// Sets the packing (first, by live size) and the exact test of [`HitTable::probe`]
/// read: the first this many unhit sets of the parent state
/// ([`HitTable::prepare_probes`]), less those the placed clue hits. 128 sets (one
/// `u128` mask) prune more than 64 for their cost (docs/PERFORMANCE.md).
pub(crate) const TIGHT_SETS: usize = region_fit::MAX_SETS;

/// Siblings (the positions a parent tries after a child, outside the exact test's
/// regions) the exact test of [`HitTable::probe_with_siblings`] covers: it first reads
/// the members none of them holds, so that a failure rules them out as well. Covering
/// more makes that test longer, and since the branch sets (tenth pass) one prunes
/// more per instruction than two (the measurements: docs/PERFORMANCE.md, twelfth pass).
/// The last two siblings are covered together (thirteenth pass).
pub(crate) const COVERED_SIBLINGS: usize = 1;

/// Unhit sets (the first in table order, the head among them) [`fewest_live`] chooses
/// the branch set of the chunk levels from: the small sets are the likely ones, and
/// reading them all costs more than the smaller tree saves (docs/PERFORMANCE.md). The
/// chunks are this rule's subtrees, so changing it changes every chunk.
pub(crate) const BRANCH_CANDIDATES: usize = 64;

/// Unhit sets (the first in table order, the head among them) [`HitTable::branch_set`]
/// scores below the chunk levels; a power of two at most 64 (a `u64` of candidates,
/// indices masked with it). Scoring 64 leaves 1–8 % fewer placements than 32, but the
/// score's cost grows with the square of the candidates, and 32 takes less time in all
/// (docs/PERFORMANCE.md, twelfth pass).
pub(crate) const BRANCH_SCORED: usize = 32;
