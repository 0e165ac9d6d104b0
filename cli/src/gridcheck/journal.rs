//! The checkpoint journal of a gridcheck batch (`--checkpoint FILE`, `--resume`).
//!
//! An append-only text file, one record per line:
//!
//! ```text
//! xcover-gridcheck-journal 2 <fingerprint>     header: everything the result depends on
//! puzzle <grid> <81 chars>                     a verified puzzle, written when found
//! chunk <grid> <chunk id>                      every puzzle of that chunk is above it
//! grid <grid> done                             every chunk of the grid is above it
//! ```
//!
//! A shard's journal (`--shard`) also keeps what its part file needs for a grid finished
//! in an earlier run: chunk records carry the chunk's counters
//! (`chunk <grid> <id>:<nodes>:<candidates>`), and `prepared <grid> <summary>` (the
//! [`PreparedSummary`] text, spaces included) follows each grid's preparation.
//!
//! `<grid>` is the 0-based index in the batch. Each record is one `write` of a whole line
//! straight to the file (no user-space buffer), so a killed process loses at most the line
//! being written; a torn last line (no newline) is dropped on resume. The data is synced to
//! disk at the end of each grid, when interrupted, and at most once a second at chunk ends.
//! A puzzle already in the journal is never written again (a chunk that was cut short is
//! run again on resume and finds its puzzles again).
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use xcover_core::gridcheck::scan::RunStats;
use xcover_core::gridcheck::{Cells, Grid, Puzzle};

use super::summary::{Counts, PreparedSummary};

/// First word of the header line and the format version.
const MAGIC: &str = "xcover-gridcheck-journal 2";

/// Chunk-end syncs closer together than this are skipped (data is still written).
const SYNC_INTERVAL: Duration = Duration::from_secs(1);

/// What the journal says about one grid.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GridRecord {
    /// Givens of the puzzles recorded, in journal order (no duplicates).
    pub puzzles: Vec<Cells>,
    /// Chunks (`ChunkId::to_u32`) whose puzzles are all recorded.
    pub chunks_done: HashSet<u32>,
    /// Every chunk of the grid is done.
    pub done: bool,
    /// Counters of the done chunks whose record carries them (shard journals).
    pub chunk_counts: std::collections::HashMap<u32, Counts>,
    /// The grid's preparation figures (shard journals).
    pub prepared: Option<PreparedSummary>,
}

struct Inner {
    file: File,
    /// Puzzles in the journal, per grid (for de-duplication).
    known: Vec<HashSet<Cells>>,
    last_sync: Instant,
}

/// An open journal; shareable between worker threads.
pub struct Journal {
    path: PathBuf,
    inner: Mutex<Inner>,
    /// Chunk records carry the chunk's counters (shard journals).
    chunk_counts: bool,
}

/// FNV-1a, 64 bits: a fixed hash for fingerprints (stable across Rust versions).
pub fn fnv64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Journal {
    /// Starts a new journal at `path` with the header `fingerprint` (one line, no newline).
    /// An existing non-empty file is refused: it may hold a run to resume.
    pub fn create(path: &Path, fingerprint: &str, grids: usize) -> Result<Journal> {
        if std::fs::metadata(path)
            .map(|m| m.len() > 0)
            .unwrap_or(false)
        {
            bail!(
                "checkpoint {} already exists: add --resume to continue that run, or remove it",
                path.display()
            );
        }
        let mut file = File::create(path)
            .with_context(|| format!("creating checkpoint {}", path.display()))?;
        file.write_all(format!("{MAGIC} {fingerprint}\n").as_bytes())
            .and_then(|()| file.sync_data())
            .with_context(|| format!("writing checkpoint {}", path.display()))?;
        Ok(Journal::wrap(path, file, vec![HashSet::new(); grids]))
    }

    /// Reopens the journal at `path` for a run with `fingerprint` over `grids` grids;
    /// returns it with what it records per grid. A journal of other arguments is refused.
    pub fn resume(
        path: &Path,
        fingerprint: &str,
        grid_list: &[Grid],
    ) -> Result<(Journal, Vec<GridRecord>)> {
        let name = path.display();
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .with_context(|| format!("opening checkpoint {name} (--resume needs it)"))?;
        let mut text = Vec::new();
        file.read_to_end(&mut text)
            .with_context(|| format!("reading checkpoint {name}"))?;
        // A torn last line (killed while writing) is dropped, and cut off the file so the
        // next record starts on a line of its own.
        let complete = text.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        if complete == 0 {
            // Killed before the header was complete: nothing was journaled, start afresh.
            file.set_len(0)
                .and_then(|()| file.seek(SeekFrom::Start(0)).map(drop))
                .and_then(|()| file.write_all(format!("{MAGIC} {fingerprint}\n").as_bytes()))
                .and_then(|()| file.sync_data())
                .with_context(|| format!("writing checkpoint {name}"))?;
            let records = vec![GridRecord::default(); grid_list.len()];
            return Ok((
                Journal::wrap(path, file, vec![HashSet::new(); grid_list.len()]),
                records,
            ));
        }
        let records = parse(&text[..complete], fingerprint, grid_list)
            .with_context(|| format!("checkpoint {name}"))?;
        if complete < text.len() {
            file.set_len(complete as u64)
                .with_context(|| format!("truncating checkpoint {name}"))?;
        }
        file.seek(SeekFrom::End(0))
            .with_context(|| format!("seeking in checkpoint {name}"))?;
        let known = records
            .iter()
            .map(|r| r.puzzles.iter().copied().collect())
            .collect();
        Ok((Journal::wrap(path, file, known), records))
    }

    fn wrap(path: &Path, file: File, known: Vec<HashSet<Cells>>) -> Journal {
        Journal {
            path: path.to_owned(),
            inner: Mutex::new(Inner {
                file,
                known,
                last_sync: Instant::now(),
            }),
            chunk_counts: false,
        }
    }

    /// Makes chunk records carry the chunk's counters (for `--shard`).
    pub fn record_chunk_counts(&mut self) {
        self.chunk_counts = true;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn append(&self, inner: &mut Inner, line: &str) -> Result<()> {
        inner
            .file
            .write_all(line.as_bytes())
            .with_context(|| format!("writing checkpoint {}", self.path.display()))
    }

    /// Records a verified puzzle of grid `grid` unless the journal has it already.
    pub fn puzzle(&self, grid: usize, board: &Grid, givens: Cells) -> Result<()> {
        let mut inner = self.lock();
        if !inner.known[grid].insert(givens) {
            return Ok(());
        }
        let line = format!("puzzle {grid} {}\n", Puzzle::from_grid(board, givens));
        self.append(&mut inner, &line)
    }

    /// Records that every puzzle of chunk `chunk` (`ChunkId::to_u32`) of grid `grid` is in,
    /// with its counters `stats` when [`Journal::record_chunk_counts`] was called.
    pub fn chunk_done(&self, grid: usize, chunk: u32, stats: RunStats) -> Result<()> {
        let line = if self.chunk_counts {
            format!(
                "chunk {grid} {chunk}:{}:{}\n",
                stats.steps, stats.candidates
            )
        } else {
            format!("chunk {grid} {chunk}\n")
        };
        let mut inner = self.lock();
        self.append(&mut inner, &line)?;
        if inner.last_sync.elapsed() >= SYNC_INTERVAL {
            inner.last_sync = Instant::now();
            let _ = inner.file.sync_data();
        }
        Ok(())
    }

    /// Records the preparation figures of grid `grid`.
    pub fn prepared(&self, grid: usize, summary: &PreparedSummary) -> Result<()> {
        let mut inner = self.lock();
        self.append(
            &mut inner,
            &format!("prepared {grid} {}\n", summary.encode()),
        )
    }

    /// Records that grid `grid` is finished, and syncs.
    pub fn grid_done(&self, grid: usize) -> Result<()> {
        let mut inner = self.lock();
        self.append(&mut inner, &format!("grid {grid} done\n"))?;
        drop(inner);
        self.sync()
    }

    /// Puzzles of grid `grid` in the journal (this run's and earlier runs').
    pub fn puzzles(&self, grid: usize) -> Vec<Cells> {
        self.lock().known[grid].iter().copied().collect()
    }

    /// Forces the journal to disk.
    pub fn sync(&self) -> Result<()> {
        let mut inner = self.lock();
        inner.last_sync = Instant::now();
        inner
            .file
            .sync_data()
            .with_context(|| format!("syncing checkpoint {}", self.path.display()))
    }
}

/// Reads the complete lines of a journal.
fn parse(text: &[u8], fingerprint: &str, grids: &[Grid]) -> Result<Vec<GridRecord>> {
    let text = std::str::from_utf8(text).map_err(|_| anyhow!("not a gridcheck journal"))?;
    let mut lines = text.lines();
    let header = lines.next().unwrap_or("");
    let Some(found) = header
        .strip_prefix(MAGIC)
        .and_then(|rest| rest.strip_prefix(' '))
    else {
        if let Some(version) = header.strip_prefix("xcover-gridcheck-journal ") {
            let version = version.split(' ').next().unwrap_or("");
            bail!(
                "journal format {version} was written by another version of xcover (this one \
                 reads {MAGIC}): its chunks differ, start anew without --resume"
            );
        }
        bail!("not a gridcheck journal (or an empty one)");
    };
    if found != fingerprint {
        bail!(
            "was written by a run with other arguments; resume it with the same grids and \
             options, or start anew without --resume\n  journal: {found}\n  this run: {fingerprint}"
        );
    }
    let mut records = vec![GridRecord::default(); grids.len()];
    for (number, line) in lines.enumerate() {
        let bad = || anyhow!("line {}: bad record `{line}`", number + 2);
        // Kind, grid, and the rest of the line (one word, except a `prepared` summary).
        let mut words = line.splitn(3, ' ');
        let kind = words.next().unwrap_or("");
        let grid: usize = words
            .next()
            .and_then(|w| w.parse().ok())
            .filter(|&g| g < grids.len())
            .ok_or_else(bad)?;
        let value = words.next().ok_or_else(bad)?;
        if kind != "prepared" && value.contains(' ') {
            return Err(bad());
        }
        let record = &mut records[grid];
        match kind {
            "puzzle" => {
                let puzzle = Puzzle::parse(value.as_bytes()).map_err(|_| bad())?;
                puzzle.check_against(&grids[grid]).map_err(|_| bad())?;
                let givens = puzzle.givens();
                if !record.puzzles.contains(&givens) {
                    record.puzzles.push(givens);
                }
            }
            "chunk" => {
                let (chunk, counts) = parse_chunk(value).ok_or_else(bad)?;
                record.chunks_done.insert(chunk);
                if let Some(counts) = counts {
                    record.chunk_counts.insert(chunk, counts);
                }
            }
            "prepared" => record.prepared = Some(PreparedSummary::decode(value).ok_or_else(bad)?),
            "grid" if value == "done" => record.done = true,
            _ => return Err(bad()),
        }
    }
    Ok(records)
}

/// A chunk record's value: `<id>` or `<id>:<nodes>:<candidates>`.
fn parse_chunk(value: &str) -> Option<(u32, Option<Counts>)> {
    let mut parts = value.split(':');
    let chunk = parts.next()?.parse().ok()?;
    match (parts.next(), parts.next(), parts.next()) {
        (None, _, _) => Some((chunk, None)),
        (Some(nodes), Some(candidates), None) => Some((
            chunk,
            Some(Counts {
                nodes: nodes.parse().ok()?,
                candidates: candidates.parse().ok()?,
            }),
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRID: &str =
        "123456789456789123789123456214365897365897214897214365531642978642978531978531642";

    fn grid() -> Grid {
        Grid::parse(GRID.as_bytes()).unwrap()
    }

    fn givens(cells: &[u8]) -> Cells {
        Cells::from_cells(cells)
    }

    #[test]
    fn records_survive_a_torn_line_and_duplicates_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let grids = [grid(), grid()];
        let journal = Journal::create(&path, "fp", 2).unwrap();
        journal.puzzle(1, &grids[1], givens(&[0, 5, 80])).unwrap();
        journal.puzzle(1, &grids[1], givens(&[0, 5, 80])).unwrap();
        journal.chunk_done(1, 513, RunStats::default()).unwrap();
        journal.grid_done(0).unwrap();
        drop(journal);
        // A record cut short by kill -9.
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"puzzle 1 12").unwrap();
        drop(file);

        let (journal, records) = Journal::resume(&path, "fp", &grids).unwrap();
        assert!(records[0].done && records[0].puzzles.is_empty());
        assert_eq!(records[1].puzzles, vec![givens(&[0, 5, 80])]);
        assert_eq!(records[1].chunks_done, HashSet::from([513]));
        assert!(!records[1].done);
        journal.puzzle(1, &grids[1], givens(&[0, 5, 80])).unwrap();
        journal.puzzle(1, &grids[1], givens(&[1, 2])).unwrap();
        drop(journal);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.matches("puzzle").count(), 2, "{text}");
        assert_eq!(text.lines().count(), 5, "the torn line is gone: {text}");
        assert!(
            text.lines().skip(1).all(|l| l.split(' ').count() == 3),
            "{text}"
        );
    }

    #[test]
    fn a_journal_killed_before_its_header_was_complete_starts_afresh() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let grids = [grid()];
        for torn in ["", "xcover-gridch"] {
            std::fs::write(&path, torn).unwrap();
            let (journal, records) = Journal::resume(&path, "fp", &grids).unwrap();
            assert_eq!(records, vec![GridRecord::default()]);
            journal.grid_done(0).unwrap();
            drop(journal);
            let text = std::fs::read_to_string(&path).unwrap();
            assert_eq!(text, format!("{MAGIC} fp\ngrid 0 done\n"));
        }
    }

    #[test]
    fn other_arguments_or_garbage_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let grids = [grid()];
        Journal::create(&path, "clues=17", 1).unwrap();
        let err = Journal::resume(&path, "clues=18", &grids).err().unwrap();
        assert!(format!("{err:#}").contains("other arguments"), "{err:#}");
        assert!(Journal::create(&path, "clues=17", 1).is_err(), "exists");
        std::fs::write(&path, format!("{MAGIC} fp\nchunk 3 1\n")).unwrap();
        let err = Journal::resume(&path, "fp", &grids).err().unwrap();
        assert!(format!("{err:#}").contains("line 2"), "{err:#}");
        let wrong = GRID.replacen('1', "2", 1);
        std::fs::write(&path, format!("{MAGIC} fp\npuzzle 0 {wrong}\n")).unwrap();
        assert!(Journal::resume(&path, "fp", &grids).is_err());
        // A journal of the format before chunks had three levels.
        std::fs::write(&path, "xcover-gridcheck-journal 1 fp\nchunk 0 1287\n").unwrap();
        let err = Journal::resume(&path, "fp", &grids).err().unwrap();
        assert!(format!("{err:#}").contains("another version"), "{err:#}");
    }

    #[test]
    fn a_shard_journal_keeps_chunk_counters_and_preparation_figures() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let grids = [grid()];
        let mut journal = Journal::create(&path, "fp", 1).unwrap();
        journal.record_chunk_counts();
        let figures = PreparedSummary {
            chunks: 64,
            text: "UA 12 (generated), 12 after forced cells, 12 kept".into(),
            impossible: String::new(),
        };
        journal.prepared(0, &figures).unwrap();
        let stats = RunStats {
            steps: 99,
            candidates: 7,
            ..RunStats::default()
        };
        journal.chunk_done(0, 1033, stats).unwrap();
        journal.chunk_done(0, 1034, RunStats::default()).unwrap();
        drop(journal);
        let (_, records) = Journal::resume(&path, "fp", &grids).unwrap();
        assert_eq!(records[0].prepared, Some(figures));
        assert_eq!(records[0].chunks_done, HashSet::from([1033, 1034]));
        assert_eq!(
            records[0].chunk_counts.get(&1033),
            Some(&Counts {
                nodes: 99,
                candidates: 7
            })
        );
        // Spaces are for the summary only; a malformed counter is refused.
        for bad in ["chunk 0 1033:99", "chunk 0 1033 99", "prepared 0 x|y"] {
            std::fs::write(&path, format!("{MAGIC} fp\n{bad}\n")).unwrap();
            assert!(Journal::resume(&path, "fp", &grids).is_err(), "{bad}");
        }
    }

    #[test]
    fn fnv_is_the_published_function() {
        assert_eq!(fnv64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
