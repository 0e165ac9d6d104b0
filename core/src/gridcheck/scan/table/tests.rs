use super::hits::*;
use super::level::*;
use super::limits::*;
use super::probe::*;
use super::scratch::*;
use crate::gridcheck::scan::bits::*;
use crate::gridcheck::scan::region_fit::tests::{brute, lcg};
use crate::gridcheck::scan::region_fit::SetMask;
use std::boxed::Box;
use std::vec::Vec;

/// The probe's bound written out directly on plain lists: `family`, the parent's
/// unhit sets (table order), of which the probe reads the first [`TIGHT_SETS`] less
/// those holding `position`, by live size outside `parent_dead` (table order within
/// a size); then `rest`, the child's unhit sets after those (table order). True when
/// it proves `clues` are not enough.
fn needs_more_than(
    family: &[u128],
    parent_dead: u128,
    rest: &[u128],
    position: u8,
    dead: u128,
    clues: usize,
) -> bool {
    let members: Vec<u128> = family
        .iter()
        .take(TIGHT_SETS)
        .copied()
        .filter(|&set| set >> position & 1 == 0)
        .collect();
    let mut by_size = members.clone();
    by_size.sort_by_key(|set| {
        (set & !parent_dead)
            .count_ones()
            .min(SIZE_CLASSES as u32 - 1)
    });
    let mut used = 0u128;
    let mut regions = Vec::new();
    for &set in by_size.iter().chain(rest) {
        let live = set & !dead;
        if live & used == 0 {
            if live == 0 || regions.len() == clues {
                return true;
            }
            used |= live;
            regions.push(live);
        }
    }
    if regions.len() + 2 < clues || regions.len() > TIGHT_REGIONS {
        return false;
    }
    let members: Vec<u128> = members.iter().map(|&set| set & !dead).collect();
    if regions.len() + 2 == clues {
        if regions.len() == TIGHT_REGIONS {
            return false;
        }
        // The split, restated: a region two disjoint sets meet alone (first in order).
        let alone = |set: u128, regions: &[u128]| {
            let met: Vec<usize> = (0..regions.len())
                .filter(|&k| set & regions[k] != 0)
                .collect();
            (met.len() == 1).then(|| met[0])
        };
        let split = (0..regions.len()).find_map(|k| {
            (0..members.len()).find_map(|i| {
                (i + 1..members.len()).find_map(|j| {
                    let mine = alone(members[i], &regions) == Some(k)
                        && alone(members[j], &regions) == Some(k);
                    (mine && members[i] & members[j] == 0).then_some((k, i, j))
                })
            })
        });
        let Some((k, i, j)) = split else {
            return false;
        };
        regions[k] = members[i];
        regions.push(members[j]);
    }
    !brute(&regions, &members, regions.len() < clues)
}

/// True when some `clues` or fewer cells of `live` hit every set of `unhit`.
fn hittable(unhit: &[u128], live: u128, clues: usize) -> bool {
    let Some(&first) = unhit.first() else {
        return true;
    };
    if clues == 0 {
        return false;
    }
    let mut branch = first & live;
    while branch != 0 {
        let bit = branch & branch.wrapping_neg();
        branch &= branch - 1;
        let rest: Vec<u128> = unhit.iter().copied().filter(|&s| s & bit == 0).collect();
        if hittable(&rest, live, clues - 1) {
            return true;
        }
    }
    false
}

#[test]
fn matches_list_filtering() {
    let mut rng = lcg(99);
    let mut sets: Vec<u128> = (0..700)
        .map(|_| (0..5).fold(0u128, |acc, _| acc | 1u128 << (rng() % 81)))
        .collect();
    sets.sort_by_key(|s| (s.count_ones(), *s));
    let mut table = Box::new(HitTable::new());
    let mut state = table.load(&sets).unwrap();
    // Indices into `sets` of the unhit sets (the table may hold equal sets).
    let mut unhit: Vec<usize> = (0..sets.len()).collect();
    let mut dead = 0u128;
    let mut scratch = ProbeScratch::new();
    for position in [70u8, 3, 40, 12, 77, 0] {
        let mut next = LevelState::ZERO;
        let all = unhit.iter().all(|&i| sets[i] >> position & 1 == 1);
        assert_eq!(table.hits_all(&state, position, 0), all);
        let parent = unhit.clone();
        let parent_dead = dead;
        table.prepare_probes(&state, 0, parent_dead, &mut scratch);
        let first = table.place(&state, position, &mut next, 0);
        unhit.retain(|&i| sets[i] >> position & 1 == 0);
        assert_eq!(first, unhit.first().copied());
        dead |= 1u128 << (rng() % 81);
        dead &= !(1u128 << position);
        let from = 0;
        let family: Vec<u128> = parent.iter().map(|&i| sets[i]).collect();
        // The first set after the family, in table order.
        let after = parent.get(TIGHT_SETS).copied().unwrap_or(sets.len());
        for clues in 0..12 {
            // Narrow probes read, beyond the family, the smallest
            // NARROW_PROBE_WORDS * 64 sets only.
            let limit = if clues <= NARROW_PROBE_CLUES {
                NARROW_PROBE_WORDS * 64
            } else {
                sets.len()
            };
            let rest: Vec<u128> = unhit
                .iter()
                .filter(|&&i| i >= after && i < limit)
                .map(|&i| sets[i])
                .collect();
            let expect = match first {
                None => Probe::AllHit,
                Some(_) if needs_more_than(&family, parent_dead, &rest, position, dead, clues) => {
                    Probe::Pruned
                }
                Some(_) => Probe::Open,
            };
            assert_eq!(
                table.probe(&state, position, from, dead, clues, &scratch),
                expect,
                "position {position}, clues {clues}"
            );
        }
        let within = !dead & (u128::MAX >> 47);
        let common = unhit.iter().fold(within, |acc, &i| acc & sets[i]);
        assert_eq!(table.common_after(&state, position, from, within), common);
        state = next;
    }
    assert!(table.load(&[0u128; CAPACITY + 1]).is_none());
}

/// 6 to 45 random sets of 2 to 5 positions below `universe`, in table order (by size),
/// without repeats: the random instances of the probe's tests.
fn small_sets(rng: &mut impl FnMut() -> u64, universe: u64) -> Vec<u128> {
    let count = 6 + (rng() % 40) as usize;
    random_sets_below(rng, universe, count, 2, 5)
}

/// Pruned only when no `clues` live cells hit every unhit set (checked by brute force
/// on small random instances), and the exact test prunes some that packing alone
/// does not, with no clue to spare, with one, and (after a split) with two.
#[test]
fn probe_prunes_only_the_unhittable() {
    let mut rng = lcg(7);
    let (mut pruned, mut exact_only, mut spare_clue, mut split) = (0, 0, 0, 0);
    // Splits that prune are rare with the size-ordered packing: 12,000 rounds give 8.
    for round in 0..12000 {
        let universe = 14 + round % 10;
        let sets = small_sets(&mut rng, universe);
        let mut table = Box::new(HitTable::new());
        let state = table.load(&sets).unwrap();
        let position = (rng() % universe) as u8;
        let dead = (0..3).fold(0u128, |acc, _| acc | 1u128 << (rng() % universe));
        let dead = dead & !(1u128 << position);
        let unhit: Vec<u128> = sets
            .iter()
            .copied()
            .filter(|s| s >> position & 1 == 0)
            .collect();
        let live = ((1u128 << universe) - 1) & !dead & !(1u128 << position);
        let mut scratch = ProbeScratch::new();
        table.prepare_probes(&state, 0, dead, &mut scratch);
        for clues in 0..8 {
            let probe = table.probe(&state, position, 0, dead, clues, &scratch);
            let possible = hittable(&unhit, live, clues);
            match probe {
                Probe::AllHit => assert!(unhit.is_empty()),
                Probe::Pruned => {
                    assert!(!possible, "round {round}: pruned a hittable child");
                    pruned += 1;
                    let packing = unhit.iter().any(|&s| s & live == 0)
                        || greedy_disjoint(&unhit, dead) > clues;
                    if !packing {
                        exact_only += 1;
                        if greedy_disjoint(&unhit, dead) < clues {
                            spare_clue += 1;
                        }
                        if greedy_disjoint(&unhit, dead) + 2 == clues {
                            split += 1;
                        }
                    }
                }
                Probe::Open => assert!(!unhit.is_empty()),
            }
        }
    }
    assert!(pruned > 100, "pruned {pruned}");
    assert!(exact_only > 10, "exact test pruned {exact_only}");
    assert!(
        spare_clue > 5,
        "exact test with a spare clue pruned {spare_clue}"
    );
    assert!(
        split > 3,
        "split and exact test with two clues to spare pruned {split}"
    );
}

/// The siblings a probe rules out have no completion either (brute force on small
/// random instances): a sibling `s`, tried after `position`, has `position` dead and
/// must hit every set without `s` with `clues` live cells other than `s`. And the
/// proofs rule some out, after a packing and after an exact test.
#[test]
fn siblings_ruled_out_are_hopeless() {
    let mut rng = lcg(11);
    let (mut ruled_out, mut by_exact_test) = (0, 0);
    for round in 0..6000 {
        let universe = 14 + round % 10;
        let sets = small_sets(&mut rng, universe);
        let mut table = Box::new(HitTable::new());
        let state = table.load(&sets).unwrap();
        let position = (rng() % universe) as u8;
        let dead = (0..3).fold(0u128, |acc, _| acc | 1u128 << (rng() % universe));
        let dead = dead & !(1u128 << position);
        let all = (1u128 << universe) - 1;
        let siblings = (0..4).fold(0u128, |acc, _| acc | 1u128 << (rng() % universe))
            & all
            & !dead
            & !(1u128 << position);
        let mut scratch = ProbeScratch::new();
        table.prepare_probes(&state, 0, dead, &mut scratch);
        for clues in 0..8 {
            let (probe, doomed) = table.probe_with_siblings(
                &state,
                position,
                0,
                dead | 1u128 << position,
                clues,
                &scratch,
                siblings,
            );
            assert_eq!(doomed & !siblings, 0, "round {round}: not a sibling");
            if doomed != 0 {
                assert_eq!(probe, Probe::Pruned, "round {round}");
            }
            let mut rest = doomed;
            while rest != 0 {
                let sibling = rest.trailing_zeros();
                rest &= rest - 1;
                let unhit: Vec<u128> = sets
                    .iter()
                    .copied()
                    .filter(|s| s >> sibling & 1 == 0)
                    .collect();
                let live = all & !dead & !(1u128 << position) & !(1u128 << sibling);
                assert!(
                    !hittable(&unhit, live, clues),
                    "round {round}: ruled out sibling {sibling} with {clues} clues"
                );
                ruled_out += 1;
                let unhit_here: Vec<u128> = sets
                    .iter()
                    .copied()
                    .filter(|s| s >> position & 1 == 0)
                    .collect();
                let packed = unhit_here
                    .iter()
                    .any(|&s| s & !dead & !(1 << position) == 0)
                    || greedy_disjoint(&unhit_here, dead | 1u128 << position) > clues;
                if !packed {
                    by_exact_test += 1;
                }
            }
        }
    }
    assert!(ruled_out > 1000, "ruled out {ruled_out}");
    assert!(
        by_exact_test > 20,
        "ruled out after an exact test {by_exact_test}"
    );
}

/// `count` random sets of `min..=max` positions below 81, in table order (by size),
/// without repeats.
fn random_sets(rng: &mut impl FnMut() -> u64, count: usize, min: u64, max: u64) -> Vec<u128> {
    random_sets_below(rng, 81, count, min, max)
}

/// `count` random sets of `min..=max` draws of positions below `universe` (a repeated
/// draw makes a set smaller), in table order (by size), without repeats.
pub(super) fn random_sets_below(
    rng: &mut impl FnMut() -> u64,
    universe: u64,
    count: usize,
    min: u64,
    max: u64,
) -> Vec<u128> {
    let mut sets: Vec<u128> = (0..count)
        .map(|_| {
            let size = min + rng() % (max - min + 1);
            (0..size).fold(0u128, |acc, _| acc | 1u128 << (rng() % universe))
        })
        .collect();
    sets.sort_by_key(|s| (s.count_ones(), *s));
    sets.dedup();
    sets
}

/// Up to `count` random positions below 81 as a mask.
fn random_cells(rng: &mut impl FnMut() -> u64, count: u64) -> u128 {
    (0..count).fold(0u128, |acc, _| acc | 1u128 << (rng() % 81))
}

type FamilyView = (Vec<u128>, Vec<Vec<u128>>, Vec<(u128, usize)>, Option<usize>);

/// What a probe reads of a scratch, as plain values: the family's sets (sorted), for
/// each position the sets holding it (sorted), each set with its live-size class, and
/// the first unhit set of `state` after the family.
fn family_view(scratch: &ProbeScratch, state: &State) -> FamilyView {
    let entries = |mask: SetMask| -> Vec<u128> {
        let mut sets: Vec<u128> = (0..TIGHT_SETS)
            .filter(|&i| mask >> i & 1 == 1)
            .map(|i| scratch.sets[i])
            .collect();
        sets.sort();
        sets
    };
    assert_eq!(
        scratch.members >> (scratch.len as usize).min(127) >> 1,
        0,
        "members below len"
    );
    let members = entries(scratch.members);
    let holding = (0..81).map(|p| entries(scratch.cell_sets[p])).collect();
    let mut classes: Vec<(u128, usize)> = (0..SIZE_CLASSES)
        .flat_map(|size| {
            entries(scratch.by_live_size[size])
                .into_iter()
                .map(move |s| (s, size))
        })
        .collect();
    classes.sort();
    for (size, class) in scratch.by_live_size.iter().enumerate() {
        assert_eq!(scratch.sizes_present >> size & 1 == 1, *class != 0);
    }
    let next_unhit =
        (scratch.rest_from as usize..WORDS * 64).find(|&i| state.0[i / 64] >> (i % 64) & 1 == 1);
    (members, holding, classes, next_unhit)
}

/// A family derived from the parent's (refilled after the sets its clue hits, the
/// classes moved for the cells dead since) is the family a fresh preparation keeps,
/// with the same masks and classes, over chains of derivations (a derived parent has
/// holes refilled out of table order), with few and many newly dead cells.
#[test]
fn derived_family_is_the_fresh_one() {
    let mut rng = lcg(23);
    let (mut refilled, mut exhausted, mut few_dead, mut many_dead) = (0, 0, 0, 0);
    for round in 0..300 {
        let count = if round % 5 == 0 { 150 } else { 500 };
        // Now and then big sets, many in the last class (31 live cells or more).
        let (min, max) = if round % 3 == 0 { (30, 60) } else { (3, 12) };
        let sets = random_sets(&mut rng, count, min, max);
        let mut table = Box::new(HitTable::new());
        let mut state = table.load(&sets).unwrap();
        let mut dead = random_cells(&mut rng, 4);
        let mut parent = Box::new(ProbeScratch::new());
        table.prepare_probes(&state, 0, dead, &mut parent);
        for level in 0..4 {
            let live = ((1u128 << 81) - 1) & !dead;
            if live == 0 {
                break;
            }
            let position = loop {
                let p = (rng() % 81) as u8;
                if live >> p & 1 == 1 {
                    break p;
                }
            };
            let mut child_state = State::ZERO;
            if table.place(&state, position, &mut child_state, 0).is_none() {
                break;
            }
            let extra = random_cells(&mut rng, if level % 2 == 0 { 2 } else { 12 });
            dead |= 1u128 << position | extra;
            if count_ones(dead & !parent.sorted_dead) > RESORT_CELLS {
                many_dead += 1;
            } else {
                few_dead += 1;
            }
            let mut derived = Box::new(ProbeScratch::new());
            table.derive_probes(&parent, position, &child_state, dead, &mut derived);
            let mut fresh = Box::new(ProbeScratch::new());
            table.prepare_probes(&child_state, 0, dead, &mut fresh);
            assert_eq!(
                family_view(&derived, &child_state),
                family_view(&fresh, &child_state),
                "round {round}, level {level}"
            );
            let hit = parent.cell_sets[usize::from(position)] & parent.members;
            if hit != 0 && fresh.len as usize == TIGHT_SETS {
                refilled += 1;
            }
            if (fresh.len as usize) < TIGHT_SETS {
                exhausted += 1;
            }
            state = child_state;
            parent = derived;
        }
    }
    assert!(refilled > 300 && exhausted > 20, "{refilled} {exhausted}");
    assert!(few_dead > 100 && many_dead > 100, "{few_dead} {many_dead}");
}

/// Moving the classes for newly dead cells gives the classes of a new sort.
#[test]
fn resorting_matches_a_new_sort() {
    let mut rng = lcg(29);
    for round in 0..300 {
        // Every other round, big sets: many in the last class (31 live cells or more).
        let (min, max) = if round % 2 == 0 { (34, 70) } else { (2, 10) };
        let sets = random_sets(&mut rng, 200, min, max);
        let mut table = Box::new(HitTable::new());
        let state = table.load(&sets).unwrap();
        let mut dead = random_cells(&mut rng, 3);
        let mut scratch = Box::new(ProbeScratch::new());
        table.prepare_probes(&state, 0, dead, &mut scratch);
        for _ in 0..6 {
            let cells = 1 + rng() % 9;
            dead |= random_cells(&mut rng, cells);
            scratch.resort_by_live_size(dead);
            let mut sorted = scratch.clone();
            sorted.sort_by_live_size(dead);
            assert_eq!(scratch.by_live_size, sorted.by_live_size, "round {round}");
            assert_eq!(scratch.sizes_present, sorted.sizes_present, "round {round}");
            assert_eq!(scratch.sorted_dead, dead);
        }
    }
}

/// Size of the probe's greedy packing of `unhit` (at most [`TIGHT_SETS`], as here),
/// the fewest live cells first, disjoint on live cells.
fn greedy_disjoint(unhit: &[u128], dead: u128) -> usize {
    assert!(unhit.len() <= TIGHT_SETS);
    let mut by_size = unhit.to_vec();
    by_size.sort_by_key(|set| (set & !dead).count_ones());
    let mut used = 0u128;
    let mut count = 0;
    for &set in &by_size {
        let live = set & !dead;
        if live & used == 0 {
            used |= live;
            count += 1;
        }
    }
    count
}
