//! The split rule: a region that two disjoint sets meet alone is replaced by them.
use super::family::{met_once, sets_met, CellSets, Family, SetMask, MAX_REGIONS};
#[cfg(doc)]
use super::regions_can_hit;

/// A region of `regions` that two members of `family`, disjoint on live cells, each
/// meet alone (no other region): replacing the region by those two gives a packing one
/// larger. Returns the region and the two members' indices (first in order); `None` as
/// well when there are more than [`MAX_REGIONS`] regions. `cell_sets` as for
/// [`regions_can_hit`].
pub(crate) fn split_region(
    regions: &[u128],
    family: &Family<'_>,
    cell_sets: &CellSets,
) -> Option<(usize, usize, usize)> {
    let count = regions.len();
    if count > MAX_REGIONS {
        return None;
    }
    let mut met = [0 as SetMask; MAX_REGIONS];
    for k in 0..count {
        met[k] = sets_met(regions[k], cell_sets) & family.members;
    }
    let single = met_once(&met[..count]);
    for (k, &mine) in met[..count].iter().enumerate() {
        let mut firsts = mine & single;
        while firsts != 0 {
            let i = firsts.trailing_zeros() as usize;
            firsts &= firsts - 1;
            let first = family.sets[i] & family.live;
            let mut seconds = firsts;
            while seconds != 0 {
                let j = seconds.trailing_zeros() as usize;
                seconds &= seconds - 1;
                if first & family.sets[j] == 0 {
                    return Some((k, i, j));
                }
            }
        }
    }
    None
}
