//! The pseudo-puzzles of four digits solved as tilings by digit templates.
//!
//! Blank every cell of four digits `a < b < c < d` (less the cells a masked scan keeps):
//! each row, column and box then misses exactly those four digits, so a solution puts
//! each of them on a *template* (nine cells, one per row, column and box) inside the
//! blanked cells, and the four templates tile the 36 cells of the four digits. Conversely
//! any three pairwise disjoint templates of `a`, `b` and `c` inside those cells leave a
//! template for `d` (each row, column and box has four of the cells, and the three take one
//! each), so the solutions are exactly the triples of disjoint templates.
//!
//! A digit's templates inside 36 cells are about a hundred, found by a walk down the rows
//! and tried nearest the grid first, so that small differences are kept early and prune
//! the rest: a solution with `a` on `ta` differs from the grid on `ta ^ ga` at least (the
//! cells `a` moves to, and those it leaves to another digit), so a pair `(ta, tb)` whose
//! partial difference holds a kept set is skipped. This replaces the general solver's
//! search (a propagation of about 1,400 instructions a node) for these pseudo-puzzles; the
//! differences go into the same [`Antichain`], which therefore ends with the same sets:
//! every minimal UA inside the blanks.
use super::antichain::Antichain;
use crate::gridcheck::cells::Cells;
use crate::gridcheck::grid::Grid;

/// Writes to the front of `out` the templates of a digit inside `allowed` that hold every
/// cell of `required` (which must lie inside `allowed`); returns how many, or `None` when
/// `out` is too small.
fn templates(allowed: Cells, required: Cells, out: &mut [Cells]) -> Option<usize> {
    // The columns each row may use: a required cell is the row's only choice.
    let mut columns = [0u16; 9];
    for (row, cols) in columns.iter_mut().enumerate() {
        let shift = row * 9;
        let forced = (required.0 >> shift) as u16 & 0x1ff;
        *cols = if forced != 0 {
            forced
        } else {
            (allowed.0 >> shift) as u16 & 0x1ff
        };
    }
    // A walk down the rows: `left[r]` the columns row r still has to try, `used_*[r]` the
    // columns and boxes taken by rows above r, `cells[r]` their cells.
    let mut left = [0u16; 9];
    let mut used_columns = [0u16; 9];
    let mut used_boxes = [0u16; 9];
    let mut cells = [Cells::EMPTY; 9];
    let mut count = 0usize;
    let mut row = 0usize;
    left[0] = columns[0];
    loop {
        if left[row] == 0 {
            if row == 0 {
                return Some(count);
            }
            row -= 1;
            continue;
        }
        let col = left[row].trailing_zeros() as usize;
        left[row] &= left[row] - 1;
        let bx = row / 3 * 3 + col / 3;
        if used_boxes[row] >> bx & 1 == 1 {
            continue;
        }
        let set = Cells(cells[row].0 | 1u128 << (row * 9 + col));
        if row == 8 {
            *out.get_mut(count)? = set;
            count += 1;
            continue;
        }
        used_columns[row + 1] = used_columns[row] | 1 << col;
        used_boxes[row + 1] = used_boxes[row] | 1 << bx;
        cells[row + 1] = set;
        row += 1;
        left[row] = columns[row] & !used_columns[row];
    }
}

/// Orders the templates `room[..count]` of a digit by how many cells they differ from its
/// cells in the grid, `own`, nearest first (small differences are then found early and
/// prune the rest), with `room[count..]` as the buffer of a counting sort; `None` when
/// that is too short.
fn nearest_first(own: Cells, room: &mut [Cells], count: usize) -> Option<()> {
    // Two templates differ on at most 2 * 9 cells.
    let mut starts = [0usize; 20];
    for t in &room[..count] {
        starts[(t.0 ^ own.0).count_ones() as usize + 1] += 1;
    }
    for d in 1..starts.len() {
        starts[d] += starts[d - 1];
    }
    let (sorted, buffer) = room.split_at_mut(count);
    let buffer = buffer.get_mut(..count)?;
    for &t in sorted.iter() {
        let at = &mut starts[(t.0 ^ own.0).count_ones() as usize];
        buffer[*at] = t;
        *at += 1;
    }
    sorted.copy_from_slice(buffer);
    Some(())
}

/// Offers to `chain` the minimal differences among the solutions that put the third
/// digit on one of the templates `third` inside `left` (two cells in each row, column and
/// box; the fourth digit takes the rest), the first two digits having made the difference
/// `dab`; `gc` holds the third digit's cells in the grid. Returns the number of differences
/// offered.
///
/// Only the differences with no smaller one among them are offered (they all hold `dab`):
/// skipping a difference that holds another solution's is exact, since the antichain keeps
/// the minimal ones and each of those is the difference of some solution.
fn offer_last_two(
    left: Cells,
    third: &[Cells],
    gc: Cells,
    dab: Cells,
    chain: &mut Antichain<'_>,
) -> u64 {
    // The fourth digit's template changes only cells the first three's differences hold
    // (each cell it takes from them, or leaves to them): the difference is complete.
    let mut found = [0u128; FOUND];
    let mut count = 0;
    let mut offered = 0;
    for &tc in third {
        if !tc.is_subset_of(left) {
            continue;
        }
        let diff = dab.0 | (tc.0 ^ gc.0);
        if diff == 0 {
            continue; // the grid itself
        }
        if count < FOUND {
            found[count] = diff;
            count += 1;
        } else {
            // More than expected: offered without comparing.
            offered += 1;
            chain.offer(Cells(diff));
        }
    }
    let found = &found[..count];
    for (i, &diff) in found.iter().enumerate() {
        // A smaller difference among them, or the same one earlier.
        let beaten = found
            .iter()
            .enumerate()
            .any(|(j, &other)| other & !diff == 0 && (other != diff || j < i));
        if !beaten {
            offered += 1;
            chain.offer(Cells(diff));
        }
    }
    offered
}

/// How many of one pair's differences [`offer_last_two`] compares before offering them.
const FOUND: usize = 16;

/// Collects in `chain` the minimal UA of `grid` inside the cells of the four digits of
/// `mask` (a 9-bit mask, bit `i` for digit `i + 1`) less `keep`, with the templates in
/// `room`; returns the number of solutions other than the grid reached, or `None` when
/// `room` cannot hold the templates (then `chain` is untouched). Check
/// [`Antichain::overflowed`] before using the result. `chain` is not cleared: sets it
/// already holds must be minimal UA inside the blanks.
pub(super) fn minimal_ua_of_four_digits(
    grid: &Grid,
    mask: u32,
    keep: Cells,
    chain: &mut Antichain<'_>,
    room: &mut [Cells],
) -> Option<u64> {
    let mut digits = [0u8; 4];
    let mut n = 0;
    for d in 0..9u8 {
        if mask >> d & 1 == 1 && n < 4 {
            digits[n] = d + 1;
            n += 1;
        }
    }
    if n != 4 || mask >> 9 != 0 {
        return None;
    }
    let placed = digits.map(|d| grid.cells_of_digit(d));
    let area = placed.iter().fold(Cells::EMPTY, |acc, &c| acc | c);
    let keep = keep.intersection(Cells::ALL);
    // Templates of the first three digits (the fourth fills what they leave), each inside
    // the area less the kept cells of the other digits, holding its own kept cells.
    let mut ends = [0usize; 3];
    let mut used = 0;
    for (i, end) in ends.iter_mut().enumerate() {
        let own = placed[i];
        let free = &mut room[used..];
        let found = templates(area - (keep - own), keep & own, free)?;
        nearest_first(own, free, found)?;
        used += found;
        *end = used;
    }
    let (lists, spare) = room.split_at_mut(used);
    let (a, rest) = lists.split_at(ends[0]);
    let (b, c) = rest.split_at(ends[1] - ends[0]);
    let [ga, gb, gc, _] = placed;
    let mut solutions = 0u64;
    for &ta in a {
        // A solution with `ta` differs from the grid on the cells `ta` moves digit `a` to
        // and on those it leaves (another digit fills them): on `ta ^ ga`, whatever comes
        // next. A partial difference holding a kept set can only lead to supersets of it.
        let da = Cells(ta.0 ^ ga.0);
        if !da.is_empty() && chain.covers(da) {
            continue;
        }
        // The third digit's templates that `ta` leaves room for (all of them if the
        // scratch is too short to copy them).
        let mut fit = 0;
        for &tc in c {
            if tc.is_disjoint(ta) && fit < spare.len() {
                spare[fit] = tc;
                fit += 1;
            }
        }
        let third = if fit < spare.len() { &spare[..fit] } else { c };
        for &tb in b {
            if !tb.is_disjoint(ta) {
                continue;
            }
            let dab = da | Cells(tb.0 ^ gb.0);
            if dab != da && chain.covers(dab) {
                continue;
            }
            let left = area - ta - tb;
            solutions += offer_last_two(left, third, gc, dab, chain);
            if chain.overflowed() {
                return Some(solutions);
            }
        }
    }
    Some(solutions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gridcheck::grid::tests::GRID_A;
    use crate::gridcheck::ua::generate::minimal_ua_inside;
    use std::vec;
    use std::vec::Vec;

    /// Every template of a digit inside `allowed` holding `required`, by brute force over
    /// the 9! column permutations.
    fn templates_brute(allowed: Cells, required: Cells) -> Vec<Cells> {
        let mut found = Vec::new();
        let mut perm: Vec<u8> = (0..9).collect();
        // Heap's algorithm.
        fn visit(k: usize, perm: &mut Vec<u8>, f: &mut impl FnMut(&[u8])) {
            if k == 1 {
                f(perm);
                return;
            }
            for i in 0..k {
                visit(k - 1, perm, f);
                let j = if k % 2 == 0 { i } else { 0 };
                perm.swap(j, k - 1);
            }
        }
        visit(9, &mut perm, &mut |p| {
            let set = (0..9u8).fold(Cells::EMPTY, |acc, r| {
                acc | Cells::single(r * 9 + p[r as usize])
            });
            let boxes = set
                .iter()
                .fold(0u16, |acc, c| acc | 1 << crate::gridcheck::cells::box_of(c));
            if boxes == 0x1ff && set.is_subset_of(allowed) && required.is_subset_of(set) {
                found.push(set);
            }
        });
        found.sort();
        found
    }

    #[test]
    fn templates_are_those_of_a_brute_force() {
        let g = Grid::parse(GRID_A).unwrap();
        let mut out = vec![Cells::EMPTY; 4096];
        for (digits, keep) in [
            ([1u8, 2, 3, 4], Cells::EMPTY),
            (
                [2, 5, 7, 9],
                Cells::from_cells(&[0, 1, 2, 10, 20, 30, 40, 50, 60, 70, 80]),
            ),
        ] {
            let area = digits
                .iter()
                .fold(Cells::EMPTY, |acc, &d| acc | g.cells_of_digit(d));
            for d in digits {
                let own = g.cells_of_digit(d);
                let (allowed, required) = (area - (keep - own), keep & own);
                let n = templates(allowed, required, &mut out).unwrap();
                let mut got = out[..n].to_vec();
                got.sort();
                let expected = templates_brute(allowed, required);
                assert!(expected.contains(&own));
                assert_eq!(got, expected, "digit {d}");
                // Too little room is reported, never a partial list.
                assert_eq!(templates(allowed, required, &mut out[..n - 1]), None);
            }
        }
    }

    #[test]
    fn four_digits_give_the_solvers_antichain() {
        let grids = [
            Grid::parse(GRID_A).unwrap(),
            Grid::parse(
                b"128465973534789261697231854271354698359876412486912735813647529965128347742593186",
            )
            .unwrap(),
        ];
        let keeps = [
            Cells::EMPTY,
            Cells::from_cells(&[0, 1, 2, 10, 20, 30, 40, 50, 60, 70, 80]),
        ];
        let mut room = vec![Cells::EMPTY; 4096];
        let (mut s1, mut s2) = (vec![Cells::EMPTY; 8192], vec![Cells::EMPTY; 8192]);
        for g in &grids {
            for keep in keeps {
                for mask in (0u32..512).filter(|m| m.count_ones() == 4) {
                    let blanks = (0..9u8)
                        .filter(|d| mask >> d & 1 == 1)
                        .fold(Cells::EMPTY, |acc, d| acc | g.cells_of_digit(d + 1))
                        - keep;
                    let mut solver = Antichain::new(&mut s1);
                    minimal_ua_inside(g, blanks, &mut solver);
                    let mut tiled = Antichain::new(&mut s2);
                    minimal_ua_of_four_digits(g, mask, keep, &mut tiled, &mut room).unwrap();
                    assert!(!solver.overflowed() && !tiled.overflowed());
                    let mut want = solver.as_slice().to_vec();
                    let mut got = tiled.as_slice().to_vec();
                    want.sort();
                    got.sort();
                    assert!(!want.is_empty() || !keep.is_empty(), "mask {mask:b}");
                    assert_eq!(got, want, "mask {mask:b}, {keep:?}");
                }
            }
        }
        // Not four digits, or no room for the templates: nothing is done.
        let g = &grids[0];
        let mut chain = Antichain::new(&mut s2);
        assert_eq!(
            minimal_ua_of_four_digits(g, 0b111, Cells::EMPTY, &mut chain, &mut room),
            None
        );
        assert_eq!(
            minimal_ua_of_four_digits(g, 0b1111, Cells::EMPTY, &mut chain, &mut room[..1]),
            None
        );
        assert!(chain.as_slice().is_empty());
    }
}
