//! One band's clue sets: the k-cell sets of the band hitting every UA that lies inside it,
//! counted or listed a block at a time, in one fixed order.
//!
//! The walk branches on the first UA still unhit: its i-th branch takes the UA's i-th open
//! cell and forbids the cells before it, so the branches split the sets by their first
//! cell in that UA and no set comes twice. Where every UA is hit, the node's sets are its
//! cells plus any `left` of the cells still open (a leaf): a count is a binomial, and a
//! block that starts inside a leaf is entered by unranking. The walk is an explicit stack
//! (at most 28 frames), so a block never costs more than the walk's inner nodes plus its
//! own sets.
use super::geometry::{binomial, BAND};
use core::ops::ControlFlow;

/// A node whose branch cells `rest` are still to try.
#[derive(Copy, Clone, Default)]
struct Frame {
    chosen: u32,
    forbidden: u32,
    left: u32,
    rest: u32,
    /// The UA this node branches on: its children start their search after it.
    from: usize,
}

/// Visits the leaves of the walk over `uas` (band-local cells in the low 27 bits) for `k` cells, in order:
/// `leaf(chosen, open, left)` with `open` the cells a set may still take.
fn walk(uas: &[u128], k: u32, mut leaf: impl FnMut(u32, u32, u32) -> ControlFlow<()>) {
    let mut frames = [Frame::default(); 28];
    let mut depth = 0usize;
    // The node to visit next: (chosen, forbidden, left, first UA to look at).
    let mut visit = Some((0u32, 0u32, k, 0usize));
    loop {
        if let Some((chosen, forbidden, left, from)) = visit.take() {
            match uas[from..].iter().position(|&u| u as u32 & chosen == 0) {
                None => {
                    if leaf(chosen, BAND & !(chosen | forbidden), left).is_break() {
                        return;
                    }
                }
                Some(i) if left > 0 => {
                    frames[depth] = Frame {
                        chosen,
                        forbidden,
                        left,
                        rest: uas[from + i] as u32 & !forbidden,
                        from: from + i + 1,
                    };
                    depth += 1;
                }
                Some(_) => {}
            }
        }
        let Some(top) = depth.checked_sub(1) else {
            return;
        };
        let frame = &mut frames[top];
        if frame.rest == 0 {
            depth = top;
            continue;
        }
        let cell = frame.rest & frame.rest.wrapping_neg();
        frame.rest &= frame.rest - 1;
        visit = Some((
            frame.chosen | cell,
            frame.forbidden,
            frame.left - 1,
            frame.from,
        ));
        frame.forbidden |= cell;
    }
}

/// How many k-cell sets of the band hit every one of `uas`.
pub(super) fn count(uas: &[u128], k: u32) -> u64 {
    let mut total = 0u64;
    walk(uas, k, |_, open, left| {
        total += binomial(open.count_ones(), left);
        ControlFlow::Continue(())
    });
    total
}

/// Writes the sets after the first `skip` into `out` (as many as fit, or as there are);
/// returns how many were written.
pub(super) fn fill(uas: &[u128], k: u32, skip: u64, out: &mut [u64]) -> usize {
    let mut skip = skip;
    let mut written = 0usize;
    walk(uas, k, |chosen, open, left| {
        let n = open.count_ones();
        let here = binomial(n, left);
        if skip >= here {
            skip -= here;
            return ControlFlow::Continue(());
        }
        let mut positions = [0u8; 27];
        let mut cells = open;
        for slot in positions.iter_mut().take(n as usize) {
            *slot = cells.trailing_zeros() as u8;
            cells &= cells - 1;
        }
        let mut combination = unrank(skip, left);
        skip = 0;
        loop {
            if written == out.len() {
                return ControlFlow::Break(());
            }
            let mut set = chosen;
            let mut bits = combination;
            while bits != 0 {
                set |= 1 << positions[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
            out[written] = u64::from(set);
            written += 1;
            match next_combination(combination) {
                Some(next) if next >> n == 0 => combination = next,
                _ => return ControlFlow::Continue(()),
            }
        }
    });
    written
}

/// The `rank`-th `k`-bit pattern in increasing order (colex order of the positions).
fn unrank(rank: u64, k: u32) -> u32 {
    let mut rank = rank;
    let mut pattern = 0u32;
    for i in (1..=k).rev() {
        // The largest position p with C(p, i) <= rank.
        let mut p = i - 1;
        while binomial(p + 1, i) <= rank {
            p += 1;
        }
        pattern |= 1 << p;
        rank -= binomial(p, i);
    }
    pattern
}

/// The next pattern with as many bits, in increasing order (Gosper's step); `None` after
/// the empty pattern, which is the only one with no bit.
pub(super) fn next_combination(pattern: u32) -> Option<u32> {
    if pattern == 0 {
        return None;
    }
    let low = pattern & pattern.wrapping_neg();
    let ripple = pattern.checked_add(low)?;
    Some(ripple | ((pattern ^ ripple) / low) >> 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;
    use std::vec::Vec;

    fn brute(uas: &[u128], k: u32) -> Vec<u64> {
        let mut out = Vec::new();
        let mut pattern = (1u32 << k) - 1;
        while pattern >> 27 == 0 {
            if uas.iter().all(|&u| u as u32 & pattern != 0) {
                out.push(u64::from(pattern));
            }
            match next_combination(pattern) {
                Some(next) => pattern = next,
                None => break,
            }
        }
        out
    }

    /// The sets are exactly the k-subsets that hit every UA, each once, and blocks cut at
    /// any point join up to the whole list.
    #[test]
    fn the_sets_are_the_hitting_subsets_in_blocks() {
        let uas: [u128; 4] = [
            0b111,
            0b11000,
            0b1_0000_0001,
            0b110_0000_0000_0000_0000_0000_0000,
        ];
        for k in 0..=4 {
            let mut whole = vec![0u64; 30_000];
            let n = fill(&uas, k, 0, &mut whole);
            whole.truncate(n);
            assert_eq!(n as u64, count(&uas, k));
            let mut sorted = whole.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, brute(&uas, k), "k = {k}");
            for block in [1usize, 7, 100] {
                let mut joined = Vec::new();
                let mut buffer = vec![0u64; block];
                loop {
                    let got = fill(&uas, k, joined.len() as u64, &mut buffer);
                    joined.extend_from_slice(&buffer[..got]);
                    if got < block {
                        break;
                    }
                }
                assert_eq!(joined, whole, "k = {k}, blocks of {block}");
            }
        }
    }

    #[test]
    fn unranking_follows_gospers_order() {
        let mut pattern = 0b111u32;
        for rank in 0..200 {
            assert_eq!(unrank(rank, 3), pattern);
            pattern = next_combination(pattern).unwrap();
        }
        assert_eq!(unrank(0, 0), 0);
        assert_eq!(next_combination(0), None);
    }
}
