//! Step C: order of the clique members and of the cells inside each member.
//!
//! An area of the grid (a member, or the union of the members so far minus one cell) is
//! rated by the sets that avoid it: the sum of 1/size^2 over every set disjoint from the
//! area, small sets weighing most. Members go by size ascending; inside a group of equal
//! size the HIGHEST rated member comes first (lowest positions). Cells inside each member
//! are rated on the union of all members up to this one minus the cell, LOWEST rating
//! first, ties by decreasing cell. Cells outside the clique keep increasing cell order.
//!
//! The reference tool also rates by "disjoint chains" of the small sets (distinct unions
//! of k disjoint sets avoiding the area, compared level by level before the weight), and
//! so did this step: on all 11 random grids measured, that order made a larger search tree
//! than the weight alone, and computing the chains was most of a grid's preparation time
//! (docs/PERFORMANCE.md).
use crate::gridcheck::cells::CELL_COUNT;
use core::cmp::Ordering;

/// Weight scale for 1/size^2 (integer, so the order is exact and deterministic).
const SCALE: u64 = 1 << 40;

/// A rating: the sum of `2^40 / size^2` over every set disjoint from the area. Higher is
/// better rated.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Rating(u64);

/// Rates `area` against `sorted`: the 1/size^2 sum over the sets that avoid it.
pub(crate) fn rate(sorted: &[u128], area: u128) -> Rating {
    let mut weight = 0;
    for &set in sorted {
        if set & area == 0 {
            weight += set_weight(set);
        }
    }
    Rating(weight)
}

/// A set's part of a rating: `2^40 / size^2`.
#[inline]
fn set_weight(set: u128) -> u64 {
    let size = u64::from(set.count_ones()).max(1);
    SCALE / (size * size)
}

/// The rating of `area` less each one of its `cells`, in one pass over `sorted` (one
/// pass per cell reads the list ~60 times a grid): a set avoids `area` less cell `c`
/// when it avoids `area` or meets it in `c` alone. Returns the weight of the sets avoiding
/// `area`, and per cell of `cells` that of the sets meeting `area` in that cell alone;
/// [`rate`]`(sorted, area & !(1 << c))` is their sum.
fn rate_without_each(sorted: &[u128], area: u128, cells: u128) -> (u64, [u64; CELL_COUNT]) {
    let mut avoiding = 0;
    let mut alone = [0u64; CELL_COUNT];
    for &set in sorted {
        let met = set & area;
        if met == 0 {
            avoiding += set_weight(set);
        } else if met & (met - 1) == 0 && met & cells != 0 {
            alone[met.trailing_zeros() as usize % CELL_COUNT] += set_weight(set);
        }
    }
    (avoiding, alone)
}

/// Orders `members` (already size ascending) in place: inside equal-size groups, the
/// highest rated member first (stable on ties).
pub(crate) fn order_members(members: &mut [u128], sorted: &[u128]) {
    let n = members.len();
    let mut ratings = [Rating(0); super::clique::MAX_MEMBERS];
    let mut start = 0;
    while start < n {
        let size = members[start].count_ones();
        let mut end = start + 1;
        while end < n && members[end].count_ones() == size {
            end += 1;
        }
        if end - start > 1 {
            for i in start..end {
                ratings[i] = rate(sorted, members[i]);
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
) -> usize {
    let mut len = 0;
    let mut union = 0u128;
    for &member in members {
        union |= member;
        let start = len;
        let mut rest = member & free;
        let (avoiding, alone) = rate_without_each(sorted, union, rest);
        let mut ratings = [Rating(0); CELL_COUNT];
        while rest != 0 {
            let cell = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            // rate(sorted, union & !(1 << cell))
            ratings[len - start] = Rating(avoiding + alone[usize::from(cell)]);
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

    fn set(cells: &[u8]) -> u128 {
        cells.iter().fold(0, |acc, &c| acc | 1u128 << c)
    }

    #[test]
    fn weight_counts_every_disjoint_set() {
        let list = [
            set(&[0, 1]),
            set(&[2, 3, 4]),
            set(&[5, 6, 7, 8, 9, 10, 11, 12, 13]),
        ];
        assert_eq!(rate(&list, set(&[0])), Rating(SCALE / 9 + SCALE / 81));
        assert!(rate(&list, set(&[0])) < rate(&list, set(&[20])));
    }

    #[test]
    fn one_pass_rates_each_cell_as_rate_does() {
        let mut rng = crate::gridcheck::scan::region_fit::tests::lcg(11);
        for _ in 0..100 {
            let sorted: std::vec::Vec<u128> = (0..rng() % 80)
                .map(|_| (0..1 + rng() % 8).fold(0, |set, _| set | 1u128 << (rng() % 81)))
                .collect();
            let area = (0..rng() % 30).fold(0u128, |area, _| area | 1u128 << (rng() % 81));
            let cells = area & (0..10).fold(0u128, |c, _| c | 1u128 << (rng() % 81));
            let (avoiding, alone) = rate_without_each(&sorted, area, cells);
            for cell in (0..81).filter(|&c| cells >> c & 1 == 1) {
                let one_pass = Rating(avoiding + alone[cell]);
                assert_eq!(one_pass, rate(&sorted, area & !(1u128 << cell)));
            }
        }
    }

    #[test]
    fn members_by_size_then_rating() {
        let sorted = [set(&[0, 1]), set(&[10, 11]), set(&[20, 21, 22])];
        // Same size 3: {0,5,6} leaves {10,11} and {20,21,22}, {10,20,30} only {0,1}.
        let mut members = [set(&[10, 20, 30]), set(&[0, 5, 6]), set(&[40, 41])];
        members.sort_unstable_by_key(|s| s.count_ones());
        order_members(&mut members, &sorted);
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
        );
        assert_eq!(len, 80);
        let mut seen = 0u128;
        for &c in &order[..len] {
            assert_eq!(seen >> c & 1, 0);
            seen |= 1u128 << c;
        }
        assert_eq!(seen, free);
        // Area {3} (cell 4 taken out) leaves {4,60,61} (1/9), area {4} leaves {3,50}
        // (1/4): cell 4 rates lower and comes first.
        assert_eq!(&order[..2], &[4, 3]);
        assert_eq!(set(&order[2..5]), members[1]);
        // Member 1 cells all tie (no small set avoids them): decreasing cell order.
        assert_eq!(&order[2..5], &[9, 8, 7]);
        assert_eq!(order[5], 0);
    }
}
