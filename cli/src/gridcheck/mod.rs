//! `xcover gridcheck`: every N-clue puzzle with a unique solution inside Sudoku grids.
//!
//! Grids come from the arguments, `--file F` or stdin (one per line). For each grid the UA
//! list is generated (4-digit subsets plus `--ua-random` random pseudo-puzzles, seeded by
//! `--seed`) or loaded from `--ua-file` (every UA verified against the grid; a wrong one is
//! refused), the scan is prepared and its chunks run on `--threads` threads. Puzzles go to
//! stdout, sorted and de-duplicated (prefixed by the grid and a tab when several grids are
//! scanned); a summary per grid goes to stderr, and a progress line when stderr is a
//! terminal.
//!
//! `--checkpoint FILE` journals every puzzle as it is found and every finished chunk
//! (`journal`); after SIGINT, SIGTERM or a kill, `--resume` skips the finished work and
//! prints exactly what an uninterrupted run prints. Without a journal, SIGINT or SIGTERM
//! prints the puzzles found so far for the grid being scanned (sorted), with a summary
//! line saying the scan was cut. `--max-memory` refuses a scan whose buffers would exceed
//! the limit before allocating them, and bounds every read (grids, UA file, journal).
//! Every write to stdout, stderr, the journal or a part is checked: a failure (a full
//! disk) ends the run with a message and exit status 1.
//!
//! `--shard I/N` runs only shard I's (grid, chunk) units ([`shard`]) and writes a part
//! file (`part`) to stdout instead of the puzzles; `xcover gridcheck merge` ([`merge`])
//! joins the N parts into the unsharded run's output.
use std::ffi::OsString;
use std::path::Path;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use xcover_core::gridcheck::scan::{self, ScanOptions};
use xcover_core::gridcheck::{Cells, Grid, Puzzle};

use crate::memory;
use crate::signals::{self, Signals};
use args::{options, parse_args, Args};
use fingerprint::PuzzleRules;
use journal::{Expect, GridRecord, Journal, Loaded};
use part::PartWriter;
use summary::{Counts, PreparedSummary};

mod args;
mod fingerprint;
mod grids;
pub(crate) mod journal;
pub mod mask;
pub mod merge;
mod output;
pub(crate) mod part;
pub mod runner;
pub mod shard;
pub mod summary;
#[doc(hidden)]
pub mod synthetic;
#[cfg(test)]
mod test_scan;
pub mod ua_source;
mod validate;

/// Default number of random pseudo-puzzles for UA generation (whole-grid scan). Measured
/// on 200 random grids: 1000 take 0.34 s less per grid than 3000 and leave 0.9% more
/// placements, so the mean time per grid is 4.5% lower (docs/PERFORMANCE.md, "UA
/// generation per grid"); the puzzles found never depend on it.
pub const DEFAULT_UA_RANDOM: u32 = 1000;
/// Default number of random pseudo-puzzles for a masked scan (forced givens stay given, so
/// they are small; measured: 300 gives most of the pruning at a few ms).
pub const DEFAULT_UA_RANDOM_MASKED: u32 = 300;

/// Runs `xcover gridcheck ARGS` (`args` excludes the program and subcommand names).
/// Returns the process exit status.
pub fn main(args: Vec<OsString>) -> i32 {
    if args.first().is_some_and(|a| a == "merge") {
        return merge::main(&args[1..]);
    }
    let args = match parse_args(args) {
        Ok(args) => args,
        Err(err) => {
            let _ = err.print();
            return err.exit_code();
        }
    };
    match run(&args) {
        Ok(None) => 0,
        Ok(Some(signal)) => {
            output::note_quietly(if args.checkpoint.is_some() {
                "xcover gridcheck: interrupted; resume with --resume\n"
            } else {
                "xcover gridcheck: interrupted\n"
            });
            signals::exit_status(signal)
        }
        Err(err) => {
            output::note_quietly(&format!("xcover gridcheck: {err:#}\n"));
            1
        }
    }
}

/// Runs the batch; `Some(signal)` when a signal cut it short.
fn run(args: &Args) -> Result<Option<i32>> {
    let options = options(args)?;
    let threads = match args.threads {
        Some(0) => bail!("--threads must be at least 1"),
        Some(t) => t,
        None => std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
    };
    let limit = args.max_memory.unwrap_or_else(memory::default_limit);
    let grids = grids::collect(&args.grids, args.file.as_deref(), limit)?;
    if grids.is_empty() {
        bail!("no grid given (arguments, --file or stdin)");
    }
    if grids.len() > 1 && (args.ua_file.is_some() || args.save_ua.is_some()) {
        bail!(
            "--ua-file and --save-ua need exactly one grid ({} given)",
            grids.len()
        );
    }
    let fingerprint = match (&args.checkpoint, args.shard) {
        (None, None) => String::new(),
        _ => fingerprint::of_run(args, &options, &grids, limit)?,
    };
    // Installed once stdin is read (until then a signal ends the process as usual) and
    // before the journal is read, so that a signal stops a long resume cleanly.
    let signals = Signals::install()?;
    let (journal, records) = match &args.checkpoint {
        None => (None, vec![GridRecord::default(); grids.len()]),
        Some(path) => {
            // A shard's journal is its own: resuming it as another shard is refused.
            let identity = match args.shard {
                Some(shard) => format!("{fingerprint} shard={shard}"),
                None => fingerprint.clone(),
            };
            let counted = args.shard.is_some();
            if args.resume {
                let expect = Expect {
                    grids: &grids,
                    rules: PuzzleRules::of(&options),
                    counted,
                };
                match Journal::resume(path, &identity, &expect, limit, signals.flag())? {
                    Loaded::Open(journal, records) => (Some(journal), records),
                    Loaded::Interrupted(signal) => return Ok(Some(signal)),
                }
            } else {
                let journal = Journal::create(path, &identity, grids.len(), counted)?;
                (Some(journal), vec![GridRecord::default(); grids.len()])
            }
        }
    };
    let mut part = match args.shard {
        Some(shard) => Some(PartWriter::new(
            std::io::stdout(),
            Path::new("stdout"),
            shard,
            &fingerprint,
        )?),
        None => None,
    };
    let batch = grids.len() > 1;
    for (index, grid) in grids.iter().enumerate() {
        if let Some(signal) = signals.received() {
            return interrupted(journal.as_ref(), signal);
        }
        let label = format!("grid {}/{}", index + 1, grids.len());
        let record = &records[index];
        // A shard's part needs the preparation figures, which its journal keeps.
        let finished = (record.done && (args.shard.is_none() || record.prepared.is_some()))
            || (options.stop_at_first && !record.puzzles.is_empty());
        let scanned = if finished {
            output::line(&format!(
                "xcover gridcheck: {label}: finished in an earlier run (journal); found {}",
                record
                    .puzzles
                    .len()
                    .min(if options.stop_at_first { 1 } else { usize::MAX })
            ))?;
            GridScan {
                lines: puzzle_lines(grid, record.puzzles.iter().copied().collect(), &options),
                prepared: record.prepared.clone(),
                chunk_counts: record.chunk_counts.iter().map(|(&k, &v)| (k, v)).collect(),
            }
        } else {
            let context = GridContext {
                args,
                options: &options,
                grid,
                index,
                threads,
                label: &label,
                limit,
                signals: &signals,
                journal: journal.as_ref().map(|j| (j, index, record)),
            };
            match scan_grid(&context)? {
                GridOutcome::Done(scanned) => scanned,
                GridOutcome::Cut(partial) => {
                    if let Some(lines) = partial {
                        print_puzzles(grid, &lines, batch)?;
                    }
                    let signal = signals.received().unwrap_or(libc::SIGINT);
                    return interrupted(journal.as_ref(), signal);
                }
            }
        };
        if let Some(journal) = &journal {
            if !record.done {
                journal.grid_done(index)?;
            }
        }
        if let Some(part) = part.as_mut() {
            let prepared = scanned
                .prepared
                .as_ref()
                .ok_or_else(|| anyhow!("{label}: no preparation figures (journal)"))?;
            part.grid(
                index,
                &grid.to_string(),
                prepared,
                scanned.chunk_counts,
                scanned.lines,
            )?;
            continue;
        }
        print_puzzles(grid, &scanned.lines, batch)?;
    }
    if let Some(part) = part {
        part.finish()?;
    }
    Ok(None)
}

/// Prints a grid's puzzle lines (prefixed by the grid and a tab in a batch).
fn print_puzzles(grid: &Grid, lines: &[String], batch: bool) -> Result<()> {
    let prefix = if batch {
        format!("{grid}\t")
    } else {
        String::new()
    };
    let mut text = String::with_capacity(lines.len() * (prefix.len() + 82));
    for line in lines {
        text.push_str(&prefix);
        text.push_str(line);
        text.push('\n');
    }
    output::out(text.as_bytes())
}

/// How the scan of a grid ended.
enum GridOutcome {
    /// It ran to its end.
    Done(GridScan),
    /// A signal cut it short; without a journal, the puzzles found so far (to print).
    Cut(Option<Vec<String>>),
}

/// What a grid's scan (or the journal, for a grid finished earlier) gives.
struct GridScan {
    /// Output lines: sorted, de-duplicated puzzles.
    lines: Vec<String>,
    /// The preparation figures (`None` for a grid finished in an earlier unsharded run).
    prepared: Option<PreparedSummary>,
    /// Counters of the chunks run (this run's and, from the journal, earlier runs'); for
    /// a shard, only its own chunks.
    chunk_counts: Vec<(u32, Counts)>,
}

/// Syncs the journal after a signal; returns the signal for the exit status.
fn interrupted(journal: Option<&Journal>, signal: i32) -> Result<Option<i32>> {
    if let Some(journal) = journal {
        journal.sync()?;
    }
    Ok(Some(signal))
}

/// Output lines of a grid's puzzles: sorted, de-duplicated, one with stop-at-first.
fn puzzle_lines(grid: &Grid, mut found: Vec<Cells>, options: &ScanOptions) -> Vec<String> {
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
struct GridContext<'a> {
    args: &'a Args,
    options: &'a ScanOptions,
    grid: &'a Grid,
    /// Index of the grid in the batch.
    index: usize,
    threads: usize,
    label: &'a str,
    limit: u64,
    signals: &'a Signals,
    /// Journal, index of the grid, and what the journal already holds for it.
    journal: Option<(&'a Journal, usize, &'a GridRecord)>,
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

/// Scans one grid (a shard: its own chunks); returns the puzzles as sorted, de-duplicated
/// 81-char lines and the figures, or what a signal left.
fn scan_grid(cx: &GridContext<'_>) -> Result<GridOutcome> {
    let (args, options, grid, label) = (cx.args, cx.options, cx.grid, cx.label);
    let started = Instant::now();
    let (uas, ua_origin) = match &args.ua_file {
        Some(path) => {
            memory::check(ua_file_bytes(path)?, cx.limit, "loading the UA file")
                .map_err(|e| anyhow!(e))?;
            // The file's text and a set per line fit the limit.
            let text_limit = cx.limit / (UA_BYTES + 1);
            (ua_source::load(path, grid, text_limit)?, "loaded")
        }
        None => {
            let random = args.ua_random.unwrap_or(if options.mask.is_free() {
                DEFAULT_UA_RANDOM
            } else {
                DEFAULT_UA_RANDOM_MASKED
            });
            memory::check(ua_generation_bytes(random), cx.limit, "UA generation")
                .map_err(|e| anyhow!(e))?;
            (
                ua_source::generate(grid, random, args.seed, options.mask.givens)?,
                "generated",
            )
        }
    };
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
    memory::check(
        ua_bytes.saturating_add(work_bytes),
        cx.limit,
        "the scan (UA list and work buffer)",
    )
    .map_err(|e| anyhow!(e))?;
    let mut work = vec![0u128; work_entries];
    let prepared = scan::prepare(grid, &uas, options, &mut work)
        .map_err(|e| anyhow!("preparing the scan: {e}"))?;
    let figures = PreparedSummary::new(&prepared, ua_origin);
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
    let per_thread = scan::WorkspaceSize::for_scan(&prepared).bytes() as u64;
    memory::check(
        ua_bytes
            .saturating_add(work_bytes)
            .saturating_add(per_thread.saturating_mul(workers as u64)),
        cx.limit,
        &format!(
            "the scan ({} of {per_thread} bytes each, UA list, work buffer)",
            summary::count(workers, "thread")
        ),
    )
    .map_err(|e| anyhow!(e))?;
    let prepare_seconds = prepare_started.elapsed().as_secs_f64();

    let scan_started = Instant::now();
    let control = runner::Control {
        interrupt: Some(cx.signals.flag()),
        journal: cx.journal.map(|(journal, index, _)| (journal, index, grid)),
    };
    let outcome = runner::run_chunks(&prepared, &chunks, cx.threads, label, control)?;
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
            counts = validate::add_counts(counts, *more).map_err(|e| anyhow!("{label}: {e}"))?;
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
