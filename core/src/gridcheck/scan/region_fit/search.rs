//! The exact test: a depth-first search over one clue per region (and a free clue).
use super::family::{met_once, sets_met, union, CellSets, Family, SetMask, MAX_REGIONS, MAX_SETS};
use crate::gridcheck::scan::bits::{count_ones, for_each_position};

/// Search nodes [`regions_can_hit`] may visit before it gives up and answers "can hit"
/// (the safe answer: it only costs pruning). Typical searches need far fewer nodes; the
/// limit bounds the worst case without cutting the long searches, which are the ones that
/// prune (samples and the limits tried: docs/PERFORMANCE.md).
pub(crate) const NODE_LIMIT: u32 = 1 << 14;

/// True unless it is proved that no choice of one clue in each of `regions` (pairwise
/// disjoint live cells), plus one clue anywhere live when `free_clue`, hits every member
/// of `family`. `cell_sets` must hold the members at the regions' cells and at the
/// family's live cells (`fill_cell_sets`). `regions` beyond [`MAX_REGIONS`] are not
/// handled: the answer is then true.
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
    search(regions, met, family, free_clue, cell_sets)
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

/// Most cells of the first level that [`search`] puts in order.
const ORDERED_CELLS: usize = 32;

/// Writes the cells of `cells` to `order` as the first level tries them with a free
/// clue: the cells holding the most members of the family first, the lowest position
/// first among equals. Each cell tried leaves the free clue's cells for its later
/// siblings (the rule in [`search`]): the cells that hit the most sets, tried first,
/// take the most out of their siblings' free clue (3.5 % fewer nodes;
/// docs/PERFORMANCE.md). Returns how many cells it wrote; 0 when there are more than
/// [`ORDERED_CELLS`] (or none). Not inlined: inlined, it costs the search loop more
/// instructions than the nodes it saves.
#[inline(never)]
fn most_sets_first(
    cells: u128,
    members: SetMask,
    cell_sets: &CellSets,
    order: &mut [u8; ORDERED_CELLS],
) -> usize {
    let mut keys = [0u32; ORDERED_CELLS];
    let mut count = 0;
    let mut fits = true;
    for_each_position(cells, |cell| {
        if count == ORDERED_CELLS {
            fits = false;
            return;
        }
        // Insertion: the cells with fewer sets move up one place.
        let key = count_ones(cell_sets[cell] & members);
        let mut at = count;
        while at > 0 && keys[at - 1] < key {
            keys[at] = keys[at - 1];
            order[at] = order[at - 1];
            at -= 1;
        }
        keys[at] = key;
        order[at] = cell as u8;
        count += 1;
    });
    if fits {
        count
    } else {
        0
    }
}

/// `free` (where the free clue can go, or a region's cells in [`must_hit`]) narrowed to
/// the cells in every set of `fresh`; stops early at none. (One 64-bit half of `fresh` at
/// a time: a `u128` bit loop costs more per set.)
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

/// The cells of `region` in every set of `strand` that has none of the free clue's cells
/// `free` (every set of `strand` when `free` is empty, without a free clue): the level's
/// clue must hit those, or the fold of its node comes to nothing. Narrowing the level's
/// cells to them at its entry saves those nodes (most of them fail on such a set, by the
/// first fold). Most calls find no cell (the node is then a leaf), so each set is read
/// against the region and the free cells at once, and the reading stops at the first set
/// that leaves the region no cell: cheaper than first gathering the sets that meet the
/// free cells from their `cell_sets`, unless the free clue has at most [`FEW_FREE`]
/// cells (most calls have few: the folds above narrow it), or none (docs/PERFORMANCE.md).
#[inline(always)]
fn must_hit(
    region: u128,
    strand: SetMask,
    free: u128,
    sets: &[u128; MAX_SETS],
    cell_sets: &CellSets,
) -> u128 {
    if let Some(meets) = sets_at_few(free, cell_sets) {
        return fold_free(region, strand & !meets, sets);
    }
    let mut cells = region;
    for (half, base) in [(strand as u64, 0), ((strand >> 64) as u64, 64)] {
        let mut bits = half;
        while bits != 0 {
            let set = sets[base | (bits.trailing_zeros() as usize & 63)];
            bits &= bits - 1;
            if set & free == 0 {
                cells &= set;
                if cells == 0 {
                    return 0;
                }
            }
        }
    }
    cells
}

/// Most free cells [`sets_at_few`] reads.
const FEW_FREE: usize = 1;

/// The members at some cell of `free` (`cell_sets` per position), when `free` has at most
/// [`FEW_FREE`] cells; `None` when it has more.
#[inline(always)]
fn sets_at_few(free: u128, cell_sets: &CellSets) -> Option<SetMask> {
    let mut meets = 0 as SetMask;
    let mut left = FEW_FREE;
    for (half, base) in [(free as u64, 0), ((free >> 64) as u64, 64)] {
        let mut bits = half;
        while bits != 0 {
            if left == 0 {
                return None;
            }
            left -= 1;
            meets |= cell_sets[base | (bits.trailing_zeros() as usize & 63)];
            bits &= bits - 1;
        }
    }
    Some(meets)
}

/// Depth-first search over `regions` in order (`met`: the sets each can hit), one clue each,
/// with an explicit stack, plus one free clue anywhere when `free_clue`. A set that no
/// region at or below the current level can hit must take the free clue, so the free
/// clue's possible cells shrink to those in it: none left fails the branch. Without a
/// free clue its cells start empty, so any such set fails at once: one search serves
/// both cases (a second copy for the tight case costs the browser's module more than its
/// instructions save; docs/PERFORMANCE.md). True at the first complete choice, or when
/// [`NODE_LIMIT`] is reached. With a free clue the first level tries its cells in
/// [`most_sets_first`]'s order, the other levels lowest position first.
fn search(
    regions: &[u128],
    met: &[SetMask],
    family: &Family<'_>,
    free_clue: bool,
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
    let mut free = if free_clue { family.live } else { 0 };
    if orphans != 0 {
        free = fold_free(free, orphans, sets);
        if free == 0 {
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
    todo[0] = must_hit(
        region[0],
        family.members & stranded[0],
        free,
        sets,
        cell_sets,
    );
    // With a free clue, the first level's cells one at a time, in `first`'s order (none
    // there when it has too many: then in the positions' order, all at once). The rule
    // that takes a tried cell out of the free clue's cells holds for any order tried.
    let mut first = [0u8; ORDERED_CELLS];
    let mut first_count = 0;
    if free_clue {
        first_count = most_sets_first(todo[0], family.members, cell_sets, &mut first);
        if first_count != 0 {
            todo[0] = 1u128 << first[0];
        }
    }
    let mut first_next = 1;
    unhit[0] = family.members;
    free_at[0] = free;
    let last = count - 1;
    let mut level = 0usize;
    let mut nodes = 0u32;
    // The search, once for each cell of `first` (once in all without it), each time
    // until the first level has no cell left. (The first level's next cell is taken
    // outside the inner loop: inside it, that state costs the loop more instructions
    // than the order saves.)
    loop {
        loop {
            let at = level & (MAX_REGIONS - 1);
            let cells = todo[at];
            if cells == 0 {
                if level == 0 {
                    break;
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
                free = fold_free(free, fresh, sets);
                if free == 0 {
                    continue;
                }
            }
            if level == last {
                return true;
            }
            let next = (level + 1) & (MAX_REGIONS - 1);
            let cells = must_hit(region[next], left & stranded[next], free, sets, cell_sets);
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
        if first_next >= first_count {
            return false;
        }
        todo[0] = 1u128 << first[first_next & (ORDERED_CELLS - 1)];
        first_next += 1;
    }
}
