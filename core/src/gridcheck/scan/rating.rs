//! Step C: order of the clique members and of the cells inside each member.
//!
//! Members go by size ascending. Inside a group of equal size a member is rated by the
//! small sets (size <= 11) disjoint from it, each weighing 1/size^2 (the reference tool's
//! tie-break rating; its "disjoint chain" levels are not computed here). Cells inside a
//! member are rated the same way (sets of size <= 8) against the union of all members up to
//! this one minus the cell, LOWEST rating first (measured on `ga`, N = 16: about half the
//! search nodes of highest-first, a quarter fewer than no cell rating). Cells outside the
//! clique keep increasing cell order (not rated, as in the reference's code).

/// Weight scale for 1/size^2 (integer, so the order is exact and deterministic).
const SCALE: u64 = 1 << 20;

/// Largest set size used to rate members.
pub const MEMBER_RATING_MAX_SIZE: u32 = 11;
/// Largest set size used to rate cells.
pub const CELL_RATING_MAX_SIZE: u32 = 8;

/// Sum of 1/size^2 over the sets of `sorted` (size ascending) up to `max_size` cells that
/// are disjoint from `area`.
fn disjoint_weight(sorted: &[u128], max_size: u32, area: u128) -> u64 {
    let mut weight = 0u64;
    for &set in sorted {
        let size = set.count_ones();
        if size > max_size {
            break;
        }
        if set & area == 0 {
            weight += SCALE / u64::from(size * size);
        }
    }
    weight
}

/// Orders `members` (already size ascending) in place: inside equal-size groups, the
/// member with the highest disjoint weight first (stable on ties).
pub fn order_members(members: &mut [u128], sorted: &[u128]) {
    let n = members.len();
    // Insertion sort keyed by (size asc, weight desc): n <= 41, no allocation needed.
    let mut weights = [0u64; super::clique::MAX_MEMBERS];
    for (i, &m) in members.iter().enumerate() {
        weights[i] = disjoint_weight(sorted, MEMBER_RATING_MAX_SIZE, m);
    }
    for i in 1..n {
        let mut j = i;
        while j > 0 {
            let (a, b) = (j - 1, j);
            let (sa, sb) = (members[a].count_ones(), members[b].count_ones());
            if sa > sb || (sa == sb && weights[a] < weights[b]) {
                members.swap(a, b);
                weights.swap(a, b);
                j -= 1;
            } else {
                break;
            }
        }
    }
}

/// Writes the free cells in iterator order into `order` and returns how many: the cells of
/// each member (rated), then the other free cells in increasing order.
pub fn order_cells(members: &[u128], sorted: &[u128], free: u128, order: &mut [u8; 81]) -> usize {
    let mut len = 0;
    let mut union = 0u128;
    for &member in members {
        union |= member;
        let start = len;
        let mut rest = member & free;
        let mut weights = [0u64; 81];
        while rest != 0 {
            let cell = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            weights[len - start] =
                disjoint_weight(sorted, CELL_RATING_MAX_SIZE, union & !(1u128 << cell));
            order[len] = cell;
            len += 1;
        }
        // Lowest weight first, then increasing cell (insertion sort, member sizes are small).
        for i in start + 1..len {
            let mut j = i;
            while j > start && weights[j - 1 - start] > weights[j - start] {
                order.swap(j - 1, j);
                weights.swap(j - 1 - start, j - start);
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
    fn members_by_size_then_weight() {
        let sorted = [set(&[0, 1]), set(&[10, 11]), set(&[20, 21, 22])];
        // Same size 3: {0,5,6} is disjoint from {10,11} and {20,21,22}; {10,20,30} from {0,1}.
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
        // Member cells first; cell 4 leaves {3,50} disjoint... both rated, all of member 0 first.
        assert_eq!(set(&order[..2]), members[0]);
        assert_eq!(set(&order[2..5]), members[1]);
        assert_eq!(order[5], 0);
    }
}
