//! The exact test behind a tight or nearly tight packing, for
//! [`super::table::HitTable::probe`].
//!
//! When the probe's greedy packing finds `m` unhit sets pairwise disjoint on their live
//! cells (the *regions*), every completion puts at least one clue in each region. With
//! exactly `m` clues left that is one clue per region and none elsewhere; with `m + 1`
//! left it is one clue per region plus one *free* clue anywhere (a second clue in a region
//! or a clue outside them all). Either way, the child survives only if such clues can hit
//! every other unhit set. [`regions_can_hit`] answers that exactly for the sets it is given
//! (a [`Family`] of at most 128, as bit masks), with a small depth-first search over the
//! regions: a "no" proves that the child needs more clues than are left. The search reads
//! per-position masks of the family ([`CellSets`]), which the probe builds once per parent
//! state for all its children (one bit-matrix transposition, [`super::transpose`]): a
//! child's family is its parent's less the sets its clue hits. With two clues to spare,
//! [`split_region`] first looks for a region that two disjoint sets meet alone: those two
//! replace it, and the larger packing leaves one clue to spare. (How much this prunes:
//! docs/PERFORMANCE.md.)

mod family;
mod search;
mod split;
#[cfg(test)]
pub(super) mod tests;

#[cfg(test)]
pub(crate) use family::fill_cell_sets;
pub(crate) use family::{first_sets, sets_met, CellSets, Family, SetMask, MAX_REGIONS, MAX_SETS};
pub(crate) use search::regions_can_hit;
pub(crate) use split::split_region;
