//! The checkpoint journal of a gridcheck batch (`--checkpoint FILE`, `--resume`): a file
//! of the durable record layer ([`crate::durable`]: chained CRC-32C frames, an exclusive
//! lock, a torn tail cut on resume and any other damage refused).
//!
//! The header frame holds the run's fingerprint (` shard=I/N` added for a shard's
//! journal); the records, tagged, carry text payloads:
//!
//! ```text
//! puzzle    <grid> <81 chars>          a verified puzzle, written when found
//! chunk     <grid> <chunk id>          every puzzle of that chunk is above it
//! prepared  <grid> <summary>           a shard's preparation figures
//! grid      <grid> done                every chunk of the grid is above it
//! ```
//!
//! Each payload is one line with its newline, so every frame line starts a line of the
//! file (`grep -c '^chunk '` counts the chunks done).
//!
//! A shard's journal also keeps what its part file needs for a grid finished in an
//! earlier run: chunk records carry the chunk's counters (`<id>:<nodes>:<candidates>`)
//! and `prepared` holds the [`PreparedSummary`] text. `<grid>` is the 0-based index in
//! the batch.
//!
//! On resume every record is checked for its meaning too (see [`validate`](super::validate)):
//! a puzzle of its grid with the run's clue count inside the mask, a valid chunk id,
//! nothing twice, counters that add up without wrapping; a refusal names the file and the
//! record and leaves the file as it is. Resuming reads each record once into hash sets,
//! so it takes time proportional to the journal's size, and stops at a signal.
//!
//! Each record is one `write` of its frame; the data is synced at the end of each grid,
//! when interrupted, and at most once a second at chunk ends. A puzzle already in the
//! journal is never written again (a chunk that was cut short is run again on resume and
//! finds its puzzles again).
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::error::{bail, cli_error, CliError, Result};
use xcover_core::gridcheck::scan::{ChunkId, RunStats};
use xcover_core::gridcheck::{Cells, Grid, Puzzle};

use super::fingerprint::PuzzleRules;
use super::summary::{Counts, PreparedSummary};
use super::validate::{self, payload_line, RecordError};
use crate::durable::{DurableError, Format, Problem, Record, Resumed, Visit, Writer};

/// The journal's kind in the durable layer. A record is at most a `prepared` summary
/// (a few hundred bytes); the header is the fingerprint.
pub(crate) const FORMAT: Format = Format {
    magic: "xcover-gridcheck-journal",
    // 5: a whole grid's chunk ids are the band engine's.
    version: 5,
    max_record: 1 << 16,
    closed: false,
    noun: "journal",
};

/// Chunk-end syncs closer together than this are skipped (data is still written).
const SYNC_INTERVAL: Duration = Duration::from_secs(1);

/// What the journal says about one grid.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct GridRecord {
    /// Givens of the puzzles recorded.
    pub puzzles: HashSet<Cells>,
    /// Chunks (`ChunkId::to_u32`) whose puzzles are all recorded, each with the number of
    /// its record (for an error naming it).
    pub chunks_done: HashMap<u32, u64>,
    /// Every chunk of the grid is done.
    pub done: bool,
    /// Counters of the done chunks (shard journals).
    pub chunk_counts: HashMap<u32, Counts>,
    /// The grid's preparation figures (shard journals).
    pub prepared: Option<PreparedSummary>,
    /// The sum of `chunk_counts` (checked not to wrap on resume).
    counted: Counts,
}

impl GridRecord {
    /// Checks, once the grid's chunk list is known, that every chunk the journal has done
    /// is one of `chunks` (this run's chunks of the grid): an error names the journal and
    /// the record.
    pub(crate) fn check_chunks(&self, path: &Path, grid: usize, chunks: &[ChunkId]) -> Result<()> {
        if self.chunks_done.is_empty() {
            return Ok(());
        }
        let known: HashSet<u32> = chunks.iter().map(|c| c.to_u32()).collect();
        let mut foreign: Vec<(u64, u32)> = self
            .chunks_done
            .iter()
            .filter(|(id, _)| !known.contains(id))
            .map(|(&id, &record)| (record, id))
            .collect();
        foreign.sort_unstable();
        match foreign.first() {
            None => Ok(()),
            Some(&(record, id)) => bail!(
                "checkpoint {} record {record}: chunk {id} is not a chunk of grid {} in this \
                 run (a damaged or forged journal); start anew without --resume",
                path.display(),
                grid + 1
            ),
        }
    }
}

/// What a resumed journal must match: the batch's grids, the puzzles' rules, and whether
/// chunk records carry counters (a shard's journal).
pub(crate) struct Expect<'a> {
    pub grids: &'a [Grid],
    pub rules: PuzzleRules,
    pub counted: bool,
}

struct Inner {
    writer: Writer<File>,
    /// Puzzles in the journal, per grid (for de-duplication).
    known: Vec<HashSet<Cells>>,
    last_sync: Instant,
}

/// An open journal; shareable between worker threads.
pub(crate) struct Journal {
    inner: Mutex<Inner>,
    /// Chunk records carry the chunk's counters (shard journals).
    counted: bool,
}

/// The outcome of [`Journal::resume`].
pub(crate) enum Loaded {
    /// The journal, open for more records, and what it holds per grid.
    Open(Journal, Vec<GridRecord>),
    /// A signal (its number) arrived while it was read; the file is unchanged.
    Interrupted(i32),
}

impl Journal {
    /// Starts a new journal at `path` for the run `identity` over `grids` grids; with
    /// `counted`, chunk records carry counters. An existing non-empty file is refused: it
    /// may hold a run to resume.
    pub(crate) fn create(
        path: &Path,
        identity: &str,
        grids: usize,
        counted: bool,
    ) -> Result<Journal> {
        let writer = Writer::create(path, FORMAT, &header(identity))
            .map_err(|e| refusal(path, identity, e))?;
        Ok(Journal::wrap(writer, vec![HashSet::new(); grids], counted))
    }

    /// Reopens the journal at `path` of the run `identity`: reads and checks every record
    /// (at most `limit` bytes), stopping when `interrupt` holds a signal number. A journal
    /// of other arguments, another format, damaged or meaningless records is refused and
    /// left as it is.
    pub(crate) fn resume(
        path: &Path,
        identity: &str,
        expect: &Expect<'_>,
        limit: u64,
        interrupt: &AtomicUsize,
    ) -> Result<Loaded> {
        if std::fs::symlink_metadata(path).is_err() {
            bail!(
                "checkpoint {} does not exist (--resume needs it)",
                path.display()
            );
        }
        let mut records = vec![GridRecord::default(); expect.grids.len()];
        let mut visit = |record: &Record| {
            if interrupt.load(Ordering::Relaxed) != 0 {
                return Err(Visit::Interrupted);
            }
            apply(record, expect, &mut records).map_err(|e| Visit::Invalid(e.to_string()))
        };
        let writer = match Writer::resume(path, FORMAT, &header(identity), limit, &mut visit) {
            Ok(Resumed::Open(writer)) => writer,
            Ok(Resumed::Complete(_)) => bail!(
                "checkpoint {}: a closed file, not a journal (left as it is)",
                path.display()
            ),
            Err(DurableError {
                problem: Problem::Interrupted,
                ..
            }) => {
                let signal = interrupt.load(Ordering::Relaxed);
                return Ok(Loaded::Interrupted(
                    i32::try_from(signal).unwrap_or(libc::SIGINT),
                ));
            }
            Err(err) => return Err(refusal(path, identity, err)),
        };
        let known = records.iter().map(|r| r.puzzles.clone()).collect();
        Ok(Loaded::Open(
            Journal::wrap(writer, known, expect.counted),
            records,
        ))
    }

    fn wrap(writer: Writer<File>, known: Vec<HashSet<Cells>>, counted: bool) -> Journal {
        Journal {
            inner: Mutex::new(Inner {
                writer,
                known,
                last_sync: Instant::now(),
            }),
            counted,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records a verified puzzle of grid `grid` unless the journal has it already.
    pub(crate) fn puzzle(&self, grid: usize, board: &Grid, givens: Cells) -> Result<()> {
        let mut inner = self.lock();
        if !inner.known[grid].insert(givens) {
            return Ok(());
        }
        let payload = format!("{grid} {}\n", Puzzle::from_grid(board, givens));
        inner.writer.record("puzzle", payload.as_bytes())?;
        Ok(())
    }

    /// Records that every puzzle of chunk `chunk` (`ChunkId::to_u32`) of grid `grid` is in,
    /// with its counters `stats` in a shard's journal.
    pub(crate) fn chunk_done(&self, grid: usize, chunk: u32, stats: RunStats) -> Result<()> {
        let payload = if self.counted {
            format!("{grid} {chunk}:{}:{}\n", stats.steps, stats.candidates)
        } else {
            format!("{grid} {chunk}\n")
        };
        let mut inner = self.lock();
        inner.writer.record("chunk", payload.as_bytes())?;
        if inner.last_sync.elapsed() >= SYNC_INTERVAL {
            inner.last_sync = Instant::now();
            inner.writer.sync()?;
        }
        Ok(())
    }

    /// Records the preparation figures of grid `grid`.
    pub(crate) fn prepared(&self, grid: usize, summary: &PreparedSummary) -> Result<()> {
        let payload = format!("{grid} {}\n", summary.encode());
        self.lock().writer.record("prepared", payload.as_bytes())?;
        Ok(())
    }

    /// Records that grid `grid` is finished, and syncs.
    pub(crate) fn grid_done(&self, grid: usize) -> Result<()> {
        let mut inner = self.lock();
        inner
            .writer
            .record("grid", format!("{grid} done\n").as_bytes())?;
        inner.last_sync = Instant::now();
        inner.writer.sync()?;
        Ok(())
    }

    /// Puzzles of grid `grid` in the journal (this run's and earlier runs').
    pub(crate) fn puzzles(&self, grid: usize) -> Vec<Cells> {
        self.lock().known[grid].iter().copied().collect()
    }

    /// Forces the journal to disk.
    pub(crate) fn sync(&self) -> Result<()> {
        let mut inner = self.lock();
        inner.last_sync = Instant::now();
        inner.writer.sync()?;
        Ok(())
    }
}

/// The header's payload: the identity as one line (so the first record's frame line
/// starts a line of the file).
fn header(identity: &str) -> Vec<u8> {
    format!("{identity}\n").into_bytes()
}

/// The message for a journal that cannot be created or resumed (the layer's names the
/// file and the record), with what to do about it.
fn refusal(path: &Path, identity: &str, err: DurableError) -> CliError {
    let name = path.display();
    match &err.problem {
        Problem::Exists => cli_error!(
            "checkpoint {name} already exists: add --resume to continue that run, or remove it"
        ),
        Problem::OtherRun { found } => cli_error!(
            "checkpoint {name} was written by a run with other arguments; resume it with the \
             same grids and options, or start anew without --resume\n  journal: {}\n  this \
             run: {identity}",
            String::from_utf8_lossy(found).trim_end()
        ),
        Problem::OtherVersion { .. } => cli_error!(
            "checkpoint {err} (this one reads {} {}): start anew without --resume",
            FORMAT.magic,
            FORMAT.version
        ),
        Problem::Locked => cli_error!("checkpoint {err}; wait for it to end, or use another file"),
        Problem::Io(_) => cli_error!("checkpoint {err}"),
        _ => cli_error!("checkpoint {err} (the journal is left as it is)"),
    }
}

/// Applies one record read back to `records`, checking what it means.
fn apply(
    record: &Record,
    expect: &Expect<'_>,
    records: &mut [GridRecord],
) -> Result<(), RecordError> {
    let text = payload_line(&record.payload)?;
    let bad = || RecordError::Bad {
        tag: record.tag.clone(),
        text: text.to_owned(),
    };
    // The grid, then the rest (one word, except a `prepared` summary).
    let (grid, value) = text.split_once(' ').ok_or_else(bad)?;
    let index = validate::grid_index(grid, expect.grids.len())?;
    let entry = &mut records[index];
    if record.tag != "prepared" && value.contains(' ') {
        return Err(bad());
    }
    match record.tag.as_str() {
        "puzzle" => {
            let givens = validate::puzzle(value, &expect.grids[index], &expect.rules)?;
            if !entry.puzzles.insert(givens) {
                return Err(RecordError::PuzzleTwice {
                    puzzle: value.to_owned(),
                    grid: index,
                });
            }
        }
        "chunk" => {
            let (id, counts) = parse_chunk(value)?;
            if counts.is_some() != expect.counted {
                return Err(RecordError::ChunkCounters {
                    value: value.to_owned(),
                    counted: expect.counted,
                });
            }
            if entry.chunks_done.insert(id, record.index).is_some() {
                return Err(RecordError::ChunkTwice { id, grid: index });
            }
            if let Some(counts) = counts {
                entry.counted = validate::add_counts(entry.counted, counts)?;
                entry.chunk_counts.insert(id, counts);
            }
        }
        "prepared" => {
            let summary = PreparedSummary::decode(value)
                .ok_or_else(|| RecordError::BadPreparation(value.to_owned()))?;
            if !expect.counted || entry.prepared.replace(summary).is_some() {
                return Err(RecordError::UnexpectedPreparation(index));
            }
        }
        "grid" if value == "done" => {
            if std::mem::replace(&mut entry.done, true) {
                return Err(RecordError::GridDoneTwice(index));
            }
        }
        _ => {
            return Err(RecordError::UnknownTag {
                tag: record.tag.clone(),
                text: text.to_owned(),
            })
        }
    }
    Ok(())
}

/// A chunk record's value: `<id>` or `<id>:<nodes>:<candidates>`.
fn parse_chunk(value: &str) -> Result<(u32, Option<Counts>), RecordError> {
    let mut parts = value.split(':');
    let id = validate::chunk_id(parts.next().unwrap_or(""))?;
    match (parts.next(), parts.next(), parts.next()) {
        (None, _, _) => Ok((id, None)),
        (Some(nodes), Some(candidates), None) => Ok((
            id,
            Some(Counts {
                nodes: validate::counter(nodes)?,
                candidates: validate::counter(candidates)?,
            }),
        )),
        _ => Err(RecordError::BadChunk(value.to_owned())),
    }
}

#[cfg(test)]
#[path = "journal_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "journal_props.rs"]
mod props;
