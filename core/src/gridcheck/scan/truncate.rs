//! Step E: which unavoidable sets the enumeration keeps, and the scan order.
//!
//! Keep every set of size <= S, S the largest size with at most `small` sets that small;
//! then add larger sets whose lowest position is highest (head of the scan order) up to
//! `total`. The kept list is sorted in scan order: lowest position descending, then size
//! ascending, then bits — so the head of any filtered sub-list is the unhit set whose last
//! chance to be hit comes first.
use super::options::TruncationLimits;

/// Scan-order key of a remapped set.
fn scan_key(set: u128) -> (core::cmp::Reverse<u32>, u32, u128) {
    (
        core::cmp::Reverse(set.trailing_zeros()),
        set.count_ones(),
        set,
    )
}

/// Sorts `list` smallest first (then by bits): the enumeration's table order.
pub fn sort_size_order(list: &mut [u128]) {
    list.sort_unstable_by_key(|&set| (set.count_ones(), set));
}

/// Sorts `list` in scan order.
pub fn sort_scan_order(list: &mut [u128]) {
    list.sort_unstable_by_key(|&set| scan_key(set));
}

/// `list` holds remapped sets sorted by size ascending. Rearranges it so that the kept
/// sets come first, in scan order, and returns how many are kept.
pub fn truncate(list: &mut [u128], limits: TruncationLimits) -> usize {
    let total = limits.total.min(list.len());
    let small_cap = limits.small.min(total);
    // Largest prefix of whole size classes with at most `small_cap` sets.
    let mut small = 0;
    let mut i = 0;
    while i < list.len() {
        let size = list[i].count_ones();
        let mut end = i;
        while end < list.len() && list[end].count_ones() == size {
            end += 1;
        }
        if end > small_cap {
            break;
        }
        small = end;
        i = end;
    }
    let extra = total - small;
    let rest = &mut list[small..];
    if extra > 0 && extra < rest.len() {
        rest.select_nth_unstable_by_key(extra - 1, |&set| scan_key(set));
    }
    let kept = small + extra;
    sort_scan_order(&mut list[..kept]);
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_small_classes_then_highest_lowest() {
        // Sizes: three of size 2, two of size 3, four of size 4.
        let mut list = [
            0b11u128,
            0b1100,
            0b11 << 40,
            0b111 << 10,
            0b111 << 20,
            0b1111,
            0b1111 << 50,
            0b1111 << 30,
            0b1111 << 60,
        ];
        let kept = truncate(&mut list, TruncationLimits { small: 4, total: 6 });
        assert_eq!(kept, 6);
        // Small part: the three of size 2 (adding size 3 would make 5 > 4); then the three
        // highest-lowest others: bits at 60, 50, 30.
        let mut expect = [
            0b11u128,
            0b1100,
            0b11 << 40,
            0b1111 << 60,
            0b1111 << 50,
            0b1111 << 30,
        ];
        sort_scan_order(&mut expect);
        assert_eq!(&list[..kept], &expect);
        for w in list[..kept].windows(2) {
            assert!(w[0].trailing_zeros() >= w[1].trailing_zeros());
        }
    }

    #[test]
    fn short_list_kept_whole() {
        let mut list = [0b11u128, 0b111 << 5];
        assert_eq!(truncate(&mut list, TruncationLimits::WHOLE_GRID), 2);
        assert_eq!(list, [0b111 << 5, 0b11]);
    }
}
