//! Step E: which unavoidable sets the enumeration keeps: the `total` smallest, smallest
//! first (then by bits). Small sets prune most: a clue placed hits few of them, and the
//! enumeration branches on the smallest one left unhit.
use super::options::TruncationLimits;
use super::size_order::sort_size_order;

/// The length of the prefix of `list` (sorted by size) that holds every set of the sizes
/// [`truncate`] keeps: sorted in table order, its first sets are those of the whole list.
pub(crate) fn kept_sizes(list: &[u128], limits: TruncationLimits) -> usize {
    let total = limits.total.min(list.len());
    match total.checked_sub(1) {
        None => 0,
        Some(last) => {
            let size = list[last].count_ones();
            last + list[last..].partition_point(|set| set.count_ones() == size)
        }
    }
}

/// Sorts `list` in table order and returns how many of its first sets are kept.
pub(crate) fn truncate(list: &mut [u128], limits: TruncationLimits) -> usize {
    sort_size_order(list);
    limits.total.min(list.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_smallest_in_table_order() {
        let mut list = [
            0b1111u128 << 60,
            0b11 << 40,
            0b111 << 10,
            0b11,
            0b1111,
            0b111 << 20,
        ];
        let kept = truncate(&mut list, TruncationLimits { total: 4 });
        assert_eq!(kept, 4);
        assert_eq!(&list[..kept], &[0b11, 0b11 << 40, 0b111 << 10, 0b111 << 20]);
    }

    #[test]
    fn the_kept_sizes_hold_the_kept_sets() {
        let mut rng = crate::gridcheck::scan::region_fit::tests::lcg(5);
        for round in 0..200 {
            let mut list: std::vec::Vec<u128> = (0..1 + rng() % 60)
                .map(|_| (0..2 + rng() % 6).fold(0, |set, _| set | 1u128 << (rng() % 81)))
                .collect();
            sort_size_order(&mut list);
            // A position map that changes the bits' order (but not the sizes).
            let remap = |set: u128| {
                (0..81)
                    .filter(|&c| set >> c & 1 == 1)
                    .fold(0u128, |out, c| out | 1 << (80 - c))
            };
            let limits = TruncationLimits {
                total: (rng() % 70) as usize,
            };
            let mut whole: std::vec::Vec<u128> = list.iter().map(|&set| remap(set)).collect();
            let kept = truncate(&mut whole, limits);
            let prefix = kept_sizes(&list, limits);
            let mut part: std::vec::Vec<u128> =
                list[..prefix].iter().map(|&set| remap(set)).collect();
            assert_eq!(truncate(&mut part, limits), kept, "round {round}");
            assert_eq!(&part[..kept], &whole[..kept], "round {round}");
            assert!(
                prefix == 0
                    || prefix == list.len()
                    || list[prefix].count_ones() > list[prefix - 1].count_ones()
            );
        }
    }

    #[test]
    fn short_list_kept_whole() {
        let mut list = [0b111u128 << 5, 0b11];
        assert_eq!(truncate(&mut list, TruncationLimits::DEFAULT), 2);
        assert_eq!(list, [0b11, 0b111 << 5]);
    }
}
