//! `xcover gridcheck`: every N-clue puzzle with a unique solution inside Sudoku grids.
//!
//! Grids come from the arguments, `--file F` or stdin (one per line). For each grid the UA
//! list is generated (4-digit subsets plus `--ua-random` random pseudo-puzzles, by default a
//! recipe chosen per grid, `ua_source::recipe`; seeded by `--seed`) or loaded from
//! `--ua-file` (every UA verified against the grid; a wrong one is refused), the scan is
//! prepared and its chunks run. `--threads N` scans up to N grids of a batch at once, a
//! thread each, and one grid on all N (`lanes`). Puzzles go to stdout, sorted and
//! de-duplicated (prefixed by the grid and a tab when several grids are scanned), grid by
//! grid in batch order; a summary per grid goes to stderr, and a progress line when stderr
//! is a terminal and one grid is scanned at a time.
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

use crate::error::{bail, cli_error, CliError, Kind, Result};
use xcover_core::gridcheck::scan::ScanOptions;
use xcover_core::gridcheck::Grid;

use crate::memory;
use crate::signals::Signals;
use args::{asked, options, Args, Asked};
use fingerprint::PuzzleRules;
use grid_scan::{interrupted, puzzle_lines, Budget, GridOutcome, GridScan};
use journal::{Expect, GridRecord, Journal, Loaded};
use part::PartWriter;
pub use ua_source::{DEFAULT_UA_RANDOM, DEFAULT_UA_RANDOM_MASKED};

mod args;
mod fingerprint;
mod grid_scan;
mod grids;
pub(crate) mod journal;
mod lanes;
pub mod mask;
pub mod merge;
mod output;
pub(crate) mod part;
pub mod runner;
mod save_ua;
pub mod shard;
pub mod summary;
#[doc(hidden)]
pub mod synthetic;
#[cfg(test)]
mod test_scan;
pub mod ua_source;
pub(crate) mod validate;
mod verify;

/// Runs `xcover gridcheck ARGS` (`args` excludes the program and subcommand names).
/// Returns the process exit status.
pub fn main(args: Vec<OsString>) -> i32 {
    let args = match asked(args) {
        Ok(Asked::Merge(merge)) => return merge::main(merge),
        Ok(Asked::Scan(args)) => Ok(*args),
        Err(e) => Err(e),
    };
    match args
        .map_err(CliError::from)
        .and_then(|args| match run(&args)? {
            None => Ok(()),
            Some(signal) => {
                let message = match args.checkpoint {
                    Some(_) => "interrupted; resume with --resume",
                    None => "interrupted",
                };
                Err(CliError::new(Kind::Interrupted(signal), message))
            }
        }) {
        Ok(()) => 0,
        Err(err) => err.report("xcover gridcheck"),
    }
}

/// Runs the batch; `Some(signal)` when a signal cut it short.
fn run(args: &Args) -> Result<Option<i32>> {
    let options = options(args)?;
    let threads = crate::shared_args::worker_threads(args.threads);
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
    if let Some(path) = &args.save_ua {
        save_ua::check_target(path, args)?;
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
    if let (Some(path), Some(_)) = (&args.checkpoint, args.verify) {
        let flag = signals.flag();
        let audit = verify::audit_journal(args, &options, path, &grids, &records, limit, flag);
        if let Err(err) = audit {
            return match signals.received() {
                Some(signal) => interrupted(journal.as_ref(), signal),
                None => Err(err),
            };
        }
    }
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
    // A grid the journal finished is not scanned again; a shard's part needs the
    // preparation figures, which its journal keeps.
    let finished = |record: &GridRecord| {
        (record.done && (args.shard.is_none() || record.prepared.is_some()))
            || (options.stop_at_first && !record.puzzles.is_empty())
    };
    let todo: Vec<usize> = (0..grids.len())
        .filter(|&index| !finished(&records[index]))
        .collect();
    let scans = lanes::Batch {
        args,
        options: &options,
        grids: &grids,
        records: &records,
        journal: journal.as_ref(),
        signals: &signals,
        threads,
        limit,
        todo: &todo,
    };
    // Every grid in batch order, until one that was not scanned; `cut` when a signal cut
    // a grid short (the grids after it that ended are still printed).
    let (mut cut, mut complete) = (false, true);
    scans.run(|outcomes| -> Result<()> {
        for (index, grid) in grids.iter().enumerate() {
            let label = format!("grid {}/{}", index + 1, grids.len());
            let record = &records[index];
            let scanned = if finished(record) {
                if cut || signals.received().is_some() {
                    complete = false;
                    break;
                }
                earlier_run(args, &options, grid, &label, record, limit)?
            } else {
                let Some(outcome) = outcomes.take(index) else {
                    complete = false;
                    break;
                };
                match outcome? {
                    GridOutcome::Done(scanned) => scanned,
                    GridOutcome::Cut(partial) => {
                        if let Some(partial) = partial {
                            output::line(&partial.note)?;
                            print_puzzles(grid, &partial.lines, batch)?;
                        }
                        cut = true;
                        continue;
                    }
                }
            };
            output::line(&scanned.summary)?;
            if let (Some(journal), true) = (&journal, finished(record) && !record.done) {
                journal.grid_done(index)?;
            }
            if let Some(part) = part.as_mut() {
                let prepared = scanned
                    .prepared
                    .as_ref()
                    .ok_or_else(|| cli_error!("{label}: no preparation figures (journal)"))?;
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
        Ok(())
    })?;
    if cut || !complete {
        let signal = signals.received().unwrap_or(libc::SIGINT);
        return interrupted(journal.as_ref(), signal);
    }
    if let Some(part) = part {
        part.finish()?;
    }
    Ok(None)
}

/// What a grid the journal finished gives: its puzzles, figures and a line saying so
/// (with `--save-ua`, its UA list is saved again, whoever scanned it).
fn earlier_run(
    args: &Args,
    options: &ScanOptions,
    grid: &Grid,
    label: &str,
    record: &GridRecord,
    limit: u64,
) -> Result<GridScan> {
    if let Some(path) = &args.save_ua {
        let (uas, _) = grid_scan::ua_list(args, options, grid, Budget::whole(limit))?;
        ua_source::save(path, &uas)?;
    }
    let found = match options.stop_at_first {
        true => record.puzzles.len().min(1),
        false => record.puzzles.len(),
    };
    Ok(GridScan {
        lines: puzzle_lines(grid, record.puzzles.iter().copied().collect(), options),
        prepared: record.prepared.clone(),
        chunk_counts: record.chunk_counts.iter().map(|(&k, &v)| (k, v)).collect(),
        summary: format!(
            "xcover gridcheck: {label}: finished in an earlier run (journal); found {found}"
        ),
    })
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
