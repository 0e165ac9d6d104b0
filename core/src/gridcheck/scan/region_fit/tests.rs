use super::*;
use std::vec::Vec;

/// Brute force: some choice of one cell per region (plus a free cell when
/// `free_clue`) hits every set (also the oracle of the probe's tests).
pub(in crate::gridcheck::scan) fn brute(regions: &[u128], sets: &[u128], free_clue: bool) -> bool {
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

/// Disjoint regions of `min..min + spread` cells, `count` of them (fewer when the
/// universe runs out), from the cells `0..universe` shuffled.
fn random_regions(
    rng: &mut impl FnMut() -> u64,
    universe: u64,
    count: u64,
    (min, spread): (u64, u64),
) -> Vec<u128> {
    let mut cells: Vec<u64> = (0..universe).collect();
    for i in (1..cells.len()).rev() {
        cells.swap(i, (rng() % (i as u64 + 1)) as usize);
    }
    let mut next = cells.into_iter();
    let mut regions = Vec::new();
    for _ in 0..count {
        let size = min + rng() % spread;
        let region = (0..size)
            .filter_map(|_| next.next())
            .fold(0u128, |acc, c| acc | 1u128 << c);
        if region != 0 {
            regions.push(region);
        }
    }
    regions
}

/// `count` sets of `min..min + spread` draws from the cells `0..universe`.
fn random_sets(
    rng: &mut impl FnMut() -> u64,
    universe: u64,
    count: u64,
    (min, spread): (u64, u64),
) -> Vec<u128> {
    (0..count)
        .map(|_| {
            let size = min + rng() % spread;
            (0..size).fold(0u128, |acc, _| acc | 1u128 << (rng() % universe))
        })
        .collect()
}

/// Asserts that [`regions_can_hit`] gives the brute force's answer; counts the answers
/// (yes, no).
fn agrees_with_brute(
    regions: &[u128],
    sets: &[u128],
    free_clue: bool,
    round: u32,
    answers: &mut (u32, u32),
) {
    let mut scratch = [0; 128];
    let expect = brute(regions, sets, free_clue);
    assert_eq!(
        can_hit(regions, sets, free_clue, &mut scratch),
        expect,
        "round {round}"
    );
    if expect {
        answers.0 += 1;
    } else {
        answers.1 += 1;
    }
}

/// Agrees with the brute force on random small instances, both ways, and both answers
/// occur.
#[test]
fn matches_brute_force() {
    let mut rng = lcg(11);
    let mut answers = (0, 0);
    for round in 0..3000 {
        let universe = 12 + (round % 30) as u64;
        let count = 1 + rng() % 6;
        // Disjoint regions of 1..4 cells.
        let regions = random_regions(&mut rng, universe, count, (1, 4));
        let count = rng() % 40;
        let sets = random_sets(&mut rng, universe, count, (2, 4));
        agrees_with_brute(&regions, &sets, round % 2 == 1, round, &mut answers);
    }
    let (yes, no) = answers;
    assert!(yes > 300 && no > 300, "yes {yes} no {no}");
}

/// With a free clue and larger regions (the first level's cells in their order, the
/// tried cells out of the free clue's): agrees with the brute force, both ways.
#[test]
fn matches_brute_force_with_larger_regions() {
    let mut rng = lcg(29);
    let mut answers = (0, 0);
    for round in 0..3000 {
        // Every other round a small universe, mostly inside the regions: the free clue
        // then often shares a region with that region's clue.
        let universe = if round % 2 == 0 {
            20 + (round % 20) as u64
        } else {
            6 + (round % 10) as u64
        };
        let count = 1 + rng() % 3;
        let regions = random_regions(&mut rng, universe, count, (3, 6));
        let count = rng() % 30;
        let sets = random_sets(&mut rng, universe, count, (2, 5));
        agrees_with_brute(&regions, &sets, true, round, &mut answers);
    }
    let (yes, no) = answers;
    assert!(yes > 300 && no > 300, "yes {yes} no {no}");
}
