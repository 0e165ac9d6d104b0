//! Step C: order of the clique members and of the cells inside each member.
//!
//! An area of the grid (a member, or the union of the members so far minus one cell) is
//! rated by the "disjoint chains" of small sets that avoid it, as the reference tool does:
//! level 1 = the sets of 2..=`max_size` cells disjoint from the area, level k+1 = the
//! distinct unions of a level-k set with a disjoint level-1 set, until a level is empty.
//! Ratings compare the highest non-empty level first (more levels = higher), then the level
//! sizes from the top down, then the sum of 1/size^2 over every set disjoint from the area
//! (no size limit). Grids with many small sets ("MC-like": more than 54 sets of size 6, or
//! any set of size <= 3) are rated by the 1/size^2 sum alone (the chains explode there).
//!
//! Members go by size ascending; inside a group of equal size the HIGHEST rated member
//! comes first (lowest positions). Cells inside each member are rated (sets of up to 8
//! cells) on the union of all members up to this one minus the cell, LOWEST rating first,
//! ties by decreasing cell (the reference's order). Cells outside the clique keep increasing
//! cell order (not rated, as in the reference's code).
//!
//! The distinct unions live in caller scratch: a level-1 list, the current level and an
//! open-addressing hash set for the next level. When a level does not fit, its count is
//! recorded as "more than the room" and the chain stops there: the order may then differ
//! from the reference's, never the scan's result.
use crate::gridcheck::cells::CELL_COUNT;
use core::cmp::Ordering;

/// Weight scale for 1/size^2 (integer, so the order is exact and deterministic).
const SCALE: u64 = 1 << 40;

/// Largest set size used to rate members.
pub(crate) const MEMBER_RATING_MAX_SIZE: u32 = 11;
/// Largest set size used to rate cells.
pub(crate) const CELL_RATING_MAX_SIZE: u32 = 8;
/// Highest chain level recorded (an area of 2 cells leaves room for 19 disjoint 4-sets).
pub(crate) const MAX_LEVELS: usize = 24;

/// Scratch entries ([`u128`]) the rating uses for a list of `ua_count` sets: at least 4096,
/// at most 2^18 (4 MB), else 8 per set.
pub(crate) const fn scratch_entries(ua_count: usize) -> usize {
    let want = ua_count.saturating_mul(8);
    if want < 1 << 12 {
        1 << 12
    } else if want > 1 << 18 {
        1 << 18
    } else {
        want
    }
}

/// A rating: chain level sizes and the 1/size^2 tie-break. `Ord`: higher is better rated.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Rating {
    /// `levels[k]` = distinct unions of `k` disjoint small sets (index 0 unused).
    pub(crate) levels: [u32; MAX_LEVELS + 1],
    /// Sum of `2^40 / size^2` over every set disjoint from the area.
    pub(crate) weight: u64,
}

impl Ord for Rating {
    fn cmp(&self, other: &Self) -> Ordering {
        for k in (1..=MAX_LEVELS).rev() {
            match self.levels[k].cmp(&other.levels[k]) {
                Ordering::Equal => {}
                unequal => return unequal,
            }
        }
        self.weight.cmp(&other.weight)
    }
}

impl PartialOrd for Rating {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// True for lists the chains would explode on (the reference's "MC-like" rule).
pub(crate) fn is_mc_like(sorted: &[u128]) -> bool {
    let mut six = 0;
    for &set in sorted {
        match set.count_ones() {
            0..=3 => return true,
            6 => six += 1,
            7.. => break,
            _ => {}
        }
    }
    six > 54
}

/// Hash slot of a non-empty set in a table of `2^bits` slots.
#[inline]
fn slot(set: u128, bits: u32) -> usize {
    let folded = (set as u64) ^ ((set >> 64) as u64).rotate_left(29);
    (folded.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - bits)) as usize
}

/// Rates `area` against `sorted` (size ascending): chains of the sets of 2..=`max_size`
/// cells (none when `max_size` is 0) and the 1/size^2 sum over all sets.
pub(crate) fn rate(sorted: &[u128], max_size: u32, area: u128, scratch: &mut [u128]) -> Rating {
    let mut rating = Rating {
        levels: [0; MAX_LEVELS + 1],
        weight: 0,
    };
    for &set in sorted {
        if set & area == 0 {
            let size = u64::from(set.count_ones()).max(1);
            rating.weight += SCALE / (size * size);
        }
    }
    if max_size == 0 {
        return rating;
    }
    // Split the scratch: hash table (power of two), current level (half of it), level 1.
    let mut hash_bits = 4u32;
    while (2usize << hash_bits) * 2 <= scratch.len() {
        hash_bits += 1;
    }
    let hash_cap = 1usize << hash_bits;
    let level_cap = (hash_cap / 2).min(scratch.len().saturating_sub(hash_cap) / 2);
    if scratch.len() < hash_cap + 2 * level_cap || level_cap == 0 {
        return rating;
    }
    let (level1, rest) = scratch.split_at_mut(scratch.len() - hash_cap - level_cap);
    let (current, table) = rest.split_at_mut(level_cap);

    let mut ones = 0usize;
    for &set in sorted {
        let size = set.count_ones();
        if size > max_size {
            break;
        }
        if size < 2 || set & area != 0 {
            continue;
        }
        if ones == level1.len() {
            rating.levels[1] = u32::MAX;
            return rating;
        }
        level1[ones] = set;
        ones += 1;
    }
    rating.levels[1] = ones as u32;
    if ones == 0 {
        return rating;
    }
    let level1 = &level1[..ones];
    if ones > current.len() {
        return rating;
    }
    current[..ones].copy_from_slice(level1);
    let mut len = ones;
    let mut level = 1;
    while level < MAX_LEVELS {
        // Next level into a table sized for the pairs that can exist (at most half full).
        let bound = len.saturating_mul(ones).min(level_cap + 1);
        let mut bits = 4u32;
        while (1usize << bits) < 2 * bound && bits < hash_bits {
            bits += 1;
        }
        let table = &mut table[..1usize << bits];
        table.fill(0);
        let room = table.len() / 2;
        let mut count = 0usize;
        let mut full = false;
        'pairs: for &low in &current[..len] {
            for &one in level1 {
                if low & one != 0 {
                    continue;
                }
                let union = low | one;
                let mask = table.len() - 1;
                let mut at = slot(union, bits);
                loop {
                    let held = table[at];
                    if held == union {
                        break;
                    }
                    if held == 0 {
                        if count == room.min(level_cap) {
                            full = true;
                            break 'pairs;
                        }
                        table[at] = union;
                        count += 1;
                        break;
                    }
                    at = (at + 1) & mask;
                }
            }
        }
        level += 1;
        if full {
            rating.levels[level] = u32::MAX;
            return rating;
        }
        if count == 0 {
            return rating;
        }
        rating.levels[level] = count as u32;
        len = 0;
        for &held in table.iter() {
            if held != 0 {
                current[len] = held;
                len += 1;
            }
        }
    }
    rating
}

/// Orders `members` (already size ascending) in place: inside equal-size groups, the
/// highest rated member first (stable on ties).
pub(crate) fn order_members(members: &mut [u128], sorted: &[u128], scratch: &mut [u128]) {
    let n = members.len();
    let max_size = if is_mc_like(sorted) {
        0
    } else {
        MEMBER_RATING_MAX_SIZE
    };
    let empty = Rating {
        levels: [0; MAX_LEVELS + 1],
        weight: 0,
    };
    let mut ratings = [empty; super::clique::MAX_MEMBERS];
    let mut start = 0;
    while start < n {
        let size = members[start].count_ones();
        let mut end = start + 1;
        while end < n && members[end].count_ones() == size {
            end += 1;
        }
        if end - start > 1 {
            for i in start..end {
                ratings[i] = rate(sorted, max_size, members[i], scratch);
            }
            // Insertion sort, rating descending (n <= 41, no allocation).
            for i in start + 1..end {
                let mut j = i;
                while j > start && ratings[j - 1] < ratings[j] {
                    members.swap(j - 1, j);
                    ratings.swap(j - 1, j);
                    j -= 1;
                }
            }
        }
        start = end;
    }
}

/// Writes the free cells in iterator order into `order` and returns how many: the cells of
/// each member (rated), then the other free cells in increasing order.
pub(crate) fn order_cells(
    members: &[u128],
    sorted: &[u128],
    free: u128,
    order: &mut [u8; CELL_COUNT],
    scratch: &mut [u128],
) -> usize {
    let max_size = if is_mc_like(sorted) {
        0
    } else {
        CELL_RATING_MAX_SIZE
    };
    let empty = Rating {
        levels: [0; MAX_LEVELS + 1],
        weight: 0,
    };
    let mut len = 0;
    let mut union = 0u128;
    for &member in members {
        union |= member;
        let start = len;
        let mut rest = member & free;
        let mut ratings = [empty; CELL_COUNT];
        while rest != 0 {
            let cell = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            ratings[len - start] = rate(sorted, max_size, union & !(1u128 << cell), scratch);
            order[len] = cell;
            len += 1;
        }
        // Lowest rating first, ties by decreasing cell (insertion sort, members are small).
        for i in start + 1..len {
            let mut j = i;
            while j > start {
                let (a, b) = (j - 1 - start, j - start);
                let later = match ratings[a].cmp(&ratings[b]) {
                    Ordering::Greater => true,
                    Ordering::Equal => order[j - 1] < order[j],
                    Ordering::Less => false,
                };
                if !later {
                    break;
                }
                order.swap(j - 1, j);
                ratings.swap(a, b);
                j -= 1;
            }
        }
    }
    let mut rest = free & !union;
    while rest != 0 {
        order[len] = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        len += 1;
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;
    use std::vec::Vec;

    fn set(cells: &[u8]) -> u128 {
        cells.iter().fold(0, |acc, &c| acc | 1u128 << c)
    }

    /// Distinct unions of k pairwise disjoint sets of `ones`, by brute force.
    fn brute_levels(ones: &[u128]) -> Vec<usize> {
        let mut levels = vec![0usize];
        for k in 1..=ones.len() {
            let mut unions: Vec<u128> = Vec::new();
            for pick in 0u32..(1 << ones.len()) {
                if pick.count_ones() as usize != k {
                    continue;
                }
                let mut union = 0u128;
                let mut ok = true;
                for (i, &s) in ones.iter().enumerate() {
                    if pick >> i & 1 == 1 {
                        ok &= union & s == 0;
                        union |= s;
                    }
                }
                if ok {
                    unions.push(union);
                }
            }
            unions.sort_unstable();
            unions.dedup();
            if unions.is_empty() {
                break;
            }
            levels.push(unions.len());
        }
        levels
    }

    #[test]
    fn chain_levels_match_brute_force() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut scratch = vec![0u128; 1 << 12];
        for round in 0..60 {
            let mut list: Vec<u128> = (0..12)
                .map(|_| {
                    let size = 2 + next() % 4;
                    let mut s = 0u128;
                    while s.count_ones() < size as u32 {
                        s |= 1u128 << (next() % 24);
                    }
                    s
                })
                .collect();
            // Two equal unions from different pairs: {0,1}+{2,3} and {0,2}+{1,3}.
            if round % 3 == 0 {
                list.extend([
                    set(&[30, 31]),
                    set(&[32, 33]),
                    set(&[30, 32]),
                    set(&[31, 33]),
                ]);
            }
            list.sort_unstable_by_key(|s| (s.count_ones(), *s));
            list.dedup();
            let area = 1u128 << (next() % 24);
            let rating = rate(&list, 5, area, &mut scratch);
            let ones: Vec<u128> = list
                .iter()
                .copied()
                .filter(|s| s.count_ones() <= 5 && s & area == 0)
                .collect();
            let levels = brute_levels(&ones);
            for (k, &count) in levels.iter().enumerate().skip(1) {
                assert_eq!(rating.levels[k] as usize, count, "round {round} level {k}");
            }
            assert_eq!(rating.levels[levels.len()], 0);
        }
    }

    #[test]
    fn weight_counts_every_disjoint_set() {
        let list = [
            set(&[0, 1]),
            set(&[2, 3, 4]),
            set(&[5, 6, 7, 8, 9, 10, 11, 12, 13]),
        ];
        let rating = rate(&list, 0, set(&[0]), &mut [0u128; 64]);
        assert_eq!(rating.levels, [0; MAX_LEVELS + 1]);
        assert_eq!(rating.weight, SCALE / 9 + SCALE / 81);
    }

    #[test]
    fn tiny_scratch_degrades_without_panic() {
        let list: Vec<u128> = (0..40u8).map(|i| set(&[2 * i, 2 * i + 1])).collect();
        for room in [0usize, 1, 7, 40, 100] {
            let mut scratch = vec![0u128; room];
            let rating = rate(&list, 8, 0, &mut scratch);
            assert!(rating.weight > 0);
        }
        // Big enough for level 1 and 2 but not 3 (C(40,3) unions): recorded as overflow.
        let mut scratch = vec![0u128; 1 << 13];
        let rating = rate(&list, 8, 0, &mut scratch);
        assert_eq!(rating.levels[1], 40);
        assert_eq!(rating.levels[2], 780);
        assert_eq!(rating.levels[3], u32::MAX);
    }

    #[test]
    fn ratings_compare_top_level_first() {
        let mut a = Rating {
            levels: [0; MAX_LEVELS + 1],
            weight: 5,
        };
        let mut b = a;
        a.levels[1] = 100;
        a.levels[2] = 10;
        b.levels[1] = 3;
        b.levels[2] = 2;
        b.levels[3] = 1;
        assert!(b > a);
        b.levels[3] = 0;
        assert!(a > b);
        b = a;
        b.weight = 6;
        assert!(b > a);
    }

    #[test]
    fn members_by_size_then_rating() {
        let sorted = [set(&[0, 1]), set(&[10, 11]), set(&[20, 21, 22])];
        // Same size 3 (MC-like list: 1/size^2 only): {0,5,6} leaves {10,11} and
        // {20,21,22}, {10,20,30} only {0,1}.
        let mut members = [set(&[10, 20, 30]), set(&[0, 5, 6]), set(&[40, 41])];
        members.sort_unstable_by_key(|s| s.count_ones());
        order_members(&mut members, &sorted, &mut [0u128; 4096]);
        assert_eq!(
            members,
            [set(&[40, 41]), set(&[0, 5, 6]), set(&[10, 20, 30])]
        );
    }

    #[test]
    fn cells_cover_free_cells_once() {
        let members = [set(&[3, 4]), set(&[7, 8, 9])];
        let free = (1u128 << 81) - 1 - set(&[80]);
        let mut order = [0u8; 81];
        let len = order_cells(
            &members,
            &[set(&[3, 50]), set(&[4, 60, 61])],
            free,
            &mut order,
            &mut [0u128; 4096],
        );
        assert_eq!(len, 80);
        let mut seen = 0u128;
        for &c in &order[..len] {
            assert_eq!(seen >> c & 1, 0);
            seen |= 1u128 << c;
        }
        assert_eq!(seen, free);
        // A set of size 2 makes the list MC-like: 1/size^2 only. Area {3} (cell 4 taken
        // out) leaves {4,60,61} (1/9), area {4} leaves {3,50} (1/4): cell 4 rates lower.
        assert_eq!(&order[..2], &[4, 3]);
        assert_eq!(set(&order[2..5]), members[1]);
        // Member 1 cells all tie (no small set avoids them): decreasing cell order.
        assert_eq!(&order[2..5], &[9, 8, 7]);
        assert_eq!(order[5], 0);
    }
}
