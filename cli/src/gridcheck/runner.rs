//! Running the chunks of a prepared scan on worker threads (dynamic scheduling), with a
//! progress bar on stderr when it is a terminal.
use std::io::IsTerminal;
use std::mem::MaybeUninit;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex, PoisonError};
use std::time::Duration;

use crate::error::{cli_error, Result};
use indicatif::{HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use xcover_core::gridcheck::scan::{
    BitmapTable, ChunkId, LevelState, Prepared, RunStats, RunStatus, ScanOptions, WorkspaceSize,
    WorkspaceView,
};
use xcover_core::gridcheck::session::{Runs, Session, Storage};
use xcover_core::gridcheck::{Cells, Grid};

use super::journal::Journal;

/// Steps per budget slice: workers look at the stop flag between slices.
const SLICE: u64 = 1 << 18;

/// How often the progress bar's puzzle count is refreshed.
const PROGRESS_TICK: Duration = Duration::from_millis(250);

/// What the workers found.
pub struct Outcome {
    /// Givens of every puzzle found (unsorted, maybe with duplicates).
    pub found: Vec<Cells>,
    /// Counters summed over all chunks.
    pub stats: RunStats,
    /// Counters of each chunk that ran to its end (in no particular order).
    pub chunk_stats: Vec<(ChunkId, RunStats)>,
    /// Chunks that ran to their end (all of them unless interrupted or stopped).
    pub chunks_done: usize,
    /// The run was cut short by [`Control::interrupt`] (a signal).
    pub interrupted: bool,
}

/// Outside controls of a run: a signal flag, the checkpoint journal, and whether it may
/// draw a progress bar.
#[derive(Copy, Clone, Default)]
pub struct Control<'a> {
    /// Non-zero (the signal number) asks the workers to stop at the next slice.
    pub interrupt: Option<&'a AtomicUsize>,
    /// Journal, index of the grid in the batch, and the grid: every puzzle is recorded
    /// when found, every chunk when finished.
    pub(crate) journal: Option<(&'a Journal, usize, &'a Grid)>,
    /// No progress bar, even on a terminal: grids scanned at once would draw theirs over
    /// each other's.
    pub quiet: bool,
}

impl Control<'_> {
    fn interrupted(&self) -> bool {
        self.interrupt
            .is_some_and(|flag| flag.load(Ordering::Relaxed) != 0)
    }
}

/// Per-thread buffers of a chunk run: the enumeration's table and level states, and the
/// band engine's words when `size` asks for them.
pub(super) struct Buffers {
    table: Box<BitmapTable>,
    states: Vec<LevelState>,
    bands: Vec<u64>,
}

impl Buffers {
    pub(super) fn new(size: WorkspaceSize) -> Buffers {
        Buffers {
            table: Box::new(BitmapTable::new()),
            states: vec![LevelState::ZERO; size.states],
            bands: vec![0; size.band_words],
        }
    }

    pub(super) fn workspace(&mut self) -> WorkspaceView<'_> {
        WorkspaceView::new(&mut self.table, &mut self.states).with_bands(&mut self.bands)
    }
}

/// The workspace a session scanning with `options` is lent: level states for the clue
/// count, and for a whole grid the band words, so that the band engine runs it.
pub(super) fn session_size(options: &ScanOptions) -> WorkspaceSize {
    let mut size = WorkspaceSize::for_clues(options.clues);
    if options.mask.is_free() {
        size.band_words = WorkspaceSize::BAND_WORDS;
    }
    size
}

/// What the workers of a run share: the chunk queue, the stop flags, the progress and
/// the results.
struct Shared<'r, 'p> {
    prepared: &'r Prepared<'p>,
    chunks: &'r [ChunkId],
    control: Control<'r>,
    /// Index of the next chunk to hand out.
    next: AtomicUsize,
    /// Chunks run to their end.
    done: AtomicUsize,
    /// Puzzles found so far (for the progress bar).
    found: AtomicU64,
    /// Every worker stops at its next slice: stop-at-first, an error or a signal.
    stop: AtomicBool,
    /// The stop came from [`Control::interrupt`].
    interrupted: AtomicBool,
    progress: ProgressBar,
    /// Puzzles and counters of the workers that have finished.
    results: Mutex<(Vec<Cells>, RunStats)>,
    /// Counters of each chunk run to its end.
    chunk_stats: Mutex<Vec<(ChunkId, RunStats)>>,
    /// The first error of any worker.
    error: Mutex<Option<String>>,
}

impl Shared<'_, '_> {
    /// True when the run must stop (noting an interruption first).
    fn stopping(&self) -> bool {
        if self.control.interrupted() {
            self.interrupted.store(true, Ordering::Relaxed);
            self.stop.store(true, Ordering::Relaxed);
        }
        self.stop.load(Ordering::Relaxed)
    }

    /// The next chunk to run, or `None` when all are handed out or the run stops.
    fn next_chunk(&self) -> Option<ChunkId> {
        if self.stopping() {
            return None;
        }
        self.chunks
            .get(self.next.fetch_add(1, Ordering::Relaxed))
            .copied()
    }

    /// Records an error (the first one is reported) and stops every worker.
    fn fail(&self, message: String) {
        self.error
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert(message);
        self.stop.store(true, Ordering::Relaxed);
    }

    /// A chunk ran to its end with counters `stats`: journal it and count it.
    fn chunk_done(&self, chunk: ChunkId, stats: RunStats) -> Result<()> {
        if let Some((journal, grid_index, _)) = self.control.journal {
            journal.chunk_done(grid_index, chunk.to_u32(), stats)?;
        }
        self.chunk_stats
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((chunk, stats));
        self.done.fetch_add(1, Ordering::Relaxed);
        self.progress.inc(1);
        Ok(())
    }
}

/// One worker thread: takes chunks from the shared queue and runs them one after another
/// with core's chunk runs over its own workspace (the phases Prepared, Running and
/// ChunkDone of a gridcheck session, which keep its counters).
struct Worker<'s, 'r, 'p, 'w> {
    shared: &'s Shared<'r, 'p>,
    runs: Runs<'w>,
    found: Vec<Cells>,
}

impl Worker<'_, '_, '_, '_> {
    /// Runs chunks until none is left or the run stops, then hands its puzzles and
    /// counters over.
    fn run(mut self) {
        let shared = self.shared;
        while let Some(chunk) = shared.next_chunk() {
            let Some(stats) = self.run_chunk(chunk) else {
                break;
            };
            if let Err(err) = shared.chunk_done(chunk, stats) {
                shared.fail(format!("{err:#}"));
                break;
            }
        }
        let mut results = shared
            .results
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        results.0.extend(self.found);
        results.1 += self.runs.totals();
    }

    /// Runs `chunk` in slices; its counters when it ran to its end, `None` when the run
    /// stops (stop-at-first, an error, a signal).
    fn run_chunk(&mut self, chunk: ChunkId) -> Option<RunStats> {
        let shared = self.shared;
        if let Err(err) = self.runs.begin_chunk(chunk) {
            shared.fail(err.to_string());
            return None;
        }
        let found = &mut self.found;
        let finished = loop {
            let mut journal_error = None;
            let status = self.runs.run(SLICE, &mut |givens| {
                found.push(givens);
                shared.found.fetch_add(1, Ordering::Relaxed);
                if let Some((journal, grid_index, grid)) = shared.control.journal {
                    if let Err(err) = journal.puzzle(grid_index, grid, givens) {
                        journal_error = Some(err);
                        return ControlFlow::Break(());
                    }
                }
                ControlFlow::Continue(())
            });
            if let Some(err) = journal_error {
                shared.fail(format!("{err:#}"));
                break false;
            }
            match status {
                Ok(RunStatus::Done) => break true,
                Ok(RunStatus::Stopped) => {
                    shared.stop.store(true, Ordering::Relaxed);
                    break false;
                }
                Ok(RunStatus::BudgetExhausted) if shared.stopping() => break false,
                Ok(RunStatus::BudgetExhausted) => {}
                Err(err) => {
                    shared.fail(err.to_string());
                    break false;
                }
            }
        };
        finished.then_some(self.runs.current_stats())
    }
}

/// Runs a worker: with `runs` (a session's own, prepared), or with chunk runs over a
/// workspace of its own.
fn work(shared: &Shared<'_, '_>, runs: Option<Runs<'_>>) {
    let mut buffers;
    let runs = match runs {
        Some(runs) => runs,
        None => {
            buffers = Buffers::new(WorkspaceSize::for_scan(shared.prepared));
            match Runs::new(shared.prepared, buffers.workspace()) {
                Ok(runs) => runs,
                Err(err) => return shared.fail(err.to_string()),
            }
        }
    };
    Worker {
        shared,
        runs,
        found: Vec::new(),
    }
    .run();
}

/// The progress bar of a run of `chunks` chunks: on stderr when it is a terminal (hidden
/// otherwise, so that pipes and logs get nothing), with the chunks done, the puzzles found,
/// the rate and the ETA.
fn progress_bar(label: &str, chunks: usize, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    // Short enough for 80 columns; the bar takes what is left of the line.
    let style = ProgressStyle::with_template(
        "{prefix}: {pos}/{len} chunks, {msg} found, {chunk_rate}, ETA {eta_or_unknown} [{wide_bar}]",
    )
    .expect("the template is valid")
    .progress_chars("=> ")
    .with_key("chunk_rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = write!(w, "{:.1} chunks/s", state.per_sec());
    })
    .with_key("eta_or_unknown", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
        // No estimate before the first chunk ends.
        let _ = match state.pos() {
            0 => write!(w, "?"),
            _ => write!(w, "{:#}", HumanDuration(state.eta())),
        };
    });
    let bar = ProgressBar::with_draw_target(Some(chunks as u64), ProgressDrawTarget::stderr())
        .with_style(style)
        .with_prefix(label.to_owned())
        .with_message("0");
    bar.tick();
    bar
}

/// Runs every chunk on `threads` workers; with stop-at-first, stops all of them after the
/// first puzzle. `control` can interrupt the run and journal its progress; `label` names
/// the run on the progress bar.
pub fn run_chunks(
    prepared: &Prepared<'_>,
    chunks: &[ChunkId],
    threads: usize,
    label: &str,
    control: Control<'_>,
) -> Result<Outcome> {
    run_workers(prepared, None, chunks, threads, label, control)
}

/// As [`run_chunks`], for the scan prepared by a session: `runs` are its chunk runs, which
/// the first worker drives; the others run the same prepared scan over workspaces of their
/// own.
pub fn run_session(
    runs: Runs<'_>,
    chunks: &[ChunkId],
    threads: usize,
    label: &str,
    control: Control<'_>,
) -> Result<Outcome> {
    let prepared = runs.prepared();
    run_workers(prepared, Some(runs), chunks, threads, label, control)
}

/// The work of [`run_chunks`] and [`run_session`].
fn run_workers<'p>(
    prepared: &'p Prepared<'p>,
    first: Option<Runs<'p>>,
    chunks: &[ChunkId],
    threads: usize,
    label: &str,
    control: Control<'_>,
) -> Result<Outcome> {
    let shared = Shared {
        prepared,
        chunks,
        control,
        next: AtomicUsize::new(0),
        done: AtomicUsize::new(0),
        found: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        interrupted: AtomicBool::new(false),
        progress: progress_bar(label, chunks.len(), control.quiet),
        results: Mutex::new((Vec::new(), RunStats::default())),
        chunk_stats: Mutex::new(Vec::new()),
        error: Mutex::new(None),
    };
    let workers = threads.clamp(1, chunks.len().max(1));
    if workers == 1 && shared.progress.is_hidden() {
        // One worker and no bar to refresh: it runs on this thread, so that a grid of a
        // batch scanned one grid a thread (`lanes`) costs no thread of its own.
        work(&shared, first);
    } else {
        run_threads(&shared, first, workers);
    }
    shared.progress.finish_and_clear();
    if let Some(err) = shared
        .error
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
    {
        return Err(cli_error!("running a chunk: {err}"));
    }
    let (found, totals) = shared
        .results
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    Ok(Outcome {
        found,
        stats: totals,
        chunk_stats: shared
            .chunk_stats
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner),
        chunks_done: shared.done.into_inner(),
        interrupted: shared.interrupted.into_inner(),
    })
}

/// Runs `workers` threads over `shared`'s chunks, the first with `first` (a session's chunk
/// runs).
fn run_threads<'p>(shared: &Shared<'_, 'p>, first: Option<Runs<'p>>, workers: usize) {
    std::thread::scope(|scope| {
        // Each worker holds a sender; the channel disconnects when the last one ends.
        let (running, all_ended) = mpsc::channel::<()>();
        let mut first = first;
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                let running = running.clone();
                let runs = first.take();
                scope.spawn(move || {
                    work(shared, runs);
                    drop(running);
                })
            })
            .collect();
        drop(running);
        if !shared.progress.is_hidden() {
            while let Err(mpsc::RecvTimeoutError::Timeout) = all_ended.recv_timeout(PROGRESS_TICK) {
                let found = shared.found.load(Ordering::Relaxed);
                shared.progress.set_message(found.to_string());
            }
        }
        // Joined one by one rather than at the scope's end, which waits for the workers'
        // work but not for their threads' exits: the next grid's workers then never meet
        // the last ones' threads still ending.
        for handle in handles {
            if let Err(panic) = handle.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
}

/// Result of [`scan_puzzles`].
pub struct Scanned {
    /// Givens of the puzzles found, sorted, no duplicates (one at most with stop-at-first).
    pub puzzles: Vec<Cells>,
    /// Counters summed over all chunks.
    pub stats: RunStats,
    /// Number of chunks.
    pub chunks: usize,
}

/// Core's session over `storage`, driven as the C ABI drives it: the grid, the options,
/// the UA list the storage holds (its sets checked by the caller), the preparation; returns
/// its chunk runs.
pub(super) fn prepare_session<'s>(
    storage: Storage<'s>,
    grid: &Grid,
    options: &ScanOptions,
) -> Result<Runs<'s>> {
    let mut session = Session::new(storage);
    session
        .set_grid(*grid)
        .and_then(|()| session.set_options(*options))
        .and_then(|()| session.prepare())
        .map_err(|e| cli_error!("preparing the scan: {e}"))?;
    session
        .into_runs()
        .map_err(|_| cli_error!("preparing the scan: not prepared"))
}

/// Prepares and runs a whole scan of `grid` with the UA list `uas` (all real UA).
pub fn scan_puzzles(
    grid: &xcover_core::gridcheck::Grid,
    uas: &[Cells],
    options: &ScanOptions,
    threads: usize,
) -> Result<Scanned> {
    let mut work = vec![0u128; xcover_core::gridcheck::scan::prepare_work_entries(uas.len())];
    let mut list = uas.to_vec();
    let (mut grid_room, mut prepared_room) = (MaybeUninit::uninit(), MaybeUninit::uninit());
    let mut buffers = Buffers::new(session_size(options));
    let runs = prepare_session(
        Storage {
            grid: &mut grid_room,
            prepared: &mut prepared_room,
            uas_held: list.len(),
            uas: &mut list,
            ua_scratch: &mut [],
            work: &mut work,
            workspace: buffers.workspace(),
        },
        grid,
        options,
    )?;
    let chunks: Vec<ChunkId> = runs.prepared().chunks().collect();
    let outcome = run_session(runs, &chunks, threads, "scan", Control::default())?;
    let mut puzzles = outcome.found;
    puzzles.sort_unstable();
    puzzles.dedup();
    if options.stop_at_first {
        puzzles.truncate(1);
    }
    Ok(Scanned {
        puzzles,
        stats: outcome.stats,
        chunks: chunks.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_scan::Fixture;
    use super::*;

    /// The chunks on one worker (run on the calling thread when no bar is drawn), two or
    /// three give the same puzzles and counters, and every chunk runs once.
    #[test]
    fn any_number_of_workers_gives_the_same_run() {
        let fx = Fixture::new();
        fx.with_prepared(|prepared, chunks, _| {
            let run = |threads: usize, quiet: bool| {
                let control = Control {
                    quiet,
                    ..Control::default()
                };
                let outcome = run_workers(prepared, None, chunks, threads, "test", control);
                let outcome = outcome.unwrap();
                let mut found = outcome.found.clone();
                found.sort_unstable();
                found.dedup();
                let mut done: Vec<u32> = outcome.chunk_stats.iter().map(|c| c.0.to_u32()).collect();
                done.sort_unstable();
                (found, outcome.stats, done, outcome.chunks_done)
            };
            assert!(chunks.len() >= 2, "the fixture has chunks to share");
            let one = run(1, true);
            let mut all: Vec<u32> = chunks.iter().map(|c| c.to_u32()).collect();
            all.sort_unstable();
            assert_eq!(one.2, all);
            assert_eq!(one.3, chunks.len());
            assert!(!one.0.is_empty(), "the fixture has puzzles");
            for (threads, quiet) in [(1, false), (2, true), (3, false)] {
                assert_eq!(run(threads, quiet), one, "{threads} threads");
            }
        });
    }

    #[test]
    fn totals_add_every_counter() {
        let mut totals = RunStats::default();
        let one = RunStats {
            steps: 10,
            candidates: 3,
            solver_calls: 4,
            found: 1,
        };
        totals += one;
        totals += RunStats { steps: 5, ..one };
        assert_eq!(
            totals,
            RunStats {
                steps: 15,
                candidates: 6,
                solver_calls: 8,
                found: 2,
            }
        );
    }
}
