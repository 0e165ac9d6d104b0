//! The scan of one grid: its UA (generated or loaded), the preparation, the chunks on the
//! worker threads, the journal's records for it, and what a signal leaves of it.
use std::mem::MaybeUninit;
use std::time::Instant;

use crate::error::{bail, cli_error, Context, Result};
use xcover_core::gridcheck::scan::{self, ScanOptions};
use xcover_core::gridcheck::session::Storage;
use xcover_core::gridcheck::{Cells, Grid, Puzzle};

use super::args::Args;
use super::journal::{GridRecord, Journal};
use super::summary::{self, Counts, PreparedSummary};
use super::ua_source;
use super::{runner, validate};
use crate::memory;
use crate::signals::Signals;

/// How the scan of a grid ended.
pub(super) enum GridOutcome {
    /// It ran to its end.
    Done(GridScan),
    /// A signal cut it short; without a journal, what to print of it.
    Cut(Option<CutShort>),
}

/// What a grid cut short by a signal prints when no journal keeps its puzzles.
pub(super) struct CutShort {
    /// The stderr line saying how far the scan went.
    pub(super) note: String,
    /// The puzzles found so far: sorted, de-duplicated.
    pub(super) lines: Vec<String>,
}

/// What a grid's scan (or the journal, for a grid finished earlier) gives.
pub(super) struct GridScan {
    /// Output lines: sorted, de-duplicated puzzles.
    pub(super) lines: Vec<String>,
    /// The preparation figures (`None` for a grid finished in an earlier unsharded run).
    pub(super) prepared: Option<PreparedSummary>,
    /// Counters of the chunks run (this run's and, from the journal, earlier runs'); for
    /// a shard, only its own chunks.
    pub(super) chunk_counts: Vec<(u32, Counts)>,
    /// The grid's summary line for stderr.
    pub(super) summary: String,
}

/// Syncs the journal after a signal; returns the signal for the exit status.
pub(super) fn interrupted(journal: Option<&Journal>, signal: i32) -> Result<Option<i32>> {
    if let Some(journal) = journal {
        journal.sync()?;
    }
    Ok(Some(signal))
}

/// Output lines of a grid's puzzles: sorted, de-duplicated, one with stop-at-first.
pub(super) fn puzzle_lines(
    grid: &Grid,
    mut found: Vec<Cells>,
    options: &ScanOptions,
) -> Vec<String> {
    found.sort_unstable();
    found.dedup();
    if options.stop_at_first {
        found.truncate(1);
    }
    let mut lines: Vec<String> = found
        .iter()
        .map(|&givens| Puzzle::from_grid(grid, givens).to_string())
        .collect();
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// Everything the scan of one grid needs.
pub(super) struct GridContext<'a> {
    pub(super) args: &'a Args,
    pub(super) options: &'a ScanOptions,
    pub(super) grid: &'a Grid,
    /// Index of the grid in the batch.
    pub(super) index: usize,
    pub(super) threads: usize,
    pub(super) label: &'a str,
    pub(super) budget: Budget,
    pub(super) signals: &'a Signals,
    /// Journal, index of the grid, and what the journal already holds for it.
    pub(super) journal: Option<(&'a Journal, usize, &'a GridRecord)>,
}

/// The memory a grid's scan may use: `--max-memory`, shared out between the grids scanned
/// at once.
#[derive(Clone, Copy)]
pub(super) struct Budget {
    /// `--max-memory`, resolved.
    pub(super) limit: u64,
    /// Grids scanned at once, each within its share of the limit.
    pub(super) share: usize,
}

impl Budget {
    /// All of `limit`, for one grid at a time.
    pub(super) fn whole(limit: u64) -> Budget {
        Budget { limit, share: 1 }
    }

    /// Bytes of this grid's share.
    fn bytes(self) -> u64 {
        self.limit / self.share.max(1) as u64
    }

    /// Refuses `bytes` for `what` over this grid's share (the message names the share).
    fn check(self, bytes: u64, what: &str) -> Result<()> {
        let what = match self.share {
            0 | 1 => what.to_owned(),
            n => format!(
                "{what}, one of {n} grids scanned at once (each within 1/{n} of the limit),"
            ),
        };
        memory::check(bytes, self.bytes(), &what).map_err(|e| cli_error!(e))
    }
}

/// Bytes of one UA set in memory.
const UA_BYTES: u64 = std::mem::size_of::<Cells>() as u64;

/// Upper estimate of the memory loading a UA file needs: the text and one set per line.
fn ua_file_bytes(path: &std::path::Path) -> Result<u64> {
    let len = std::fs::metadata(path)
        .with_context(|| format!("reading {}", path.display()))?
        .len();
    Ok(len + (len + 1) * UA_BYTES)
}

/// The UA list of `grid`: loaded from `--ua-file` (checked against the grid) or generated;
/// and which of the two (for the summary).
pub(super) fn ua_list(
    args: &Args,
    options: &ScanOptions,
    grid: &Grid,
    budget: Budget,
) -> Result<(Vec<Cells>, &'static str)> {
    Ok(match &args.ua_file {
        Some(path) => {
            budget.check(ua_file_bytes(path)?, "loading the UA file")?;
            // The file's text and a set per line fit the limit.
            let text_limit = budget.bytes() / (UA_BYTES + 1);
            (ua_source::load(path, grid, text_limit)?, "loaded")
        }
        None => {
            // `--ua-random` random pseudo-puzzles (by default the recipe `ua_source::recipe`
            // chooses for the grid, or a masked scan's), `--seed`, and the mask's forced
            // givens kept.
            let recipe = ua_source::recipe(args.ua_random, grid, options);
            budget.check(recipe.first_bytes(), "UA generation")?;
            let keep = options.mask.givens;
            (
                ua_source::generate_recipe(grid, recipe, args.seed, keep)?,
                "generated",
            )
        }
    })
}

/// Scans one grid (a shard: its own chunks); returns the puzzles as sorted, de-duplicated
/// 81-char lines and the figures, or what a signal left.
pub(super) fn scan_grid(cx: &GridContext<'_>) -> Result<GridOutcome> {
    let (args, options, grid, label) = (cx.args, cx.options, cx.grid, cx.label);
    let started = Instant::now();
    let (uas, ua_origin) = ua_list(args, options, grid, cx.budget)?;
    if let Some(path) = &args.save_ua {
        ua_source::save(path, &uas)?;
    }
    let ua_seconds = started.elapsed().as_secs_f64();
    if cx.signals.received().is_some() {
        return Ok(GridOutcome::Cut(None));
    }

    let prepare_started = Instant::now();
    let ua_bytes = uas.len() as u64 * UA_BYTES;
    let work_entries = scan::prepare_work_entries(uas.len());
    let work_bytes = (work_entries as u64).saturating_mul(16);
    // The band engine's words, on every thread (a whole-grid scan).
    let size = runner::session_size(options);
    let band_bytes = (size.band_words as u64 * 8).saturating_mul(cx.threads as u64);
    cx.budget.check(
        ua_bytes
            .saturating_add(work_bytes)
            .saturating_add(band_bytes),
        "the scan (UA list, work buffer and per-thread band words)",
    )?;
    let mut work = vec![0u128; work_entries];
    let mut uas = uas;
    let (mut grid_room, mut prepared_room) = (MaybeUninit::uninit(), MaybeUninit::uninit());
    let mut buffers = runner::Buffers::new(size);
    // Core's session, as the C ABI drives it: the grid, the options, the UA list (the
    // generator's or the file's, each set checked), the preparation; its chunk runs go to
    // the first worker.
    let runs = runner::prepare_session(
        Storage {
            grid: &mut grid_room,
            prepared: &mut prepared_room,
            uas_held: uas.len(),
            uas: &mut uas,
            ua_scratch: &mut [],
            work: &mut work,
            workspace: buffers.workspace(),
        },
        grid,
        options,
    )?;
    let prepared = runs.prepared();
    let figures = PreparedSummary::new(prepared, ua_origin);
    if let (Some((journal, index, record)), Some(_)) = (cx.journal, args.shard) {
        match &record.prepared {
            None => journal.prepared(index, &figures)?,
            Some(earlier) if *earlier != figures => bail!(
                "{label}: the journal's preparation figures differ from this run's (a journal \
                 of another build?); start anew without --resume"
            ),
            Some(_) => {}
        }
    }
    let all_chunks: Vec<scan::ChunkId> = prepared.chunks().collect();
    // This run's chunks: the shard's units, less those the journal has done.
    let mine: Vec<scan::ChunkId> = match args.shard {
        Some(shard) => all_chunks
            .iter()
            .enumerate()
            .filter(|&(unit, _)| shard.owns(cx.index, unit))
            .map(|(_, &c)| c)
            .collect(),
        None => all_chunks.clone(),
    };
    if let (Some((_, _, record)), Some(path)) = (cx.journal, &args.checkpoint) {
        record.check_chunks(path, cx.index, &mine)?;
    }
    let chunks: Vec<scan::ChunkId> = match cx.journal {
        Some((_, _, record)) => mine
            .iter()
            .copied()
            .filter(|c| !record.chunks_done.contains_key(&c.to_u32()))
            .collect(),
        None => mine.clone(),
    };
    let workers = cx.threads.clamp(1, chunks.len().max(1));
    let per_thread = scan::WorkspaceSize::for_scan(prepared).bytes() as u64;
    let scan_bytes = ua_bytes
        .saturating_add(work_bytes)
        .saturating_add(per_thread.saturating_mul(workers as u64));
    cx.budget.check(
        scan_bytes,
        &format!(
            "the scan ({} of {per_thread} bytes each, UA list, work buffer)",
            summary::count(workers, "thread")
        ),
    )?;
    let prepare_seconds = prepare_started.elapsed().as_secs_f64();

    let scan_started = Instant::now();
    let control = runner::Control {
        interrupt: Some(cx.signals.flag()),
        journal: cx.journal.map(|(journal, index, _)| (journal, index, grid)),
        // Grids scanned at once would draw their bars over each other's.
        quiet: cx.budget.share > 1,
    };
    let outcome = runner::run_session(runs, &chunks, cx.threads, label, control)?;
    if outcome.interrupted {
        // With a journal the next run resumes to the exact output; without one, what was
        // found is printed rather than lost.
        if cx.journal.is_some() || args.shard.is_some() {
            return Ok(GridOutcome::Cut(None));
        }
        let lines = puzzle_lines(grid, outcome.found, options);
        let note = format!(
            "xcover gridcheck: {label}: interrupted after {} of {}; the puzzles printed ({}) \
             are those found so far",
            outcome.chunks_done,
            summary::count(chunks.len(), "chunk"),
            lines.len()
        );
        return Ok(GridOutcome::Cut(Some(CutShort { note, lines })));
    }
    let scan_seconds = scan_started.elapsed().as_secs_f64();

    let found = match cx.journal {
        // This run's puzzles and those of earlier runs (all in the journal).
        Some((journal, index, _)) => journal.puzzles(index),
        None => outcome.found,
    };
    let lines = puzzle_lines(grid, found, options);
    // Counters of this run's chunks and, from the journal, of those done earlier.
    let mut chunk_counts: Vec<(u32, Counts)> = outcome
        .chunk_stats
        .iter()
        .map(|(chunk, stats)| {
            let counts = Counts {
                nodes: stats.steps,
                candidates: stats.candidates,
            };
            (chunk.to_u32(), counts)
        })
        .collect();
    if let Some((_, _, record)) = cx.journal {
        chunk_counts.extend(record.chunk_counts.iter().map(|(&k, &v)| (k, v)));
    }

    let mut counts = Counts {
        nodes: outcome.stats.steps,
        candidates: outcome.stats.candidates,
    };
    let mut note = String::new();
    if let Some(shard) = args.shard {
        note.push_str(&format!(" ({} in shard {shard})", mine.len()));
    }
    // A resumed grid: the counters cover the whole grid when the journal kept those of the
    // chunks done earlier (a shard's journal does), else only this run's chunks; the line
    // says which. The puzzles found are always all of them (the journal keeps each one).
    let earlier = mine.len() - chunks.len();
    let earlier_counts = cx
        .journal
        .map(|(_, _, record)| &record.chunk_counts)
        .filter(|kept| earlier > 0 && kept.len() == earlier);
    if let Some(kept) = earlier_counts {
        for more in kept.values() {
            counts = validate::add_counts(counts, *more).map_err(|e| cli_error!("{label}: {e}"))?;
        }
        note.push_str(&format!(
            " ({earlier} done in an earlier run, counted from the journal)"
        ));
    } else if earlier > 0 {
        note.push_str(&format!(
            " ({earlier} done in an earlier run, not counted in nodes and candidates)"
        ));
    }
    let tail = format!(
        "seconds: UA {ua_seconds:.3}, prepare {prepare_seconds:.3}, scan {scan_seconds:.3} ({})",
        summary::count(cx.threads, "thread")
    );
    let summary = summary::line(label, &figures, &note, counts, lines.len(), &tail);
    Ok(GridOutcome::Done(GridScan {
        lines,
        prepared: Some(figures),
        chunk_counts,
        summary,
    }))
}
