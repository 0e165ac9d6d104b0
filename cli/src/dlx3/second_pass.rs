//! The second pass of a sharded run whose parts keep counts only (`m<n>` with n over 8),
//! so that the merge never explores a unit again (issue 39): the first pass records each
//! unit's count; `merge --plan PLAN` turns the counts into a plan (the count of every
//! unit, hence the number of each unit's first solution in the whole search); then each
//! shard explores again only its own units that hold a printed solution, numbering the
//! solutions as the whole search does, and writes what they print:
//!
//! ```text
//! xcover dlx3 --shard I/N --output PART-I [letters] < in.dlx           first pass
//! xcover dlx3 merge --plan PLAN PART-0 ... PART-(N-1)                  the plan
//! xcover dlx3 --shard I/N --second-pass PLAN --output PRINT-I [letters] < in.dlx
//! xcover dlx3 merge PART-0 ... PART-(N-1) PRINT-0 ... PRINT-(N-1)      prints, no search
//! ```
//!
//! Two closed formats of the durable record layer (`crate::durable`), both with the run's
//! identity (`part_file::Header`) in their header:
//!
//! ```text
//! xcover-dlx3-plan 1
//! head    the run's identity, shard 0's
//! counts  the units' counts of solutions, one decimal line each, in unit order (one or
//!         more records, at most 2^16 units each)
//! lengths (a plan of parts with lengths, `placed`) the bytes each unit prints, alike
//! print   (alike) `run NONCE dev D ino I born B`: the print file the plan made or kept,
//!         128 random bits drawn by this plan and the file's identity (`print_file::Bound`)
//! end
//!
//! xcover-dlx3-print 1
//! head    shard I's identity
//! text    `k\n` then some of what unit k prints (zero or more, before its `shown`)
//! shown   `k count mems cmems updates cleansings nodes\n` then the rest of what unit k
//!         prints (its solutions with their numbers), for each unit of shard I that holds
//!         a printed solution, in unit order
//! end
//! ```
//!
//! The merge checks a second-pass part as it checks a part: its counters must be those of
//! the first pass's record of the unit, and it must hold every unit the plan gives it.
use std::ffi::OsString;
use std::fs::File;
use std::io::{Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::Instant;

use xcover_core::dlx3::{Dlx3, Part, Settings, Stats, UnitCounters};

use super::merge::{Parts, Recorded};
use super::part_body;
use super::part_file::{self, number, Header};
use super::prefetch;
use super::print_file;
use super::shard::{self, Destination, Outcome};
use super::units::{self, Claim, Fetched, UnitRecord, UnitSource, WalkError};
use crate::durable::{DurableError, Format, Problem, Reader, Record, Writer};
use crate::error::CliError;

/// Why a plan or a second-pass part is refused, or could not be written or read.
#[derive(Debug)]
pub(crate) enum SecondPassError {
    /// A plan of parts with lengths without `--print-file`.
    NeedPrintFile,
    /// `--print-file` for parts without lengths.
    PrintFileWithoutLengths,
    /// The placement of the text, or the print file.
    PrintFile(print_file::PrintFileError),
    /// A plan's or second-pass part's file refused or failed (its frames, or a record's
    /// meaning).
    File(DurableError),
    /// A plan's or part's header is not a dlx3 part's.
    Header {
        path: PathBuf,
        error: super::part_file::PartError,
    },
    /// A plan of parts with lengths lacks its print file record.
    NoPrintRecord(PathBuf),
    /// A plan's counts and lengths are not one per unit.
    PlanValues {
        path: PathBuf,
        counts: usize,
        lengths: usize,
        units: u64,
    },
    /// A `text` or `shown` record that makes no sense.
    Shown { tag: String, what: &'static str },
    /// A record of another tag in a second-pass part.
    NotShown(String),
    /// An earlier attempt's unit `k` is not the next this shard prints.
    NotNext(u64),
    /// A second-pass part of another run.
    OtherRun(PathBuf),
    /// Two second-pass parts of one shard.
    ShardAgain {
        path: PathBuf,
        shard: u64,
        shards: u64,
    },
    /// No second-pass part of this shard.
    Missing { shard: usize, shards: u64 },
    /// A second-pass part ends before its trailer: its shard did not finish.
    Unfinished {
        error: DurableError,
        shard: usize,
        shards: u64,
    },
    /// A second-pass part holds another number of units than its shard prints.
    Holds {
        path: PathBuf,
        met: usize,
        units: usize,
        shard: usize,
        shards: u64,
    },
    /// Rewinding a part's file failed.
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// A part's header changed since the check.
    HeaderChanged(PathBuf),
    /// A part ends before unit `k`'s text.
    EndsBefore { path: PathBuf, k: u64 },
    /// A record of unit `k` is not the one checked: the file was rewritten.
    UnitChanged { path: PathBuf, k: u64 },
    /// A part holds units after the walk's end.
    Extra(PathBuf),
    /// Unit `k` has no second-pass record.
    NoRecord(u64),
}

impl std::fmt::Display for SecondPassError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use SecondPassError as E;
        match self {
            E::NeedPrintFile => f.write_str(
                "parts with lengths (--lengths-only) need --print-file FILE, the output the \
                 second pass writes in place",
            ),
            E::PrintFileWithoutLengths => {
                f.write_str("--print-file is for the parts of a --lengths-only first pass")
            }
            E::PrintFile(e) => write!(f, "{e}"),
            E::File(e) => write!(f, "{e}"),
            E::Header { path, error } => write!(f, "{}: {error}", path.display()),
            E::NoPrintRecord(path) => write!(
                f,
                "{}: no print file record (a plan of parts with lengths has one)",
                path.display()
            ),
            E::PlanValues {
                path,
                counts,
                lengths,
                units,
            } => write!(
                f,
                "{}: {counts} counts and {lengths} lengths for {units} units",
                path.display()
            ),
            E::Shown { tag, what } => write!(f, "a {tag} record that makes no sense ({what})"),
            E::NotShown(tag) => write!(f, "a `{tag}` record in a second-pass part"),
            E::NotNext(k) => write!(f, "unit {k} is not the next one this shard prints"),
            E::OtherRun(path) => write!(f, "{}: a second-pass part of another run", path.display()),
            E::ShardAgain {
                path,
                shard,
                shards,
            } => write!(
                f,
                "{}: shard {shard}/{shards}'s second pass again",
                path.display()
            ),
            E::Missing { shard, shards } => {
                write!(f, "the second pass of shard {shard}/{shards} is missing")
            }
            E::Unfinished {
                error,
                shard,
                shards,
            } => write!(
                f,
                "{error} (the second pass of shard {shard}/{shards} did not finish; run it \
                 again with --resume)"
            ),
            E::Holds {
                path,
                met,
                units,
                shard,
                shards,
            } => write!(
                f,
                "{}: holds {met} of the {units} units shard {shard}/{shards} prints",
                path.display()
            ),
            E::Io { path, error } => write!(f, "{}: {error}", path.display()),
            E::HeaderChanged(path) => write!(
                f,
                "{}: changed since the merge checked it (its header differs); not merged",
                path.display()
            ),
            E::EndsBefore { path, k } => write!(f, "{}: ends before unit {k}", path.display()),
            E::UnitChanged { path, k } => write!(
                f,
                "{}: unit {k} changed since the merge checked it (the file was rewritten \
                 during the merge); not merged",
                path.display()
            ),
            E::Extra(path) => write!(f, "{}: holds units the walk did not print", path.display()),
            E::NoRecord(k) => write!(f, "unit {k} has no second-pass record"),
        }
    }
}

impl std::error::Error for SecondPassError {}

impl From<SecondPassError> for WalkError {
    fn from(e: SecondPassError) -> WalkError {
        WalkError::Source(Box::new(e))
    }
}

impl From<DurableError> for SecondPassError {
    fn from(e: DurableError) -> SecondPassError {
        SecondPassError::File(e)
    }
}

impl From<print_file::PrintFileError> for SecondPassError {
    fn from(e: print_file::PrintFileError) -> SecondPassError {
        SecondPassError::PrintFile(e)
    }
}

impl From<SecondPassError> for CliError {
    fn from(e: SecondPassError) -> CliError {
        CliError::failure(e.to_string())
    }
}

/// The plan file.
pub(crate) const PLAN: Format = Format {
    magic: "xcover-dlx3-plan",
    version: 1,
    max_record: 1 << 24,
    closed: true,
    noun: "plan",
};

/// A second-pass part.
pub(crate) const PRINT: Format = Format {
    magic: "xcover-dlx3-print",
    version: 1,
    max_record: 1 << 32,
    closed: true,
    noun: "second-pass part",
};

const COUNTS: &str = "counts";
const LENGTHS: &str = "lengths";
const PRINT_FILE: &str = "print";
const TEXT: &str = "text";
const SHOWN: &str = "shown";

/// Units per `counts` record.
const COUNTS_PER_RECORD: usize = 1 << 16;

/// Whether the file at `path` starts as a second-pass part (the merge takes both kinds).
pub(crate) fn is_print_part(path: &Path) -> bool {
    use std::io::Read as _;
    let want = format!("{} ", PRINT.magic);
    let mut start = vec![0; want.len()];
    File::open(path)
        .and_then(|mut f| f.read_exact(&mut start))
        .is_ok_and(|()| start == want.as_bytes())
}

/// The units that hold a printed solution under `settings`, given every unit's count.
pub(crate) fn wanted(settings: &Settings, counts: &[(u64, u64)]) -> Vec<u64> {
    prefetch::Plan::new(settings, counts).wanted
}

/// `merge --plan PLAN [--print-file FILE]`: writes the plan of checked parts (and, for
/// parts with lengths, creates the print file at its final size); returns what to tell
/// the user.
pub(crate) fn write_plan(
    path: &Path,
    parts: &Parts,
    settings: &Settings,
    print_file: Option<&Path>,
) -> Result<String, SecondPassError> {
    let header = parts.header();
    let placement = match (header.lengths, print_file) {
        (true, Some(file)) => Some((file, print_file::Placement::of(settings, parts)?)),
        (true, None) => return Err(SecondPassError::NeedPrintFile),
        (false, Some(_)) => return Err(SecondPassError::PrintFileWithoutLengths),
        (false, None) => None,
    };
    let mut w = Writer::create(path, PLAN, &header.identity())?;
    let decimal_records =
        |w: &mut Writer<File>, tag: &str, values: &mut dyn Iterator<Item = u64>| {
            let values: Vec<u64> = values.collect();
            for chunk in values.chunks(COUNTS_PER_RECORD) {
                let mut text = String::new();
                for c in chunk {
                    text.push_str(&c.to_string());
                    text.push('\n');
                }
                w.record(tag, text.as_bytes())?;
            }
            Ok::<(), SecondPassError>(())
        };
    // The print file is made (or kept) after the plan's counts and lengths are written,
    // and its binding closes the plan; if anything fails, the plan begun is removed.
    let written = (|| {
        decimal_records(&mut w, COUNTS, &mut parts.counts.iter().map(|&(_, c)| c))?;
        let mut made = None;
        if let Some((file, p)) = &placement {
            decimal_records(&mut w, LENGTHS, &mut p.lengths.iter().copied())?;
            let (what, bound) = print_file::create_print_file(file, p.total)?;
            w.record(PRINT_FILE, &bound.encode())?;
            made = Some(what);
        }
        w.finish()?;
        Ok::<_, SecondPassError>(made)
    })();
    let made = match written {
        Ok(made) => made,
        Err(e) => {
            let _ = std::fs::remove_file(path);
            return Err(e);
        }
    };
    if let (Some((file, p)), Some(made)) = (&placement, made) {
        let with = parts.counts.iter().filter(|&&(_, c)| c > 0).count();
        let units = p.lengths.iter().filter(|&&l| l > 0).count();
        return Ok(format!(
            "{}: {units} of the {} units ({with} with solutions) print {} bytes into {} \
             ({made}); a second pass (--second-pass {} --print-file {}) writes them in place",
            path.display(),
            parts.counts.len(),
            p.total,
            file.display(),
            path.display(),
            file.display()
        ));
    }
    let wanted = wanted(settings, &parts.counts);
    let with = parts.counts.iter().filter(|&&(_, c)| c > 0).count();
    Ok(format!(
        "{}: {} of the {} units ({with} with solutions) hold a printed solution; a second \
         pass (--second-pass {}) prints them",
        path.display(),
        wanted.len(),
        parts.counts.len(),
        path.display()
    ))
}

/// A plan read back.
pub(crate) struct PlanRead {
    pub header: Header,
    /// Every unit's count, in unit order.
    pub counts: Vec<(u64, u64)>,
    /// Every unit's text length, in unit order (a plan of parts with lengths; else empty).
    pub lengths: Vec<u64>,
    /// The print file's binding (a plan of parts with lengths; else `None`).
    pub bound: Option<print_file::Bound>,
}

/// Reads a plan: its header, every unit's count and (parts with lengths) text length,
/// in unit order: the counts records first, then as many lengths.
pub(crate) fn read_plan(path: &Path, limit: u64) -> Result<PlanRead, SecondPassError> {
    let (r, header) = open_with(path, PLAN, limit)?;
    let mut r = r;
    let mut counts = Vec::new();
    let mut lengths = Vec::new();
    let mut bound = None;
    while let Some(rec) = r.next_strict()? {
        let bad = |what: &str| SecondPassError::File(r.invalid(&rec, what));
        if bound.is_some() {
            return Err(bad("a record after the print file's"));
        }
        if rec.tag == PRINT_FILE && header.lengths && lengths.len() as u64 == header.units {
            bound = Some(
                print_file::Bound::decode(&rec.payload)
                    .ok_or_else(|| bad("a print record that makes no sense"))?,
            );
            continue;
        }
        let into = match rec.tag.as_str() {
            COUNTS if lengths.is_empty() => &mut counts,
            LENGTHS if header.lengths && counts.len() as u64 == header.units => &mut lengths,
            _ => return Err(bad("not a counts or lengths record where one was due")),
        };
        let text = rec
            .payload
            .strip_suffix(b"\n")
            .ok_or_else(|| bad("no newline"))?;
        for line in text.split(|&c| c == b'\n') {
            let c = number(line).ok_or_else(|| bad("a count that is not a number"))?;
            into.push(c);
        }
        if into.len() as u64 > header.units {
            return Err(bad("more values than units"));
        }
    }
    let want_lengths = if header.lengths { header.units } else { 0 };
    if header.lengths && bound.is_none() {
        return Err(SecondPassError::NoPrintRecord(path.to_owned()));
    }
    if counts.len() as u64 != header.units || lengths.len() as u64 != want_lengths {
        return Err(SecondPassError::PlanValues {
            path: path.to_owned(),
            counts: counts.len(),
            lengths: lengths.len(),
            units: header.units,
        });
    }
    let counts = counts
        .into_iter()
        .enumerate()
        .map(|(k, c)| (k as u64, c))
        .collect();
    Ok(PlanRead {
        header,
        counts,
        lengths,
        bound,
    })
}

/// A `shown` record's first line: the unit and its counters.
fn shown_line(k: u64, s: &Stats) -> String {
    format!(
        "{k} {} {} {} {} {} {}\n",
        s.count, s.mems, s.cmems, s.updates, s.cleansings, s.nodes
    )
}

/// A `text` or `shown` record read: the unit, the counters (`shown` only), the text.
fn read_shown(rec: &Record) -> Result<(u64, Option<Stats>, &[u8]), SecondPassError> {
    let bad = |what: &'static str| SecondPassError::Shown {
        tag: rec.tag.clone(),
        what,
    };
    let nl = rec
        .payload
        .iter()
        .position(|&c| c == b'\n')
        .ok_or_else(|| bad("no newline"))?;
    let (line, text) = (&rec.payload[..nl], &rec.payload[nl + 1..]);
    let mut words = line.split(|&c| c == b' ');
    let mut next = |what: &'static str| words.next().and_then(number).ok_or_else(|| bad(what));
    let k = next("unit")?;
    let stats = match rec.tag.as_str() {
        TEXT => None,
        SHOWN => Some(part_file::read_counters(&mut next)?),
        _ => return Err(SecondPassError::NotShown(rec.tag.clone())),
    };
    if words.next().is_some() {
        return Err(bad("extra numbers"));
    }
    Ok((k, stats, text))
}

/// `xcover dlx3 --shard I/N --second-pass PLAN`: explores shard `part`'s units that hold
/// a printed solution and writes what they print.
pub(crate) fn run(
    engine: &mut Dlx3<'_>,
    input: &[u8],
    args: &[OsString],
    part: Part,
    plan: &Path,
    dest: &Destination<'_>,
    interrupted: &dyn Fn() -> Option<i32>,
) -> Outcome {
    let header = shard::header_of(engine, input, args, part, false)?;
    let PlanRead {
        header: plan_header,
        counts,
        ..
    } = read_plan(plan, dest.limit)?;
    if !plan_header.same_run(&header) || header.bodies || plan_header.lengths {
        let why = if plan_header.lengths {
            "a plan of parts with lengths: its second pass needs --print-file FILE"
        } else if header.bodies {
            "this run's parts keep the solutions (m1-m8): it needs no second pass"
        } else {
            "the plan is another run's (its input, arguments, shard count or split differ)"
        };
        return Err(CliError::failure(format!("{}: {why}", plan.display())));
    }
    let settings = *engine.settings();
    let mine: Vec<u64> = wanted(&settings, &counts)
        .into_iter()
        .filter(|&k| part.owns(k))
        .collect();
    let identity = header.identity();
    // What an earlier attempt recorded: units closed, and the text of one begun.
    let mut done: Option<u64> = None;
    let mut begun: Option<(u64, usize)> = None;
    let mut check = |r: &Record| -> Result<(), SecondPassError> {
        let (k, stats, text) = read_shown(r)?;
        let after = done.map_or(true, |d| k > d);
        if mine.binary_search(&k).is_err() || !after || begun.is_some_and(|(j, _)| j != k) {
            return Err(SecondPassError::NotNext(k));
        }
        match stats {
            Some(_) => (done, begun) = (Some(k), None),
            None => {
                let held = begun.map_or(0, |(_, n)| n);
                begun = Some((k, held + text.len()));
            }
        }
        Ok(())
    };
    let Some(mut out) = shard::open_out(dest, PRINT, &identity, &mut check, interrupted)? else {
        return Ok(());
    };
    let image = units::Image::of(engine);
    let mut storage = image.storage();
    // The user's print rule, the solutions numbered as in the whole search (every unit
    // not explored here adds its planned count).
    let unit_settings = settings
        .for_units()
        .print_interval(settings.get_print_interval());
    let mut worker = image
        .engine(&mut storage, unit_settings)
        .map_err(CliError::from)?;
    let count = |k: u64| counts.get(k as usize).map_or(0, |&(_, c)| c);
    let out_cell = std::cell::RefCell::new(&mut out);
    let write_error = std::cell::RefCell::new(None);
    let last_sync = std::cell::Cell::new(Instant::now());
    let write = |tag: &str, payload: &[u8]| {
        let mut out = out_cell.borrow_mut();
        let mut r = out.record(tag, payload);
        if r.is_ok() && last_sync.get().elapsed().as_secs() >= 1 {
            last_sync.set(Instant::now());
            r = out.sync();
        }
        r.map_err(|e| *write_error.borrow_mut() = Some(e)).is_ok()
    };
    // Text an earlier attempt wrote of the unit begun: explored again, that much skipped.
    let skip = std::cell::Cell::new(begun);
    let unwritten = |k: u64, text: &mut Vec<u8>| {
        if let Some((j, n)) = skip.get().filter(|&(j, _)| j == k) {
            let cut = n.min(text.len());
            text.drain(..cut);
            skip.set((n > cut).then_some((j, n - cut)));
        }
    };
    let mut spill = |k: u64, rec: &mut UnitRecord| {
        let mut text = rec.printed.replace(Vec::new()).unwrap_or_default();
        unwritten(k, &mut text);
        if text.is_empty() {
            return true;
        }
        let mut payload = format!("{k}\n").into_bytes();
        payload.extend_from_slice(&text);
        write(TEXT, &payload)
    };
    let shown = std::cell::Cell::new(0u64);
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
            shown.set(shown.get() + 1);
            let mut text = rec.printed.unwrap_or_default();
            unwritten(k, &mut text);
            let mut payload = shown_line(k, &rec.stats).into_bytes();
            payload.extend_from_slice(&text);
            write(SHOWN, &payload)
        },
        units::Spill {
            bytes: part_body::held_bytes(dest.limit),
            spill: &mut spill,
        },
        &|| interrupted().is_some(),
    );
    if let Some(e) = write_error.into_inner() {
        return Err(shard::failed(e));
    }
    match explored {
        Ok(true) => {
            let before = mine
                .iter()
                .filter(|&&k| done.is_some_and(|d| k <= d))
                .count();
            if before as u64 + shown.get() != mine.len() as u64 {
                let message = format!(
                    "the search met {} of the {} units the plan gives shard {}/{} (not this \
                     run's plan?)",
                    before as u64 + shown.get(),
                    mine.len(),
                    part.index(),
                    part.count()
                );
                return Err(CliError::failure(message));
            }
            out.finish().map_err(shard::failed)?;
            Ok(())
        }
        early => {
            let stop = early.map(|_| interrupted());
            shard::ended_early(&mut out, dest, part, " (second pass)", stop)
        }
    }
}

/// The second-pass parts of a merge, checked, open at their first record: the very files
/// checked, through the descriptors (and shared locks) the check opened, rewound.
pub(crate) struct Prints {
    readers: Vec<(PathBuf, Reader<File>)>,
    /// The chain after each record of each part, as checked, in shard order: a part
    /// rewritten in place during the merge is refused at the first record that differs.
    chains: Vec<Vec<u32>>,
    /// The units they print, increasing, with their counters.
    shown: Vec<(u64, Stats)>,
    /// The unit whose text is being read.
    open: Option<u64>,
}

/// Opens a plan or a second-pass part (`format`) and reads its header.
fn open_with(
    path: &Path,
    format: Format,
    limit: u64,
) -> Result<(Reader<File>, Header), SecondPassError> {
    let mut r = Reader::open(path, format, limit)?;
    let identity = r.header()?;
    let header = Header::parse(&identity).map_err(|error| SecondPassError::Header {
        path: path.to_owned(),
        error,
    })?;
    Ok((r, header))
}

/// Checks the second-pass parts `paths` against the checked `parts` of a run with
/// `settings`: one per shard, complete, printing exactly the units that hold a printed
/// solution, each with the counters of its first-pass record (compared in the walk).
pub(crate) fn check_prints(
    parts: &Parts,
    settings: &Settings,
    paths: &[PathBuf],
    limit: u64,
) -> Result<Prints, SecondPassError> {
    let want = parts.header();
    let n = want.shards;
    let mut by_shard: Vec<Option<(PathBuf, Reader<File>, Header)>> = Vec::new();
    by_shard.resize_with(n as usize, || None);
    for p in paths {
        let (r, h) = open_with(p, PRINT, limit)?;
        if !h.same_run(want) {
            return Err(SecondPassError::OtherRun(p.clone()));
        }
        let slot = &mut by_shard[h.shard as usize];
        if slot.is_some() {
            return Err(SecondPassError::ShardAgain {
                path: p.clone(),
                shard: h.shard,
                shards: n,
            });
        }
        *slot = Some((p.clone(), r, h));
    }
    if let Some(missing) = by_shard.iter().position(Option::is_none) {
        return Err(SecondPassError::Missing {
            shard: missing,
            shards: n,
        });
    }
    let opened: Vec<(PathBuf, Reader<File>, Header)> = by_shard.into_iter().flatten().collect();
    let mut by_owner: Vec<Vec<u64>> = vec![Vec::new(); n as usize];
    for k in wanted(settings, &parts.counts) {
        by_owner[(k % n) as usize].push(k);
    }
    let mut shown = Vec::new();
    let mut chains = Vec::new();
    let mut readers = Vec::new();
    for (i, ((p, mut r, h), theirs)) in opened.into_iter().zip(&by_owner).enumerate() {
        let mut chain = Vec::new();
        let mut last = None;
        let mut open = None;
        let mut met = 0usize;
        let truncated = |e: crate::durable::DurableError| match e.problem {
            Problem::Truncated => SecondPassError::Unfinished {
                error: e,
                shard: i,
                shards: n,
            },
            _ => SecondPassError::File(e),
        };
        while let Some(rec) = r.next_strict().map_err(truncated)? {
            let (k, stats, _) = read_shown(&rec).map_err(|m| r.invalid(&rec, m))?;
            let in_order = theirs.get(met) == Some(&k)
                && last.map_or(true, |l| k > l)
                && open.map_or(true, |o| o == k);
            if !in_order {
                let what = format!("unit {k} where the plan's next unit of the shard was due");
                return Err(r.invalid(&rec, what).into());
            }
            chain.push(r.chain());
            match stats {
                Some(s) => {
                    shown.push((k, s));
                    (last, open, met) = (Some(k), None, met + 1);
                }
                None => open = Some(k),
            }
        }
        if open.is_some() || met != theirs.len() {
            return Err(SecondPassError::Holds {
                path: p,
                met,
                units: theirs.len(),
                shard: i,
                shards: n,
            });
        }
        let r = rewind(&p, &h, r, limit)?;
        readers.push((p, r));
        chains.push(chain);
    }
    shown.sort_unstable_by_key(|&(k, _)| k);
    Ok(Prints {
        readers,
        chains,
        shown,
        open: None,
    })
}

/// The checked second-pass part `path` (header `h`), read to its end by `r`, rewound to
/// its first record: the same descriptor and lock, its header checked again.
fn rewind(
    path: &Path,
    h: &Header,
    r: Reader<File>,
    limit: u64,
) -> Result<Reader<File>, SecondPassError> {
    let mut file = r.into_inner();
    file.seek(SeekFrom::Start(0))
        .map_err(|error| SecondPassError::Io {
            path: path.to_owned(),
            error,
        })?;
    let mut r = Reader::new(file, path, PRINT, limit);
    let identity = r.header()?;
    if Header::parse(&identity).as_ref() != Ok(h) {
        return Err(SecondPassError::HeaderChanged(path.to_owned()));
    }
    Ok(r)
}

impl Prints {
    /// The next record of unit `k`'s text: the text, and whether more follows.
    fn next_text(&mut self, k: u64) -> Result<(Vec<u8>, bool), SecondPassError> {
        let n = self.readers.len() as u64;
        let at = (k % n) as usize;
        let (path, r) = &mut self.readers[at];
        let Some(rec) = r.next_strict()? else {
            return Err(SecondPassError::EndsBefore {
                path: path.clone(),
                k,
            });
        };
        let checked = usize::try_from(r.records() - 1)
            .ok()
            .and_then(|i| self.chains[at].get(i));
        if checked != Some(&r.chain()) {
            return Err(SecondPassError::UnitChanged {
                path: path.clone(),
                k,
            });
        }
        let (j, stats, text) = read_shown(&rec).map_err(|m| r.invalid(&rec, m))?;
        if j != k {
            return Err(r
                .invalid(&rec, format!("unit {j} where unit {k} was due"))
                .into());
        }
        let more = stats.is_none();
        self.open = more.then_some(k);
        Ok((text.to_vec(), more))
    }

    /// After the walk: every second-pass part was read to its trailer.
    pub fn finished(&mut self) -> Result<(), SecondPassError> {
        for (p, r) in &mut self.readers {
            if r.next_strict()?.is_some() {
                return Err(SecondPassError::Extra(p.clone()));
            }
        }
        Ok(())
    }
}

/// The first pass's records, with the text of the second pass for the units that hold a
/// printed solution.
pub(crate) struct WithPrints<'r> {
    pub recorded: &'r mut Recorded,
    pub prints: &'r mut Prints,
}

impl UnitSource for WithPrints<'_> {
    fn unit(&mut self, k: u64) -> Result<Fetched, WalkError> {
        let mut rec = match self.recorded.unit(k)? {
            Fetched::Record(rec) => rec,
            other => return Ok(other),
        };
        let Ok(at) = self.prints.shown.binary_search_by_key(&k, |&(j, _)| j) else {
            return Ok(Fetched::Record(rec));
        };
        let got = self.prints.shown[at].1;
        if UnitCounters::of(&got) != UnitCounters::of(&rec.stats) {
            return Err(units::disagreement(
                &self.recorded.name(k),
                &rec.stats,
                &got,
            ));
        }
        let (text, more) = self.prints.next_text(k)?;
        rec.printed = Some(text);
        rec.more = more;
        Ok(Fetched::Record(rec))
    }

    fn more(&mut self, k: u64) -> Result<UnitRecord, WalkError> {
        if self.prints.open != Some(k) {
            return self.recorded.more(k);
        }
        let whole = self.prints.shown[self
            .prints
            .shown
            .binary_search_by_key(&k, |&(j, _)| j)
            .map_err(|_| SecondPassError::NoRecord(k))?]
        .1;
        let (text, more) = self.prints.next_text(k)?;
        Ok(UnitRecord {
            stats: whole,
            printed: Some(text),
            more,
            ..UnitRecord::default()
        })
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
        let p = || PathBuf::from("p.print");
        for (e, text) in [
            (
                SecondPassError::NeedPrintFile,
                "parts with lengths (--lengths-only) need --print-file FILE, the output the \
                 second pass writes in place",
            ),
            (
                SecondPassError::Shown {
                    tag: "text".into(),
                    what: "no newline",
                },
                "a text record that makes no sense (no newline)",
            ),
            (
                SecondPassError::NotShown("unit".into()),
                "a `unit` record in a second-pass part",
            ),
            (
                SecondPassError::Holds {
                    path: p(),
                    met: 1,
                    units: 2,
                    shard: 0,
                    shards: 3,
                },
                "p.print: holds 1 of the 2 units shard 0/3 prints",
            ),
            (
                SecondPassError::PlanValues {
                    path: p(),
                    counts: 4,
                    lengths: 0,
                    units: 5,
                },
                "p.print: 4 counts and 0 lengths for 5 units",
            ),
        ] {
            assert_eq!(e.to_string(), text);
            assert_eq!(CliError::from(e).exit_status(), 1);
        }
    }
}
