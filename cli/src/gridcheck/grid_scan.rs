//! The scan of one grid: its UA (generated or loaded), the preparation, the chunks on the
//! worker threads, the journal's records for it, and what a signal leaves of it.
use std::mem::MaybeUninit;
use std::time::Instant;

use crate::error::{bail, cli_error, Context, Result};
use xcover_core::gridcheck::scan::{
    self, BitmapTable, LevelState, ScanOptions, WorkspaceSize, WorkspaceView,
};
use xcover_core::gridcheck::session::Storage;
use xcover_core::gridcheck::{Cells, Grid, Puzzle};

use super::args::Args;
use super::journal::{GridRecord, Journal};
use super::summary::{self, Counts, PreparedSummary};
use super::ua_ahead::{Generation, NextUa, UaAhead};
use super::ua_source;
use super::{output, runner, validate};
use crate::memory;
use crate::signals::Signals;

/// How the scan of a grid ended.
pub(super) enum GridOutcome {
    /// It ran to its end.
    Done(GridScan),
    /// A signal cut it short; without a journal, the puzzles found so far (to print).
    Cut(Option<Vec<String>>),
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
    pub(super) limit: u64,
    pub(super) signals: &'a Signals,
    /// Journal, index of the grid, and what the journal already holds for it.
    pub(super) journal: Option<(&'a Journal, usize, &'a GridRecord)>,
    /// The next grid of the batch this run scans, and its index: its UA list can be
    /// generated while this grid's chunks run.
    pub(super) next: Option<(usize, &'a Grid)>,
}

/// Bytes of one UA set in memory.
const UA_BYTES: u64 = std::mem::size_of::<Cells>() as u64;

/// Upper estimate of the memory UA generation needs at first: the list's initial room
/// (16384 + 32 per random pseudo-puzzle, see `ua_source`) and the antichain scratch
/// (65536 sets).
fn ua_generation_bytes(random: u32) -> u64 {
    (16_384 + 32 * u64::from(random) + 65_536) * UA_BYTES
}

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
    limit: u64,
) -> Result<(Vec<Cells>, &'static str)> {
    Ok(match &args.ua_file {
        Some(path) => {
            memory::check(ua_file_bytes(path)?, limit, "loading the UA file")
                .map_err(|e| cli_error!(e))?;
            // The file's text and a set per line fit the limit.
            let text_limit = limit / (UA_BYTES + 1);
            (ua_source::load(path, grid, text_limit)?, "loaded")
        }
        None => {
            let how = generation(args, options, grid);
            memory::check(
                ua_generation_bytes(how.recipe.random),
                limit,
                "UA generation",
            )
            .map_err(|e| cli_error!(e))?;
            (
                ua_source::generate_recipe(grid, how.recipe, how.seed, how.keep)?,
                "generated",
            )
        }
    })
}

/// How the UA list of `grid` is generated (without `--ua-file`): `--ua-random` random
/// pseudo-puzzles (by default the recipe `ua_source::recipe` chooses for the grid, or a
/// masked scan's), `--seed`, and the mask's forced givens kept.
fn generation(args: &Args, options: &ScanOptions, grid: &Grid) -> Generation {
    Generation {
        recipe: ua_source::recipe(args.ua_random, grid, options),
        seed: args.seed,
        keep: options.mask.givens,
    }
}

/// The UA list of the next grid to scan, to be generated by one of this grid's workers
/// while the others run its chunks, when that can pay and fits: two threads or more, a
/// generated list (no `--ua-file`, no `--save-ua`), and the memory of this scan
/// (`scan_bytes`) and of a generation within the limit (else the next list is generated in
/// line, as on one thread).
fn next_ua(cx: &GridContext<'_>, scan_bytes: u64) -> Option<NextUa> {
    let (args, (index, grid)) = (cx.args, cx.next?);
    if cx.threads < 2 || args.ua_file.is_some() || args.save_ua.is_some() {
        return None;
    }
    let how = generation(args, cx.options, grid);
    let bytes = scan_bytes.saturating_add(ua_generation_bytes(how.recipe.random));
    memory::check(bytes, cx.limit, "UA generation ahead").ok()?;
    Some(NextUa {
        index,
        grid: *grid,
        how,
    })
}

/// Scans one grid (a shard: its own chunks); returns the puzzles as sorted, de-duplicated
/// 81-char lines and the figures, or what a signal left.
///
/// `ahead` holds the UA list generated for a grid further on: this grid's is taken from
/// it, and the next grid's, generated by one of this grid's workers, is left there.
pub(super) fn scan_grid(cx: &GridContext<'_>, ahead: &mut Option<UaAhead>) -> Result<GridOutcome> {
    let (args, options, grid, label) = (cx.args, cx.options, cx.grid, cx.label);
    let started = Instant::now();
    let (uas, ua_origin, ua_seconds) = match UaAhead::take(ahead, cx.index) {
        Some((uas, seconds)) => (uas?, "generated", seconds),
        None => {
            let (uas, origin) = ua_list(args, options, grid, cx.limit)?;
            if let Some(path) = &args.save_ua {
                ua_source::save(path, &uas)?;
            }
            (uas, origin, started.elapsed().as_secs_f64())
        }
    };
    if cx.signals.received().is_some() {
        return Ok(GridOutcome::Cut(None));
    }

    let prepare_started = Instant::now();
    let ua_bytes = uas.len() as u64 * UA_BYTES;
    let work_entries = scan::prepare_work_entries(uas.len());
    let work_bytes = (work_entries as u64).saturating_mul(16);
    memory::check(
        ua_bytes.saturating_add(work_bytes),
        cx.limit,
        "the scan (UA list and work buffer)",
    )
    .map_err(|e| cli_error!(e))?;
    let mut work = vec![0u128; work_entries];
    let mut uas = uas;
    let (mut grid_room, mut prepared_room) = (MaybeUninit::uninit(), MaybeUninit::uninit());
    let mut table = Box::new(BitmapTable::new());
    let mut states = vec![LevelState::ZERO; WorkspaceSize::for_clues(options.clues).states];
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
            workspace: WorkspaceView::new(&mut table, &mut states),
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
    memory::check(
        scan_bytes,
        cx.limit,
        &format!(
            "the scan ({} of {per_thread} bytes each, UA list, work buffer)",
            summary::count(workers, "thread")
        ),
    )
    .map_err(|e| cli_error!(e))?;
    let prepare_seconds = prepare_started.elapsed().as_secs_f64();
    let mut generated = None;
    let side = next_ua(cx, scan_bytes)
        .map(|next| -> runner::SideTask<'_> { Box::new(|| generated = Some(next.generate())) });

    let scan_started = Instant::now();
    let control = runner::Control {
        interrupt: Some(cx.signals.flag()),
        journal: cx.journal.map(|(journal, index, _)| (journal, index, grid)),
    };
    let outcome = runner::run_session(runs, &chunks, cx.threads, label, control, side)?;
    *ahead = generated;
    if outcome.interrupted {
        // With a journal the next run resumes to the exact output; without one, what was
        // found is printed rather than lost.
        if cx.journal.is_some() || args.shard.is_some() {
            return Ok(GridOutcome::Cut(None));
        }
        let lines = puzzle_lines(grid, outcome.found, options);
        output::line(&format!(
            "xcover gridcheck: {label}: interrupted after {} of {}; the puzzles printed ({}) \
             are those found so far",
            outcome.chunks_done,
            summary::count(chunks.len(), "chunk"),
            lines.len()
        ))?;
        return Ok(GridOutcome::Cut(Some(lines)));
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
    output::line(&summary::line(
        label,
        &figures,
        &note,
        counts,
        lines.len(),
        &tail,
    ))?;
    Ok(GridOutcome::Done(GridScan {
        lines,
        prepared: Some(figures),
        chunk_counts,
    }))
}
