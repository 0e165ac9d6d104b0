//! Grid scan: every N-clue sub-puzzle of a solution grid with a unique solution.
//!
//! The pipeline follows the reference gridchecker (see the engineering note):
//!
//! 1. [`mask`] — step A: forced givens / forced empty cells shrink or drop the UA;
//! 2. [`clique`] — step B: maximum clique of disjoint UA, smallest product of sizes;
//! 3. [`rating`] — step C: member and cell order;
//! 4. [`remap`] — step D: cells to iterator positions, clique bounds `limit[c]`;
//! 5. [`truncate`] — step E: the ~2000 (masked: 4000) UA the enumeration uses;
//! 6. [`enumerate`] — a resumable state machine placing clues in strictly decreasing
//!    positions, list mode then [`bitmap768`] mode, last-clue shortcut; split into
//!    independent [`chunks`] by the two most significant free clues.
//!
//! Every candidate that hits all kept UA is checked with
//! [`crate::gridcheck::solver::is_unique_with_grid`], so the UA list is only a pruning
//! device: a missing UA costs time, never a result. Every UA given to [`prepare`] must be
//! real (verify loaded lists with `ua::verify_ua` first).
//!
//! Storage: [`prepare`] works in a caller slice of `u128` at least as long as the UA list
//! and keeps the retained UA there; each thread running chunks owns a [`Workspace`]
//! ([`WorkspaceSize::for_scan`] says how big).

pub mod bitmap768;
pub mod chunks;
pub mod clique;
pub mod enumerate;
pub mod error;
pub mod mask;
pub mod options;
pub mod rating;
pub mod remap;
pub mod storage;
pub mod truncate;
pub mod wide;

pub use chunks::{ChunkId, Chunks};
pub use enumerate::{ChunkRun, RunStats, RunStatus};
pub use error::ScanError;
pub use mask::ClueMask;
pub use options::{ScanOptions, TruncationLimits};
pub use storage::{Workspace, WorkspaceBuffers, WorkspaceSize};

use crate::gridcheck::cells::Cells;
use crate::gridcheck::grid::Grid;
use clique::Clique;
use mask::ALL_BITS;
use remap::Remap;

/// Largest UA size considered for the clique (reference `--mcnuasizelimit` 13).
pub const CLIQUE_MAX_UA_SIZE: u32 = 13;
/// Node budget of the clique search (bounded time; the best clique so far is used).
pub const CLIQUE_NODE_BUDGET: u64 = 3_000_000;

/// `BELOW[p]`: the positions below `p` (`p` in 0..=81).
const BELOW: [u128; 82] = {
    let mut table = [0u128; 82];
    let mut p = 1;
    while p < 82 {
        table[p] = (1u128 << p) - 1;
        p += 1;
    }
    table
};

/// Why a prepared scan can have no result at all (not an error: the answer is "none").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Impossible {
    /// Step A forced more givens than the clue count.
    ForcedExceedClues,
    /// A UA lies entirely in forced empty cells.
    UaInForcedEmpties,
    /// More free clues are needed than there are free cells.
    NotEnoughFreeCells,
    /// The clique has more disjoint UA than there are free clues to hit them.
    CliqueExceedsClues,
}

/// Figures of the preparation, for summaries.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct PrepareStats {
    /// UA given.
    pub ua_input: usize,
    /// UA left after step A (shrunk, de-duplicated).
    pub ua_after_forced: usize,
    /// UA kept for the enumeration.
    pub ua_kept: usize,
}

/// A scan ready to run: read-only, shareable between threads.
pub struct Prepared<'a> {
    grid: &'a Grid,
    options: ScanOptions,
    remap: Remap,
    forced_givens: u128,
    extra_givens: u128,
    free_count: u8,
    free_clues: u8,
    limit: [u8; 81],
    kept: &'a [u128],
    wide: Option<wide::WideHits<'a>>,
    clique: Clique,
    impossible: Option<Impossible>,
    stats: PrepareStats,
}

/// Entries of the `work` slice [`prepare`] needs for `ua_count` UA: the list itself, plus
/// the larger of the rating scratch ([`rating::scratch_entries`]) and the wide hitting
/// masks of the kept part ([`wide`]).
pub fn required_work_entries(ua_count: usize, options: &ScanOptions) -> usize {
    let kept = ua_count.min(options.truncation_limits().total);
    let wide = if kept > bitmap768::CAPACITY && kept <= wide::WIDE_CAPACITY {
        81 * wide::words_for(kept)
    } else {
        0
    };
    // The rating scratch is only used before truncation, the wide masks after.
    ua_count + wide.max(rating::scratch_entries(ua_count))
}

/// Prepares a scan of `grid` with the UA list `uas` (every entry a real UA of the grid).
/// `work` must hold [`required_work_entries`] entries; the kept UA and their hitting masks
/// stay there.
pub fn prepare<'a>(
    grid: &'a Grid,
    uas: &[Cells],
    options: &ScanOptions,
    work: &'a mut [u128],
) -> Result<Prepared<'a>, ScanError> {
    let clues = options.clues;
    if clues == 0 || clues > 81 {
        return Err(ScanError::BadClueCount {
            clues: u32::from(clues),
        });
    }
    let mask_givens = options.mask.givens.0 & ALL_BITS;
    if mask_givens.count_ones() > u32::from(clues) {
        return Err(ScanError::TooManyForcedGivens {
            forced: mask_givens.count_ones(),
            clues: u32::from(clues),
        });
    }
    let needed = required_work_entries(uas.len(), options);
    if work.len() < needed {
        return Err(ScanError::StorageTooSmall {
            what: "prepare work list",
            needed,
            given: work.len(),
        });
    }
    let forced = mask::apply_forced(uas, &options.mask, work)?;
    let mut impossible = None;
    if forced.impossible {
        impossible = Some(Impossible::UaInForcedEmpties);
    }
    let given_count = forced.givens.count_ones() as u8;
    if given_count > clues {
        impossible = impossible.or(Some(Impossible::ForcedExceedClues));
    }
    let free = ALL_BITS & !forced.givens & !forced.empties;
    let free_count = free.count_ones() as u8;
    let free_clues = clues.saturating_sub(given_count);
    if free_clues > free_count {
        impossible = impossible.or(Some(Impossible::NotEnoughFreeCells));
    }
    let (list, scratch) = work.split_at_mut(forced.len);

    // Step B: the clique over the small sets (a prefix: the list is sorted by size).
    let small = list
        .iter()
        .take_while(|s| s.count_ones() <= CLIQUE_MAX_UA_SIZE)
        .count();
    let mut clique = clique::find_max_clique(&list[..small], free, CLIQUE_NODE_BUDGET);
    if clique.members().len() > usize::from(free_clues) {
        impossible = impossible.or(Some(Impossible::CliqueExceedsClues));
    }

    // Step C and D: order, remap, clique bounds.
    rating::order_members(clique.members_mut(), list, scratch);
    let mut order = [0u8; 81];
    let ordered = rating::order_cells(clique.members(), list, free, &mut order, scratch);
    let remap = Remap::build(&order[..ordered], forced.givens, forced.empties);
    let mut limit = [free_count; 81];
    let mut end = 0u8;
    for (j, member) in clique.members().iter().enumerate() {
        end += member.count_ones() as u8;
        limit[j] = end;
    }
    for set in list.iter_mut() {
        *set = remap.to_positions(*set);
    }

    // Step E: truncation (the list is still sorted by size).
    let kept_len = truncate::truncate(list, options.truncation_limits());
    let (kept, rest) = work.split_at_mut(kept_len);
    let kept: &'a [u128] = kept;
    let wide = if kept_len > bitmap768::CAPACITY {
        wide::build(kept, rest)
    } else {
        None
    };
    Ok(Prepared {
        grid,
        options: *options,
        remap,
        forced_givens: forced.givens,
        extra_givens: forced.extra_givens,
        free_count,
        free_clues,
        limit,
        kept,
        wide,
        clique,
        impossible,
        stats: PrepareStats {
            ua_input: uas.len(),
            ua_after_forced: forced.len,
            ua_kept: kept_len,
        },
    })
}

impl<'a> Prepared<'a> {
    /// The grid scanned.
    pub fn grid(&self) -> &'a Grid {
        self.grid
    }

    /// The options.
    pub fn options(&self) -> &ScanOptions {
        &self.options
    }

    /// Forced givens (mask and step A).
    pub fn forced_givens(&self) -> Cells {
        Cells(self.forced_givens)
    }

    /// Givens step A added to the mask's.
    pub fn extra_forced_givens(&self) -> Cells {
        Cells(self.extra_givens)
    }

    /// Free cells (neither forced given nor forced empty).
    pub fn free_cell_count(&self) -> u8 {
        self.free_count
    }

    /// Clues still to place in free cells (N minus forced givens).
    pub fn free_clues(&self) -> u8 {
        self.free_clues
    }

    /// Why nothing can be found, if so.
    pub fn impossible(&self) -> Option<Impossible> {
        self.impossible
    }

    /// The clique used for the bounds (cells, not positions), smallest member first.
    pub fn clique_members(&self) -> &[u128] {
        self.clique.members()
    }

    /// True when the clique search hit its node budget.
    pub fn clique_truncated(&self) -> bool {
        self.clique.truncated
    }

    /// Preparation figures.
    pub fn stats(&self) -> PrepareStats {
        self.stats
    }

    /// Number of kept UA.
    pub fn kept_len(&self) -> usize {
        self.kept.len()
    }

    /// Kept UA as position sets, in scan order.
    pub fn kept(&self) -> &'a [u128] {
        self.kept
    }

    /// Hitting masks of the kept UA for the wide mode (`None`: not needed or too many UA).
    pub fn wide_hits(&self) -> Option<&wide::WideHits<'a>> {
        self.wide.as_ref()
    }

    /// The cell <-> position map.
    pub fn remap(&self) -> &Remap {
        &self.remap
    }

    /// Exclusive upper bound of free clue `clue` (0 = least significant) from the clique.
    pub fn limit(&self, clue: u8) -> u8 {
        self.limit[usize::from(clue)]
    }

    /// The independent chunks of this scan, in a fixed order.
    pub fn chunks(&self) -> Chunks<'_> {
        Chunks::new(self)
    }

    /// Candidate positions for free clue `clue` below `upper` (exclusive) when `head` is
    /// the first unhit kept UA (`None`: all hit): `max(clue, lowest(head)) ..
    /// min(upper, limit[clue])`, and on the last clue only the head's positions.
    #[inline]
    pub(crate) fn candidates(&self, clue: u8, upper: u8, head: Option<u128>) -> u128 {
        let upper = upper.min(self.limit[usize::from(clue)]);
        let lower = match head {
            Some(set) => clue.max(set.trailing_zeros() as u8),
            None => clue,
        };
        if lower >= upper {
            return 0;
        }
        // Positions lower..upper as a difference of two table masks (cheaper than the
        // two 128-bit shifts in the scan's hottest path).
        let range = BELOW[usize::from(upper).min(81)] ^ BELOW[usize::from(lower)];
        match head {
            Some(set) if clue == 0 => range & set,
            _ => range,
        }
    }
}
