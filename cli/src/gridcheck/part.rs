//! The part file of a sharded run (`xcover gridcheck --shard I/N > part-I`), written here
//! and read back by `xcover gridcheck merge`: a closed file of the durable record layer
//! ([`crate::durable`]: chained CRC-32C frames and a trailer, so a part cut short, altered,
//! reordered or with bytes after its trailer is refused).
//!
//! The header frame holds `shard=I/N <fingerprint>`; the records, in this order per grid:
//!
//! ```text
//! grid    <g> <81 digits> <chunks>|<summary>|<impossible>   every grid, in batch order
//! chunk   <g> <id> <nodes> <candidates>                     each chunk this shard ran
//! puzzle  <g> <81 chars>                                    the puzzles this shard found
//! ```
//!
//! Each payload is one line with its newline. Chunk records are sorted by id and puzzle records by text, each at most once. Nothing
//! in a part depends on timing or threads, so a shard resumed after a kill writes the same
//! bytes. The reader checks every record's meaning (a puzzle of its grid with the run's
//! clue count inside the mask, valid chunk ids, counters that do not wrap, a shard I/N
//! within `Part::MAX_COUNT`, core's limit for both engines) and names the file and the record.
use std::io::{Read, Write};
use std::path::Path;

use crate::error::{cli_error, CliError, Result};
use xcover_core::gridcheck::Grid;

use super::fingerprint::PuzzleRules;
use super::shard::{self, Shard};
use super::summary::{Counts, PreparedSummary};
use super::validate::{self, payload_line, RecordError};
use crate::durable::{DurableError, Format, Problem, Reader, Record, Writer};

/// The part's kind in the durable layer: a record is at most a grid with its summary.
pub(crate) const FORMAT: Format = Format {
    magic: "xcover-gridcheck-part",
    // 4: a whole grid's chunk ids are the band engine's.
    version: 4,
    max_record: 1 << 16,
    closed: true,
    noun: "part",
};

/// The header's identity: the shard and the run's fingerprint, as one line.
fn identity(shard: Shard, fingerprint: &str) -> String {
    format!("shard={shard} {fingerprint}\n")
}

/// Writes a part file record by record.
pub(crate) struct PartWriter<W: Write> {
    out: Writer<W>,
}

impl<W: Write> PartWriter<W> {
    /// Starts a part of shard `shard` of the run `fingerprint` on `out`, named `name` in
    /// errors (writes the header).
    pub(crate) fn new(out: W, name: &Path, shard: Shard, fingerprint: &str) -> Result<Self> {
        let out = Writer::stream(out, name, FORMAT, identity(shard, fingerprint).as_bytes())?;
        Ok(PartWriter { out })
    }

    /// Writes grid `index`'s records: the grid and its preparation, this shard's chunks
    /// (`(id, counters)`) and puzzles (81-char lines); sorts both.
    pub(crate) fn grid(
        &mut self,
        index: usize,
        grid: &str,
        prepared: &PreparedSummary,
        mut chunks: Vec<(u32, Counts)>,
        mut puzzles: Vec<String>,
    ) -> Result<()> {
        chunks.sort_unstable_by_key(|&(id, _)| id);
        puzzles.sort_unstable();
        puzzles.dedup();
        let head = format!("{index} {grid} {}\n", prepared.encode());
        self.out.record("grid", head.as_bytes())?;
        for (id, counts) in &chunks {
            let payload = format!("{index} {id} {} {}\n", counts.nodes, counts.candidates);
            self.out.record("chunk", payload.as_bytes())?;
        }
        for puzzle in &puzzles {
            self.out
                .record("puzzle", format!("{index} {puzzle}\n").as_bytes())?;
        }
        Ok(())
    }

    /// Writes the trailer: the part is complete.
    pub(crate) fn finish(self) -> Result<()> {
        self.out.finish()?;
        Ok(())
    }
}

/// One grid as a part file records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PartGrid {
    /// The grid, 81 digits.
    pub grid: String,
    /// Its preparation figures.
    pub prepared: PreparedSummary,
    /// The chunks this shard ran: id and counters, by increasing id.
    pub chunks: Vec<(u32, Counts)>,
    /// The puzzles this shard found (81-char lines), sorted.
    pub puzzles: Vec<String>,
}

/// A complete part file.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Part {
    /// Which shard of how many wrote it.
    pub shard: Shard,
    /// The run's fingerprint (arguments and input), as in the header.
    pub fingerprint: String,
    /// Every grid of the batch, in order.
    pub grids: Vec<PartGrid>,
    /// Bytes read.
    pub bytes: u64,
}

/// Reads the part file at `path` (at most `limit` bytes); errors name the file and the
/// record.
pub(crate) fn read(path: &Path, limit: u64) -> Result<Part> {
    let reader = Reader::open(path, FORMAT, limit).map_err(|e| refusal(path, e))?;
    read_from(reader, path)
}

/// Reads a part from `reader` (named `path` in errors).
pub(crate) fn read_from<R: Read>(mut reader: Reader<R>, path: &Path) -> Result<Part> {
    let name = path.display();
    let header = reader.header().map_err(|e| refusal(path, e))?;
    let bad_header = |what: &dyn std::fmt::Display| cli_error!("{name}: record 0 (header): {what}");
    let header = payload_line(&header).map_err(|e| bad_header(&e))?;
    let (shard, fingerprint) = header
        .strip_prefix("shard=")
        .and_then(|rest| rest.split_once(' '))
        .ok_or_else(|| bad_header(&"no shard=I/N"))?;
    let shard = shard::parse(shard).map_err(|e| bad_header(&e))?;
    let rules = PuzzleRules::from_fingerprint(fingerprint)
        .ok_or_else(|| bad_header(&"no clue count or mask that makes sense"))?;
    let grid_count = grids_in(fingerprint).ok_or_else(|| bad_header(&"no grid count"))?;
    let mut grids: Vec<(PartGrid, Grid, Counts)> = Vec::new();
    while let Some(record) = reader.next_strict().map_err(|e| refusal(path, e))? {
        apply(&record, &rules, grid_count, &mut grids)
            .map_err(|what| reader.invalid(&record, what))?;
    }
    if grids.len() != grid_count {
        return Err(cli_error!(
            "{name}: record {} (the trailer): {} grids recorded, the header's run has \
             {grid_count}",
            reader.records() + 1,
            grids.len()
        ));
    }
    Ok(Part {
        shard,
        fingerprint: fingerprint.to_owned(),
        grids: grids.into_iter().map(|(part, _, _)| part).collect(),
        bytes: reader.offset(),
    })
}

/// The grid count of a fingerprint (`grids=<count>:<hash>`).
fn grids_in(fingerprint: &str) -> Option<usize> {
    let field = fingerprint
        .split(' ')
        .find_map(|f| f.strip_prefix("grids="))?;
    field.split_once(':')?.0.parse().ok()
}

/// Applies one record to the grids read so far (each with its parsed grid and the sum of
/// its chunk counters), checking what it means.
fn apply(
    record: &Record,
    rules: &PuzzleRules,
    grid_count: usize,
    grids: &mut Vec<(PartGrid, Grid, Counts)>,
) -> std::result::Result<(), RecordError> {
    let text = payload_line(&record.payload)?;
    let bad = || RecordError::Bad {
        tag: record.tag.clone(),
        text: text.to_owned(),
    };
    let (index, value) = text.split_once(' ').ok_or_else(bad)?;
    let index = validate::grid_index(index, grid_count)?;
    if record.tag == "grid" {
        if index != grids.len() {
            return Err(RecordError::GridOutOfOrder(index));
        }
        let (digits, prepared) = value.split_once(' ').ok_or_else(bad)?;
        let grid = Grid::parse(digits.as_bytes()).map_err(RecordError::BadGrid)?;
        if grid.to_string() != digits {
            return Err(bad());
        }
        let prepared = PreparedSummary::decode(prepared).ok_or_else(bad)?;
        let part = PartGrid {
            grid: digits.to_owned(),
            prepared,
            chunks: Vec::new(),
            puzzles: Vec::new(),
        };
        grids.push((part, grid, Counts::default()));
        return Ok(());
    }
    // Chunk and puzzle records belong to the grid record above them.
    let count = grids.len();
    let Some((current, grid, total)) = grids.last_mut().filter(|_| index + 1 == count) else {
        return Err(RecordError::OutOfPlace {
            tag: record.tag.clone(),
            grid: index,
        });
    };
    match record.tag.as_str() {
        "chunk" => {
            let words: Vec<&str> = value.split(' ').collect();
            let [id, nodes, candidates] = words[..] else {
                return Err(bad());
            };
            let id = validate::chunk_id(id)?;
            let counts = Counts {
                nodes: validate::counter(nodes)?,
                candidates: validate::counter(candidates)?,
            };
            if current.chunks.last().is_some_and(|&(last, _)| last >= id) {
                return Err(RecordError::ChunkOutOfOrder(id));
            }
            if current.chunks.len() >= current.prepared.chunks {
                return Err(RecordError::TooManyChunks(current.prepared.chunks));
            }
            *total = validate::add_counts(*total, counts)?;
            current.chunks.push((id, counts));
        }
        "puzzle" => {
            validate::puzzle(value, grid, rules)?;
            if current
                .puzzles
                .last()
                .is_some_and(|last| last.as_str() >= value)
            {
                return Err(RecordError::PuzzleOutOfOrder(value.to_owned()));
            }
            current.puzzles.push(value.to_owned());
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

/// The message for a part that cannot be read (the layer's names the file and the record).
fn refusal(path: &Path, err: DurableError) -> CliError {
    match &err.problem {
        Problem::Io(e) if err.record.is_none() => {
            cli_error!("{}: cannot read: {e}", path.display())
        }
        _ => cli_error!("{err}"),
    }
}

#[cfg(test)]
#[path = "part_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "part_props.rs"]
mod props;
