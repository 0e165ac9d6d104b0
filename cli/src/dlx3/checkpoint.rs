//! `xcover dlx3 --checkpoint FILE [--resume] [--threads N]`: a one-process search that
//! records how far it got, so that a killed run can be resumed. It runs as the single
//! shard 0/1 of a split search whose units are explored by worker threads (one when
//! `--threads` is not given) and printed in order by the coordinator, exactly as the plain
//! run prints them; after each unit the coordinator appends the unit's record to FILE.
//!
//! `--resume` reads FILE back (every record checked, a torn tail cut), prints again what
//! its units printed, with the reports the plain run prints among them, and goes on with
//! the rest of the search: its stdout and stderr are the uninterrupted run's, byte for
//! byte. `--threads` may differ between the attempts.
//!
//! A closed format of the durable record layer (`crate::durable`):
//!
//! ```text
//! xcover-dlx3-checkpoint 1
//! head   the run's identity (`part_file::Header` of shard 0/1)
//! done   one per unit, in unit order from unit 0: the unit line of a part's `unit`
//!        record (counters and profile, no bodies), then what the unit printed on stdout
//!        (solutions with their numbers; empty for a unit the coordinator explored itself,
//!        which the resumed run explores again)
//! end    the trailer: the whole search is recorded
//! ```
use std::cell::Cell;
use std::ffi::OsString;
use std::fs::File;
use std::path::Path;
use std::time::{Duration, Instant};

use xcover_core::dlx3::{Dlx3, DoneReason, Part, Stats};
use xcover_solver::units::Pool;

use super::part_file::{self, Header};
use super::pool::{self, Arrivals, Work};
use super::shard;
use super::units::{coordinate, Claim, Fetched, Output, UnitRecord, UnitSource, WalkError, Walked};
use crate::durable::{
    DurableError, Format, Problem, ReadAt, Reader, Record, Resumed, Visit, Writer,
};
use crate::error::Kind;

/// The checkpoint file.
pub(crate) const CHECKPOINT: Format = Format {
    magic: "xcover-dlx3-checkpoint",
    version: 1,
    max_record: 1 << 32,
    closed: true,
    noun: "checkpoint",
};

/// The tag of a unit's record.
const DONE: &str = "done";

/// Records closer together than this are written but not synced.
const SYNC_INTERVAL: Duration = Duration::from_secs(1);

/// Where the checkpoint goes.
pub(crate) struct Checkpoint<'c> {
    pub path: &'c Path,
    pub resume: bool,
    /// The most bytes read back (`--max-memory`).
    pub limit: u64,
}

/// The header the checkpoint's records are read with: counts only (the text a unit
/// printed follows the unit line).
fn counts_header(h: &Header) -> Header {
    Header {
        bodies: false,
        lengths: false,
        ..h.clone()
    }
}

/// A `done` record's payload.
fn encode(k: u64, stats: &Stats, profile: &[u64], printed: &[u8]) -> Vec<u8> {
    let rec = UnitRecord {
        stats: *stats,
        profile: profile.to_vec(),
        ..UnitRecord::default()
    };
    let mut b = part_file::encode_unit(k, &rec);
    b.extend_from_slice(printed);
    b
}

/// Why a checkpoint's record makes no sense (said of the record, naming it).
#[derive(Debug)]
pub(crate) enum DoneError {
    /// A record of another tag than `done`.
    NotDone(String),
    /// A `done` record without its unit line.
    NoLine,
    /// The unit line's meaning.
    Unit(part_file::PartError),
}

impl std::fmt::Display for DoneError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DoneError::NotDone(tag) => write!(f, "a `{tag}` record where a unit was expected"),
            DoneError::NoLine => f.write_str("a unit record without its line"),
            DoneError::Unit(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for DoneError {}

impl From<part_file::PartError> for DoneError {
    fn from(e: part_file::PartError) -> DoneError {
        DoneError::Unit(e)
    }
}

impl From<DoneError> for crate::error::CliError {
    fn from(e: DoneError) -> crate::error::CliError {
        crate::error::CliError::failure(e.to_string())
    }
}

/// Reads a `done` record: the unit and its record, with the printed text.
fn decode(r: &Record, h: &Header) -> Result<(u64, UnitRecord), DoneError> {
    if r.tag != DONE {
        return Err(DoneError::NotDone(r.tag.clone()));
    }
    let nl = r
        .payload
        .iter()
        .position(|&c| c == b'\n')
        .ok_or(DoneError::NoLine)?;
    let (line, text) = r.payload.split_at(nl + 1);
    let (k, mut rec) = part_file::decode_unit(line, h)?;
    rec.printed = Some(text.to_vec());
    Ok((k, rec))
}

/// The CRC-32C of a record's payload: the replay of a resumed run checks that it reads
/// the records the resume checked.
fn payload_crc(payload: &[u8]) -> u32 {
    crate::durable::crc32c(payload)
}

/// The source of the coordinator: the records of an earlier attempt first, then the
/// workers' records; each unit done is appended to the checkpoint.
struct Checkpointing<'s, 'a, 'w> {
    /// The earlier attempt's records still to replay, and how many.
    replay: Option<Reader<ReadAt>>,
    replay_left: u64,
    /// See [`payload_crc`]: each replayed record is the one checked.
    seen: Vec<u32>,
    header: Header,
    arrivals: &'a mut Arrivals<'s>,
    out: Option<&'w mut Writer<File>>,
    /// The unit last handed out came from the earlier attempt (it is recorded already).
    replayed: bool,
    /// A unit no worker explored was explored by the coordinator without a record: no
    /// later unit is recorded (the checkpoint must hold every unit in order).
    gap: bool,
    last_sync: Instant,
    /// A failed write to the checkpoint.
    error: Option<DurableError>,
}

impl UnitSource for Checkpointing<'_, '_, '_> {
    fn unit(&mut self, k: u64) -> Result<Fetched, WalkError> {
        if self.replay_left > 0 {
            self.replay_left -= 1;
            let r = self.replay.as_mut().ok_or(WalkError::CheckpointEndsEarly)?;
            let rec = r.next_strict()?.ok_or(WalkError::CheckpointEndsEarly)?;
            let (j, unit) = decode(&rec, &self.header).map_err(|m| r.invalid(&rec, m))?;
            if j != k {
                let what = format!("unit {j} where the search meets unit {k}");
                return Err(r.invalid(&rec, what).into());
            }
            let checked = usize::try_from(k).ok().and_then(|i| self.seen.get(i));
            if checked != Some(&payload_crc(&rec.payload)) {
                let what = "changed since it was checked (rewritten during the run)";
                return Err(r.invalid(&rec, what).into());
            }
            self.replayed = true;
            return Ok(Fetched::Record(unit));
        }
        self.replayed = false;
        let fetched = self.arrivals.fetch(k);
        if matches!(fetched, Fetched::Explore) {
            self.gap = true;
        }
        Ok(fetched)
    }

    fn keeps_printed(&self) -> bool {
        true
    }

    fn added(
        &mut self,
        k: u64,
        stats: &Stats,
        profile: &[u64],
        printed: &[u8],
    ) -> Result<(), WalkError> {
        if self.replayed || self.gap || self.error.is_some() {
            return Ok(());
        }
        let Some(out) = self.out.as_mut() else {
            return Ok(());
        };
        let mut written = out.record(DONE, &encode(k, stats, profile, printed));
        if written.is_ok() && self.last_sync.elapsed() >= SYNC_INTERVAL {
            self.last_sync = Instant::now();
            written = out.sync();
        }
        if let Err(e) = written {
            // The search goes on (its output is what the user waits for); the error is
            // reported at the end.
            self.error = Some(e);
        }
        Ok(())
    }

    fn name(&self, k: u64) -> String {
        format!("unit {k}")
    }
}

/// Runs the search of `engine` (input read, the user's settings) on `threads` workers
/// with checkpoint `ck`; prints through `io` what the plain run prints.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run(
    engine: &mut Dlx3<'_>,
    input: &[u8],
    args: &[OsString],
    ck: &Checkpoint<'_>,
    threads: usize,
    io: &mut dyn Output,
    interrupted: &dyn Fn() -> Option<i32>,
) -> Result<Walked, WalkError> {
    // `header_of` fails only where the search cannot be split.
    let header =
        shard::header_of(engine, input, args, Part::WHOLE, false).map_err(|e| match e.kind() {
            Kind::Dlx3(e) => WalkError::Split(e),
            _ => WalkError::Header(Box::new(e)),
        })?;
    let identity = header.identity();
    let records_header = counts_header(&header);
    // An earlier attempt: every record checked, in unit order from unit 0.
    let next_unit = Cell::new(0u64);
    // The CRC-32C of each record's payload as checked, which the replay must read again.
    let mut seen = Vec::new();
    let mut writer = None;
    let mut complete = false;
    // The checked file, for the replay: the descriptor `resume` opened and locked.
    let mut checked: Option<File> = None;
    if ck.resume && ck.path.exists() {
        let mut visit = |r: &Record| {
            if interrupted().is_some() {
                return Err(Visit::Interrupted);
            }
            let (k, _) = decode(r, &records_header).map_err(|e| Visit::Invalid(e.to_string()))?;
            if k != next_unit.get() || k >= header.units {
                let what = format!("unit {k} where unit {} was due", next_unit.get());
                return Err(Visit::Invalid(what));
            }
            next_unit.set(k + 1);
            seen.push(payload_crc(&r.payload));
            Ok(())
        };
        match Writer::resume(ck.path, CHECKPOINT, &identity, ck.limit, &mut visit) {
            Ok(Resumed::Complete(file)) => (complete, checked) = (true, Some(file)),
            Ok(Resumed::Open(w)) => {
                let file = w.try_clone_file();
                checked = Some(file.map_err(|error| WalkError::Io {
                    path: ck.path.to_owned(),
                    error,
                })?);
                writer = Some(w);
            }
            Err(e) if matches!(e.problem, Problem::OtherRun { .. }) => {
                return Err(WalkError::OtherRun(e));
            }
            Err(e) => return Err(e.into()),
        }
    } else {
        writer = Some(Writer::create(ck.path, CHECKPOINT, &identity)?);
    }
    let recorded = next_unit.get();
    // The records are read again for the replay, from the file checked (through its
    // descriptor, which holds the lock; never through the path, which another file may
    // have taken meanwhile), each record read twice must end the same chain.
    let replay = match checked.filter(|_| recorded > 0) {
        Some(file) => {
            let mut r = Reader::new(ReadAt::new(file), ck.path, CHECKPOINT, ck.limit);
            if r.header()? != identity {
                return Err(WalkError::Changed(ck.path.to_owned()));
            }
            Some(r)
        }
        None => None,
    };
    let split = header.split;
    let work = Work {
        settings: engine.settings().for_units(),
        take: Claim::Explore,
        pass: &|_| Claim::Skip,
        name: "dlx3 worker",
    };
    let stop = || interrupted().is_some();
    let mut error = None;
    // A complete checkpoint needs no worker: every unit is replayed.
    let workers = if complete { 0 } else { threads.max(1) };
    // The units after the recorded ones, in increasing order.
    let workers = Pool::new(workers).starting_at(recorded);
    let walked = pool::run(engine, split, workers, &work, &stop, |engine, arrivals| {
        let mut source = Checkpointing {
            replay,
            replay_left: recorded,
            seen: std::mem::take(&mut seen),
            header: records_header.clone(),
            arrivals,
            out: writer.as_mut(),
            replayed: false,
            gap: false,
            last_sync: Instant::now(),
            error: None,
        };
        let walked = coordinate(engine, split, &mut source, io);
        error = source.error.take();
        walked
    })?;
    if let Some(e) = error {
        return Err(WalkError::CheckpointWrite(e));
    }
    if let Some(w) = writer {
        let finished = if matches!(walked, Walked::Done(DoneReason::Exhausted)) {
            w.finish().map(drop)
        } else {
            // The records so far survive a power loss too.
            let mut w = w;
            w.sync()
        };
        finished.map_err(WalkError::CheckpointWrite)?;
    }
    Ok(walked)
}
