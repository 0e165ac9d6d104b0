//! UA generation from pseudo-puzzles.
//!
//! A *pseudo-puzzle* is the grid with some cells blanked. Each of its solutions other than
//! the grid differs from it on a UA; the minimal UA lying inside the blanked cells are
//! exactly the minimal sets among those differences (a minimal UA `U` is itself the
//! difference of the solution that re-fills `U` differently). So for each pseudo-puzzle the
//! solutions are enumerated into an [`Antichain`] in caller scratch, and the survivors —
//! true minimal UA — are merged into the caller's [`UaList`].
//!
//! The enumeration skips every branch whose cells already placed differently from the grid
//! contain a kept set: all its solutions would be supersets of it. Where a kept set lacks
//! only one cell of those, that cell keeps the grid's digit without a branch (changing it
//! would make the same superset), and where one lacks two, the search guesses on those
//! first (the branch that changes one then keeps the other). [`for_mask`] solves its
//! 4-digit pseudo-puzzles as tilings by digit templates (`tiling.rs`) rather than with the
//! general solver, and starts each random one's antichain with the small 4-digit sets
//! that lie inside its blanks, which prunes more and ends with the same sets;
//! [`from_random_blanks`], without 4-digit sets, starts each with the small sets of the
//! pseudo-puzzles before it, and [`from_digit_subsets`] each `k`-digit antichain with its
//! `(k - 1)`-digit subsets' sets.
//! A pseudo-puzzle whose antichain overflows the scratch is dropped (counted in
//! [`GenStats::dropped`]): its survivors might not be minimal.
use core::ops::ControlFlow;

use super::antichain::Antichain;
use super::list::UaList;
use super::rng::SplitMix64;
use super::tiling;
use crate::gridcheck::cells::{box_of, Cells, CELL_COUNT};
use crate::gridcheck::error::GridcheckError;
use crate::gridcheck::grid::Grid;
use crate::gridcheck::solver::{for_each_difference, DifferenceSink};

/// Blank cells per random pseudo-puzzle unless told otherwise (the reference default).
pub const DEFAULT_RANDOM_BLANKS: u32 = 54;

/// What a generation run did.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct GenStats {
    /// Pseudo-puzzles solved.
    pub pseudo_puzzles: u32,
    /// Pseudo-puzzles whose result was dropped because the scratch overflowed.
    pub dropped: u32,
    /// Solutions (other than the grid) reached; for the 4-digit pseudo-puzzles of
    /// [`for_mask`], solved as tilings that offer only each pair's smallest differences,
    /// the differences offered.
    pub solutions: u64,
    /// Minimal UA merged into the list (before removing duplicates across pseudo-puzzles).
    pub merged: u64,
}

impl GenStats {
    /// Adds the counts of `other`.
    pub fn add(&mut self, other: GenStats) {
        self.pseudo_puzzles += other.pseudo_puzzles;
        self.dropped += other.dropped;
        self.solutions += other.solutions;
        self.merged += other.merged;
    }
}

/// The antichain as the receiver of a pseudo-puzzle's solutions.
impl DifferenceSink for Antichain<'_> {
    #[inline]
    fn prune(&self, placed_differently: Cells) -> bool {
        self.covers(placed_differently)
    }

    #[inline]
    fn keep_or_prune(&self, placed_differently: Cells) -> Option<(Cells, Cells)> {
        self.covers_or_completes(placed_differently)
    }

    #[inline]
    fn found(&mut self, difference: Cells) -> ControlFlow<()> {
        self.offer(difference);
        if self.overflowed() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// Collects in `chain` the minimal UA of `grid` lying inside `blanks`; returns the number of
/// solutions reached. Check [`Antichain::overflowed`] before using the result.
///
/// ```
/// use xcover_core::gridcheck::ua::{generate, verify_ua, Antichain};
/// use xcover_core::gridcheck::{Cells, Grid};
///
/// let grid = Grid::parse(b"123456789456789123789123456214365897365897214897214365531642978642978531978531642")?;
/// let mut scratch = [Cells::EMPTY; 256];
/// let mut chain = Antichain::new(&mut scratch);
/// let blanks = grid.cells_of_digit(1) | grid.cells_of_digit(2) | grid.cells_of_digit(3);
/// assert!(generate::minimal_ua_inside(&grid, blanks, &mut chain) > 0);
/// assert!(chain.as_slice().iter().all(|&u| u.is_subset_of(blanks) && verify_ua(&grid, u)));
/// # Ok::<(), xcover_core::gridcheck::GridcheckError>(())
/// ```
pub fn minimal_ua_inside(grid: &Grid, blanks: Cells, chain: &mut Antichain<'_>) -> u64 {
    chain.clear();
    for_each_difference(grid, blanks.complement(), chain)
}

/// Solves one pseudo-puzzle and merges its minimal UA into `list` (or drops them all if the
/// scratch overflowed).
fn merge_pseudo_puzzle(
    grid: &Grid,
    blanks: Cells,
    list: &mut UaList<'_>,
    scratch: &mut [Cells],
) -> Result<GenStats, GridcheckError> {
    let mut chain = Antichain::new(scratch);
    let solutions = minimal_ua_inside(grid, blanks, &mut chain);
    if chain.overflowed() {
        return Ok(GenStats {
            pseudo_puzzles: 1,
            dropped: 1,
            solutions,
            merged: 0,
        });
    }
    merge_antichain(&chain, solutions, list)
}

/// Merges the sets of one pseudo-puzzle's complete antichain into `list`; its counts.
fn merge_antichain(
    chain: &Antichain<'_>,
    solutions: u64,
    list: &mut UaList<'_>,
) -> Result<GenStats, GridcheckError> {
    let mut stats = GenStats {
        pseudo_puzzles: 1,
        solutions,
        ..GenStats::default()
    };
    for &ua in chain.as_slice() {
        list.push_merging(ua)?;
        stats.merged += 1;
    }
    Ok(stats)
}

/// Calls `f` with every `k`-subset of `0..9` as a 9-bit mask, in increasing mask order.
fn for_each_subset_of_nine(
    k: u32,
    mut f: impl FnMut(u32) -> Result<(), GridcheckError>,
) -> Result<(), GridcheckError> {
    for mask in 0u32..512 {
        if mask.count_ones() == k {
            f(mask)?;
        }
    }
    Ok(())
}

/// Pseudo-puzzles blanking every cell of `k` digits (k = 4: 126 pseudo-puzzles of 36
/// blanks, all UA of up to 4 digits; k = 5: 126 of 45 blanks, slower). The list is sorted
/// and deduplicated at the end; `Err(ListFull)` if it cannot hold the distinct UA.
pub fn from_digit_subsets(
    grid: &Grid,
    k: u32,
    list: &mut UaList<'_>,
    scratch: &mut [Cells],
) -> Result<GenStats, GridcheckError> {
    let mut digit_cells = [Cells::EMPTY; 9];
    for (d, cells) in digit_cells.iter_mut().enumerate() {
        *cells = grid.cells_of_digit(d as u8 + 1);
    }
    from_subsets(grid, k, &digit_cells, list, scratch)
}

/// Pseudo-puzzles blanking every cell of `k` boxes (C(9, k) pseudo-puzzles). The list is
/// sorted and deduplicated at the end.
pub fn from_box_subsets(
    grid: &Grid,
    k: u32,
    list: &mut UaList<'_>,
    scratch: &mut [Cells],
) -> Result<GenStats, GridcheckError> {
    let mut box_cells = [Cells::EMPTY; 9];
    for cell in 0..CELL_COUNT as u8 {
        box_cells[box_of(cell) as usize].insert(cell);
    }
    from_subsets(grid, k, &box_cells, list, scratch)
}

/// One pseudo-puzzle per `k`-subset of the nine `parts`, blanking their union.
fn from_subsets(
    grid: &Grid,
    k: u32,
    parts: &[Cells; 9],
    list: &mut UaList<'_>,
    scratch: &mut [Cells],
) -> Result<GenStats, GridcheckError> {
    let stats = merge_subsets(grid, k, parts, Cells::EMPTY, list, scratch)?;
    list.dedup();
    Ok(stats)
}

/// The `(k - 1)`-subsets' minimal UA, kept at the front of the scratch to seed the
/// `k`-subsets' antichains.
struct SubsetSeeds {
    /// The `(k - 1)`-subsets as 9-bit masks, in increasing order.
    masks: [u16; 126],
    /// `ends[i]`: where the sets of `masks[i]` end in the scratch (they start where the
    /// previous subset's end).
    ends: [usize; 126],
    count: usize,
}

impl SubsetSeeds {
    /// The range of the scratch holding the sets of subset `mask` (empty if unknown).
    fn range(&self, mask: u32) -> core::ops::Range<usize> {
        match self.masks[..self.count]
            .iter()
            .position(|&m| u32::from(m) == mask)
        {
            Some(0) => 0..self.ends[0],
            Some(i) => self.ends[i - 1]..self.ends[i],
            None => 0..0,
        }
    }
}

/// Merges into `list` the minimal UA of one pseudo-puzzle per `k`-subset of the nine
/// `parts`, blanking their union less `keep` (not sorted).
///
/// Each `k`-subset's pseudo-puzzle holds the blanks of its `k` subsets of `k - 1` parts,
/// so the minimal UA of those smaller pseudo-puzzles are minimal UA of it (a minimal UA
/// inside fewer blanks is one inside more). They are solved first, once each, and seed the
/// larger pseudo-puzzles' antichains: the search then prunes every branch that would only
/// find them again, or their supersets, and the antichain ends with the same sets (all the
/// minimal UA inside the blanks). An antichain that overflows with its seeds is solved
/// again without them on the whole scratch, as before seeding, and so are the
/// pseudo-puzzles after it.
fn merge_subsets(
    grid: &Grid,
    k: u32,
    parts: &[Cells; 9],
    keep: Cells,
    list: &mut UaList<'_>,
    scratch: &mut [Cells],
) -> Result<GenStats, GridcheckError> {
    let blanks_of = |mask: u32| {
        (0..9)
            .filter(|i| mask >> i & 1 == 1)
            .fold(Cells::EMPTY, |acc, i| acc | parts[i])
            - keep
    };
    let mut seeds = SubsetSeeds {
        masks: [0; 126],
        ends: [0; 126],
        count: 0,
    };
    let mut used = 0usize;
    if k >= 2 {
        for_each_subset_of_nine(k - 1, |mask| {
            let mut chain = Antichain::new(&mut scratch[used..]);
            minimal_ua_inside(grid, blanks_of(mask), &mut chain);
            if !chain.overflowed() {
                used += chain.as_slice().len();
            }
            seeds.masks[seeds.count] = mask as u16;
            seeds.ends[seeds.count] = used;
            seeds.count += 1;
            Ok(())
        })?;
    }
    let mut stats = GenStats::default();
    for_each_subset_of_nine(k, |mask| {
        let blanks = blanks_of(mask);
        let (known, room) = scratch.split_at_mut(used);
        let subsets = (0..9)
            .filter(|part| mask >> part & 1 == 1)
            .flat_map(|part| &known[seeds.range(mask & !(1 << part))]);
        if let Some(seeded) = merge_with_seeds(grid, blanks, subsets.copied(), list, room)? {
            stats.add(seeded);
        } else {
            // Solved again without seeds on the whole scratch, as before seeding; the
            // seeds are overwritten, so the pseudo-puzzles left go without them too.
            used = 0;
            seeds.count = 0;
            stats.add(merge_pseudo_puzzle(grid, blanks, list, scratch)?);
        }
        Ok(())
    })?;
    Ok(stats)
}

/// `count` pseudo-puzzles each blanking `blanks` cells (capped at 81) chosen uniformly at
/// random from `seed` (same seed, same UA). The list is sorted and deduplicated at the end.
///
/// ```
/// use xcover_core::gridcheck::ua::{generate, UaList};
/// use xcover_core::gridcheck::{Cells, Grid};
///
/// let grid = Grid::parse(b"123456789456789123789123456214365897365897214897214365531642978642978531978531642")?;
/// let (mut storage, mut scratch) = ([Cells::EMPTY; 1024], [Cells::EMPTY; 1024]);
/// let mut list = UaList::new(&mut storage);
/// let stats = generate::from_random_blanks(&grid, 5, 40, 1, &mut list, &mut scratch)?;
/// assert_eq!(stats.pseudo_puzzles, 5);
/// assert!(!list.is_empty());
/// # Ok::<(), xcover_core::gridcheck::GridcheckError>(())
/// ```
pub fn from_random_blanks(
    grid: &Grid,
    count: u32,
    blanks: u32,
    seed: u64,
    list: &mut UaList<'_>,
    scratch: &mut [Cells],
) -> Result<GenStats, GridcheckError> {
    let blanks = blanks.min(CELL_COUNT as u32) as usize;
    let mut order: [u8; CELL_COUNT] = core::array::from_fn(|i| i as u8);
    let stats = merge_random(grid, count, blanks, seed, &mut order, None, list, scratch)?;
    list.dedup();
    Ok(stats)
}

/// Merges into `list` the minimal UA of `count` pseudo-puzzles each blanking `blanks` of
/// the cells of `order` chosen uniformly at random from `seed` (a partial Fisher-Yates
/// shuffle of `order` in place: the first `blanks` entries become a uniform random
/// subset). With `seeds` (the number of sets at the front of `scratch`, distinct: minimal
/// UA of the grid found by this generation), each antichain starts
/// with those inside its blanks; without, each pseudo-puzzle's small sets seed the next
/// ones ([`grow_seeds`]).
#[allow(clippy::too_many_arguments)]
fn merge_random(
    grid: &Grid,
    count: u32,
    blanks: usize,
    seed: u64,
    order: &mut [u8],
    seeds: Option<usize>,
    list: &mut UaList<'_>,
    scratch: &mut [Cells],
) -> Result<GenStats, GridcheckError> {
    let blanks = blanks.min(order.len());
    let (grow, mut seeds) = (seeds.is_none(), seeds.unwrap_or(0));
    let mut rng = SplitMix64::new(seed);
    let mut stats = GenStats::default();
    for _ in 0..count {
        let mut set = Cells::EMPTY;
        for i in 0..blanks {
            let j = i + rng.below((order.len() - i) as u32) as usize;
            order.swap(i, j);
            set.insert(order[i]);
        }
        let one = merge_seeded(grid, set, &mut seeds, list, scratch)?;
        if grow && one.dropped == 0 {
            grow_seeds(scratch, &mut seeds, one.merged as usize);
        }
        stats.add(one);
    }
    Ok(stats)
}

/// The UA list a scan of `grid` starts from (the CLI's recipe): all 4-digit subsets, then
/// `random` pseudo-puzzles of random blank cells (seeded: same seed, same list). Cells of
/// `keep` (the forced givens of a masked scan) are never blanked: a UA through a forced
/// given is useless to that scan, and keeping them makes the pseudo-puzzles much smaller;
/// the random pseudo-puzzles then blank two thirds of the open cells (the reference's 54 of
/// 81), at most [`DEFAULT_RANDOM_BLANKS`]. Every set merged is a real minimal UA; the list
/// is sorted and de-duplicated at the end. `Err(ListFull)` when the distinct sets do not
/// fit (the list then holds some of them, all real UA).
///
/// ```
/// use xcover_core::gridcheck::ua::{generate, UaList};
/// use xcover_core::gridcheck::{Cells, Grid};
///
/// let grid = Grid::parse(b"123456789456789123789123456214365897365897214897214365531642978642978531978531642")?;
/// let keep = Cells::from_cells(&[0, 1, 2, 3]); // forced givens of a masked scan
/// let (mut storage, mut scratch) = ([Cells::EMPTY; 4096], [Cells::EMPTY; 4096]);
/// let mut list = UaList::new(&mut storage);
/// generate::for_mask(&grid, 20, 7, keep, &mut list, &mut scratch)?;
/// assert!(list.as_slice().iter().all(|u| u.is_disjoint(keep)));
/// # Ok::<(), xcover_core::gridcheck::GridcheckError>(())
/// ```
pub fn for_mask(
    grid: &Grid,
    random: u32,
    seed: u64,
    keep: Cells,
    list: &mut UaList<'_>,
    scratch: &mut [Cells],
) -> Result<GenStats, GridcheckError> {
    let keep = keep.intersection(Cells::ALL);
    let start = list.len();
    let mut stats = merge_four_digits(grid, keep, list, scratch)?;
    let seeds = keep_small_sets(list, start, stats.merged, scratch);
    list.dedup();
    // The open cells, in increasing order, shuffled in place below (without kept cells,
    // all 81 cells and 54 blanks: `from_random_blanks`'s pseudo-puzzles).
    let mut order = [0u8; CELL_COUNT];
    let mut open = 0;
    for cell in keep.complement().iter() {
        order[open] = cell;
        open += 1;
    }
    let order = &mut order[..open];
    let blanks = (open * 2 / 3).min(DEFAULT_RANDOM_BLANKS as usize);
    stats.add(merge_random(
        grid,
        random,
        blanks,
        seed,
        order,
        Some(seeds),
        list,
        scratch,
    )?);
    list.dedup();
    Ok(stats)
}

/// Merges into `list` the minimal UA of the 126 pseudo-puzzles blanking four digits less
/// `keep` (not sorted), each solved as a tiling by digit templates ([`tiling`]) with the
/// templates in the first quarter of the scratch and the antichain in the rest. One whose
/// templates or antichain do not fit is solved by the general solver on the whole scratch
/// ([`merge_pseudo_puzzle`]).
fn merge_four_digits(
    grid: &Grid,
    keep: Cells,
    list: &mut UaList<'_>,
    scratch: &mut [Cells],
) -> Result<GenStats, GridcheckError> {
    let mut stats = GenStats::default();
    for_each_subset_of_nine(4, |mask| {
        let blanks = (0..9u8)
            .filter(|d| mask >> d & 1 == 1)
            .fold(Cells::EMPTY, |acc, d| acc | grid.cells_of_digit(d + 1))
            - keep;
        let (room, rest) = scratch.split_at_mut(scratch.len() / 4);
        let mut chain = Antichain::new(rest);
        match tiling::minimal_ua_of_four_digits(grid, mask, keep, &mut chain, room) {
            Some(solutions) if !chain.overflowed() => {
                stats.add(merge_antichain(&chain, solutions, list)?);
            }
            _ => stats.add(merge_pseudo_puzzle(grid, blanks, list, scratch)?),
        }
        Ok(())
    })?;
    Ok(stats)
}

/// Largest 4-digit set that seeds the random pseudo-puzzles (measured: 8 cells and 16 do
/// a little worse, 24 worse than none; docs/PERFORMANCE.md, fourteenth pass).
const RANDOM_SEED_MAX_SIZE: u32 = 12;

/// Copies to the front of `scratch` the sets of at most [`RANDOM_SEED_MAX_SIZE`] cells
/// among the `merged` ones that the 4-digit pseudo-puzzles appended to `list` from `start`
/// (sorted, without repeats, at most half the scratch); returns how many. None when the
/// list may have been de-duplicated meanwhile (the sets, the caller's among them, moved):
/// seeding is only a saving. The list is de-duplicated only by a push into a full list, so
/// if `start + merged` sets fit, every push appended.
fn keep_small_sets(list: &UaList<'_>, start: usize, merged: u64, scratch: &mut [Cells]) -> usize {
    let held = list.as_slice();
    let appended = start as u64 + merged;
    if appended > list.capacity() as u64 || held.len() as u64 != appended {
        return 0;
    }
    let room = scratch.len() / 2;
    let mut n = 0;
    for &ua in &held[start..] {
        if n == room {
            break;
        }
        if ua.len() <= RANDOM_SEED_MAX_SIZE {
            scratch[n] = ua;
            n += 1;
        }
    }
    scratch[..n].sort_unstable();
    let mut kept = 0;
    for i in 0..n {
        if kept == 0 || scratch[i] != scratch[kept - 1] {
            scratch[kept] = scratch[i];
            kept += 1;
        }
    }
    kept
}

/// Largest set of a random pseudo-puzzle that seeds the next ones when no 4-digit sets do
/// (measured on grid 189, `--clues 8`: 8 and 12 cells do a little worse, 16 worse).
const OWN_SEED_MAX_SIZE: u32 = 10;

/// Adds to the seeds `scratch[..*seeds]` (distinct) the sets of at most
/// [`OWN_SEED_MAX_SIZE`] cells among the `merged` sets that follow them (the antichain
/// just merged: the seeds inside its blanks and its new sets), in at most half the
/// scratch. The seeds are few (a grid has some tens to hundreds of minimal UA that small),
/// so a new set is looked for among them one by one.
fn grow_seeds(scratch: &mut [Cells], seeds: &mut usize, merged: usize) {
    let known = *seeds;
    let end = (known + merged).min(scratch.len());
    let room = scratch.len() / 2;
    for i in known..end {
        let ua = scratch[i];
        if *seeds < room && ua.len() <= OWN_SEED_MAX_SIZE && !scratch[..known].contains(&ua) {
            scratch[*seeds] = ua;
            *seeds += 1;
        }
    }
}

/// Solves one pseudo-puzzle with its antichain seeded by the sets of `scratch[..*seeds]`
/// inside its blanks (minimal UA of the grid found by this generation: they are minimal UA
/// inside the blanks, so the antichain ends with the same sets, and the search prunes the
/// branches that would only find them again or their supersets), and merges its sets into
/// `list`. An antichain that overflows is solved again without seeds on the whole scratch,
/// as [`merge_pseudo_puzzle`] does, and the seeds are forgotten (`*seeds = 0`).
fn merge_seeded(
    grid: &Grid,
    blanks: Cells,
    seeds: &mut usize,
    list: &mut UaList<'_>,
    scratch: &mut [Cells],
) -> Result<GenStats, GridcheckError> {
    let (known, room) = scratch.split_at_mut(*seeds);
    let inside = known.iter().copied().filter(|ua| ua.is_subset_of(blanks));
    if let Some(stats) = merge_with_seeds(grid, blanks, inside, list, room)? {
        return Ok(stats);
    }
    *seeds = 0;
    merge_pseudo_puzzle(grid, blanks, list, scratch)
}

/// Solves one pseudo-puzzle with its antichain (in `room`) started from `seeds` (minimal
/// UA of the grid inside `blanks`) and merges its sets into `list`; `None` (and nothing
/// merged) if the antichain overflowed.
fn merge_with_seeds(
    grid: &Grid,
    blanks: Cells,
    seeds: impl Iterator<Item = Cells>,
    list: &mut UaList<'_>,
    room: &mut [Cells],
) -> Result<Option<GenStats>, GridcheckError> {
    let mut chain = Antichain::new(room);
    for ua in seeds {
        chain.offer(ua);
    }
    let solutions = for_each_difference(grid, blanks.complement(), &mut chain);
    if chain.overflowed() {
        return Ok(None);
    }
    merge_antichain(&chain, solutions, list).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gridcheck::grid::tests::GRID_A;
    use crate::gridcheck::ua::{is_minimal_ua, verify_ua};
    use std::vec;
    use std::vec::Vec;

    fn grid() -> Grid {
        Grid::parse(GRID_A).unwrap()
    }

    #[test]
    fn antichain_of_a_pseudo_puzzle_is_minimal_and_complete() {
        let g = grid();
        let mut scratch = vec![Cells::EMPTY; 10_000];
        // Blank digits 1, 2, 3: every UA inside is made of those digits.
        let blanks = g.cells_of_digit(1) | g.cells_of_digit(2) | g.cells_of_digit(3);
        let mut chain = Antichain::new(&mut scratch);
        let reached = minimal_ua_inside(&g, blanks, &mut chain);
        assert!(!chain.overflowed());
        let found: Vec<Cells> = chain.as_slice().into();
        assert!(!found.is_empty() && reached >= found.len() as u64);
        for (i, &a) in found.iter().enumerate() {
            assert!(a.is_subset_of(blanks));
            assert!(is_minimal_ua(&g, a), "not a minimal UA: {a:?}");
            for (j, &b) in found.iter().enumerate() {
                assert!(i == j || !a.is_subset_of(b), "{a:?} inside {b:?}");
            }
        }
        // Complete: without pruning, every difference contains a found set.
        struct CheckAll<'f> {
            found: &'f [Cells],
            all_covered: bool,
        }
        impl DifferenceSink for CheckAll<'_> {
            fn prune(&self, _: Cells) -> bool {
                false
            }
            fn found(&mut self, diff: Cells) -> ControlFlow<()> {
                self.all_covered &= self.found.iter().any(|f| f.is_subset_of(diff));
                ControlFlow::Continue(())
            }
        }
        let mut check = CheckAll {
            found: &found,
            all_covered: true,
        };
        crate::gridcheck::solver::for_each_difference(&g, blanks.complement(), &mut check);
        let all_covered = check.all_covered;
        assert!(all_covered);
    }

    #[test]
    fn digit_subsets_give_126_pseudo_puzzles_of_minimal_ua() {
        let g = grid();
        let mut storage = vec![Cells::EMPTY; 20_000];
        let mut scratch = vec![Cells::EMPTY; 20_000];
        let mut list = UaList::new(&mut storage);
        let stats = from_digit_subsets(&g, 4, &mut list, &mut scratch).unwrap();
        assert_eq!(stats.pseudo_puzzles, 126);
        assert_eq!(stats.dropped, 0);
        assert!(list.len() > 10);
        // Sorted by size, no duplicates, all minimal UA of at least 4 cells; every 2-digit
        // union contains one.
        let uas = list.as_slice();
        assert!(uas
            .windows(2)
            .all(|w| (w[0].len(), w[0].0) < (w[1].len(), w[1].0)));
        assert!(uas.iter().all(|&u| u.len() >= 4));
        // Every set is a genuine UA; minimality for all small ones and a spread sample.
        for (i, &u) in uas.iter().enumerate() {
            assert!(verify_ua(&g, u), "not a UA: {u:?}");
            if u.len() <= 12 || i % 25 == 0 {
                assert!(is_minimal_ua(&g, u), "not minimal: {u:?}");
            }
        }
        let pair = g.cells_of_digit(4) | g.cells_of_digit(7);
        assert!(uas.iter().any(|u| u.is_subset_of(pair)));
    }

    #[test]
    fn random_and_box_generators_are_deterministic_and_sound() {
        let g = grid();
        let mut storage_a = vec![Cells::EMPTY; 50_000];
        let mut storage_b = vec![Cells::EMPTY; 50_000];
        let mut scratch = vec![Cells::EMPTY; 20_000];
        let mut a = UaList::new(&mut storage_a);
        let mut b = UaList::new(&mut storage_b);
        let sa =
            from_random_blanks(&g, 40, DEFAULT_RANDOM_BLANKS, 7, &mut a, &mut scratch).unwrap();
        let sb =
            from_random_blanks(&g, 40, DEFAULT_RANDOM_BLANKS, 7, &mut b, &mut scratch).unwrap();
        assert_eq!(sa, sb);
        assert_eq!(a.as_slice(), b.as_slice());
        assert!(a.len() > 40);
        for (i, &u) in a.as_slice().iter().enumerate() {
            assert!(verify_ua(&g, u), "not a UA: {u:?}");
            if i % 7 == 0 {
                assert!(is_minimal_ua(&g, u), "not minimal: {u:?}");
            }
        }
        let mut storage_c = vec![Cells::EMPTY; 50_000];
        let mut c = UaList::new(&mut storage_c);
        let sc = from_box_subsets(&g, 3, &mut c, &mut scratch).unwrap();
        assert_eq!(sc.pseudo_puzzles, 84);
        for (i, &u) in c.as_slice().iter().enumerate() {
            assert!(verify_ua(&g, u), "not a UA: {u:?}");
            if i % 5 == 0 {
                assert!(is_minimal_ua(&g, u), "not minimal: {u:?}");
            }
        }
    }

    /// The minimal UA inside `blanks`, the plain way: every solution of the pseudo-puzzle
    /// (no pruning, the public solver call), each one's difference from the grid, and the
    /// differences with no other inside.
    fn minimal_differences_unpruned(g: &Grid, blanks: Cells) -> Vec<Cells> {
        let puzzle = crate::gridcheck::Puzzle::from_grid(g, blanks.complement());
        let mut differences: Vec<Cells> = Vec::new();
        crate::gridcheck::solver::for_each_solution(&puzzle, None, &mut |s| {
            let diff = (0..CELL_COUNT as u8)
                .filter(|&c| s[c as usize] != g.digits()[c as usize])
                .fold(Cells::EMPTY, |acc, c| acc | Cells::single(c));
            if !diff.is_empty() {
                differences.push(diff);
            }
            ControlFlow::Continue(())
        });
        differences.sort_by_key(|d| (d.len(), d.0));
        differences.dedup();
        let mut minimal: Vec<Cells> = Vec::new();
        for d in differences {
            // Sorted by size: a set inside `d` comes before it.
            if !minimal.iter().any(|m| m.is_subset_of(d)) {
                minimal.push(d);
            }
        }
        minimal
    }

    /// [`for_mask`]'s list, the plain way: the pseudo-puzzles it solves (the 126 sets of
    /// four digits less the kept cells, then `random` blanking two thirds of the open cells,
    /// at most 54, drawn by a partial Fisher-Yates shuffle from `seed`), each one's minimal
    /// differences found without pruning, then all of them sorted by (size, bitmap) and
    /// de-duplicated.
    fn reference_list(g: &Grid, random: u32, seed: u64, keep: Cells) -> Vec<Cells> {
        reference_list_of(g, true, random, seed, keep)
    }

    /// [`reference_list`], with or without the 4-digit pseudo-puzzles.
    fn reference_list_of(
        g: &Grid,
        digit_subsets: bool,
        random: u32,
        seed: u64,
        keep: Cells,
    ) -> Vec<Cells> {
        let mut all: Vec<Cells> = Vec::new();
        for mask in 0u32..512 {
            if digit_subsets && mask.count_ones() == 4 {
                let blanks = (1..=9u8)
                    .filter(|d| mask >> (d - 1) & 1 == 1)
                    .fold(Cells::EMPTY, |acc, d| acc | g.cells_of_digit(d));
                all.extend(minimal_differences_unpruned(g, blanks - keep));
            }
        }
        let mut rng = SplitMix64::new(seed);
        let mut order: Vec<u8> = keep.complement().iter().collect();
        let open = order.len();
        let count = (open * 2 / 3).min(DEFAULT_RANDOM_BLANKS as usize);
        for _ in 0..random {
            let mut blanks = Cells::EMPTY;
            for i in 0..count {
                let j = i + rng.below((open - i) as u32) as usize;
                order.swap(i, j);
                blanks.insert(order[i]);
            }
            all.extend(minimal_differences_unpruned(g, blanks));
        }
        all.sort_by_key(|u| (u.len(), u.0));
        all.dedup();
        all
    }

    #[test]
    fn for_mask_gives_the_list_of_a_plain_unpruned_enumeration() {
        // The generator prunes its searches, seeds them with the sets it knows and merges
        // as it goes; none of that may change the list (the scan's table, cell order and
        // hence every placement depend on it). Two grids, two seeds, with and without kept
        // cells; the whole list compared set by set and in order.
        let grids = [
            grid(),
            Grid::parse(
                b"128465973534789261697231854271354698359876412486912735813647529965128347742593186",
            )
            .unwrap(),
        ];
        let kept = [
            Cells::EMPTY,
            Cells::from_cells(&[0, 1, 2, 10, 20, 30, 40, 50, 60, 70, 80]),
        ];
        let mut scratch = vec![Cells::EMPTY; 1 << 16];
        for (g, seed) in grids.iter().zip([1u64, 11]) {
            for keep in kept {
                let mut storage = vec![Cells::EMPTY; 100_000];
                let mut list = UaList::new(&mut storage);
                let stats = for_mask(g, 40, seed, keep, &mut list, &mut scratch).unwrap();
                assert_eq!(stats.dropped, 0);
                let expected = reference_list(g, 40, seed, keep);
                assert!(expected.len() > 100);
                assert_eq!(list.as_slice(), &expected[..], "seed {seed}, {keep:?}");
            }
        }
    }

    #[test]
    fn from_random_blanks_gives_the_list_of_a_plain_unpruned_enumeration() {
        // Without 4-digit sets, each pseudo-puzzle's small sets seed the next ones: the
        // list is still that of the plain enumeration, set by set and in order (and with
        // a scratch too small for the seeds, every set kept is in it).
        let mut scratch = vec![Cells::EMPTY; 1 << 16];
        for seed in [1u64, 11] {
            let g = grid();
            let mut storage = vec![Cells::EMPTY; 100_000];
            let mut list = UaList::new(&mut storage);
            let stats =
                from_random_blanks(&g, 60, DEFAULT_RANDOM_BLANKS, seed, &mut list, &mut scratch)
                    .unwrap();
            assert_eq!((stats.pseudo_puzzles, stats.dropped), (60, 0));
            let expected = reference_list_of(&g, false, 60, seed, Cells::EMPTY);
            assert!(expected.len() > 100);
            assert_eq!(list.as_slice(), &expected[..], "seed {seed}");
            let mut small_storage = vec![Cells::EMPTY; 100_000];
            let mut small = UaList::new(&mut small_storage);
            let mut small_scratch = vec![Cells::EMPTY; 150];
            let stats = from_random_blanks(
                &g,
                60,
                DEFAULT_RANDOM_BLANKS,
                seed,
                &mut small,
                &mut small_scratch,
            )
            .unwrap();
            assert!(stats.pseudo_puzzles == 60 && !small.is_empty());
            for &u in small.as_slice() {
                assert!(expected.contains(&u) && is_minimal_ua(&g, u), "{u:?}");
            }
        }
    }

    #[test]
    fn digit_subsets_on_a_small_scratch_go_on_without_seeds() {
        // Room for the 3-digit seeds but not for every 4-digit antichain with them: those
        // pseudo-puzzles are solved again unseeded, some still overflow and are dropped;
        // whatever is kept is minimal and in the list a large scratch gives.
        let g = grid();
        let mut storage = vec![Cells::EMPTY; 20_000];
        let mut big = vec![Cells::EMPTY; 1 << 16];
        let mut full = UaList::new(&mut storage);
        from_digit_subsets(&g, 4, &mut full, &mut big).unwrap();
        let mut storage_small = vec![Cells::EMPTY; 20_000];
        let mut small_scratch = vec![Cells::EMPTY; 200];
        let mut small = UaList::new(&mut storage_small);
        let stats = from_digit_subsets(&g, 4, &mut small, &mut small_scratch).unwrap();
        assert_eq!(stats.pseudo_puzzles, 126);
        // Only an unseeded pseudo-puzzle counts as dropped: some went the unseeded way.
        assert!(stats.dropped > 0 && stats.dropped < 126 && !small.is_empty());
        for &u in small.as_slice() {
            assert!(full.contains(u) && is_minimal_ua(&g, u), "{u:?}");
        }
    }

    #[test]
    fn for_mask_seeds_only_with_its_own_sets() {
        // A list that already holds the caller's sets (here: sets that are no UA of this
        // grid) keeps them, and the generation adds exactly its own list: the caller's sets
        // never seed a search. With a scratch too small for the seeded antichains, the
        // pseudo-puzzles go on unseeded; what is kept is still minimal and in the list.
        let g = grid();
        let junk = [Cells::from_cells(&[0, 1]), Cells::from_cells(&[2, 3, 4])];
        let mut scratch = vec![Cells::EMPTY; 1 << 16];
        let mut storage = vec![Cells::EMPTY; 100_000];
        let mut list = UaList::new(&mut storage);
        for ua in junk {
            list.push(ua).unwrap();
        }
        for_mask(&g, 30, 5, Cells::EMPTY, &mut list, &mut scratch).unwrap();
        let mut expected = reference_list(&g, 30, 5, Cells::EMPTY);
        expected.extend(junk);
        expected.sort_by_key(|u| (u.len(), u.0));
        assert_eq!(list.as_slice(), &expected[..]);
        let mut small_storage = vec![Cells::EMPTY; 100_000];
        let mut small = UaList::new(&mut small_storage);
        let mut small_scratch = vec![Cells::EMPTY; 200];
        let stats = for_mask(&g, 30, 5, Cells::EMPTY, &mut small, &mut small_scratch).unwrap();
        assert_eq!(stats.pseudo_puzzles, 126 + 30);
        assert!(!small.is_empty());
        for &u in small.as_slice() {
            assert!(expected.contains(&u) && is_minimal_ua(&g, u), "{u:?}");
        }
    }

    #[test]
    fn overflowing_scratch_drops_the_pseudo_puzzle() {
        let g = grid();
        let mut storage = vec![Cells::EMPTY; 1000];
        let mut scratch = [Cells::EMPTY; 1];
        let mut list = UaList::new(&mut storage);
        let stats = from_random_blanks(&g, 5, 60, 1, &mut list, &mut scratch).unwrap();
        assert_eq!(stats.pseudo_puzzles, 5);
        // With room for one set only, any pseudo-puzzle with two minimal UA is dropped; what
        // is kept (single-UA pseudo-puzzles) is still minimal.
        assert!(stats.dropped > 0);
        for &u in list.as_slice() {
            assert!(is_minimal_ua(&g, u));
        }
    }

    #[test]
    fn for_mask_keeps_forced_cells_and_is_deterministic() {
        let g = grid();
        let mut scratch = vec![Cells::EMPTY; 20_000];
        // Without forced cells: the digit subsets and the random pseudo-puzzles.
        let mut storage_a = vec![Cells::EMPTY; 50_000];
        let mut storage_b = vec![Cells::EMPTY; 50_000];
        let mut a = UaList::new(&mut storage_a);
        let mut b = UaList::new(&mut storage_b);
        let sa = for_mask(&g, 20, 3, Cells::EMPTY, &mut a, &mut scratch).unwrap();
        from_digit_subsets(&g, 4, &mut b, &mut scratch).unwrap();
        from_random_blanks(&g, 20, DEFAULT_RANDOM_BLANKS, 3, &mut b, &mut scratch).unwrap();
        assert_eq!(sa.pseudo_puzzles, 126 + 20);
        assert_eq!(a.as_slice(), b.as_slice());
        // With forced givens: no set touches them, all are UA, same seed same list.
        let keep = Cells::from_cells(&[0, 1, 2, 10, 20, 30, 40, 50, 60, 70, 80]);
        let mut storage_c = vec![Cells::EMPTY; 50_000];
        let mut storage_d = vec![Cells::EMPTY; 50_000];
        let mut c = UaList::new(&mut storage_c);
        let mut d = UaList::new(&mut storage_d);
        let sc = for_mask(&g, 30, 9, keep, &mut c, &mut scratch).unwrap();
        let sd = for_mask(&g, 30, 9, keep, &mut d, &mut scratch).unwrap();
        assert_eq!((sc, c.as_slice()), (sd, d.as_slice()));
        assert_eq!(sc.pseudo_puzzles, 126 + 30);
        assert!(c.len() > 10);
        assert!(c
            .as_slice()
            .windows(2)
            .all(|w| (w[0].len(), w[0].0) < (w[1].len(), w[1].0)));
        for (i, &u) in c.as_slice().iter().enumerate() {
            assert!(u.is_disjoint(keep), "{u:?} touches a kept cell");
            assert!(verify_ua(&g, u), "not a UA: {u:?}");
            if i % 9 == 0 {
                assert!(is_minimal_ua(&g, u), "not minimal: {u:?}");
            }
        }
        // A list too small for the distinct sets is an error, never a panic.
        let mut tiny = [Cells::EMPTY; 2];
        let mut t = UaList::new(&mut tiny);
        assert!(matches!(
            for_mask(&g, 5, 9, keep, &mut t, &mut scratch),
            Err(GridcheckError::ListFull { capacity: 2 })
        ));
    }

    #[test]
    fn full_list_is_an_error() {
        let g = grid();
        let mut storage = [Cells::EMPTY; 3];
        let mut scratch = vec![Cells::EMPTY; 10_000];
        let mut list = UaList::new(&mut storage);
        assert!(matches!(
            from_digit_subsets(&g, 4, &mut list, &mut scratch),
            Err(GridcheckError::ListFull { capacity: 3 })
        ));
    }
}
