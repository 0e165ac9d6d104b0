//! `xcover dlx3 merge PART...`: checks that the parts are the N complete, distinct shards
//! of one run, then walks that run's search (the input travels in shard 0's part) adding
//! the recorded units in order, which prints exactly what the unsharded run prints.
//!
//! Every part is read twice, each read bounded by `--max-memory`: once whole, checking
//! its frames (`crate::durable`) and the meaning of every record (`part_file`), and then
//! one record at a time during the walk. Both reads go through the one descriptor opened
//! (and share-locked) for the check, rewound: a part renamed over a path during the merge
//! is never read, and each record of the second read must end the chain the check saw
//! there (a file rewritten in place is refused).
use std::ffi::OsString;
use std::fs::File;
use std::io::{Seek, SeekFrom};
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use xcover_core::dlx3::{Part, Stats};

use super::part_body;
use super::part_file::PartError;
use super::part_file::{self, BodiesDigest, Header, Sequence, UnitCheck, DATA, PART, UNIT};
use super::units::{Fetched, UnitRecord, UnitSource, WalkError};
use crate::durable::{DurableError, Reader};

/// Why a merge refuses its parts or stops reading them.
#[derive(Debug)]
pub(crate) enum MergeError {
    /// No part files were given.
    NoParts,
    /// A part's file refused or failed (its frames, or a record's meaning).
    File(DurableError),
    /// A part's file ends before its trailer: its shard did not finish.
    Unfinished {
        error: DurableError,
        shard: u64,
        shards: u64,
    },
    /// A part's header is not a dlx3 part's.
    Header { path: PathBuf, error: PartError },
    /// A part of another run than `reference`'s.
    OtherRun { path: PathBuf, reference: PathBuf },
    /// Two parts of one shard.
    ShardAgain {
        path: PathBuf,
        shard: u64,
        shards: u64,
        also: PathBuf,
    },
    /// No part of this shard.
    Missing { shard: usize, shards: u64 },
    /// One part read twice.
    GivenTwice,
    /// The counters of all the parts overflow (at this one).
    Overflow(PathBuf),
    /// Shard 0's part lacks its data record.
    NoData(PathBuf),
    /// A unit's body records end without its unit record.
    Unclosed { path: PathBuf, k: u64 },
    /// A part holds another number of unit records than its shard owns.
    UnitCount {
        path: PathBuf,
        units: u64,
        shard: u64,
        shards: u64,
        owned: u64,
        split_units: u64,
    },
    /// The lock of the checked files failed.
    Lock,
    /// The checked parts were walked already.
    WalkedAlready,
    /// A record of unit `k` is not the one checked: the file was rewritten.
    UnitChanged { path: PathBuf, k: u64 },
    /// A part holds units after the walk's end.
    Extra(PathBuf),
    /// A part lacks the record of unit `k`.
    NoRecord { path: PathBuf, k: u64 },
    /// A part's file was read once already.
    ReadOnce(PathBuf),
    /// Rewinding a part's file failed.
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// A part's header changed since the check.
    HeaderChanged(PathBuf),
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MergeError::NoParts => f.write_str("merge needs the part files of every shard"),
            MergeError::File(e) => write!(f, "{e}"),
            MergeError::Unfinished {
                error,
                shard,
                shards,
            } => write!(
                f,
                "{error} (shard {shard}/{shards} did not finish; run it again with --resume)"
            ),
            MergeError::Header { path, error } => write!(f, "{}: {error}", path.display()),
            MergeError::OtherRun { path, reference } => write!(
                f,
                "{}: a part of another run (its input, arguments, shard count or split differ from {}'s)",
                path.display(),
                reference.display()
            ),
            MergeError::ShardAgain {
                path,
                shard,
                shards,
                also,
            } => write!(
                f,
                "{}: shard {shard}/{shards} again (also in {})",
                path.display(),
                also.display()
            ),
            MergeError::Missing { shard, shards } => {
                write!(f, "shard {shard}/{shards} is missing")
            }
            MergeError::GivenTwice => f.write_str("a part given twice"),
            MergeError::Overflow(path) => {
                write!(f, "{}: the parts' counters overflow", path.display())
            }
            MergeError::NoData(path) => {
                write!(f, "{}: no data record (the input)", path.display())
            }
            MergeError::Unclosed { path, k } => write!(
                f,
                "{}: unit {k}'s bodies are not closed by its record",
                path.display()
            ),
            MergeError::UnitCount {
                path,
                units,
                shard,
                shards,
                owned,
                split_units,
            } => write!(
                f,
                "{}: {units} unit records, but shard {shard}/{shards} owns {owned} of the \
                 split's {split_units} units",
                path.display()
            ),
            MergeError::Lock => f.write_str("a lock failed"),
            MergeError::WalkedAlready => f.write_str("the checked parts were walked already"),
            MergeError::UnitChanged { path, k } => write!(
                f,
                "{}: unit {k} changed since the merge checked it (the file was rewritten \
                 during the merge); not merged",
                path.display()
            ),
            MergeError::Extra(path) => write!(
                f,
                "{}: holds units that the search does not meet (a part of another run?)",
                path.display()
            ),
            MergeError::NoRecord { path, k } => write!(
                f,
                "{}: has no record of unit {k}, which the search meets (a part of another run?)",
                path.display()
            ),
            MergeError::ReadOnce(path) => write!(f, "{}: read once already", path.display()),
            MergeError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            MergeError::HeaderChanged(path) => write!(
                f,
                "{}: changed since the merge checked it (its header differs); not merged",
                path.display()
            ),
        }
    }
}

impl std::error::Error for MergeError {}

impl From<MergeError> for WalkError {
    fn from(e: MergeError) -> WalkError {
        WalkError::Source(Box::new(e))
    }
}

impl From<DurableError> for MergeError {
    fn from(e: DurableError) -> MergeError {
        MergeError::File(e)
    }
}

impl From<MergeError> for crate::error::CliError {
    fn from(e: MergeError) -> crate::error::CliError {
        crate::error::CliError::failure(e.to_string())
    }
}

/// Parts checked and ready to be walked.
pub(crate) struct Parts {
    /// The run's input (from shard 0).
    pub input: Vec<u8>,
    /// The run's arguments (Knuth's letters).
    pub args: Vec<OsString>,
    /// The split level the shards used.
    pub split: u32,
    /// Every unit and its count of solutions, in unit order.
    pub counts: Vec<(u64, u64)>,
    /// Each unit's text lengths by solution number modulo the spacing, in unit order,
    /// from parts with lengths (`--lengths-only`; empty otherwise).
    pub sums: Vec<(u64, Vec<u64>)>,
    /// The counters of every unit whose bodies begin in `body` records, in unit order
    /// (the walk needs them at the unit's first record).
    pub chunked: Vec<(u64, Stats)>,
    /// The run's header (shard 0's).
    header: Header,
    /// The part file of each shard, in shard order.
    paths: Vec<PathBuf>,
    /// The checked files, open and share-locked, in shard order: the walk reads these
    /// (taken once by [`Recorded::open`]), never the paths again.
    files: Mutex<Vec<Option<File>>>,
    /// The headers, in shard order.
    headers: Vec<Header>,
    /// The chain's crc after each record of each unit (its `body` records, numbered from
    /// 0, then its `unit` record), as checked, in unit order.
    chains: Vec<((u64, u64), u32)>,
    /// Each unit and what its record says, for an audit (`--verify`), in unit order.
    checks: Vec<(u64, UnitCheck)>,
    /// The most bytes read of one part.
    limit: u64,
}

/// A reader at the start of `path`'s records, and its header.
fn open(path: &Path, limit: u64) -> Result<(Reader<File>, Header), MergeError> {
    let mut r = Reader::open(path, PART, limit)?;
    let identity = r.header()?;
    let header = Header::parse(&identity).map_err(|error| MergeError::Header {
        path: path.to_owned(),
        error,
    })?;
    Ok((r, header))
}

/// Reads and checks every part; errors name the file (and the record) at fault. With
/// `audit` (`--verify`), it also keeps what each unit's record says for the audit
/// ([`Parts::recorded`]), a SHA-256 of its bodies included: a fifth of the check's time
/// where the parts hold every solution's text, so a plain merge does without.
pub(crate) fn check(paths: &[PathBuf], limit: u64, audit: bool) -> Result<Parts, MergeError> {
    if paths.is_empty() {
        return Err(MergeError::NoParts);
    }
    raise_open_file_limit();
    let mut readers = Vec::new();
    let mut headers = Vec::new();
    for p in paths {
        let (r, h) = open(p, limit)?;
        readers.push(Some(r));
        headers.push(h);
    }
    // The run is the one of shard 0's part if there is one (it carries the input).
    let reference = headers.iter().position(|h| h.shard == 0).unwrap_or(0);
    let want = headers[reference].clone();
    for (p, h) in paths.iter().zip(&headers) {
        if !h.same_run(&want) {
            return Err(MergeError::OtherRun {
                path: p.clone(),
                reference: paths[reference].clone(),
            });
        }
    }
    // N is at most `Part::MAX_COUNT` (checked with the header).
    let n = want.shards;
    let mut by_shard: Vec<Option<usize>> = vec![None; n as usize];
    for (i, h) in headers.iter().enumerate() {
        let slot = &mut by_shard[h.shard as usize];
        if let Some(j) = *slot {
            return Err(MergeError::ShardAgain {
                path: paths[i].clone(),
                shard: h.shard,
                shards: n,
                also: paths[j].clone(),
            });
        }
        *slot = Some(i);
    }
    if let Some(missing) = by_shard.iter().position(Option::is_none) {
        return Err(MergeError::Missing {
            shard: missing,
            shards: n,
        });
    }
    let order: Vec<usize> = by_shard.into_iter().flatten().collect();
    // Each part whole and meaningful; the counters of all of them add up.
    let mut input = Vec::new();
    let mut totals = Stats::default();
    let mut counts = Vec::new();
    let mut chunked = Vec::new();
    let mut chains = Vec::new();
    let mut checks = Vec::new();
    let mut files = Vec::new();
    let mut sums = Vec::new();
    for &i in &order {
        let (p, h) = (&paths[i], &headers[i]);
        let mut r = readers[i].take().ok_or(MergeError::GivenTwice)?;
        let mut read = Read {
            audit,
            sums: &mut sums,
            counts: &mut counts,
            chunked: &mut chunked,
            chains: &mut chains,
            checks: &mut checks,
        };
        let (seq, data) = read_part(&mut r, h, p, &mut read)?;
        files.push(Some(r.into_inner()));
        if let Some(data) = data {
            input = data;
        }
        totals = part_file::add_stats(&totals, &seq.totals)
            .ok_or_else(|| MergeError::Overflow(p.clone()))?;
    }
    Ok(Parts {
        input,
        args: want
            .args
            .iter()
            .map(|a| OsString::from_vec(a.clone()))
            .collect(),
        split: want.split,
        counts: {
            counts.sort_unstable();
            counts
        },
        chunked: {
            chunked.sort_unstable_by_key(|&(k, _)| k);
            chunked
        },
        sums: {
            sums.sort_unstable_by_key(|s: &(u64, Vec<u64>)| s.0);
            sums
        },
        header: want,
        paths: order.iter().map(|&i| paths[i].clone()).collect(),
        files: Mutex::new(files),
        headers: order.iter().map(|&i| headers[i].clone()).collect(),
        chains: {
            chains.sort_unstable();
            chains
        },
        checks: {
            checks.sort_unstable_by_key(|c| c.0);
            checks
        },
        limit,
    })
}

/// What the check keeps of each unit record it reads.
struct Read<'r> {
    /// Whether `checks` is kept (for `--verify`).
    audit: bool,
    sums: &'r mut Vec<(u64, Vec<u64>)>,
    counts: &'r mut Vec<(u64, u64)>,
    chunked: &'r mut Vec<(u64, Stats)>,
    chains: &'r mut Vec<((u64, u64), u32)>,
    checks: &'r mut Vec<(u64, UnitCheck)>,
}

impl Parts {
    /// The run's header (shard 0's).
    pub(crate) fn header(&self) -> &Header {
        &self.header
    }

    /// The most bytes read of one part (`--max-memory`).
    pub(crate) fn limit(&self) -> u64 {
        self.limit
    }

    /// What the parts record of unit `k` (`None` for every unit unless checked for an
    /// audit).
    pub(crate) fn recorded(&self, k: u64) -> Option<&UnitCheck> {
        let at = self.checks.binary_search_by_key(&k, |c| c.0).ok()?;
        Some(&self.checks[at].1)
    }

    /// `PART: unit k`, naming the part that records unit `k`.
    pub(crate) fn name_of(&self, k: u64) -> String {
        let shard = (k % self.header.shards) as usize;
        let path = self.paths.get(shard).map(|p| p.display().to_string());
        format!("{}: unit {k}", path.unwrap_or_default())
    }
}

/// Reads a part's records to its trailer, checking each: shard 0's input first, then
/// every unit the shard owns, in order. Returns the units' checks and the input.
fn read_part(
    r: &mut Reader<File>,
    h: &Header,
    p: &Path,
    read: &mut Read<'_>,
) -> Result<(Sequence, Option<Vec<u8>>), MergeError> {
    let truncated = |e: DurableError| match e.problem {
        crate::durable::Problem::Truncated => MergeError::Unfinished {
            error: e,
            shard: h.shard,
            shards: h.shards,
        },
        _ => MergeError::File(e),
    };
    let mut data = None;
    if h.shard == 0 {
        let rec = r.next_strict().map_err(truncated)?;
        let ok = rec.as_ref().filter(|rec| {
            rec.tag == DATA
                && rec.payload.len() as u64 == h.input_len
                && part_file::input_digest(&rec.payload) == h.input_digest
        });
        match ok {
            Some(rec) => data = Some(rec.payload.clone()),
            None => {
                let what = "not the run's input (length or SHA-256 differ from the header's)";
                return Err(match rec {
                    Some(rec) => MergeError::File(r.invalid(&rec, what)),
                    None => MergeError::NoData(p.to_owned()),
                });
            }
        }
    }
    let mut seq = Sequence::default();
    // The records of the unit under way so far, and the digest of its bodies so far.
    let mut ordinal = 0;
    let mut digest = BodiesDigest::default();
    while let Some(rec) = r.next_strict().map_err(truncated)? {
        // The bodies are copied out of the record only for an audit's digest.
        if rec.tag == part_body::BODY {
            let (k, mut body, bodies) = part_body::decode_body_line(&rec.payload, h)
                .and_then(|(k, body, bodies)| {
                    seq.take_body(h, k, body.ends.len() as u64)
                        .map(|()| (k, body, bodies))
                })
                .map_err(|what| r.invalid(&rec, what))?;
            if read.audit {
                body.solutions = bodies.to_vec();
                digest.add(&body);
            }
            read.chains.push(((k, ordinal), r.chain()));
            ordinal += 1;
            continue;
        }
        if rec.tag != UNIT {
            let what = format!("a `{}` record where a unit was expected", rec.tag);
            return Err(r.invalid(&rec, what).into());
        }
        let carried = seq.open.map(|(_, n)| n);
        let (k, mut unit, bodies) =
            part_file::decode_unit_line(&rec.payload, h, carried.unwrap_or(0))
                .and_then(|(k, unit, bodies)| seq.take(h, k, &unit).map(|()| (k, unit, bodies)))
                .map_err(|what| r.invalid(&rec, what))?;
        read.counts.push((k, unit.stats.count));
        if h.lengths {
            read.sums.push((k, std::mem::take(&mut unit.text_sums)));
        }
        if carried.is_some() {
            read.chunked.push((k, unit.stats));
        }
        read.chains.push(((k, ordinal), r.chain()));
        ordinal = 0;
        if read.audit {
            unit.solutions = bodies.to_vec();
            read.checks
                .push((k, std::mem::take(&mut digest).check(&unit)));
        }
    }
    if let Some((k, _)) = seq.open {
        return Err(MergeError::Unclosed {
            path: p.to_owned(),
            k,
        });
    }
    if seq.units != h.owned_units() {
        return Err(MergeError::UnitCount {
            path: p.to_owned(),
            units: seq.units,
            shard: h.shard,
            shards: h.shards,
            owned: h.owned_units(),
            split_units: h.units,
        });
    }
    Ok((seq, data))
}

/// The units of checked parts, read in unit order (unit `k` from shard `k % N`).
pub(crate) struct Recorded {
    readers: Vec<(PathBuf, Reader<File>)>,
    header: Header,
    /// See [`Parts::chunked`].
    chunked: Vec<(u64, Stats)>,
    /// The unit whose body records are being read, and the bodies they held so far.
    open: Option<(u64, u64)>,
    /// The chain after each record of each unit, as checked (see [`Parts`]).
    chains: Vec<((u64, u64), u32)>,
    /// The records of the current unit read so far.
    ordinal: u64,
}

impl Recorded {
    /// Rewinds every checked part to its first unit record (all open at once: the walk
    /// reads them in turn). Only the files the check read are read, once.
    pub fn open(parts: &Parts) -> Result<Recorded, MergeError> {
        let files = std::mem::take(&mut *parts.files.lock().map_err(|_| MergeError::Lock)?);
        if files.len() != parts.paths.len() {
            return Err(MergeError::WalkedAlready);
        }
        let mut readers = Vec::new();
        for ((p, h), file) in parts.paths.iter().zip(&parts.headers).zip(files) {
            let r = reread(p, h, file, parts.limit)?;
            readers.push((p.clone(), r));
        }
        Ok(Recorded {
            readers,
            header: parts.header.clone(),
            chunked: parts.chunked.clone(),
            open: None,
            chains: parts.chains.clone(),
            ordinal: 0,
        })
    }

    /// Whether the reader of part `at`, after the next record of unit `k`, is where the
    /// check was: an error if not (the file was rewritten in place during the merge).
    fn check_chain(&mut self, k: u64, at: usize) -> Result<(), MergeError> {
        let key = (k, self.ordinal);
        self.ordinal += 1;
        let (path, r) = &self.readers[at];
        let found = self.chains.binary_search_by_key(&key, |&(j, _)| j);
        if found.is_ok_and(|i| self.chains[i].1 == r.chain()) {
            return Ok(());
        }
        Err(MergeError::UnitChanged {
            path: path.clone(),
            k,
        })
    }

    /// After the walk: every part has been read to its trailer.
    pub fn finished(&mut self) -> Result<(), MergeError> {
        for (p, r) in &mut self.readers {
            if r.next_strict()?.is_some() {
                return Err(MergeError::Extra(p.clone()));
            }
        }
        Ok(())
    }
}

impl Recorded {
    /// The reader of the part that unit `k` belongs to.
    fn reader_of(&self, k: u64) -> usize {
        Part::owner_of(k, self.readers.len() as u64).map_or(0, |p| p.index() as usize)
    }
}

impl UnitSource for Recorded {
    fn unit(&mut self, k: u64) -> Result<Fetched, WalkError> {
        self.open = None;
        self.ordinal = 0;
        Ok(Fetched::Record(self.next_of(k)?))
    }

    fn more(&mut self, k: u64) -> Result<UnitRecord, WalkError> {
        Ok(self.next_of(k)?)
    }

    fn name(&self, k: u64) -> String {
        let path = &self.readers[self.reader_of(k)].0;
        format!("{}: unit {k}", path.display())
    }
}

impl Recorded {
    /// The next record of unit `k`: some of its bodies (`more` set, with the counters the
    /// check found for the whole unit), or its closing record.
    fn next_of(&mut self, k: u64) -> Result<UnitRecord, MergeError> {
        let at = self.reader_of(k);
        let (path, r) = &mut self.readers[at];
        let missing = || MergeError::NoRecord {
            path: path.clone(),
            k,
        };
        let Some(rec) = r.next_strict()? else {
            return Err(missing());
        };
        if rec.tag == part_body::BODY {
            let (j, mut body) = part_body::decode_body(&rec.payload, &self.header)
                .map_err(|what| r.invalid(&rec, what))?;
            let whole = self.chunked.binary_search_by_key(&j, |&(u, _)| u);
            let (true, Ok(whole_at)) = (j == k, whole) else {
                return Err(missing());
            };
            body.stats = self.chunked[whole_at].1;
            let held = self.open.map_or(0, |(_, n)| n);
            self.open = Some((k, held.saturating_add(body.ends.len() as u64)));
            self.check_chain(k, at)?;
            return Ok(body);
        }
        let carried = self.open.take().map_or(0, |(_, n)| n);
        let (j, unit) = part_file::decode_unit_after(&rec.payload, &self.header, carried)
            .map_err(|what| r.invalid(&rec, what))?;
        if j != k {
            return Err(missing());
        }
        self.check_chain(k, at)?;
        Ok(unit)
    }
}

/// The checked `file` of part `path` (header `h`), rewound to its first unit record: the
/// same descriptor and lock, its header checked again to be the one read before.
fn reread(
    path: &Path,
    h: &Header,
    file: Option<File>,
    limit: u64,
) -> Result<Reader<File>, MergeError> {
    let mut file = file.ok_or_else(|| MergeError::ReadOnce(path.to_owned()))?;
    file.seek(SeekFrom::Start(0))
        .map_err(|error| MergeError::Io {
            path: path.to_owned(),
            error,
        })?;
    let mut r = Reader::new(file, path, PART, limit);
    let identity = r.header()?;
    if Header::parse(&identity).as_ref() != Ok(h) {
        return Err(MergeError::HeaderChanged(path.to_owned()));
    }
    if h.shard == 0 {
        // The data record, checked before.
        r.next_strict()?;
    }
    Ok(r)
}

/// Raises the soft limit of open files to the hard one, so that thousands of parts can be
/// open at once (the soft limit is often 1024).
fn raise_open_file_limit() {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write one rlimit struct on this frame.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) == 0 && lim.rlim_cur < lim.rlim_max {
            lim.rlim_cur = lim.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &lim);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_says_what_it_said_as_text() {
        let p = || PathBuf::from("p.part");
        for (e, text) in [
            (
                MergeError::NoParts,
                "merge needs the part files of every shard",
            ),
            (
                MergeError::OtherRun {
                    path: p(),
                    reference: PathBuf::from("q"),
                },
                "p.part: a part of another run (its input, arguments, shard count or split \
                 differ from q's)",
            ),
            (
                MergeError::UnitCount {
                    path: p(),
                    units: 2,
                    shard: 1,
                    shards: 3,
                    owned: 4,
                    split_units: 11,
                },
                "p.part: 2 unit records, but shard 1/3 owns 4 of the split's 11 units",
            ),
            (
                MergeError::UnitChanged { path: p(), k: 7 },
                "p.part: unit 7 changed since the merge checked it (the file was rewritten \
                 during the merge); not merged",
            ),
            (
                MergeError::NoRecord { path: p(), k: 7 },
                "p.part: has no record of unit 7, which the search meets (a part of another \
                 run?)",
            ),
        ] {
            assert_eq!(e.to_string(), text);
            assert_eq!(crate::error::CliError::from(e).exit_status(), 1);
        }
    }
}
