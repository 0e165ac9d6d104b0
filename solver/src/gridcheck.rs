//! The grid checker: every N-clue puzzle with a unique solution inside a solution grid
//! (what `xcover gridcheck` scans for), on as many threads as asked.
//!
//! ```
//! use xcover_solver::gridcheck::GridCheck;
//! use xcover_solver::sudoku::Grid;
//!
//! let grid = Grid::parse(
//!     "123456789456789123789123456214365897365897214897214365531642978642978531978531642",
//! )?;
//! // Rows 2 to 9 given, row 1 free: the 74-clue puzzles take 2 of its 9 cells.
//! let mask = format!("{}{}", ".".repeat(9), "1".repeat(72));
//! let puzzles = GridCheck::new(&grid).clues(74).mask(&mask)?.threads(2).puzzles()?;
//! assert_eq!(puzzles.len(), 36); // every row cell is forced by its column
//! # Ok::<(), xcover_solver::Error>(())
//! ```
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use xcover_core::gridcheck::scan::{
    self, BitmapTable, ChunkId, ChunkRun, ClueMask, LevelState, Prepared, RunStatus, ScanOptions,
    WorkspaceSize, WorkspaceView,
};
use xcover_core::gridcheck::ua::budget;
use xcover_core::gridcheck::{Cells, Puzzle as CorePuzzle};

use crate::error::{Error, ErrorKind};
use crate::sudoku::{Grid, Puzzle};

fn scan_error(e: impl std::fmt::Display) -> Error {
    Error::new(ErrorKind::Sudoku, e.to_string())
}

/// Steps of a chunk run between looks at the other threads.
const SLICE: u64 = 1 << 18;

/// A scan of one solution grid for its N-clue puzzles with a unique solution.
///
/// ```
/// use xcover_solver::gridcheck::GridCheck;
/// use xcover_solver::sudoku::Grid;
///
/// let grid = Grid::parse(
///     "123456789456789123789123456214365897365897214897214365531642978642978531978531642",
/// )?;
/// let all_but_one = format!(".{}", "1".repeat(80));
/// let found = GridCheck::new(&grid).clues(80).mask(&all_but_one)?.puzzles()?;
/// assert_eq!(found.len(), 1);
/// assert_eq!(found[0].clue_count(), 80);
/// # Ok::<(), xcover_solver::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct GridCheck {
    grid: Grid,
    clues: u32,
    mask: ClueMask,
    minimal: bool,
    threads: usize,
    seed: u64,
}

impl GridCheck {
    /// A scan of `grid` for 17-clue puzzles, no mask, one thread.
    ///
    /// ```
    /// use xcover_solver::gridcheck::GridCheck;
    /// use xcover_solver::sudoku::Grid;
    ///
    /// let grid = Grid::parse(
    ///     "123456789456789123789123456214365897365897214897214365531642978642978531978531642",
    /// )?;
    /// let mask = format!("..{}", "1".repeat(79));
    /// let scan = GridCheck::new(&grid).mask(&mask)?;
    /// let err = scan.puzzles().unwrap_err(); // 79 forced givens, 17 clues
    /// assert_eq!(err.message(), "clue mask forces 79 givens but the clue count is only 17");
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn new(grid: &Grid) -> GridCheck {
        GridCheck {
            grid: *grid,
            clues: 17,
            mask: ClueMask::FREE,
            minimal: false,
            threads: 1,
            seed: 1,
        }
    }

    /// The clue count N of every puzzle reported (1-81; forced givens included).
    ///
    /// ```
    /// use xcover_solver::gridcheck::GridCheck;
    /// use xcover_solver::sudoku::Grid;
    ///
    /// let grid = Grid::parse(
    ///     "123456789456789123789123456214365897365897214897214365531642978642978531978531642",
    /// )?;
    /// let mask = format!("..{}", "1".repeat(79));
    /// let scan = GridCheck::new(&grid).mask(&mask)?;
    /// assert_eq!(scan.clone().clues(80).puzzles()?.len(), 2); // either free cell given
    /// assert!(scan.clues(0).puzzles().is_err());
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    #[must_use]
    pub fn clues(mut self, n: u32) -> Self {
        self.clues = n;
        self
    }

    /// Cells every puzzle must give or leave empty, as `xcover gridcheck --mask` reads
    /// them: one character per cell, row by row, `1` forced given, `0` forced empty, `.`
    /// free; 81 characters, or fewer ending with `*` (the rest free).
    ///
    /// ```
    /// use xcover_solver::gridcheck::GridCheck;
    /// use xcover_solver::sudoku::Grid;
    ///
    /// let grid = Grid::parse(
    ///     "123456789456789123789123456214365897365897214897214365531642978642978531978531642",
    /// )?;
    /// assert!(GridCheck::new(&grid).mask("1.0*").is_ok());
    /// let err = GridCheck::new(&grid).mask("1111").unwrap_err();
    /// assert!(err.message().starts_with("4 characters"));
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn mask(mut self, mask: &str) -> Result<Self, Error> {
        let text = mask.trim();
        let (cells, rest_free) = match text.strip_suffix('*') {
            Some(cells) => (cells, true),
            None => (text, false),
        };
        let syntax = "a mask is 81 characters, one per cell row by row: `1` forced given, \
            `0` forced empty, `.` free; end a shorter mask with `*` to leave the remaining \
            cells free";
        if let Some((i, bad)) = cells
            .chars()
            .enumerate()
            .find(|&(_, c)| !matches!(c, '0' | '1' | '.'))
        {
            return Err(scan_error(format!(
                "character {} is `{bad}`; {syntax}",
                i + 1
            )));
        }
        let len = cells.len();
        if len > 81 || (len < 81 && !rest_free) {
            return Err(scan_error(format!("{len} characters; {syntax}")));
        }
        let full = format!("{cells:.<81}");
        self.mask = ClueMask::parse(full.as_bytes()).map_err(scan_error)?;
        Ok(self)
    }

    /// Reports only minimal puzzles (no given can be removed keeping a unique solution).
    ///
    /// ```
    /// use xcover_solver::gridcheck::GridCheck;
    /// use xcover_solver::sudoku::Grid;
    ///
    /// let grid = Grid::parse(
    ///     "123456789456789123789123456214365897365897214897214365531642978642978531978531642",
    /// )?;
    /// let mask = format!("..{}", "1".repeat(79));
    /// let scan = GridCheck::new(&grid).mask(&mask)?;
    /// // Every 80-clue puzzle loses a clue and stays unique: none is minimal.
    /// assert!(scan.clues(80).minimal(true).puzzles()?.is_empty());
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    #[must_use]
    pub fn minimal(mut self, minimal: bool) -> Self {
        self.minimal = minimal;
        self
    }

    /// Runs the scan's chunks on `n` threads (0: one per core the system offers). The
    /// puzzles found are the same.
    ///
    /// ```
    /// use xcover_solver::gridcheck::GridCheck;
    /// use xcover_solver::sudoku::Grid;
    ///
    /// let grid = Grid::parse(
    ///     "123456789456789123789123456214365897365897214897214365531642978642978531978531642",
    /// )?;
    /// let mask = format!("..{}", "1".repeat(79));
    /// let scan = GridCheck::new(&grid).mask(&mask)?;
    /// let scan = scan.clues(80);
    /// assert_eq!(scan.clone().threads(2).puzzles()?, scan.puzzles()?);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    #[must_use]
    pub fn threads(mut self, n: usize) -> Self {
        self.threads = if n == 0 {
            std::thread::available_parallelism().map_or(1, usize::from)
        } else {
            n
        };
        self
    }

    /// The seed of the random unavoidable sets that prune the scan (the puzzles found
    /// never depend on it; the time does).
    ///
    /// ```
    /// use xcover_solver::gridcheck::GridCheck;
    /// use xcover_solver::sudoku::Grid;
    ///
    /// let grid = Grid::parse(
    ///     "123456789456789123789123456214365897365897214897214365531642978642978531978531642",
    /// )?;
    /// let mask = format!("..{}", "1".repeat(79));
    /// let scan = GridCheck::new(&grid).mask(&mask)?;
    /// let scan = scan.clues(80);
    /// assert_eq!(scan.clone().seed(7).puzzles()?, scan.seed(8).puzzles()?);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The error a scan of these settings would end with at once (a clue count out of
    /// 1..=81, a mask forcing more givens than the clue count), before any work.
    ///
    /// ```
    /// use xcover_solver::gridcheck::GridCheck;
    /// use xcover_solver::sudoku::Grid;
    ///
    /// let grid = Grid::parse(
    ///     "123456789456789123789123456214365897365897214897214365531642978642978531978531642",
    /// )?;
    /// assert!(GridCheck::new(&grid).clues(17).check().is_ok());
    /// assert!(GridCheck::new(&grid).clues(0).check().is_err());
    /// assert!(GridCheck::new(&grid).clues(2).mask("111*")?.check().is_err());
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn check(&self) -> Result<(), Error> {
        self.options().map(drop)
    }

    fn options(&self) -> Result<ScanOptions, Error> {
        let mut options = ScanOptions::for_clues(self.clues).map_err(scan_error)?;
        options.mask = self.mask;
        options.minimal_only = self.minimal;
        options.check().map_err(scan_error)?;
        Ok(options)
    }

    /// Every puzzle found, sorted by its 81-character text (as the command prints them).
    ///
    /// ```
    /// use xcover_solver::gridcheck::GridCheck;
    /// use xcover_solver::sudoku::{self, Grid};
    ///
    /// let grid = Grid::parse(
    ///     "123456789456789123789123456214365897365897214897214365531642978642978531978531642",
    /// )?;
    /// let mask = format!("..{}", "1".repeat(79));
    /// for p in GridCheck::new(&grid).clues(80).mask(&mask)?.puzzles()? {
    ///     assert_eq!(sudoku::count(&p, 2), 1);
    /// }
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn puzzles(&self) -> Result<Vec<Puzzle>, Error> {
        let never = AtomicBool::new(false);
        Ok(self.puzzles_until(&never)?.unwrap_or_default())
    }

    /// [`puzzles`](GridCheck::puzzles) that gives up, with `None`, when `stop` is set from
    /// another thread (looked at between slices of the scan, a few milliseconds apart), so
    /// that a caller can end a long scan on Ctrl-C.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use xcover_solver::gridcheck::GridCheck;
    /// use xcover_solver::sudoku::Grid;
    ///
    /// let grid = Grid::parse(
    ///     "123456789456789123789123456214365897365897214897214365531642978642978531978531642",
    /// )?;
    /// let scan = GridCheck::new(&grid).clues(80).mask(&format!("..{}", "1".repeat(79)))?;
    /// assert_eq!(scan.puzzles_until(&AtomicBool::new(true))?, None);
    /// assert_eq!(scan.puzzles_until(&AtomicBool::new(false))?.map(|p| p.len()), Some(2));
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn puzzles_until(&self, stop: &AtomicBool) -> Result<Option<Vec<Puzzle>>, Error> {
        let found = Mutex::new(Vec::new());
        let whole = self.for_each_puzzle_until(stop, &|p: Puzzle| {
            found.lock().unwrap_or_else(PoisonError::into_inner).push(p)
        })?;
        if !whole {
            return Ok(None);
        }
        let mut puzzles: Vec<(String, Puzzle)> = found
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .into_iter()
            .map(|p| (p.to_string(), p))
            .collect();
        puzzles.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        Ok(Some(puzzles.into_iter().map(|(_, p)| p).collect()))
    }

    /// Hands each puzzle to `found` as the scan finds it, once each, in no set order (from
    /// the scan's threads), so that a caller can show puzzles while a long scan goes on.
    /// Returns `false` when `stop` was set (looked at between slices of the scan) before
    /// the scan ended, `true` when every puzzle was handed over.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use std::sync::Mutex;
    /// use xcover_solver::gridcheck::GridCheck;
    /// use xcover_solver::sudoku::Grid;
    ///
    /// let grid = Grid::parse(
    ///     "123456789456789123789123456214365897365897214897214365531642978642978531978531642",
    /// )?;
    /// let scan = GridCheck::new(&grid).clues(80).mask(&format!("..{}", "1".repeat(79)))?;
    /// let seen = Mutex::new(Vec::new());
    /// let whole = scan.for_each_puzzle_until(&AtomicBool::new(false), &|p| {
    ///     seen.lock().unwrap().push(p.to_string())
    /// })?;
    /// assert!(whole);
    /// assert_eq!(seen.into_inner().unwrap().len(), 2);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn for_each_puzzle_until(
        &self,
        stop: &AtomicBool,
        found: &(dyn Fn(Puzzle) + Sync),
    ) -> Result<bool, Error> {
        let options = self.options()?;
        let grid = &self.grid.grid;
        // The default recipe of every front end (per grid for a whole grid; the puzzles
        // found never depend on it).
        let uas = budget::scan_recipe(grid, &options)
            .generate_to_vec(grid, self.seed, self.mask.givens)
            .map_err(scan_error)?;
        let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
        // A whole grid runs on the band engine (each worker lends it band words).
        let prepared =
            scan::prepare_with_bands(grid, &uas, &options, &mut work).map_err(scan_error)?;
        let chunks: Vec<ChunkId> = prepared.chunks().collect();
        // Each puzzle once, whichever chunk finds it.
        let seen = Mutex::new(std::collections::HashSet::new());
        let failed = Mutex::new(None);
        let each = |givens: Cells| {
            let p = CorePuzzle::from_grid(grid, givens);
            let digits = *p.digits();
            if !seen
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(digits)
            {
                return;
            }
            match Puzzle::from_digits(digits) {
                Ok(p) => found(p),
                Err(e) => {
                    failed
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .get_or_insert(e);
                }
            }
        };
        let whole = run_chunks(&prepared, &chunks, self.threads, stop, &each)?;
        if let Some(e) = failed.into_inner().unwrap_or_else(PoisonError::into_inner) {
            return Err(e);
        }
        Ok(whole)
    }
}

/// Runs `chunks` of `prepared` on `threads` threads, each taking the next chunk when
/// free; hands the givens of every puzzle found to `found` at once (from the thread
/// that found it); returns `false` when `stop` was set before the end.
fn run_chunks(
    prepared: &Prepared<'_>,
    chunks: &[ChunkId],
    threads: usize,
    stop: &AtomicBool,
    found: &(dyn Fn(Cells) + Sync),
) -> Result<bool, Error> {
    let next = AtomicUsize::new(0);
    let failed = Mutex::new(None);
    let size = WorkspaceSize::for_scan(prepared);
    let worker = || {
        let mut table = Box::new(BitmapTable::new());
        let mut states = vec![LevelState::ZERO; size.states];
        let mut band_words = vec![0u64; size.band_words];
        while let Some(&chunk) = chunks.get(next.fetch_add(1, Ordering::Relaxed)) {
            let view = WorkspaceView::new(&mut table, &mut states).with_bands(&mut band_words);
            let mut run = match ChunkRun::new(prepared, view, chunk) {
                Ok(run) => run,
                Err(e) => {
                    failed
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .get_or_insert(scan_error(e));
                    next.store(chunks.len(), Ordering::Relaxed);
                    break;
                }
            };
            let mut on_found = |givens: Cells| {
                found(givens);
                ControlFlow::Continue(())
            };
            while run.run(SLICE, &mut on_found) == RunStatus::BudgetExhausted {
                if stop.load(Ordering::Relaxed) {
                    next.store(chunks.len(), Ordering::Relaxed);
                    break;
                }
            }
        }
    };
    std::thread::scope(|scope| {
        for w in 1..threads.clamp(1, chunks.len().max(1)) {
            let spawned = std::thread::Builder::new()
                .name(format!("xcover-solver gridcheck {w}"))
                .spawn_scoped(scope, worker);
            // Fewer threads than asked (the system refused one): this thread and those
            // started run every chunk.
            if spawned.is_err() {
                break;
            }
        }
        worker();
    });
    if let Some(e) = failed.into_inner().unwrap_or_else(PoisonError::into_inner) {
        return Err(e);
    }
    Ok(!stop.load(Ordering::Relaxed))
}
