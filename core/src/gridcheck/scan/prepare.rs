//! Preparation of a scan (steps A to E): the forced cells, the clique, the cell order
//! and the kept UA, in the caller's work slice.
#[cfg(feature = "bands")]
use super::bands::{self, BandScan};
#[cfg(doc)]
use super::chunk_id::ChunkId;
use super::clique::{self, Clique};
use super::error::ScanError;
use super::mask::{self, ALL_BITS};
use super::options::ScanOptions;
use super::rating;
use super::remap::Remap;
use super::table::TABLE_CAPACITY;
use super::truncate;
#[cfg(doc)]
use super::workspace::WorkspaceSize;
use crate::gridcheck::cells::{Cells, CELL_COUNT};
use crate::gridcheck::grid::Grid;

/// Largest UA size considered for the clique (reference `--mcnuasizelimit` 13).
pub(crate) const CLIQUE_MAX_UA_SIZE: u32 = 13;
/// Node budget of the clique search (bounded time; the best clique so far is used).
pub(crate) const CLIQUE_NODE_BUDGET: u64 = 3_000_000;

/// Why a prepared scan can have no result at all (not an error: the answer is "none").
///
/// ```
/// use xcover_core::gridcheck::scan::{self, ClueMask, Impossible, ScanOptions};
/// use xcover_core::gridcheck::Grid;
///
/// let grid = Grid::parse(b"123456789456789123789123456214365897365897214897214365531642978642978531978531642")?;
/// // 3 clues, but 79 cells are forced empty: only two are free.
/// let mut options = ScanOptions::new(3);
/// options.mask = ClueMask::parse(&[b'0'; 79])?;
/// let mut work = [0u128; scan::prepare_work_entries(0)];
/// let prepared = scan::prepare(&grid, &[], &options, &mut work)?;
/// assert_eq!(prepared.impossible(), Some(Impossible::NotEnoughFreeCells));
/// assert_eq!(prepared.chunks().count(), 0);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
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
///
/// ```
/// use xcover_core::gridcheck::scan::{self, ClueMask, ScanOptions};
/// use xcover_core::gridcheck::{Cells, Grid};
///
/// let grid = Grid::parse(b"123456789456789123789123456214365897365897214897214365531642978642978531978531642")?;
/// let mut options = ScanOptions::new(20);
/// options.mask.givens = Cells::from_cells(&[0, 10, 20]);
/// let uas = [grid.cells_of_digit(1) | grid.cells_of_digit(2)];
/// let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
/// let prepared = scan::prepare(&grid, &uas, &options, &mut work)?;
/// assert_eq!(prepared.free_clues(), 17);
/// assert_eq!(prepared.free_cell_count(), 78);
/// assert_eq!(prepared.stats().ua_input, 1);
/// let first_free = prepared.cell_at(0).unwrap();
/// assert!(!options.mask.givens.contains(first_free));
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub struct Prepared<'a> {
    grid: &'a Grid,
    options: ScanOptions,
    remap: Remap,
    forced_givens: u128,
    extra_givens: u128,
    free_count: u8,
    free_clues: u8,
    kept: &'a [u128],
    clique: Clique,
    impossible: Option<Impossible>,
    stats: PrepareStats,
    /// The band engine's plan, when it runs this scan.
    #[cfg(feature = "bands")]
    bands: Option<BandScan<'a>>,
}

/// Which engine runs a prepared scan's chunks.
///
/// ```
/// # #[cfg(feature = "bands")] {
/// use xcover_core::gridcheck::scan::{self, Engine, ScanOptions};
/// use xcover_core::gridcheck::ua::{budget::Recipe, UaList};
/// use xcover_core::gridcheck::{Cells, Grid};
///
/// let grid = Grid::parse(b"123456789456789123789123456214365897365897214897214365531642978642978531978531642")?;
/// let (mut storage, mut scratch) = (vec![Cells::EMPTY; 1 << 16], vec![Cells::EMPTY; 1 << 16]);
/// let mut list = UaList::new(&mut storage);
/// Recipe::given(0).generate(&grid, 1, Cells::EMPTY, &mut list, &mut scratch)?;
/// let uas = list.as_slice();
/// let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
/// let whole = scan::prepare_with_bands(&grid, uas, &ScanOptions::new(17), &mut work)?;
/// assert_eq!(whole.engine(), Engine::Bands);
/// let prepared = scan::prepare(&grid, uas, &ScanOptions::new(17), &mut work)?;
/// assert_eq!(prepared.engine(), Engine::Enumeration);
/// # }
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The hitting-set enumeration (every scan can run on it).
    Enumeration,
    /// The band engine (whole-grid scans, `prepare_with_bands` with the `bands`
    /// feature): its chunks need a workspace with band words (`WorkspaceView::with_bands`).
    Bands,
}

/// Entries of the `work` slice [`prepare`] needs for `ua_count` UA: the list itself (it
/// is shrunk, remapped and sorted there, and the kept UA stay there), plus
/// `clamp(8 * ua_count, 4096, 2^18)` entries that the ordering step's scratch took
/// before it rated by weight alone. The C ABI publishes this formula
/// (`XCOVER_GRIDCHECK_RATING`), so the size stays until its next revision; `prepare`
/// leaves that part untouched.
///
/// ```
/// use xcover_core::gridcheck::scan::prepare_work_entries;
///
/// assert_eq!(prepare_work_entries(3000), 3000 + 24_000);
/// ```
pub const fn prepare_work_entries(ua_count: usize) -> usize {
    let reserved = ua_count.saturating_mul(8);
    let reserved = if reserved < 1 << 12 {
        1 << 12
    } else if reserved > 1 << 18 {
        1 << 18
    } else {
        reserved
    };
    ua_count + reserved
}

/// Prepares a scan of `grid` with the UA list `uas` (every entry a real UA of the grid).
/// `work` must hold [`prepare_work_entries`] entries; the kept UA stay there, so the
/// prepared scan borrows it. See the [module example](super).
pub fn prepare<'a>(
    grid: &'a Grid,
    uas: &[Cells],
    options: &ScanOptions,
    work: &'a mut [u128],
) -> Result<Prepared<'a>, ScanError> {
    options.check()?;
    check_work(uas, work)?;
    prepare_list(grid, uas, options, &mut work[..uas.len()])
}

/// As [`prepare`], and a whole-grid scan (no forced givens or empty cells) runs on the
/// band engine ([`Engine::Bands`]), several times faster, when a chunk id can number its
/// chunks (up to about 20 clues); other scans run on the enumeration. The band engine's
/// lists live in the rest of `work`: all the UA up to about 43,000 of them, the smallest
/// that fit beyond (the list only prunes). Each thread running its
/// chunks then lends band words with its workspace ([`WorkspaceSize::for_scan`]).
///
/// ```
/// use core::ops::ControlFlow;
/// use xcover_core::gridcheck::scan::{self, ChunkRun, RunStatus, ScanOptions, Workspace};
/// use xcover_core::gridcheck::scan::WorkspaceSize;
/// use xcover_core::gridcheck::ua::{budget::Recipe, UaList};
/// use xcover_core::gridcheck::{Cells, Grid};
///
/// let grid = Grid::parse(b"123456789456789123789123456214365897365897214897214365531642978642978531978531642")?;
/// let (mut storage, mut scratch) = (vec![Cells::EMPTY; 1 << 16], vec![Cells::EMPTY; 1 << 16]);
/// let mut list = UaList::new(&mut storage);
/// Recipe::given(0).generate(&grid, 1, Cells::EMPTY, &mut list, &mut scratch)?;
/// let uas = list.as_slice();
/// let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
/// let prepared = scan::prepare_with_bands(&grid, uas, &ScanOptions::new(17), &mut work)?;
/// let mut workspace: Box<Workspace<18>> = Box::default();
/// let mut band_words = vec![0u64; WorkspaceSize::for_scan(&prepared).band_words];
/// let mut found = Vec::new();
/// for chunk in prepared.chunks() {
///     let view = workspace.as_mut_view().with_bands(&mut band_words);
///     let mut run = ChunkRun::new(&prepared, view, chunk)?;
///     let mut on_found = |givens: Cells| {
///         found.push(givens);
///         ControlFlow::Continue(())
///     };
///     while run.run(100_000, &mut on_found) == RunStatus::BudgetExhausted {}
/// }
/// // None: this grid has no 17-clue puzzle (the enumeration finds none either).
/// assert!(found.is_empty());
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[cfg(feature = "bands")]
pub fn prepare_with_bands<'a>(
    grid: &'a Grid,
    uas: &[Cells],
    options: &ScanOptions,
    work: &'a mut [u128],
) -> Result<Prepared<'a>, ScanError> {
    options.check()?;
    check_work(uas, work)?;
    let (list, rest) = work.split_at_mut(uas.len());
    let mut prepared = prepare_list(grid, uas, options, list)?;
    if options.mask.is_free() {
        prepared.bands = match bands::prepare(grid, uas, options, rest) {
            Ok(scan) => Some(scan),
            // A scan the band engine cannot number (too many clues) stays on the enumeration.
            Err(bands::Refused::NotTaken(_)) => None,
            Err(bands::Refused::Scan(e)) => return Err(e),
        };
    }
    Ok(prepared)
}

/// Checks that `work` has the room [`prepare`] needs for `uas`.
fn check_work(uas: &[Cells], work: &[u128]) -> Result<(), ScanError> {
    let needed = prepare_work_entries(uas.len());
    if work.len() < needed {
        return Err(ScanError::StorageTooSmall {
            what: "prepare work list",
            needed,
            given: work.len(),
        });
    }
    Ok(())
}

/// Steps A to E in `work`, which holds as many entries as `uas` (the options checked).
fn prepare_list<'a>(
    grid: &'a Grid,
    uas: &[Cells],
    options: &ScanOptions,
    work: &'a mut [u128],
) -> Result<Prepared<'a>, ScanError> {
    let clues = options.clues;
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
    let list = &mut work[..forced.len];

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
    rating::order_members(clique.members_mut(), list);
    let mut order = [0u8; CELL_COUNT];
    let ordered = rating::order_cells(clique.members(), list, free, &mut order);
    let remap = Remap::build(&order[..ordered], forced.givens, forced.empties);

    // Step E: truncation to the smallest sets, in table order (the enumeration loads the
    // head of the kept list). Only the sizes the kept sets have are remapped and sorted
    // (the list is sorted by size, and a remap keeps sizes): the rest is never read.
    let candidates = truncate::kept_sizes(list, options.truncation_limits());
    let list = &mut list[..candidates];
    for set in list.iter_mut() {
        *set = remap.positions_of(*set);
    }
    let kept_len = truncate::truncate(list, options.truncation_limits());
    let kept: &'a [u128] = &work[..kept_len];
    Ok(Prepared {
        grid,
        options: *options,
        remap,
        forced_givens: forced.givens,
        extra_givens: forced.extra_givens,
        free_count,
        free_clues,
        kept,
        clique,
        impossible,
        stats: PrepareStats {
            ua_input: uas.len(),
            ua_after_forced: forced.len,
            ua_kept: kept_len,
        },
        #[cfg(feature = "bands")]
        bands: None,
    })
}

impl<'a> Prepared<'a> {
    /// The engine that runs this scan's chunks.
    pub fn engine(&self) -> Engine {
        #[cfg(feature = "bands")]
        if self.bands.is_some() {
            return Engine::Bands;
        }
        Engine::Enumeration
    }

    /// The band engine's plan, when it runs this scan.
    #[cfg(feature = "bands")]
    pub(crate) fn band_scan(&self) -> Option<&BandScan<'a>> {
        self.bands.as_ref()
    }

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

    /// The kept UA the enumeration loads into its table: the first [`TABLE_CAPACITY`].
    pub(crate) fn table_sets(&self) -> &'a [u128] {
        &self.kept[..self.kept.len().min(TABLE_CAPACITY)]
    }

    /// The free positions, `0..free_cell_count()`.
    pub(crate) fn free_positions(&self) -> u128 {
        match self.free_count {
            0 => 0,
            n => u128::MAX >> (128 - u32::from(n)),
        }
    }

    /// The grid cell at iterator position `position` (the positions of a [`ChunkId`]):
    /// positions `0..free_cell_count()` are the free cells in the order the enumeration
    /// tries them. `None` past the grid.
    pub fn cell_at(&self, position: u8) -> Option<u8> {
        (usize::from(position) < CELL_COUNT).then(|| self.remap.cell(position))
    }

    /// The cell <-> position map.
    pub(crate) fn remap(&self) -> &Remap {
        &self.remap
    }
}
