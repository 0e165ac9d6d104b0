//! `xcover dlx3 --shard I/N`: explores the I-th of N static parts of the search (units
//! `k` with `k % N == I`) and writes their records as a part file (see `part_file`),
//! to stdout or to `--output FILE`, which `--resume` continues after a kill.
use std::ffi::OsString;
use std::fs::File;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::time::{Duration, Instant};

use xcover_core::dlx3::{Dlx3, Dlx3Error, Part};

use super::part_body;
use super::part_file::{self, Header, Sequence, DATA, PART, UNIT};
use super::units::{self, Claim, Image, UnitRecord};
use crate::durable::{DurableError, Problem, Resumed, Visit, Writer};
use crate::error::{CliError, Kind};

/// Unit records closer together than this are written but not synced to disk.
const SYNC_INTERVAL: Duration = Duration::from_secs(1);

/// Where a shard's part goes, and whether an earlier attempt is continued.
pub(crate) struct Destination<'p> {
    pub output: Option<&'p Path>,
    pub resume: bool,
    /// The most bytes of an earlier attempt read back (`--max-memory`).
    pub limit: u64,
    /// `--lengths-only` (`m1`-`m8`): the part keeps the lengths of the units' text, not
    /// the text, for a second pass that writes it in place (see `placed`).
    pub lengths: bool,
}

/// The outcome of a shard run.
pub(crate) type Outcome = Result<(), CliError>;

/// A part being written: to a file (created or resumed) or to stdout.
pub(crate) enum Out<'o> {
    File(Writer<File>),
    Stream(Writer<std::io::StdoutLock<'o>>),
}

impl Out<'_> {
    pub(crate) fn record(&mut self, tag: &str, payload: &[u8]) -> Result<(), DurableError> {
        match self {
            Out::File(w) => w.record(tag, payload),
            Out::Stream(w) => w.record(tag, payload),
        }
    }

    pub(crate) fn records(&self) -> u64 {
        match self {
            Out::File(w) => w.records(),
            Out::Stream(w) => w.records(),
        }
    }

    /// Forces a file's records to disk (a stream has nothing to sync).
    pub(crate) fn sync(&mut self) -> Result<(), DurableError> {
        match self {
            Out::File(w) => w.sync(),
            Out::Stream(_) => Ok(()),
        }
    }

    pub(crate) fn finish(self) -> Result<(), DurableError> {
        match self {
            Out::File(w) => w.finish().map(drop),
            // The trailer's write is flushed (and a write error reported) by `finish`.
            Out::Stream(w) => w.finish().map(drop),
        }
    }
}

/// Opens a shard's part of `format` where `dest` says: stdout, a new file, or with
/// `--resume` an existing file, whose every record `check` reads back first (a signal
/// meanwhile ends the read with its status). `None`: the file read back is complete
/// (the caller says whether it holds all it should).
pub(crate) fn open_out<'o, E: std::fmt::Display>(
    dest: &Destination<'_>,
    format: crate::durable::Format,
    identity: &[u8],
    mut check: impl FnMut(&crate::durable::Record) -> Result<(), E>,
    interrupted: &dyn Fn() -> Option<i32>,
) -> Result<Option<Out<'o>>, CliError> {
    Ok(Some(match dest.output {
        None => Out::Stream(
            Writer::stream(
                std::io::stdout().lock(),
                Path::new("standard output"),
                format,
                identity,
            )
            .map_err(failed)?,
        ),
        // `--resume` with no part yet starts one (a task run again resumes blindly).
        Some(path) if dest.resume && path.exists() => {
            let mut visit = |r: &crate::durable::Record| {
                if interrupted().is_some() {
                    return Err(Visit::Interrupted);
                }
                check(r).map_err(|e| Visit::Invalid(e.to_string()))
            };
            match Writer::resume(path, format, identity, dest.limit, &mut visit) {
                // Whole frames under a valid trailer (each record checked above).
                Ok(Resumed::Complete(_)) => return Ok(None),
                Ok(Resumed::Open(w)) => Out::File(w),
                // A signal while the part was read back: the status a signal gives.
                Err(e) if matches!(e.problem, Problem::Interrupted) => {
                    let signal = interrupted().unwrap_or(libc::SIGINT);
                    return Err(CliError::new(Kind::Interrupted(signal), e.to_string()));
                }
                Err(e) => return Err(failed(e)),
            }
        }
        Some(path) => Out::File(Writer::create(path, format, identity).map_err(failed)?),
    }))
}

/// A durable error as the shard's outcome: a closed stdout ends quietly, as SIGPIPE would.
pub(crate) fn failed(e: DurableError) -> CliError {
    if let Problem::Io(io) = &e.problem {
        if io.kind() == std::io::ErrorKind::BrokenPipe {
            return CliError::quiet(Kind::BrokenPipe);
        }
    }
    let hint = match e.problem {
        Problem::OtherRun { .. } => "; not resumed",
        _ => "",
    };
    CliError::failure(format!("{e}{hint}"))
}

/// Runs shard `part` of the search of `engine` (input read with the user's settings).
pub(crate) fn run(
    engine: &mut Dlx3<'_>,
    input: &[u8],
    args: &[OsString],
    part: Part,
    dest: &Destination<'_>,
    interrupted: &dyn Fn() -> Option<i32>,
) -> Outcome {
    let header = header_of(engine, input, args, part, dest.lengths)?;
    let (split, bodies, lengths) = (header.split, header.bodies, header.lengths);
    let identity = header.identity();
    let with_input = part.index() == 0;
    // The part so far: a fresh one, or the checked records of an earlier attempt.
    let mut seq = Sequence::default();
    let check = |r: &crate::durable::Record| check_record(r, &header, with_input, input, &mut seq);
    let Some(mut out) = open_out(dest, PART, &identity, check, interrupted)? else {
        // Complete: whole in meaning too if it holds every unit the shard owns.
        if seq.units == header.owned_units() {
            return Ok(());
        }
        let path = dest.output.unwrap_or(Path::new("standard output"));
        return Err(CliError::failure(format!(
            "{}: complete, but with {} unit records where shard {}/{} owns {} (a damaged \
             part); not resumed",
            path.display(),
            seq.units,
            part.index(),
            part.count(),
            header.owned_units()
        )));
    };
    if with_input && out.records() == 0 {
        out.record(DATA, input).map_err(failed)?;
    }
    let image = Image::of(engine);
    let mut storage = image.storage();
    let spacing = part_file::spacing(engine.settings());
    let mut settings = engine.settings().for_units();
    if !bodies && !lengths {
        // Counts only: the worker need not print (a solution's number is the merge's).
        settings = settings.print_interval(0);
    }
    let mut worker = image
        .engine(&mut storage, settings)
        .map_err(CliError::from)?;
    let last_done = seq.last;
    // A unit whose first bodies an earlier attempt wrote: explored again, those skipped.
    let mut skip = seq.open.map(|(k, n)| (k, n as usize));
    let out = std::cell::RefCell::new(out);
    let write_error = std::cell::RefCell::new(None);
    let mut last_sync = Instant::now();
    let stopped = std::cell::Cell::new(None);
    // Writes one record; synced at most once a second: what a power loss can take is
    // bounded in time, and the sync costs nothing next to the units' work.
    let mut write = |tag: &str, payload: &[u8]| {
        let mut out = out.borrow_mut();
        let written = out.record(tag, payload);
        let synced = if last_sync.elapsed() >= SYNC_INTERVAL {
            last_sync = Instant::now();
            written.and_then(|()| out.sync())
        } else {
            written
        };
        match synced {
            Ok(()) => true,
            Err(e) => {
                *write_error.borrow_mut() = Some(e);
                false
            }
        }
    };
    let write = std::cell::RefCell::new(&mut write);
    // Drops from `rec` the bodies of unit `k` that an earlier attempt recorded.
    let mut skip_recorded = |k: u64, rec: &mut UnitRecord| {
        if let Some((_, n)) = skip.as_mut().filter(|(j, _)| *j == k) {
            let dropped = (*n).min(rec.ends.len());
            rec.drop_bodies(dropped);
            *n -= dropped;
            if *n == 0 {
                skip = None;
            }
        }
    };
    let skip_recorded = std::cell::RefCell::new(&mut skip_recorded);
    // With lengths: the unit's bodies so far, and their lengths by solution number.
    let sums = std::cell::RefCell::new((0u64, Vec::new()));
    let mut spill = |k: u64, rec: &mut UnitRecord| {
        if lengths {
            add_lengths(&mut sums.borrow_mut(), rec, spacing);
            return true;
        }
        (skip_recorded.borrow_mut())(k, rec);
        if rec.ends.is_empty() {
            return true;
        }
        let payload = part_body::encode_body(k, rec);
        rec.solutions = Vec::new();
        rec.ends = Vec::new();
        (write.borrow_mut())(part_body::BODY, &payload)
    };
    let explored = units::explore_spilling(
        &mut worker,
        split,
        |k| match last_done {
            // The records of a resumed part carry the engine's deepest level so far, so the
            // engine is brought to the depth it had there before it explores the rest.
            Some((last, deepest)) if k == last => Claim::SkipReaching(deepest),
            Some((last, _)) if k < last => Claim::Skip,
            _ if part.owns(k) => Claim::Explore,
            _ => Claim::Skip,
        },
        |k, mut rec: UnitRecord| {
            if lengths {
                let mut sums = sums.borrow_mut();
                add_lengths(&mut sums, &mut rec, spacing);
                rec.text_sums = std::mem::take(&mut sums.1);
                sums.0 = 0;
            }
            (skip_recorded.borrow_mut())(k, &mut rec);
            (write.borrow_mut())(UNIT, &part_file::encode_unit(k, &rec))
        },
        units::Spill {
            bytes: part_body::held_bytes(dest.limit),
            spill: &mut spill,
        },
        &|| {
            let s = interrupted();
            stopped.set(s);
            s.is_some()
        },
    );
    let mut out = out.into_inner();
    let write_error = write_error.into_inner();
    if let Some(e) = write_error {
        return Err(failed(e));
    }
    match explored {
        Ok(true) => {
            out.finish().map_err(failed)?;
            Ok(())
        }
        early => ended_early(&mut out, dest, part, "", early.map(|_| stopped.get())),
    }
}

/// The end of shard `part`'s search (`pass`: which one, said after the shard) that stopped
/// before its last unit: stopped by a signal (`Ok`; `None`, not known: SIGINT's status),
/// with the records so far synced, since they survive a power loss too, and said
/// interrupted; or failed inside a unit (`Err`), with the engine's error and where.
pub(crate) fn ended_early(
    out: &mut Out<'_>,
    dest: &Destination<'_>,
    part: Part,
    pass: &str,
    stop: Result<Option<i32>, (Option<u64>, Dlx3Error)>,
) -> Outcome {
    let signal = match stop {
        Ok(signal) => signal.unwrap_or(libc::SIGINT),
        Err((unit, e)) => {
            let place = unit.map_or(String::new(), |k| format!(" in unit {k}"));
            return Err(CliError::new(Kind::Dlx3(e), format!("{e}{place}")));
        }
    };
    out.sync().map_err(failed)?;
    let hint = if dest.output.is_some() {
        "; continue it with --resume"
    } else {
        ""
    };
    Err(CliError::new(
        Kind::Interrupted(signal),
        format!(
            "shard {}/{}{pass} interrupted{hint}",
            part.index(),
            part.count()
        ),
    ))
}

/// Adds the bodies held in `rec` to a unit's text lengths (`sums`: the bodies taken
/// before, and the lengths by solution number modulo `spacing`), and drops them.
fn add_lengths(sums: &mut (u64, Vec<u64>), rec: &mut UnitRecord, spacing: u64) {
    let (seen, by_residue) = sums;
    by_residue.resize(spacing as usize, 0);
    for body in rec.bodies() {
        *seen += 1;
        by_residue[(*seen % spacing) as usize] += body.len() as u64;
    }
    rec.solutions = Vec::new();
    rec.ends = Vec::new();
}

/// The identity of shard `part` of the search of `engine` (input read, at its start):
/// the split level all shards choose alike, the units there, and whether bodies (or,
/// with `lengths`, their lengths) are kept.
pub(crate) fn header_of(
    engine: &mut Dlx3<'_>,
    input: &[u8],
    args: &[OsString],
    part: Part,
    lengths: bool,
) -> Result<Header, CliError> {
    let keeps = part_file::keeps_bodies(engine.settings());
    if lengths && !keeps {
        return Err(CliError::new(
            Kind::KnuthUsage,
            "--lengths-only is for m1 to m8 (with other spacings a part keeps counts only)",
        ));
    }
    let split_error = |e: xcover_core::dlx3::Dlx3Error| {
        CliError::new(Kind::Dlx3(e), format!("can't split the search: {e}"))
    };
    let split = engine
        .choose_split_level(units::units_for(part.count()))
        .map_err(split_error)?;
    let unit_count = engine.count_units(split).map_err(split_error)?;
    Ok(Header {
        input_len: input.len() as u64,
        input_digest: part_file::input_digest(input),
        args: args.iter().map(|a| a.as_bytes().to_vec()).collect(),
        shard: part.index(),
        shards: part.count(),
        split,
        units: unit_count,
        bodies: keeps && !lengths,
        lengths,
    })
}

/// Why a record of an earlier attempt at a shard's part makes no sense (said of the
/// record, naming it).
#[derive(Debug)]
pub(crate) enum ResumeError {
    /// Shard 0's first record is not this run's input.
    NotInput,
    /// A record of another tag than a unit's.
    NotUnit(String),
    /// A unit's or body's record, or its place in the sequence.
    Unit(super::part_file::PartError),
}

impl std::fmt::Display for ResumeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResumeError::NotInput => f.write_str("not this run's input (the data record differs)"),
            ResumeError::NotUnit(tag) => write!(f, "a `{tag}` record where a unit was expected"),
            ResumeError::Unit(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ResumeError {}

impl From<super::part_file::PartError> for ResumeError {
    fn from(e: super::part_file::PartError) -> ResumeError {
        ResumeError::Unit(e)
    }
}

impl From<ResumeError> for crate::error::CliError {
    fn from(e: ResumeError) -> crate::error::CliError {
        crate::error::CliError::failure(e.to_string())
    }
}

/// The meaning of one record of an earlier attempt at this shard's part: shard 0's
/// first record is this run's input; every other one a unit record that follows on.
fn check_record(
    r: &crate::durable::Record,
    header: &Header,
    with_input: bool,
    input: &[u8],
    seq: &mut Sequence,
) -> Result<(), ResumeError> {
    if with_input && r.index == 1 {
        if r.tag != DATA || r.payload != input {
            return Err(ResumeError::NotInput);
        }
        return Ok(());
    }
    if r.tag == part_body::BODY {
        let (k, rec) = part_body::decode_body(&r.payload, header)?;
        return Ok(seq.take_body(header, k, rec.ends.len() as u64)?);
    }
    if r.tag != UNIT {
        return Err(ResumeError::NotUnit(r.tag.clone()));
    }
    let (k, rec) = part_file::decode_unit_after(&r.payload, header, seq.carried())?;
    Ok(seq.take(header, k, &rec)?)
}
