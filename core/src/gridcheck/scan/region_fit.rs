//! The exact test behind a tight or nearly tight packing, for
//! [`super::bitmap768::BitmapTable::probe`].
//!
//! When the probe's greedy packing finds `m` unhit sets pairwise disjoint on their live
//! cells (the *regions*), every completion puts at least one clue in each region. With
//! exactly `m` clues left that is one clue per region and none elsewhere; with `m + 1`
//! left it is one clue per region plus one *free* clue anywhere (a second clue in a region
//! or a clue outside them all). Either way, the child survives only if such clues can hit
//! every other unhit set. [`regions_can_hit`] answers that exactly for the sets it is given
//! (at most 64, as bit masks), with a small depth-first search over the regions: a "no"
//! proves that the child needs more clues than are left. With two clues to spare,
//! [`split_region`] first looks for a region that two disjoint sets meet alone: those two
//! replace it, and the larger packing leaves one clue to spare.
//!
//! Measured with a prototype on `ga` (whole grid, N = 16, one thread, probes at 5 clues
//! left): of the children the previous test (the narrowing below, then every set must
//! hold a candidate) passed with no clue to spare, 1.68M, the exact search passes 80; with
//! the one-spare-clue search as well, the placements fall from 60.9M to 11.5M.

/// Most regions [`regions_can_hit`] handles.
pub const MAX_REGIONS: usize = 8;
/// Most other sets [`regions_can_hit`] reads (one bit each in a `u64`).
pub const MAX_SETS: usize = 64;
/// Search nodes [`regions_can_hit`] may visit before it gives up and answers "can hit"
/// (the safe answer: it only costs pruning). The searches measured need 150–240 nodes on
/// average (`ga`, sudoku17 line 36000); the limit bounds the worst case. Lower limits
/// (512, 2048) measured slower: the long searches are the ones that prune.
pub const NODE_LIMIT: u32 = 1 << 14;

/// Caller scratch of [`regions_can_hit`]: for each position, the sets (bit `i` for set
/// `i`) that hold it. Only the entries of region cells are read, and each call writes
/// them first.
pub type CellSets = [u64; 81];

/// True unless it is proved that no choice of one clue in each of `regions` (pairwise
/// disjoint live cells), plus one clue anywhere when `free_clue`, hits every one of
/// `sets` (live cells; only the first [`MAX_SETS`] are read). `regions` beyond
/// [`MAX_REGIONS`] are not handled: the answer is then true.
pub fn regions_can_hit(
    regions: &[u128],
    sets: &[u128],
    free_clue: bool,
    cell_sets: &mut CellSets,
) -> bool {
    let count = regions.len();
    if count > MAX_REGIONS {
        return true;
    }
    let sets = &sets[..sets.len().min(MAX_SETS)];
    let mut choices = [0u128; MAX_REGIONS];
    choices[..count].copy_from_slice(regions);
    if !free_clue && !narrow_to_candidates(&mut choices[..count], sets) {
        return false;
    }
    let cells = choices.iter().fold(0u128, |acc, c| acc | c);
    let mut rest = cells;
    while rest != 0 {
        cell_sets[rest.trailing_zeros() as usize] = 0;
        rest &= rest - 1;
    }
    for (index, &set) in sets.iter().enumerate() {
        let mut inside = set & cells;
        if inside == 0 && !free_clue {
            // Only the region clues can hit it, and none lies in it.
            return false;
        }
        while inside != 0 {
            cell_sets[inside.trailing_zeros() as usize] |= 1u64 << index;
            inside &= inside - 1;
        }
    }
    for choice in choices[..count].iter_mut() {
        *choice = undominated(*choice, cell_sets);
    }
    let mut met = [0u64; MAX_REGIONS];
    for (m, &choice) in met.iter_mut().zip(&choices[..count]) {
        *m = sets_met(choice, cell_sets);
    }
    let order = deciding_order(&met[..count]);
    let mut ordered = [0u128; MAX_REGIONS];
    let mut ordered_met = [0u64; MAX_REGIONS];
    for (j, &k) in order[..count].iter().enumerate() {
        ordered[j] = choices[k];
        ordered_met[j] = met[k];
    }
    search(
        &ordered[..count],
        &ordered_met[..count],
        sets,
        free_clue,
        cell_sets,
    )
}

/// A region of `regions` that two disjoint sets of `sets` (at most [`MAX_SETS`] read)
/// each meet alone (no other region): replacing the region by those two sets gives a
/// packing one larger. Returns the region and the two sets' indices (first in order);
/// `None` as well when there are more than [`MAX_REGIONS`] regions.
pub fn split_region(regions: &[u128], sets: &[u128]) -> Option<(usize, usize, usize)> {
    let count = regions.len();
    if count > MAX_REGIONS {
        return None;
    }
    let sets = &sets[..sets.len().min(MAX_SETS)];
    let mut private = [0u64; MAX_REGIONS];
    for (index, &set) in sets.iter().enumerate() {
        let mut met = 0;
        let mut only = 0;
        for (k, &region) in regions[..count].iter().enumerate() {
            if set & region != 0 {
                met += 1;
                only = k;
            }
        }
        if met == 1 {
            private[only] |= 1u64 << index;
        }
    }
    for (k, &mine) in private[..count].iter().enumerate() {
        let mut firsts = mine;
        while firsts != 0 {
            let i = firsts.trailing_zeros() as usize;
            firsts &= firsts - 1;
            let mut seconds = firsts;
            while seconds != 0 {
                let j = seconds.trailing_zeros() as usize;
                seconds &= seconds - 1;
                if sets[i] & sets[j] == 0 {
                    return Some((k, i, j));
                }
            }
        }
    }
    None
}

/// The tight case: each region takes exactly one clue and no clue goes elsewhere, so a
/// set meeting a single region must hold that region's clue. Narrows each region to the
/// cells in all such sets; false when a region is left with none.
fn narrow_to_candidates(choices: &mut [u128], sets: &[u128]) -> bool {
    for &set in sets {
        let mut met = 0;
        let mut only = 0;
        for (k, &choice) in choices.iter().enumerate() {
            if set & choice != 0 {
                met += 1;
                only = k;
            }
        }
        if met == 1 {
            choices[only] &= set;
            if choices[only] == 0 {
                return false;
            }
        }
    }
    true
}

/// `cells` without those another cell of `cells` dominates (it lies in every set they lie
/// in, and in more, or in the same sets with a lower position): a region's clue can
/// always move to a dominating cell, so only the rest need trying. Keeps at least one.
fn undominated(cells: u128, cell_sets: &CellSets) -> u128 {
    let mut kept = 0u128;
    let mut rest = cells;
    while rest != 0 {
        let x = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let mine = cell_sets[x];
        let mut others = cells & !(1u128 << x);
        let mut dominated = false;
        while others != 0 {
            let z = others.trailing_zeros() as usize;
            others &= others - 1;
            let theirs = cell_sets[z];
            if mine & !theirs == 0 && (mine != theirs || z < x) {
                dominated = true;
                break;
            }
        }
        if !dominated {
            kept |= 1u128 << x;
        }
    }
    kept
}

/// Region indices in search order: each next region is the one that, with those before
/// it, decides the most sets (sets no later region can hit fail or pass at once), then
/// the one meeting the most sets. Measured with a prototype on `ga`: a quarter fewer
/// search nodes than "most sets met first", which itself needs a third of table order's.
fn deciding_order(met: &[u64]) -> [usize; MAX_REGIONS] {
    let count = met.len();
    let mut order = [0usize; MAX_REGIONS];
    let mut chosen = 0u32;
    for slot in order[..count].iter_mut() {
        let mut best = 0;
        let mut best_score = (0, 0);
        let mut first = true;
        for r in (0..count).filter(|&r| chosen >> r & 1 == 0) {
            let with = chosen | 1 << r;
            let later = (0..count)
                .filter(|&k| with >> k & 1 == 0)
                .fold(0u64, |acc, k| acc | met[k]);
            let score = ((!later).count_ones(), met[r].count_ones());
            if first || score > best_score {
                best = r;
                best_score = score;
                first = false;
            }
        }
        chosen |= 1 << best;
        *slot = best;
    }
    order
}

/// The sets (bits) holding some cell of `cells`.
fn sets_met(cells: u128, cell_sets: &CellSets) -> u64 {
    let mut met = 0;
    let mut rest = cells;
    while rest != 0 {
        met |= cell_sets[rest.trailing_zeros() as usize];
        rest &= rest - 1;
    }
    met
}

/// One level of [`search`].
#[derive(Copy, Clone)]
struct Level {
    /// Cells of this level's region still to try.
    todo: u128,
    /// Sets not hit by the clues above.
    unhit: u64,
    /// Where the free clue can still go (every set no region below can hit holds it).
    free_cells: u128,
    /// Sets already folded into `free_cells`.
    folded: u64,
}

/// Depth-first search over `regions` in order (`met`: the sets each can hit), one clue each,
/// with an explicit stack, plus one free clue anywhere when `free_clue`. A set that no
/// region at or below the current level can hit must take the free clue, so the free
/// clue's possible cells shrink to those in it: none left (or any such set without a
/// free clue) fails the branch. True at the first complete choice, or when [`NODE_LIMIT`]
/// is reached.
fn search(
    regions: &[u128],
    met: &[u64],
    sets: &[u128],
    free_clue: bool,
    cell_sets: &CellSets,
) -> bool {
    let count = regions.len();
    // reach[j]: sets some region j.. can hit.
    let mut reach = [0u64; MAX_REGIONS + 1];
    for j in (0..count).rev() {
        reach[j] = reach[j + 1] | met[j];
    }
    let all_sets = if sets.len() == 64 {
        u64::MAX
    } else {
        (1u64 << sets.len()) - 1
    };
    let mut stack = [Level {
        todo: 0,
        unhit: 0,
        free_cells: 0,
        folded: 0,
    }; MAX_REGIONS];
    let mut nodes = 0u32;
    // Enter level 0 with nothing placed.
    let mut pending = Some((0usize, all_sets, u128::MAX, 0u64));
    let mut depth = 0usize;
    loop {
        if let Some((level, unhit, free_cells, folded)) = pending.take() {
            nodes += 1;
            if nodes > NODE_LIMIT {
                return true;
            }
            let stranded = unhit & !reach[level];
            let mut fresh = stranded & !folded;
            let mut free_cells = free_cells;
            let mut fits = true;
            if fresh != 0 && !free_clue {
                fits = false;
            }
            while fits && fresh != 0 {
                free_cells &= sets[fresh.trailing_zeros() as usize];
                fresh &= fresh - 1;
                fits = free_cells != 0;
            }
            if fits {
                if level == count {
                    return true;
                }
                stack[level] = Level {
                    todo: regions[level],
                    unhit,
                    free_cells,
                    folded: stranded,
                };
                depth = level + 1;
            }
        }
        // Next cell at the deepest open level.
        loop {
            if depth == 0 {
                return false;
            }
            let top = &mut stack[depth - 1];
            if top.todo != 0 {
                let x = top.todo.trailing_zeros() as usize;
                top.todo &= top.todo - 1;
                pending = Some((depth, top.unhit & !cell_sets[x], top.free_cells, top.folded));
                break;
            }
            depth -= 1;
        }
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

    #[test]
    fn examples() {
        let mut scratch = [0u64; 81];
        // Three sets meeting pairwise with no common cell: one clue cannot hit them all...
        let (a, b, c) = (0b0011u128, 0b0110, 0b0101);
        assert!(!regions_can_hit(&[a], &[b, c], false, &mut scratch));
        // ... two can (the free clue takes the third).
        assert!(regions_can_hit(&[a], &[b, c], true, &mut scratch));
        // With a common cell one clue can.
        assert!(regions_can_hit(
            &[0b0111],
            &[0b0011, 0b0101],
            false,
            &mut scratch
        ));
        // A set outside every region needs the free clue.
        assert!(!regions_can_hit(&[0b0011], &[0b1100], false, &mut scratch));
        assert!(regions_can_hit(&[0b0011], &[0b1100], true, &mut scratch));
        // Two sets outside the regions with no common cell: one free clue is not enough.
        assert!(!regions_can_hit(
            &[0b0011],
            &[0b0100, 0b1000],
            true,
            &mut scratch
        ));
        // Two regions; a set across both is hit by the candidates of either.
        let regions = [0b0000_0011u128, 0b0011_0000];
        assert!(regions_can_hit(
            &regions,
            &[0b0001, 0b0010_0010],
            false,
            &mut scratch
        ));
        // ... but not when the sets private to each region leave candidates it misses.
        let sets = [0b0001, 0b0010_0000, 0b0001_0010];
        assert!(!regions_can_hit(&regions, &sets, false, &mut scratch));
        assert!(regions_can_hit(&regions, &sets, true, &mut scratch));
        // No regions: the sets need a common cell for the free clue, or must be none.
        assert!(regions_can_hit(&[], &[], false, &mut scratch));
        assert!(!regions_can_hit(&[], &[0b1], false, &mut scratch));
        assert!(regions_can_hit(&[], &[0b11, 0b10], true, &mut scratch));
    }

    #[test]
    fn split_region_finds_two_disjoint_private_sets() {
        let regions = [0b0000_1111u128, 0b1111_0000];
        // Private to region 0 but overlapping: no split.
        assert_eq!(split_region(&regions, &[0b0011, 0b0110]), None);
        // Disjoint but one meets both regions: no split.
        assert_eq!(split_region(&regions, &[0b0011, 0b0001_0100]), None);
        // Two disjoint sets private to region 1 (with cells outside both regions).
        let sets = [0b0011, 0b1_0001_0000_0000, 0b0010_0000_0000, 0b0010_0000];
        assert_eq!(split_region(&regions, &sets), None);
        let sets = [0b0011, 0b1_0001_0000, 0b10_0010_0000];
        assert_eq!(split_region(&regions, &sets), Some((1, 1, 2)));
        // More regions than handled: no answer.
        let many: Vec<u128> = (0..=MAX_REGIONS).map(|k| 0b11u128 << (2 * k)).collect();
        assert_eq!(split_region(&many, &[0b01, 0b10]), None);
        assert_eq!(
            split_region(&many[..MAX_REGIONS], &[0b01, 0b10]),
            Some((0, 0, 1))
        );
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
            let got = split_region(&regions, &sets);
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
        let mut scratch = [0u64; 81];
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
                regions_can_hit(&regions, &sets, free_clue, &mut scratch),
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
