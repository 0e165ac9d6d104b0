//! Running the chunks of a prepared scan on worker threads (dynamic scheduling), with a
//! progress line on stderr when it is a terminal.
use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Result};
use xcover_core::gridcheck::scan::{
    BitmapTable, ChunkId, ChunkRun, LevelState, Prepared, RunStats, RunStatus, WorkspaceSize,
    WorkspaceView,
};
use xcover_core::gridcheck::{Cells, Grid};

use super::journal::Journal;

/// Steps per budget slice: workers look at the stop flag between slices.
const SLICE: u64 = 1 << 18;

/// What the workers found.
pub struct Outcome {
    /// Givens of every puzzle found (unsorted, maybe with duplicates).
    pub found: Vec<Cells>,
    /// Counters summed over all chunks.
    pub stats: RunStats,
    /// Chunks that ran to their end (all of them unless interrupted or stopped).
    pub chunks_done: usize,
    /// The run was cut short by [`Control::interrupt`] (a signal).
    pub interrupted: bool,
}

/// Outside controls of a run: a signal flag and the checkpoint journal.
#[derive(Copy, Clone, Default)]
pub struct Control<'a> {
    /// Non-zero (the signal number) asks the workers to stop at the next slice.
    pub interrupt: Option<&'a AtomicUsize>,
    /// Journal, index of the grid in the batch, and the grid: every puzzle is recorded
    /// when found, every chunk when finished.
    pub journal: Option<(&'a Journal, usize, &'a Grid)>,
}

impl Control<'_> {
    fn interrupted(&self) -> bool {
        self.interrupt
            .is_some_and(|flag| flag.load(Ordering::Relaxed) != 0)
    }
}

/// Per-thread buffers of a chunk run.
struct Buffers {
    table: Box<BitmapTable>,
    states: Vec<LevelState>,
}

impl Buffers {
    fn new(size: WorkspaceSize) -> Buffers {
        Buffers {
            table: Box::new(BitmapTable::new()),
            states: vec![LevelState::ZERO; size.states],
        }
    }

    fn workspace(&mut self) -> WorkspaceView<'_> {
        WorkspaceView::new(&mut self.table, &mut self.states)
    }
}

fn add(total: &mut RunStats, more: RunStats) {
    total.steps += more.steps;
    total.candidates += more.candidates;
    total.solver_calls += more.solver_calls;
    total.found += more.found;
}

/// Runs every chunk; with stop-at-first, stops all workers after the first puzzle.
/// `control` can interrupt the run and journal its progress.
pub fn run_chunks(
    prepared: &Prepared<'_>,
    chunks: &[ChunkId],
    threads: usize,
    label: &str,
    control: Control<'_>,
) -> Result<Outcome> {
    let size = WorkspaceSize::for_scan(prepared);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let found_count = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let interrupted = AtomicBool::new(false);
    let results: Mutex<(Vec<Cells>, RunStats)> = Mutex::new((Vec::new(), RunStats::default()));
    let errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let workers = threads.clamp(1, chunks.len().max(1));
    let progress = std::io::stderr().is_terminal();
    let started = Instant::now();
    let finished_workers = AtomicUsize::new(0);

    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let mut buffers = Buffers::new(size);
                let mut found = Vec::new();
                let mut stats = RunStats::default();
                'chunks: while !stop.load(Ordering::Relaxed) {
                    if control.interrupted() {
                        interrupted.store(true, Ordering::Relaxed);
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&chunk) = chunks.get(index) else {
                        break;
                    };
                    let mut run = match ChunkRun::new(prepared, buffers.workspace(), chunk) {
                        Ok(run) => run,
                        Err(err) => {
                            errors
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .push(err.to_string());
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                    };
                    let mut journal_error = None;
                    loop {
                        let status = run.run(SLICE, &mut |givens| {
                            found.push(givens);
                            found_count.fetch_add(1, Ordering::Relaxed);
                            if let Some((journal, grid_index, grid)) = control.journal {
                                if let Err(err) = journal.puzzle(grid_index, grid, givens) {
                                    journal_error = Some(err);
                                    return ControlFlow::Break(());
                                }
                            }
                            ControlFlow::Continue(())
                        });
                        if let Some(err) = journal_error.take() {
                            errors
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .push(format!("{err:#}"));
                            stop.store(true, Ordering::Relaxed);
                            add(&mut stats, run.stats());
                            break 'chunks;
                        }
                        match status {
                            RunStatus::Done => break,
                            RunStatus::Stopped => {
                                stop.store(true, Ordering::Relaxed);
                                add(&mut stats, run.stats());
                                break 'chunks;
                            }
                            RunStatus::BudgetExhausted => {
                                if control.interrupted() {
                                    interrupted.store(true, Ordering::Relaxed);
                                    stop.store(true, Ordering::Relaxed);
                                }
                                if stop.load(Ordering::Relaxed) {
                                    add(&mut stats, run.stats());
                                    break 'chunks;
                                }
                            }
                        }
                    }
                    add(&mut stats, run.stats());
                    if let Some((journal, grid_index, _)) = control.journal {
                        if let Err(err) = journal.chunk_done(grid_index, chunk.to_u32()) {
                            errors
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .push(format!("{err:#}"));
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                    done.fetch_add(1, Ordering::Relaxed);
                }
                let mut shared = results.lock().unwrap_or_else(|e| e.into_inner());
                shared.0.extend(found);
                add(&mut shared.1, stats);
                finished_workers.fetch_add(1, Ordering::Relaxed);
            });
        }
        if progress {
            while finished_workers.load(Ordering::Relaxed) < workers {
                std::thread::sleep(Duration::from_millis(250));
                let finished = done.load(Ordering::Relaxed);
                let elapsed = started.elapsed().as_secs_f64();
                let eta = if finished > 0 {
                    format!(
                        "{:.0}s",
                        elapsed * (chunks.len() - finished) as f64 / finished as f64
                    )
                } else {
                    "?".to_owned()
                };
                let mut err = std::io::stderr().lock();
                let _ = write!(
                    err,
                    "\r{label}: chunks {finished}/{} found {} elapsed {elapsed:.0}s ETA {eta}   ",
                    chunks.len(),
                    found_count.load(Ordering::Relaxed)
                );
                let _ = err.flush();
            }
            eprint!("\r{:79}\r", "");
        }
    });
    if let Some(err) = errors
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .next()
    {
        return Err(anyhow!("running a chunk: {err}"));
    }
    let (found, stats) = results.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(Outcome {
        found,
        stats,
        chunks_done: done.into_inner(),
        interrupted: interrupted.into_inner(),
    })
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

/// Prepares and runs a whole scan of `grid` with the UA list `uas` (all real UA).
pub fn scan_puzzles(
    grid: &xcover_core::gridcheck::Grid,
    uas: &[Cells],
    options: &xcover_core::gridcheck::scan::ScanOptions,
    threads: usize,
) -> Result<Scanned> {
    let mut work = vec![0u128; xcover_core::gridcheck::scan::prepare_work_entries(uas.len())];
    let prepared = xcover_core::gridcheck::scan::prepare(grid, uas, options, &mut work)
        .map_err(|e| anyhow!("preparing the scan: {e}"))?;
    let chunks: Vec<ChunkId> = prepared.chunks().collect();
    let outcome = run_chunks(&prepared, &chunks, threads, "scan", Control::default())?;
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
