//! The sets an exact test reads (a [`Family`] of at most [`MAX_SETS`], as bit masks),
//! their per-position masks ([`CellSets`]) and the mask helpers both tests share.
#[cfg(doc)]
use super::{regions_can_hit, split_region};
use crate::gridcheck::scan::bits::for_each_position;

/// Most regions [`regions_can_hit`] handles.
pub(crate) const MAX_REGIONS: usize = 8;

/// Most sets a [`Family`] holds (one bit each in a [`SetMask`]).
pub(crate) const MAX_SETS: usize = 128;

/// Sets of a [`Family`]: bit `i` for `family.sets[i]`.
pub(crate) type SetMask = u128;

/// Caller scratch of [`regions_can_hit`] and [`split_region`]: for each position, the
/// members of the family that hold it (bits of non-members are ignored, so masks of a
/// larger family serve). The entries of the regions' cells are read, and by
/// [`regions_can_hit`] those of the family's live cells (where the free clue may go);
/// the caller fills them (`fill_cell_sets`, or every position below 96 once for a
/// family and its subfamilies).
pub(crate) type CellSets = [SetMask; 128];

/// The sets the tests must see hit: `sets[i]` for each bit `i` of `members`, and only
/// their cells in `live` (the cells that can still take a clue).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Family<'a> {
    pub(super) sets: &'a [u128; MAX_SETS],
    pub(super) members: SetMask,
    pub(super) live: u128,
}

impl<'a> Family<'a> {
    /// The members `members` of `sets` (only the bits of sets that `sets` holds: the
    /// others read whatever is there), with the cells of `live`.
    #[inline]
    pub(crate) fn new(sets: &'a [u128; MAX_SETS], members: SetMask, live: u128) -> Family<'a> {
        Family {
            sets,
            members,
            live,
        }
    }
}

/// The mask of the first `count` sets (all of a [`SetMask`] from its width on).
#[inline]
pub(crate) fn first_sets(count: usize) -> SetMask {
    if count >= SetMask::BITS as usize {
        SetMask::MAX
    } else {
        (1 << count) - 1
    }
}

#[cfg(test)]
/// Writes `cell_sets[x]`, for each position `x` of `cells`: the members of `family`
/// holding `x` (a transposition; callers with per-position masks do it faster).
pub(crate) fn fill_cell_sets(cells: u128, family: &Family<'_>, cell_sets: &mut CellSets) {
    let mut rest = cells;
    while rest != 0 {
        cell_sets[rest.trailing_zeros() as usize] = 0;
        rest &= rest - 1;
    }
    let mut members = family.members;
    while members != 0 {
        let index = members.trailing_zeros() as usize;
        members &= members - 1;
        let mut inside = family.sets[index] & cells;
        while inside != 0 {
            cell_sets[inside.trailing_zeros() as usize] |= 1u128 << index;
            inside &= inside - 1;
        }
    }
}

/// The union of `masks`.
pub(super) fn union(masks: &[SetMask]) -> SetMask {
    masks.iter().fold(0, |acc, m| acc | m)
}

/// The sets in exactly one of `met`.
pub(super) fn met_once(met: &[SetMask]) -> SetMask {
    let (mut once, mut twice) = (0 as SetMask, 0 as SetMask);
    for &m in met {
        twice |= once & m;
        once |= m;
    }
    once & !twice
}

/// The sets (bits) holding some cell of `cells`.
pub(crate) fn sets_met(cells: u128, cell_sets: &CellSets) -> SetMask {
    let mut met = 0;
    for_each_position(cells, |cell| met |= cell_sets[cell]);
    met
}
