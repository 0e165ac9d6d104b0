//! Step B: a maximum clique of mutually disjoint unavoidable sets, and among the maximum
//! ones the one with the smallest product of member sizes.
//!
//! Exhaustive branch and bound with an explicit stack over the small sets (sorted by size
//! ascending). Bound: with `free` cells not yet used and every later candidate at least as
//! big as the next one, at most `free / size` more members fit. A node budget keeps the
//! time bounded; when it runs out the best clique found so far is used (any clique of
//! disjoint real UA gives valid bounds, only maybe weaker ones).

/// Most members a clique can have: every set has at least 2 cells after step A.
pub(crate) const MAX_MEMBERS: usize = 41;

/// The chosen clique.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Clique {
    members: [u128; MAX_MEMBERS],
    len: usize,
    product: u64,
    /// True when the node budget ran out before the search finished.
    pub(crate) truncated: bool,
    /// Search nodes visited.
    pub(crate) nodes: u64,
}

impl Clique {
    /// Members in the order they were chosen (size ascending).
    pub(crate) fn members(&self) -> &[u128] {
        &self.members[..self.len]
    }

    #[cfg(test)]
    /// Product of the member sizes (1 for an empty clique).
    pub(crate) fn product(&self) -> u64 {
        self.product
    }

    /// Mutable access for the rating step (reordering members).
    pub(crate) fn members_mut(&mut self) -> &mut [u128] {
        &mut self.members[..self.len]
    }
}

/// Cell counts a set can have, plus one.
const SIZES: usize = 129;

/// Finds the clique. `sorted_small` must be sorted by size ascending; `universe` is the set
/// of cells the sets live in (free cells).
pub(crate) fn find_max_clique(sorted_small: &[u128], universe: u128, node_budget: u64) -> Clique {
    let mut best = Clique {
        members: [0; MAX_MEMBERS],
        len: 0,
        product: 1,
        truncated: false,
        nodes: 0,
    };
    let count = sorted_small.len();
    // ends[z]: the index after the last set of at most z cells (the list is sorted by
    // size). The bound depends on a candidate's size alone, so it is tested once per
    // size, and the sets of that size are then read for one disjoint from the union:
    // the same candidate the test per set finds, without a bit count per set.
    let mut ends = [0u32; SIZES];
    for (index, set) in sorted_small.iter().enumerate() {
        // At most 128 cells, and the list's length fits a u32 (at most the grid's UA).
        ends[set.count_ones() as usize] = index as u32 + 1;
    }
    for z in 1..SIZES {
        ends[z] = ends[z].max(ends[z - 1]);
    }
    // chosen[d] = candidate index taken at depth d; union[d] / product[d] = after d members.
    let mut chosen = [0usize; MAX_MEMBERS];
    let mut union = [0u128; MAX_MEMBERS + 1];
    let mut product = [1u64; MAX_MEMBERS + 1];
    let mut depth = 0usize;
    let mut next = 0usize;
    let mut nodes = 0u64;
    loop {
        nodes += 1;
        if nodes > node_budget {
            best.truncated = true;
            break;
        }
        let mut found = None;
        if depth < MAX_MEMBERS {
            let free_cells = (universe & !union[depth]).count_ones() as usize;
            let mut j = next;
            'sizes: while j < count {
                let size = sorted_small[j].count_ones() as usize;
                if size == 0 || size > free_cells {
                    break; // later sets are not smaller
                }
                let more = free_cells / size;
                if depth + more < best.len {
                    break;
                }
                if depth + more == best.len && best.len > 0 {
                    let need = best.len - depth;
                    let mut least = product[depth];
                    for _ in 0..need {
                        least = least.saturating_mul(size as u64);
                    }
                    if least >= best.product {
                        break;
                    }
                }
                let end = (ends[size] as usize).clamp(j + 1, count);
                let used = union[depth];
                match sorted_small[j..end].iter().position(|&set| set & used == 0) {
                    Some(k) => {
                        found = Some(j + k);
                        break 'sizes;
                    }
                    None => j = end,
                }
            }
        }
        match found {
            Some(j) => {
                let set = sorted_small[j];
                chosen[depth] = j;
                union[depth + 1] = union[depth] | set;
                product[depth + 1] = product[depth].saturating_mul(u64::from(set.count_ones()));
                depth += 1;
                next = j + 1;
                if depth > best.len || (depth == best.len && product[depth] < best.product) {
                    best.len = depth;
                    best.product = product[depth];
                    for d in 0..depth {
                        best.members[d] = sorted_small[chosen[d]];
                    }
                }
            }
            None => {
                if depth == 0 {
                    break;
                }
                depth -= 1;
                next = chosen[depth] + 1;
            }
        }
    }
    best.nodes = nodes;
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(cells: &[u8]) -> u128 {
        cells.iter().fold(0, |acc, &c| acc | 1u128 << c)
    }

    /// Brute force over all subsets of a small list.
    fn brute(list: &[u128]) -> (usize, u64) {
        let mut best = (0usize, 1u64);
        for pick in 0u32..(1 << list.len()) {
            let mut union = 0u128;
            let mut ok = true;
            let mut product = 1u64;
            for (i, &s) in list.iter().enumerate() {
                if pick >> i & 1 == 1 {
                    ok &= union & s == 0;
                    union |= s;
                    product *= u64::from(s.count_ones());
                }
            }
            let n = pick.count_ones() as usize;
            if ok && (n > best.0 || (n == best.0 && product < best.1)) {
                best = (n, product);
            }
        }
        best
    }

    #[test]
    fn finds_maximum_with_smallest_product() {
        let mut list = [
            set(&[0, 1]),
            set(&[1, 2]),
            set(&[3, 4, 5]),
            set(&[0, 6, 7]),
            set(&[2, 8, 9]),
            set(&[10, 11, 12, 13]),
            set(&[5, 10, 14, 15]),
            set(&[6, 7, 8, 9]),
        ];
        list.sort_unstable_by_key(|s| (s.count_ones(), *s));
        let clique = find_max_clique(&list, (1u128 << 81) - 1, 1_000_000);
        let (n, product) = brute(&list);
        assert_eq!(clique.members().len(), n);
        assert_eq!(clique.product(), product);
        let mut union = 0;
        for &m in clique.members() {
            assert_eq!(union & m, 0);
            union |= m;
        }
        assert!(!clique.truncated);
    }

    #[test]
    fn pseudo_random_lists_match_brute_force() {
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..40 {
            let mut list = [0u128; 12];
            for s in list.iter_mut() {
                let size = 2 + next() % 4;
                while s.count_ones() < size as u32 {
                    *s |= 1u128 << (next() % 20);
                }
            }
            list.sort_unstable_by_key(|s| (s.count_ones(), *s));
            let clique = find_max_clique(&list, (1u128 << 20) - 1, 10_000_000);
            assert_eq!((clique.members().len(), clique.product()), brute(&list));
        }
    }

    #[test]
    fn budget_stops_search() {
        let list = [set(&[0, 1]), set(&[2, 3]), set(&[4, 5])];
        let clique = find_max_clique(&list, (1u128 << 81) - 1, 2);
        assert!(clique.truncated);
        assert!(clique.members().len() <= 3);
    }
}
