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

use super::bits::{count_ones, for_each_position};

/// Most regions [`regions_can_hit`] handles.
pub(crate) const MAX_REGIONS: usize = 8;
/// Most sets a [`Family`] holds (one bit each in a [`SetMask`]).
pub(crate) const MAX_SETS: usize = 128;
/// Search nodes [`regions_can_hit`] may visit before it gives up and answers "can hit"
/// (the safe answer: it only costs pruning). Typical searches need far fewer nodes; the
/// limit bounds the worst case without cutting the long searches, which are the ones that
/// prune (samples and the limits tried: docs/PERFORMANCE.md).
pub(crate) const NODE_LIMIT: u32 = 1 << 14;

/// Sets of a [`Family`]: bit `i` for `family.sets[i]`.
pub(crate) type SetMask = u128;

/// Caller scratch of [`regions_can_hit`] and [`split_region`]: for each position, the
/// members of the family that hold it (bits of non-members are ignored, so masks of a
/// larger family serve). The entries of positions below 96 are read (region cells, and
/// the free clue's cells when it has few); the caller fills them ([`fill_cell_sets`], or
/// once for a family and its subfamilies).
pub(crate) type CellSets = [SetMask; 128];

/// The sets the tests must see hit: `sets[i]` for each bit `i` of `members`, and only
/// their cells in `live` (the cells that can still take a clue).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Family<'a> {
    sets: &'a [u128; MAX_SETS],
    members: SetMask,
    live: u128,
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

/// True unless it is proved that no choice of one clue in each of `regions` (pairwise
/// disjoint live cells), plus one clue anywhere live when `free_clue`, hits every member
/// of `family`. `cell_sets` must hold the members at every position below 96
/// ([`fill_cell_sets`]). `regions` beyond [`MAX_REGIONS`] are not handled: the answer is
/// then true.
pub(crate) fn regions_can_hit(
    regions: &[u128],
    family: &Family<'_>,
    free_clue: bool,
    cell_sets: &CellSets,
) -> bool {
    let count = regions.len();
    if count > MAX_REGIONS {
        return true;
    }
    let members = family.members;
    let mut choices = [0u128; MAX_REGIONS];
    let mut met = [0 as SetMask; MAX_REGIONS];
    for k in 0..count {
        choices[k] = regions[k];
        met[k] = sets_met(regions[k], cell_sets) & members;
    }
    if !free_clue {
        // Only the region clues can hit a member no region meets.
        if members & !union(&met[..count]) != 0 {
            return false;
        }
        if !narrow_to_candidates(&mut choices[..count], &mut met[..count], members, cell_sets) {
            return false;
        }
    }
    let order = deciding_order(&met[..count]);
    let mut ordered = [0u128; MAX_REGIONS];
    let mut ordered_met = [0 as SetMask; MAX_REGIONS];
    for (j, &k) in order[..count].iter().enumerate() {
        ordered[j] = choices[k];
        ordered_met[j] = met[k];
    }
    let regions = &ordered[..count];
    let met = &ordered_met[..count];
    if free_clue {
        search::<true>(regions, met, family, cell_sets)
    } else {
        search::<false>(regions, met, family, cell_sets)
    }
}

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

/// The union of `masks`.
fn union(masks: &[SetMask]) -> SetMask {
    masks.iter().fold(0, |acc, m| acc | m)
}

/// The sets in exactly one of `met`.
fn met_once(met: &[SetMask]) -> SetMask {
    let (mut once, mut twice) = (0 as SetMask, 0 as SetMask);
    for &m in met {
        twice |= once & m;
        once |= m;
    }
    once & !twice
}

/// The tight case: each region takes exactly one clue and no clue goes elsewhere, so a
/// set meeting a single region must hold that region's clue. Narrows each region to the
/// cells in all such sets (and `met` to what is left), until nothing changes; false
/// when a region is left with none, or a set with no region.
fn narrow_to_candidates(
    choices: &mut [u128],
    met: &mut [SetMask],
    members: SetMask,
    cell_sets: &CellSets,
) -> bool {
    let all = union(met);
    loop {
        let single = met_once(met);
        let mut changed = false;
        for (choice, region_met) in choices.iter_mut().zip(met.iter_mut()) {
            let mine = *region_met & single;
            let mut kept = 0u128;
            let mut kept_met = 0 as SetMask;
            for_each_position(*choice, |x| {
                if cell_sets[x] & mine == mine {
                    kept |= 1u128 << x;
                    kept_met |= cell_sets[x] & members;
                }
            });
            if kept == 0 {
                return false;
            }
            if kept != *choice {
                *choice = kept;
                *region_met = kept_met;
                changed = true;
            }
        }
        if !changed {
            return true;
        }
        if union(met) != all {
            // A set no region can hit any more.
            return false;
        }
    }
}

/// Region indices in search order: each next region is the one that, with those before
/// it, decides the most sets (sets no later region can hit fail or pass at once), then
/// the one meeting the most sets: deciding sets early cuts the search (fewer nodes than
/// "most sets met first" or table order; docs/PERFORMANCE.md).
fn deciding_order(met: &[SetMask]) -> [usize; MAX_REGIONS] {
    let count = met.len();
    let mut order = [0usize; MAX_REGIONS];
    // Regions not yet placed, in index order (ties go to the first).
    let mut left = [0usize; MAX_REGIONS];
    // How many sets each region meets (the second key; counted once).
    let mut met_count = [0u32; MAX_REGIONS];
    for (k, (slot, sets)) in left.iter_mut().zip(&mut met_count).enumerate().take(count) {
        *slot = k;
        *sets = count_ones(met[k]);
    }
    for (placed, slot) in order[..count].iter_mut().enumerate() {
        let n = count - placed;
        // after[i]: the sets the regions left[i..] meet.
        let mut after = [0 as SetMask; MAX_REGIONS + 1];
        for i in (0..n).rev() {
            after[i] = after[i + 1] | met[left[i]];
        }
        let mut before = 0 as SetMask;
        let mut best = 0;
        let mut best_score = (0, 0);
        for i in 0..n {
            let mine = met[left[i]];
            // The sets only this region can still hit: placed next, it decides them.
            let score = (
                count_ones(mine & !(before | after[i + 1])),
                met_count[left[i]],
            );
            if i == 0 || score > best_score {
                best = i;
                best_score = score;
            }
            before |= mine;
        }
        *slot = left[best];
        left.copy_within(best + 1..n, best);
    }
    order
}

/// The sets (bits) holding some cell of `cells`.
pub(crate) fn sets_met(cells: u128, cell_sets: &CellSets) -> SetMask {
    let mut met = 0;
    for_each_position(cells, |cell| met |= cell_sets[cell]);
    met
}

/// `free` (where the free clue can go) narrowed to the cells in every set of `fresh`;
/// stops early at none. (One 64-bit half of `fresh` at a time: a `u128` bit loop costs
/// more per set.)
#[inline(always)]
fn fold_free(mut free: u128, fresh: SetMask, sets: &[u128; MAX_SETS]) -> u128 {
    let mut low = fresh as u64;
    while low != 0 {
        free &= sets[low.trailing_zeros() as usize & 63];
        if free == 0 {
            return 0;
        }
        low &= low - 1;
    }
    let mut high = (fresh >> 64) as u64;
    while high != 0 {
        free &= sets[64 | (high.trailing_zeros() as usize & 63)];
        if free == 0 {
            return 0;
        }
        high &= high - 1;
    }
    free
}

/// The cells in every set of `strand` that has none of the free clue's cells `free`
/// (every set of `strand` without `FREE_CLUE`): the level's clue must hit those, or the
/// fold of its node comes to nothing. Narrowing the level's cells to them at its entry
/// saves those nodes (most of them fail on such a set, by the first fold). When `free`
/// has at most [`FEW_FREE`] cells (below position 96, where `cell_sets` is complete),
/// the sets meeting them come from their `cell_sets`; otherwise each set is tested.
#[inline(always)]
fn must_hit<const FREE_CLUE: bool>(
    strand: SetMask,
    free: u128,
    sets: &[u128; MAX_SETS],
    cell_sets: &CellSets,
) -> u128 {
    let mut missing = strand;
    let mut branch_free = true;
    if FREE_CLUE {
        // The free cells, up to FEW_FREE of them, one 64-bit half at a time (cheaper
        // per cell than a `u128` bit loop, whose every step works on both halves).
        let mut meeting = 0 as SetMask;
        let mut budget = FEW_FREE;
        let mut few = free >> 96 == 0;
        for (half, base) in [(free as u64, 0), ((free >> 64) as u64, 64)] {
            let mut bits = half;
            while bits != 0 && budget != 0 {
                meeting |= cell_sets[base | (bits.trailing_zeros() as usize & 63)];
                bits &= bits - 1;
                budget -= 1;
            }
            few &= bits == 0;
        }
        if few {
            missing &= !meeting;
        } else {
            branch_free = false;
        }
    }
    let mut cells = u128::MAX;
    for (half, base) in [(missing as u64, 0), ((missing >> 64) as u64, 64)] {
        let mut bits = half;
        while bits != 0 {
            let set = sets[base | (bits.trailing_zeros() as usize & 63)];
            bits &= bits - 1;
            if branch_free {
                cells &= set;
            } else {
                // Branch free: the set when it misses `free`, else no constraint.
                let meets = u128::from(set & free != 0).wrapping_neg();
                cells &= set | meets;
            }
        }
    }
    cells
}

/// Most cells of the free clue for which [`must_hit`] reads their `cell_sets`.
const FEW_FREE: usize = 8;

/// Depth-first search over `regions` in order (`met`: the sets each can hit), one clue each,
/// with an explicit stack, plus one free clue anywhere when `FREE_CLUE`. A set that no
/// region at or below the current level can hit must take the free clue, so the free
/// clue's possible cells shrink to those in it: none left (or any such set without a
/// free clue) fails the branch. True at the first complete choice, or when [`NODE_LIMIT`]
/// is reached.
fn search<const FREE_CLUE: bool>(
    regions: &[u128],
    met: &[SetMask],
    family: &Family<'_>,
    cell_sets: &CellSets,
) -> bool {
    let count = regions.len().min(MAX_REGIONS);
    let sets = family.sets;
    // reach[j]: sets some region j.. can hit; stranded[j]: those region j - 1 is the last
    // to reach (they must be hit once level j is entered).
    let mut reach = [0 as SetMask; MAX_REGIONS + 1];
    for j in (0..count).rev() {
        reach[j] = reach[j + 1] | met[j];
    }
    let orphans = family.members & !reach[0];
    let mut free = family.live;
    if orphans != 0 {
        free = fold_free(free, orphans, sets);
        if !FREE_CLUE || free == 0 {
            return false;
        }
    }
    if count == 0 {
        return true;
    }
    // Per level (indices masked to the arrays' length: no bounds checks in the loop):
    // the region, and the sets it is the last to reach (they must be hit once its
    // clue is placed).
    let mut region = [0u128; MAX_REGIONS];
    let mut stranded = [0 as SetMask; MAX_REGIONS];
    for j in 0..count {
        region[j] = regions[j];
        stranded[j] = reach[j] & !reach[j + 1];
    }
    // Per level: cells still to try, sets unhit by the clues above, free clue's cells.
    let mut todo = [0u128; MAX_REGIONS];
    let mut unhit = [0 as SetMask; MAX_REGIONS];
    let mut free_at = [0u128; MAX_REGIONS];
    todo[0] =
        region[0] & must_hit::<FREE_CLUE>(family.members & stranded[0], free, sets, cell_sets);
    unhit[0] = family.members;
    free_at[0] = free;
    let last = count - 1;
    let mut level = 0usize;
    let mut nodes = 0u32;
    loop {
        let at = level & (MAX_REGIONS - 1);
        let cells = todo[at];
        if cells == 0 {
            if level == 0 {
                return false;
            }
            level -= 1;
            continue;
        }
        // The lowest cell, from the low half when it has one (most cells lie there):
        // cheaper than the `u128` forms of `trailing_zeros` and `x & (x - 1)`. It leaves
        // this level's free clue cells as well, for this node and its later siblings:
        // with the region's clue on a later sibling `y` and the free clue on `cell`, the
        // clues are the same as with the region's clue on `cell` and the free clue on
        // `y`, which this node's subtree rules in or out. (On `cell` itself, the free
        // clue would hit nothing the region's clue does not.)
        let low = cells as u64;
        let cell = if low != 0 {
            let bit = u128::from(low & low.wrapping_neg());
            todo[at] = cells & !bit;
            free_at[at] &= !bit;
            low.trailing_zeros() as usize
        } else {
            let high = (cells >> 64) as u64;
            let bit = high & high.wrapping_neg();
            todo[at] = u128::from(high & !bit) << 64;
            free_at[at] &= !(u128::from(bit) << 64);
            64 | high.trailing_zeros() as usize
        };
        nodes += 1;
        if nodes > NODE_LIMIT {
            return true;
        }
        let left = unhit[at] & !cell_sets[cell & 127];
        let fresh = left & stranded[at];
        let mut free = free_at[at];
        if fresh != 0 {
            if !FREE_CLUE {
                continue;
            }
            free = fold_free(free, fresh, sets);
            if free == 0 {
                continue;
            }
        }
        if level == last {
            return true;
        }
        let next = (level + 1) & (MAX_REGIONS - 1);
        let cells =
            region[next] & must_hit::<FREE_CLUE>(left & stranded[next], free, sets, cell_sets);
        // No cell for the next level: try this level's next cell at once, without
        // entering the next level and leaving it again.
        if cells == 0 {
            continue;
        }
        level += 1;
        todo[next] = cells;
        unhit[next] = left;
        free_at[next] = free;
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use std::vec::Vec;

    /// Brute force: some choice of one cell per region (plus a free cell when
    /// `free_clue`) hits every set (also the oracle of the probe's tests).
    pub(in crate::gridcheck::scan) fn brute(
        regions: &[u128],
        sets: &[u128],
        free_clue: bool,
    ) -> bool {
        match regions.split_first() {
            None => {
                if free_clue {
                    sets.iter().fold(u128::MAX, |acc, &s| acc & s) != 0
                } else {
                    sets.is_empty()
                }
            }
            Some((&first, rest)) => {
                let mut cells = first;
                while cells != 0 {
                    let bit = cells & cells.wrapping_neg();
                    cells &= cells - 1;
                    let left: Vec<u128> = sets.iter().copied().filter(|&s| s & bit == 0).collect();
                    if brute(rest, &left, free_clue) {
                        return true;
                    }
                }
                false
            }
        }
    }

    /// Linear congruential generator for the test data (also the probe's tests).
    pub(in crate::gridcheck::scan) fn lcg(seed: u64) -> impl FnMut() -> u64 {
        let mut state = seed;
        move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state >> 33
        }
    }

    /// `sets` (at most [`MAX_SETS`]) in a family's array, and the mask of its members.
    fn padded(sets: &[u128]) -> ([u128; MAX_SETS], SetMask) {
        let mut array = [0; MAX_SETS];
        array[..sets.len()].copy_from_slice(sets);
        (array, first_sets(sets.len()))
    }

    /// [`regions_can_hit`] on a plain list of sets (all live).
    fn can_hit(regions: &[u128], sets: &[u128], free_clue: bool, cell_sets: &mut CellSets) -> bool {
        let (sets, members) = padded(sets);
        let family = Family::new(&sets, members, u128::MAX);
        fill_cell_sets(u128::MAX, &family, cell_sets);
        regions_can_hit(regions, &family, free_clue, cell_sets)
    }

    /// [`split_region`] on a plain list of sets (all live).
    fn split(regions: &[u128], sets: &[u128]) -> Option<(usize, usize, usize)> {
        let (sets, members) = padded(sets);
        let family = Family::new(&sets, members, u128::MAX);
        let cells = regions.iter().fold(0, |acc, r| acc | r);
        let mut cell_sets = [0; 128];
        fill_cell_sets(cells, &family, &mut cell_sets);
        split_region(regions, &family, &cell_sets)
    }

    #[test]
    fn examples() {
        let mut scratch = [0; 128];
        // Three sets meeting pairwise with no common cell: one clue cannot hit them all...
        let (a, b, c) = (0b0011u128, 0b0110, 0b0101);
        assert!(!can_hit(&[a], &[b, c], false, &mut scratch));
        // ... two can (the free clue takes the third).
        assert!(can_hit(&[a], &[b, c], true, &mut scratch));
        // With a common cell one clue can.
        assert!(can_hit(&[0b0111], &[0b0011, 0b0101], false, &mut scratch));
        // A set outside every region needs the free clue.
        assert!(!can_hit(&[0b0011], &[0b1100], false, &mut scratch));
        assert!(can_hit(&[0b0011], &[0b1100], true, &mut scratch));
        // Two sets outside the regions with no common cell: one free clue is not enough.
        assert!(!can_hit(&[0b0011], &[0b0100, 0b1000], true, &mut scratch));
        // Two regions; a set across both is hit by the candidates of either.
        let regions = [0b0000_0011u128, 0b0011_0000];
        assert!(can_hit(
            &regions,
            &[0b0001, 0b0010_0010],
            false,
            &mut scratch
        ));
        // ... but not when the sets private to each region leave candidates it misses.
        let sets = [0b0001, 0b0010_0000, 0b0001_0010];
        assert!(!can_hit(&regions, &sets, false, &mut scratch));
        assert!(can_hit(&regions, &sets, true, &mut scratch));
        // The free clue beside a region's clue, in the same region: the search takes a
        // tried cell out of the free clue's cells, and still finds these.
        let regions = [0b0011u128, 0b1100];
        assert!(can_hit(
            &regions,
            &[0b0001, 0b0010, 0b1100],
            true,
            &mut scratch
        ));
        assert!(!can_hit(
            &regions,
            &[0b0001, 0b0010, 0b1100],
            false,
            &mut scratch
        ));
        let regions = [0b00_0011u128, 0b00_1100, 0b11_0000];
        let sets = [0b00_0001, 0b00_0010, 0b00_0100, 0b01_0000];
        assert!(can_hit(&regions, &sets, true, &mut scratch));
        assert!(can_hit(&regions, &sets[1..], false, &mut scratch));
        let sets = [0b00_0001, 0b00_0010, 0b00_0100, 0b00_1000, 0b01_0000];
        assert!(!can_hit(&regions, &sets, true, &mut scratch));
        // No regions: the sets need a common cell for the free clue, or must be none.
        assert!(can_hit(&[], &[], false, &mut scratch));
        assert!(!can_hit(&[], &[0b1], false, &mut scratch));
        assert!(can_hit(&[], &[0b11, 0b10], true, &mut scratch));
    }

    #[test]
    fn split_region_finds_two_disjoint_private_sets() {
        let regions = [0b0000_1111u128, 0b1111_0000];
        // Private to region 0 but overlapping: no split.
        assert_eq!(split(&regions, &[0b0011, 0b0110]), None);
        // Disjoint but one meets both regions: no split.
        assert_eq!(split(&regions, &[0b0011, 0b0001_0100]), None);
        // Two disjoint sets private to region 1 (with cells outside both regions).
        let sets = [0b0011, 0b1_0001_0000_0000, 0b0010_0000_0000, 0b0010_0000];
        assert_eq!(split(&regions, &sets), None);
        let sets = [0b0011, 0b1_0001_0000, 0b10_0010_0000];
        assert_eq!(split(&regions, &sets), Some((1, 1, 2)));
        // More regions than handled: no answer.
        let many: Vec<u128> = (0..=MAX_REGIONS).map(|k| 0b11u128 << (2 * k)).collect();
        assert_eq!(split(&many, &[0b01, 0b10]), None);
        assert_eq!(split(&many[..MAX_REGIONS], &[0b01, 0b10]), Some((0, 0, 1)));
        // Random instances: every answer checks out, and a None means no such pair.
        let mut rng = lcg(5);
        let mut found = 0;
        for _ in 0..2000 {
            let regions: Vec<u128> = (0..1 + rng() % 4).map(|k| 0b111u128 << (3 * k)).collect();
            let sets: Vec<u128> = (0..rng() % 12)
                .map(|_| (0..2).fold(0u128, |acc, _| acc | 1u128 << (rng() % 16)))
                .collect();
            let alone = |set: u128| {
                let met: Vec<usize> = (0..regions.len())
                    .filter(|&k| set & regions[k] != 0)
                    .collect();
                (met.len() == 1).then(|| met[0])
            };
            let pair = (0..sets.len()).find_map(|i| {
                (i + 1..sets.len()).find_map(|j| {
                    let k = alone(sets[i])?;
                    (alone(sets[j]) == Some(k) && sets[i] & sets[j] == 0).then_some((k, i, j))
                })
            });
            let got = split(&regions, &sets);
            assert_eq!(got.is_some(), pair.is_some());
            if let Some((k, i, j)) = got {
                found += 1;
                assert!(i < j && sets[i] & sets[j] == 0);
                assert_eq!((alone(sets[i]), alone(sets[j])), (Some(k), Some(k)));
            }
        }
        assert!(found > 100, "found {found}");
    }

    /// Agrees with the brute force on random small instances, both ways, and both answers
    /// occur.
    #[test]
    fn matches_brute_force() {
        let mut rng = lcg(11);
        let mut scratch = [0; 128];
        let (mut yes, mut no) = (0, 0);
        for round in 0..3000 {
            let universe = 12 + (round % 30) as u64;
            let count = 1 + (rng() % 6) as usize;
            // Disjoint regions of 1..4 cells from a shuffled universe.
            let mut cells: Vec<u64> = (0..universe).collect();
            for i in (1..cells.len()).rev() {
                cells.swap(i, (rng() % (i as u64 + 1)) as usize);
            }
            let mut regions = Vec::new();
            let mut next = cells.into_iter();
            for _ in 0..count {
                let size = 1 + rng() % 4;
                let region = (0..size)
                    .filter_map(|_| next.next())
                    .fold(0u128, |acc, c| acc | 1u128 << c);
                if region != 0 {
                    regions.push(region);
                }
            }
            let sets: Vec<u128> = (0..(rng() % 40) as usize)
                .map(|_| {
                    let size = 2 + rng() % 4;
                    (0..size).fold(0u128, |acc, _| acc | 1u128 << (rng() % universe))
                })
                .collect();
            let free_clue = round % 2 == 1;
            let expect = brute(&regions, &sets, free_clue);
            assert_eq!(
                can_hit(&regions, &sets, free_clue, &mut scratch),
                expect,
                "round {round}"
            );
            if expect {
                yes += 1;
            } else {
                no += 1;
            }
        }
        assert!(yes > 300 && no > 300, "yes {yes} no {no}");
    }
}
