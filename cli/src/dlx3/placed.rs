//! A second pass that writes the solutions' text in place (issue 39): for `m1`-`m8`, the
//! merge neither reads nor writes the text. The first pass keeps, per unit, the byte
//! lengths of its solutions' bodies (by solution number modulo the spacing, since which
//! solutions print depends on the unit's first number in the whole search); the plan
//! turns counts and lengths into the bytes each unit prints and creates the output, at its
//! final size; each shard's second pass writes its units' text into that one file at
//! their offsets; the merge checks the small records of where and what they wrote:
//!
//! ```text
//! xcover dlx3 --shard I/N --lengths-only --output PART-I m1 < in.dlx      first pass
//! xcover dlx3 merge --plan PLAN --print-file OUT PART-0 ...               plan; OUT made
//! xcover dlx3 --shard I/N --second-pass PLAN --print-file OUT --output PLACED-I m1 < in.dlx
//! xcover dlx3 merge --print-file OUT PART-0 ... PLACED-0 ...              checks, no text
//! ```
//!
//! OUT then holds what the one-process run prints on stdout, and the merge's stderr what
//! it prints there. A closed format of the durable record layer (`crate::durable`):
//!
//! ```text
//! xcover-dlx3-placed 1
//! head    shard I's identity (`part_file::Header`, with lengths)
//! plan    `size <bytes of OUT> lengths <SHA-256 of every unit's length, hex> run <nonce>
//!         dev <d> ino <i> born <ns or ?>`: the plan's `print` record (`Bound`) binds the
//!         part to one plan and one print file
//! placed  `k offset length crc32c count mems cmems updates cleansings nodes\n`, for each
//!         unit of shard I that prints, in unit order, written once its text is in OUT
//!         and synced there
//! end
//! ```
//!
//! Concurrent writers: units' ranges tile OUT without overlap, and shard I writes only
//! its own units' ranges, so shards never write the same byte; a shard's placed part is
//! under an exclusive lock while it runs, so one attempt of a shard writes at a time. A
//! shard run again rewrites the same bytes at the same offsets (the text of a unit is a
//! function of the plan), so a rerun after a crash, or a unit begun and written again,
//! leaves the same file. Nothing is read back from OUT except under `merge --verify`,
//! which compares each unit's CRC-32C.
use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::Read as _;
use std::os::unix::fs::FileExt as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use xcover_core::dlx3::{Dlx3, Part, Settings, Stats, UnitCounters};

use super::merge::{Parts, Recorded};
use super::part_body;
use super::part_file::{self, Header};
use super::print_file::{not_the_plans, Bound, Placement, PrintFileError};
use super::second_pass::{read_plan, PlanRead};
use super::shard::{self, Destination, Out, Outcome};
use super::units::{self, Claim, Fetched, UnitRecord, UnitSource, WalkError};
use crate::durable::{DurableError, Format, Problem, Reader, Record};
use crate::error::CliError;

/// Why text can't be placed, or a print file or placed part is refused.
#[derive(Debug)]
pub(crate) enum PlacedError {
    /// The placement of the text, or the print file (`print_file`).
    PrintFile(PrintFileError),
    /// An I/O error on the print file `name`.
    Io { name: String, error: std::io::Error },
    /// A placed record that makes no sense.
    Record(&'static str),
    /// An earlier attempt's first record is not this plan's.
    NotThisPlan,
    /// An earlier attempt's unit `k` is not the next this shard places.
    NotNext(u64),
    /// Placed parts of a first pass without lengths.
    NoLengths,
    /// The print file is not of the plan's size.
    PrintFileSize { path: PathBuf, len: u64, total: u64 },
    /// A placed part's file refused or failed (its frames, or a record's meaning).
    File(DurableError),
    /// A placed part's header is not a dlx3 part's.
    Header {
        path: PathBuf,
        error: part_file::PartError,
    },
    /// A placed part of another run.
    OtherRun(PathBuf),
    /// Two placed parts of one shard.
    ShardAgain {
        path: PathBuf,
        shard: u64,
        shards: u64,
        other: PathBuf,
    },
    /// A shard out of range.
    ShardRange,
    /// A placed part ends before its trailer: its shard did not finish.
    Unfinished {
        error: DurableError,
        shard: u64,
        shards: u64,
    },
    /// A placed part without its plan record.
    NoPlanRecord(PathBuf),
    /// Placed parts of two plans.
    OtherPlan { path: PathBuf, other: PathBuf },
    /// The print file is not the one the plan made.
    NotThePrintFile(PathBuf),
    /// Unit `k` is not the plan's next of the shard, at its offset and length.
    Misplaced(u64),
    /// A placed part lacks unit `k`'s record.
    NoUnitRecord { path: PathBuf, k: u64 },
    /// No placed part of this shard.
    Missing { shard: usize, shards: u64 },
    /// The print file ends inside unit `k`.
    EndsInside { name: String, k: u64 },
    /// Unit `k`'s text in the print file is not what its shard wrote.
    CrcDiffers {
        name: String,
        k: u64,
        offset: u64,
        end: u64,
    },
    /// The search has this many solutions outside the units (the print file lacks them).
    OutsideUnits(u64),
    /// Unit `name`'s placed record's counters differ from the first pass's.
    CountersDiffer(String),
}

impl std::fmt::Display for PlacedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use PlacedError as E;
        match self {
            E::PrintFile(e) => write!(f, "{e}"),
            E::Io { name, error } => write!(f, "{name}: {error}"),
            E::Record(what) => write!(f, "a placed record that makes no sense ({what})"),
            E::NotThisPlan => f.write_str(
                "not this plan's placed part (the plan was made again, or the print file \
                 changed, since it was written): run the shard again without --resume, the \
                 part removed",
            ),
            E::NotNext(k) => write!(f, "unit {k} is not the next one this shard places"),
            E::NoLengths => {
                f.write_str("placed parts go with the parts of a --lengths-only first pass")
            }
            E::PrintFileSize { path, len, total } => write!(
                f,
                "{}: {len} bytes where the plan's print file has {total}; not merged",
                path.display()
            ),
            E::File(e) => write!(f, "{e}"),
            E::Header { path, error } => write!(f, "{}: {error}", path.display()),
            E::OtherRun(path) => write!(f, "{}: a placed part of another run", path.display()),
            E::ShardAgain {
                path,
                shard,
                shards,
                other,
            } => write!(
                f,
                "{}: shard {shard}/{shards}'s second pass again (also in {})",
                path.display(),
                other.display()
            ),
            E::ShardRange => f.write_str("a shard out of range"),
            E::Unfinished {
                error,
                shard,
                shards,
            } => write!(
                f,
                "{error} (the second pass of shard {shard}/{shards} did not finish; run it \
                 again with --resume)"
            ),
            E::NoPlanRecord(path) => write!(f, "{}: no plan record", path.display()),
            E::OtherPlan { path, other } => write!(
                f,
                "{}: written under another plan than {} (the plan was made again between \
                 their second passes); not merged",
                path.display(),
                other.display()
            ),
            E::NotThePrintFile(path) => {
                write!(f, "{}; not merged", not_the_plans(&path.display()))
            }
            E::Misplaced(k) => write!(
                f,
                "unit {k} where the plan's next unit of the shard, at its offset and length, \
                 was due"
            ),
            E::NoUnitRecord { path, k } => write!(
                f,
                "{}: has no record of unit {k}, which it places",
                path.display()
            ),
            E::Missing { shard, shards } => {
                write!(f, "the second pass of shard {shard}/{shards} is missing")
            }
            E::EndsInside { name, k } => write!(f, "{name}: ends inside unit {k}"),
            E::CrcDiffers {
                name,
                k,
                offset,
                end,
            } => write!(
                f,
                "{name}: the text of unit {k} (bytes {offset} to {end}) is not what its shard \
                 wrote (CRC-32C differs); not merged"
            ),
            E::OutsideUnits(n) => write!(
                f,
                "the search has {n} solutions outside the units, which the print file lacks: \
                 merge the parts without a second pass"
            ),
            E::CountersDiffer(name) => write!(
                f,
                "{name}: its placed record's counters differ from the first pass's (a \
                 damaged or forged part)"
            ),
        }
    }
}

impl std::error::Error for PlacedError {}

impl From<PlacedError> for WalkError {
    fn from(e: PlacedError) -> WalkError {
        WalkError::Source(Box::new(e))
    }
}

impl From<PrintFileError> for PlacedError {
    fn from(e: PrintFileError) -> PlacedError {
        PlacedError::PrintFile(e)
    }
}

impl From<DurableError> for PlacedError {
    fn from(e: DurableError) -> PlacedError {
        PlacedError::File(e)
    }
}

impl From<PlacedError> for CliError {
    fn from(e: PlacedError) -> CliError {
        CliError::failure(e.to_string())
    }
}

/// A placed part (a second pass that wrote in place).
pub(crate) const PLACED: Format = Format {
    magic: "xcover-dlx3-placed",
    version: 1,
    max_record: 1 << 20,
    closed: true,
    noun: "placed part",
};

const PLAN: &str = "plan";
const UNIT: &str = "placed";

/// Records closer together than this wait (the text behind them synced first).
const SYNC_INTERVAL: Duration = Duration::from_secs(1);

/// Whether the file at `path` starts as a placed part (the merge takes every kind).
pub(crate) fn is_placed_part(path: &Path) -> bool {
    let want = format!("{} ", PLACED.magic);
    let mut start = vec![0; want.len()];
    File::open(path)
        .and_then(|mut f| f.read_exact(&mut start))
        .is_ok_and(|()| start == want.as_bytes())
}

/// A `placed` record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Placed {
    k: u64,
    offset: u64,
    length: u64,
    crc: u32,
    counters: UnitCounters,
}

impl Placed {
    fn encode(&self) -> Vec<u8> {
        let c = self.counters.to_array();
        format!(
            "{} {} {} {} {} {} {} {} {} {}\n",
            self.k, self.offset, self.length, self.crc, c[0], c[1], c[2], c[3], c[4], c[5]
        )
        .into_bytes()
    }

    fn decode(payload: &[u8]) -> Result<Placed, PlacedError> {
        let bad = PlacedError::Record;
        let line = payload
            .strip_suffix(b"\n")
            .ok_or_else(|| bad("no newline"))?;
        let mut words = line.split(|&c| c == b' ');
        let mut next = |what: &'static str| {
            words
                .next()
                .and_then(part_file::number)
                .ok_or_else(|| bad(what))
        };
        let (k, offset, length) = (next("unit")?, next("offset")?, next("length")?);
        let crc = u32::try_from(next("crc")?).map_err(|_| bad("crc"))?;
        let stats = part_file::read_counters(&mut next)?;
        if words.next().is_some() {
            return Err(bad("extra numbers"));
        }
        Ok(Placed {
            k,
            offset,
            length,
            crc,
            counters: UnitCounters::of(&stats),
        })
    }
}

/// The unit being written: its number, bytes written, CRC-32C so far.
#[derive(Clone, Copy)]
struct Writing {
    k: u64,
    written: u64,
    crc: u32,
}

/// `xcover dlx3 --shard I/N --second-pass PLAN --print-file OUT`: explores shard `part`'s
/// units that print and writes their text into OUT at the plan's offsets.
pub(crate) fn run(
    engine: &mut Dlx3<'_>,
    input: &[u8],
    args: &[OsString],
    part: Part,
    (plan, print_file): (&Path, &Path),
    dest: &Destination<'_>,
    interrupted: &dyn Fn() -> Option<i32>,
) -> Outcome {
    let header = shard::header_of(engine, input, args, part, true)?;
    let PlanRead {
        header: plan_header,
        counts,
        lengths,
        bound,
    } = read_plan(plan, dest.limit)?;
    if !plan_header.same_run(&header) {
        return Err(CliError::failure(format!(
            "{}: the plan is another run's (its input, arguments, shard count or split \
             differ, or its first pass was not --lengths-only)",
            plan.display()
        )));
    }
    let placement = Placement::from_lengths(lengths)
        .ok_or_else(|| CliError::failure(format!("{}: lengths overflow", plan.display())))?;
    let bound = bound
        .ok_or_else(|| CliError::failure(format!("{}: no print file record", plan.display())))?;
    let plan_record = placement.plan_record(&bound);
    let out_file = open_print_file(print_file, placement.total, &bound)?;
    let mine: Vec<u64> = (0..header.units)
        .filter(|&k| part.owns(k) && placement.lengths[k as usize] > 0)
        .collect();
    let identity = header.identity();
    // What an earlier attempt recorded: units placed (their text synced before).
    let mut done: Option<u64> = None;
    let mut met = 0usize;
    let mut check = |r: &Record| -> Result<(), PlacedError> {
        if r.index == 1 {
            return match r.tag == PLAN && r.payload == plan_record {
                true => Ok(()),
                false => Err(PlacedError::NotThisPlan),
            };
        }
        let p = Placed::decode(&r.payload)?;
        let due = mine.get(met).copied();
        let k = p.k as usize;
        if r.tag != UNIT
            || due != Some(p.k)
            || p.offset != placement.offsets[k]
            || p.length != placement.lengths[k]
        {
            return Err(PlacedError::NotNext(p.k));
        }
        (done, met) = (Some(p.k), met + 1);
        Ok(())
    };
    let Some(mut out) = shard::open_out(dest, PLACED, &identity, &mut check, interrupted)? else {
        if met == mine.len() {
            return Ok(());
        }
        let path = dest.output.unwrap_or(Path::new("standard output"));
        return Err(CliError::failure(format!(
            "{}: complete, but with {met} of the shard's {} units (a damaged part); not \
             resumed",
            path.display(),
            mine.len()
        )));
    };
    if out.records() == 0 {
        out.record(PLAN, &plan_record).map_err(shard::failed)?;
    }
    let settings = *engine.settings();
    let image = units::Image::of(engine);
    let mut storage = image.storage();
    let unit_settings = settings
        .for_units()
        .print_interval(settings.get_print_interval());
    let mut worker = image
        .engine(&mut storage, unit_settings)
        .map_err(CliError::from)?;
    let count = |k: u64| counts.get(k as usize).map_or(0, |&(_, c)| c);
    let print_name = print_file.display().to_string();
    // The text of the unit being explored goes straight to OUT; its record waits in
    // `pending` until OUT is synced.
    let state = std::cell::RefCell::new(PlacedWriter {
        file: &out_file,
        name: &print_name,
        placement: &placement,
        writing: None,
        pending: Vec::new(),
        out: &mut out,
        last_sync: Instant::now(),
        error: None,
        placed_flushed: 0,
    });
    let mut spill = |k: u64, rec: &mut UnitRecord| {
        let text = rec.printed.replace(Vec::new()).unwrap_or_default();
        state.borrow_mut().write(k, &text)
    };
    let explored = units::explore_spilling(
        &mut worker,
        header.split,
        |k| {
            let ahead = done.map_or(true, |d| k > d);
            if ahead && mine.binary_search(&k).is_ok() {
                Claim::ExplorePrinting
            } else {
                Claim::SkipCounting(count(k))
            }
        },
        |k, rec| {
            let mut s = state.borrow_mut();
            let text = rec.printed.unwrap_or_default();
            s.write(k, &text) && s.close(k, &rec.stats)
        },
        units::Spill {
            bytes: part_body::held_bytes(dest.limit),
            spill: &mut spill,
        },
        &|| interrupted().is_some(),
    );
    let mut s = state.into_inner();
    if let Some(e) = s.error.take() {
        return Err(e);
    }
    let placed_now = s.pending.len() as u64 + s.placed_flushed;
    match explored {
        Ok(true) => {
            s.flush()?;
            if met as u64 + placed_now != mine.len() as u64 {
                return Err(CliError::failure(format!(
                    "the search met {} of the {} units the plan gives shard {}/{} (not this \
                     run's plan?)",
                    met as u64 + placed_now,
                    mine.len(),
                    part.index(),
                    part.count()
                )));
            }
            drop(s);
            out.finish().map_err(shard::failed)
        }
        early => {
            if early.is_ok() {
                s.flush()?;
            }
            drop(s);
            let stop = early.map(|_| interrupted());
            shard::ended_early(&mut out, dest, part, " (second pass)", stop)
        }
    }
}

/// Opens the print file the plan created, for writing in place: it must be a regular
/// file of the plan's size (never created, truncated or resized here).
fn open_print_file(path: &Path, size: u64, bound: &Bound) -> Result<File, CliError> {
    let name = path.display();
    let file = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| CliError::failure(format!("{name}: {e} (merge --plan creates it)")))?;
    let meta = file
        .metadata()
        .map_err(|e| CliError::failure(format!("{name}: {e}")))?;
    if !meta.is_file() || meta.len() != size {
        return Err(CliError::failure(format!(
            "{name}: not this plan's print file ({} bytes where the plan's has {size}); not \
             written",
            meta.len()
        )));
    }
    if !bound.names(&meta) {
        return Err(CliError::failure(not_the_plans(&name)));
    }
    Ok(file)
}

/// The writer of a second pass in place.
struct PlacedWriter<'w, 'o> {
    file: &'w File,
    name: &'w str,
    placement: &'w Placement,
    writing: Option<Writing>,
    /// Records of units whose text is written but maybe not yet synced.
    pending: Vec<Vec<u8>>,
    out: &'w mut Out<'o>,
    last_sync: Instant,
    error: Option<CliError>,
    /// Records written to the part by this run.
    placed_flushed: u64,
}

impl PlacedWriter<'_, '_> {
    /// Writes `text`, the next of unit `k`'s, at its place; false (the error kept) when
    /// it does not fit the plan or the write fails.
    fn write(&mut self, k: u64, text: &[u8]) -> bool {
        let mut w = match self.writing {
            Some(w) if w.k == k => w,
            _ => Writing {
                k,
                written: 0,
                crc: 0,
            },
        };
        let (start, length) = (
            self.placement.offsets[k as usize],
            self.placement.lengths[k as usize],
        );
        if w.written + text.len() as u64 > length {
            return self.fail(format!(
                "unit {k} prints more than the plan's {length} bytes (not this run's plan?)"
            ));
        }
        if let Err(e) = self.file.write_all_at(text, start + w.written) {
            return self.fail(format!("{}: {e}", self.name));
        }
        w.written += text.len() as u64;
        w.crc = crc32c::crc32c_append(w.crc, text);
        self.writing = Some(w);
        true
    }

    /// Unit `k` is written whole: its record is due once the text is synced.
    fn close(&mut self, k: u64, stats: &Stats) -> bool {
        let w = self.writing.take().filter(|w| w.k == k).unwrap_or(Writing {
            k,
            written: 0,
            crc: 0,
        });
        let length = self.placement.lengths[k as usize];
        if w.written != length {
            return self.fail(format!(
                "unit {k} printed {} bytes where the plan has {length} (not this run's plan?)",
                w.written
            ));
        }
        let p = Placed {
            k,
            offset: self.placement.offsets[k as usize],
            length,
            crc: w.crc,
            counters: UnitCounters::of(stats),
        };
        self.pending.push(p.encode());
        if self.last_sync.elapsed() >= SYNC_INTERVAL {
            self.last_sync = Instant::now();
            if let Err(e) = self.flush() {
                self.error = Some(e);
                return false;
            }
        }
        true
    }

    /// Syncs the text written, then records the units placed.
    fn flush(&mut self) -> Result<(), CliError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        self.file
            .sync_data()
            .map_err(|e| CliError::failure(format!("{}: {e}", self.name)))?;
        for p in self.pending.drain(..) {
            self.out.record(UNIT, &p).map_err(shard::failed)?;
            self.placed_flushed += 1;
        }
        self.out.sync().map_err(shard::failed)
    }

    fn fail(&mut self, message: String) -> bool {
        self.error = Some(CliError::failure(message));
        false
    }
}

/// The placed parts of a merge, checked against the first pass's parts: one per shard,
/// each complete, placing exactly the units that print, at their offsets and lengths;
/// the print file of the plan's size. Records are read once and kept (small): what was
/// checked is what is used.
pub(crate) struct Placements {
    /// Every unit that prints, increasing, with its record.
    units: Vec<Placed>,
    /// The print file, open (for `--verify`).
    file: File,
    placement: Placement,
    name: String,
}

/// Checks the placed parts `paths` against the checked `parts` of a run with `settings`,
/// and the print file `print_file`.
pub(crate) fn check(
    parts: &Parts,
    settings: &Settings,
    paths: &[std::path::PathBuf],
    print_file: &Path,
    limit: u64,
) -> Result<Placements, PlacedError> {
    let want = parts.header();
    if !want.lengths {
        return Err(PlacedError::NoLengths);
    }
    let placement = Placement::of(settings, parts)?;
    let mut prefix = placement.plan_prefix();
    prefix.push(b' ');
    let print_name = print_file.display();
    let io = |error| PlacedError::Io {
        name: print_name.to_string(),
        error,
    };
    let file = File::open(print_file).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() || meta.len() != placement.total {
        return Err(PlacedError::PrintFileSize {
            path: print_file.to_owned(),
            len: meta.len(),
            total: placement.total,
        });
    }
    // Every placed part's binding: one plan's, naming this very print file.
    let mut bound: Option<(Bound, &Path)> = None;
    let n = want.shards;
    let mut seen: Vec<Option<&Path>> = vec![None; n as usize];
    let mut units = Vec::new();
    for p in paths {
        let mut r = Reader::open(p, PLACED, limit)?;
        let identity = r.header()?;
        let h = Header::parse(&identity).map_err(|error| PlacedError::Header {
            path: p.clone(),
            error,
        })?;
        if !h.same_run(want) {
            return Err(PlacedError::OtherRun(p.clone()));
        }
        if let Some(other) = seen[h.shard as usize].replace(p) {
            return Err(PlacedError::ShardAgain {
                path: p.clone(),
                shard: h.shard,
                shards: n,
                other: other.to_path_buf(),
            });
        }
        let part = Part::new(h.shard, n).ok_or(PlacedError::ShardRange)?;
        let mut due =
            (0..want.units).filter(|&k| part.owns(k) && placement.lengths[k as usize] > 0);
        let truncated = |e: crate::durable::DurableError| match e.problem {
            Problem::Truncated => PlacedError::Unfinished {
                error: e,
                shard: h.shard,
                shards: n,
            },
            _ => PlacedError::File(e),
        };
        let first = r.next_strict().map_err(truncated)?;
        let theirs = match first {
            Some(rec) if rec.tag == PLAN && rec.payload.starts_with(&prefix) => {
                Bound::decode(&rec.payload[prefix.len()..])
                    .ok_or_else(|| r.invalid(&rec, "a plan record that makes no sense"))?
            }
            Some(rec) => {
                return Err(r
                    .invalid(&rec, "not this run's plan (sizes or lengths differ)")
                    .into())
            }
            None => return Err(PlacedError::NoPlanRecord(p.clone())),
        };
        match &bound {
            Some((b, other)) if *b != theirs => {
                return Err(PlacedError::OtherPlan {
                    path: p.clone(),
                    other: other.to_path_buf(),
                })
            }
            Some(_) => {}
            None if !theirs.names(&meta) => {
                return Err(PlacedError::NotThePrintFile(print_file.to_owned()))
            }
            None => bound = Some((theirs, p)),
        }
        while let Some(rec) = r.next_strict().map_err(truncated)? {
            let p = Placed::decode(&rec.payload)
                .and_then(|p| {
                    let k = p.k as usize;
                    let fits = rec.tag == UNIT
                        && due.next() == Some(p.k)
                        && p.offset == placement.offsets[k]
                        && p.length == placement.lengths[k];
                    if fits {
                        Ok(p)
                    } else {
                        Err(PlacedError::Misplaced(p.k))
                    }
                })
                .map_err(|what| r.invalid(&rec, what))?;
            units.push(p);
        }
        if let Some(k) = due.next() {
            return Err(PlacedError::NoUnitRecord { path: p.clone(), k });
        }
    }
    if let Some(missing) = seen.iter().position(Option::is_none) {
        return Err(PlacedError::Missing {
            shard: missing,
            shards: n,
        });
    }
    units.sort_unstable_by_key(|p| p.k);
    let name = print_name.to_string();
    Ok(Placements {
        units,
        file,
        placement,
        name,
    })
}

impl Placements {
    /// `--verify`: reads the print file through (bounded: 1 MiB at a time) and checks
    /// every unit's CRC-32C against its record.
    pub(crate) fn verify_text(&self) -> Result<(), PlacedError> {
        let mut buf = vec![0u8; 1 << 20];
        for p in &self.units {
            let (mut at, end) = (p.offset, p.offset + p.length);
            let mut crc = 0;
            while at < end {
                let want = usize::try_from((end - at).min(buf.len() as u64)).unwrap_or(0);
                let got =
                    self.file
                        .read_at(&mut buf[..want], at)
                        .map_err(|error| PlacedError::Io {
                            name: self.name.clone(),
                            error,
                        })?;
                if got == 0 {
                    return Err(PlacedError::EndsInside {
                        name: self.name.clone(),
                        k: p.k,
                    });
                }
                crc = crc32c::crc32c_append(crc, &buf[..got]);
                at += got as u64;
            }
            if crc != p.crc {
                return Err(PlacedError::CrcDiffers {
                    name: self.name.clone(),
                    k: p.k,
                    offset: p.offset,
                    end,
                });
            }
        }
        Ok(())
    }

    /// The output's size.
    pub(crate) fn total(&self) -> u64 {
        self.placement.total
    }
}

/// The first pass's records, their units' text placed by the second pass: the walk
/// prints nothing and adds the counters, each placed unit's checked against its record.
pub(crate) struct WithPlaced<'r> {
    pub recorded: &'r mut Recorded,
    pub placed: &'r Placements,
}

impl UnitSource for WithPlaced<'_> {
    fn unit(&mut self, k: u64) -> Result<Fetched, WalkError> {
        let mut rec = match self.recorded.unit(k)? {
            Fetched::Record(rec) => rec,
            other => return Ok(other),
        };
        if let Ok(at) = self.placed.units.binary_search_by_key(&k, |p| p.k) {
            if self.placed.units[at].counters != UnitCounters::of(&rec.stats) {
                return Err(PlacedError::CountersDiffer(self.recorded.name(k)).into());
            }
        }
        // Printed already, in the print file.
        rec.printed = Some(Vec::new());
        Ok(Fetched::Record(rec))
    }

    fn more(&mut self, k: u64) -> Result<UnitRecord, WalkError> {
        self.recorded.more(k)
    }

    fn name(&self, k: u64) -> String {
        self.recorded.name(k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_says_what_it_said_as_text() {
        for (e, text) in [
            (
                PlacedError::PrintFile(PrintFileError::Obstacle("a solution limit (t<n>)")),
                "the text of a run with a solution limit (t<n>) can't be placed ahead of the \
                 merge (the search may end inside a unit): merge the parts without a second \
                 pass",
            ),
            (
                PlacedError::NotThisPlan,
                "not this plan's placed part (the plan was made again, or the print file \
                 changed, since it was written): run the shard again without --resume, the \
                 part removed",
            ),
            (
                PlacedError::CrcDiffers {
                    name: "out".into(),
                    k: 3,
                    offset: 10,
                    end: 20,
                },
                "out: the text of unit 3 (bytes 10 to 20) is not what its shard wrote \
                 (CRC-32C differs); not merged",
            ),
            (
                PlacedError::Misplaced(4),
                "unit 4 where the plan's next unit of the shard, at its offset and length, was \
                 due",
            ),
            (
                PlacedError::OutsideUnits(2),
                "the search has 2 solutions outside the units, which the print file lacks: \
                 merge the parts without a second pass",
            ),
        ] {
            assert_eq!(e.to_string(), text);
            assert_eq!(CliError::from(e).exit_status(), 1);
        }
    }

    #[test]
    fn a_placed_record_reads_back_and_bad_ones_are_refused() {
        let p = Placed {
            k: 7,
            offset: 100,
            length: 42,
            crc: u32::MAX,
            counters: UnitCounters::of(&Stats {
                count: 3,
                mems: 9,
                ..Stats::default()
            }),
        };
        assert_eq!(Placed::decode(&p.encode()).ok(), Some(p));
        for bad in [
            "7 100 42 1 3 9 0 0 0 0",
            "7 100 42 4294967296 3 9 0 0 0 0\n",
            "7 100 42 1 3 9 0 0 0 0 1\n",
            "07 100 42 1 3 9 0 0 0 0\n",
        ] {
            assert!(Placed::decode(bad.as_bytes()).is_err(), "{bad}");
        }
    }
}
