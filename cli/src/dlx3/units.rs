//! The two halves of a split search (see `xcover_core::dlx3` `split`): workers that explore
//! units and record what each gave, and the coordinator that walks the shared part in
//! order, adds the recorded units and prints exactly what one sequential run prints.
//!
//! Threads (`--threads`), shards (`--shard`) and `merge` differ only in where the units are
//! explored and how their records travel.
use xcover_core::dlx3::{
    Dlx3, Dlx3Error, DoneReason, Event, Sinks, Stats, UnitCounters, UnitTotals, SHOW_PROFILE,
};
use xcover_core::sink::{ByteSink, Discard};

use std::fmt;

/// Mems per engine call between looks at the stop flag.
const SLICE: u64 = 1 << 24;

/// What exploring one unit gave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct UnitRecord {
    /// The unit's counters. `maxl` is the deepest level the exploring engine had reached
    /// by the unit's end (in the shared part, this unit and the units it explored before),
    /// which is enough for the coordinator, which keeps the maximum.
    pub stats: Stats,
    /// Nodes per level below the split level (only when profiling, `v128`).
    pub profile: Vec<u64>,
    /// The solutions' bodies, one after another, without Knuth's `n:` line.
    pub solutions: Vec<u8>,
    /// Where each solution's body ends in `solutions`.
    pub ends: Vec<usize>,
    /// In a part with lengths (`--lengths-only`), instead of the bodies: for each `r`
    /// below the print spacing `m`, the bytes of the bodies of solutions `i` (from 1)
    /// with `i % m == r`.
    pub text_sums: Vec<u64>,
    /// What the unit prints on stdout, numbers included, when its explorer knew the
    /// solutions' numbers in the whole search ([`Claim::ExplorePrinting`]); then
    /// `solutions` is empty. Never stored in a part.
    pub printed: Option<Vec<u8>>,
    /// The unit's bodies go on in the records that follow ([`UnitSource::more`]); the last
    /// of them has this flag clear. `stats` are the whole unit's all along.
    pub more: bool,
}

impl UnitRecord {
    /// The bodies of the solutions, in order.
    pub fn bodies(&self) -> impl Iterator<Item = &[u8]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(self.ends.iter().copied())
            .map(|(a, b)| &self.solutions[a..b])
    }

    /// Bytes of solution text held (bodies, or the printed text).
    pub fn held(&self) -> usize {
        self.solutions.len() + self.printed.as_ref().map_or(0, Vec::len)
    }

    /// Drops the first `n` bodies (those an earlier attempt recorded already).
    pub fn drop_bodies(&mut self, n: usize) {
        let n = n.min(self.ends.len());
        if n == 0 {
            return;
        }
        let cut = self.ends[n - 1];
        self.solutions.drain(..cut);
        self.ends.drain(..n);
        for end in &mut self.ends {
            *end -= cut;
        }
    }
}

/// What a worker does with the solution text of a unit while it is explored: `spill`
/// is called whenever more than `bytes` are held, and must take the text out of the
/// record (into a file); false stops the walk. `Unbounded` keeps every unit whole.
pub(crate) struct Spill<'s> {
    pub bytes: usize,
    pub spill: &'s mut dyn FnMut(u64, &mut UnitRecord) -> bool,
}

impl Spill<'_> {
    /// Never spills.
    pub fn unbounded<R>(f: impl FnOnce(Spill<'_>) -> R) -> R {
        f(Spill {
            bytes: usize::MAX,
            spill: &mut |_, _| true,
        })
    }
}

/// How many units a split should have for `parts` workers or shards: enough that the last
/// units are small next to the whole (so no part waits long for another), and that a unit
/// the coordinator explores again (it holds a progress report) is a small fraction of the
/// search. Walking the shared part costs each worker a few hundred mems per unit.
pub(crate) fn units_for(parts: u64) -> u64 {
    parts.saturating_mul(64).max(4096)
}

/// A copy of a parsed matrix that engines for other threads are made from: the one
/// matrix image of the command, also what `--export-c` / `--export-rust` write.
pub(crate) use crate::export::Image;

/// A byte sink into memory.
#[derive(Default)]
struct Buffer(Vec<u8>);

impl ByteSink for Buffer {
    fn write_bytes(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
}

/// What a worker does with a unit.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Claim {
    /// Explore it and hand its record on.
    Explore,
    /// Skip it: another engine explores it.
    Skip,
    /// Skip it, raising this engine's deepest level to this one (a resumed shard thereby
    /// reaches the state it had when it recorded the unit).
    SkipReaching(u32),
    /// Skip it, adding its count of solutions (so this engine numbers the solutions of
    /// the units it explores as the whole search does).
    SkipCounting(u64),
    /// Explore it with this engine's print rule, keeping what it prints verbatim.
    ExplorePrinting,
}

/// Walks the whole search with splitting at `split`, exploring the units `claim` accepts
/// and handing each explored unit's record to `done`; stops early (returning `Ok(false)`)
/// when `stop` is set or `done` returns false. An error inside a unit is returned with
/// the unit's number.
pub(crate) fn explore(
    e: &mut Dlx3<'_>,
    split: u32,
    claim: impl FnMut(u64) -> Claim,
    done: impl FnMut(u64, UnitRecord) -> bool,
    stop: &dyn Fn() -> bool,
) -> Result<bool, (Option<u64>, Dlx3Error)> {
    Spill::unbounded(|spill| explore_spilling(e, split, claim, done, spill, stop))
}

/// [`explore`], with a unit's solution text handed to `spill` whenever it outgrows
/// `spill.bytes` (so a unit of any size is held in bounded memory).
pub(crate) fn explore_spilling(
    e: &mut Dlx3<'_>,
    split: u32,
    mut claim: impl FnMut(u64) -> Claim,
    mut done: impl FnMut(u64, UnitRecord) -> bool,
    spill: Spill<'_>,
    stop: &dyn Fn() -> bool,
) -> Result<bool, (Option<u64>, Dlx3Error)> {
    let profiling = e.settings().get_verbosity() & SHOW_PROFILE != 0;
    e.set_split_level(Some(split)).map_err(|x| (None, x))?;
    let mut out = Buffer::default();
    // The unit being explored: its number, the counters and profile when it began.
    let mut current: Option<(u64, Stats, Vec<u64>, UnitRecord)> = None;
    loop {
        if stop() {
            return Ok(false);
        }
        let mut err = Discard;
        let mut sinks = Sinks {
            out: &mut out,
            err: &mut err,
            shape: None,
        };
        let event = e
            .run(SLICE, &mut sinks)
            .map_err(|x| (current.as_ref().map(|c| c.0), x))?;
        match event {
            Event::Unit(k) => {
                let mut printing = false;
                let skipped = match claim(k) {
                    Claim::Explore => None,
                    Claim::ExplorePrinting => {
                        printing = true;
                        None
                    }
                    Claim::Skip => Some(None),
                    Claim::SkipCounting(count) => Some(Some(UnitTotals {
                        stats: Stats {
                            count,
                            ..Stats::default()
                        },
                        profile: &[],
                    })),
                    Claim::SkipReaching(maxl) => Some(Some(UnitTotals {
                        stats: Stats {
                            maxl,
                            ..Stats::default()
                        },
                        profile: &[],
                    })),
                };
                if let Some(totals) = skipped {
                    e.skip_unit(totals).map_err(|x| (None, x))?;
                    continue;
                }
                let profile = if profiling {
                    e.profile_below_split(&[]).collect()
                } else {
                    Vec::new()
                };
                let rec = UnitRecord {
                    printed: printing.then(Vec::new),
                    ..UnitRecord::default()
                };
                current = Some((k, e.stats(), profile, rec));
            }
            Event::Solution => {
                if let Some((k, _, _, rec)) = current.as_mut() {
                    // The engine printed `n:` and the body; keep the body, or both.
                    if let Some(printed) = rec.printed.as_mut() {
                        printed.extend_from_slice(&out.0);
                    } else if let Some(nl) = out.0.iter().position(|&c| c == b'\n') {
                        rec.solutions.extend_from_slice(&out.0[nl + 1..]);
                        rec.ends.push(rec.solutions.len());
                    }
                    if rec.held() > spill.bytes && !(spill.spill)(*k, rec) {
                        return Ok(false);
                    }
                }
                out.0.clear();
            }
            Event::UnitDone(k) => {
                let Some((_, before, profile0, mut rec)) = current.take() else {
                    return Err((Some(k), Dlx3Error::OutOfOrder));
                };
                rec.stats = e.stats().since(&before);
                if profiling {
                    rec.profile = e.profile_below_split(&profile0).collect();
                }
                if !done(k, rec) {
                    return Ok(false);
                }
            }
            Event::BudgetExhausted => {}
            Event::Done(_) => return Ok(true),
        }
    }
}

/// What the coordinator gets for a unit: its record; `Explore`, nobody has it (its
/// explorer failed, or none is left): explore it here; or `Interrupted`, stop waiting (a
/// signal): the walk ends with the reports so far. The solver's unit driver hands these
/// out ([`super::pool`]); the part readers make them from their records.
pub(crate) type Fetched = xcover_solver::units::Fetched<UnitRecord>;

/// Why a coordinated walk (threads, a checkpoint, a merge) ends without its reports: a
/// unit's record is missing, refused or wrong, or the walk could not run.
#[derive(Debug)]
pub(crate) enum WalkError {
    /// The search cannot be split into units (core's reason).
    Split(Dlx3Error),
    /// Unit `name`'s record ends before its last body.
    EndsEarly(String),
    /// Unit `name`'s record and the unit explored again disagree (their counters).
    Disagreement {
        name: String,
        recorded: [u64; 6],
        found: [u64; 6],
    },
    /// A worker thread could not start.
    Spawn {
        worker: usize,
        error: std::io::Error,
    },
    /// A walk's file (the checkpoint) refused or failed.
    File(crate::durable::DurableError),
    /// The checkpoint is another run's: not resumed.
    OtherRun(crate::durable::DurableError),
    /// The checkpoint holds fewer units than were checked before the replay.
    CheckpointEndsEarly,
    /// The checkpoint's file changed between its check and its replay.
    Changed(std::path::PathBuf),
    /// An I/O error on the checkpoint's file.
    Io {
        path: std::path::PathBuf,
        error: std::io::Error,
    },
    /// The checkpoint could not be written (the walk went on; this is said at its end).
    CheckpointWrite(crate::durable::DurableError),
    /// The run's header could not be made (`shard::header_of`, but for a search that
    /// cannot be split, [`WalkError::Split`]).
    Header(Box<crate::error::CliError>),
    /// Adding unit `name`'s recorded counters failed (core's reason).
    Skip { name: String, error: Dlx3Error },
    /// A unit source's records refused or failed while walked: its reader's own typed
    /// error (`merge::MergeError`, `second_pass::SecondPassError`,
    /// `placed::PlacedError`, each turned into this by a `From` in its module), boxed
    /// here because those readers build on this module and it must not name them.
    Source(Box<dyn std::error::Error + Send + Sync>),
}

impl fmt::Display for WalkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WalkError::Split(e) => write!(f, "can't split the search: {e}"),
            WalkError::EndsEarly(name) => write!(f, "{name}: its record ends early"),
            WalkError::Disagreement {
                name,
                recorded,
                found,
            } => write!(
                f,
                "{name}: its record disagrees with the unit explored again (count, mems, \
                 cmems, updates, cleansings, nodes: recorded {recorded:?}, found {found:?}); \
                 a damaged part, or one of another run"
            ),
            WalkError::Spawn { worker, error } => {
                write!(f, "can't start worker thread {worker}: {error}")
            }
            WalkError::File(e) => write!(f, "{e}"),
            WalkError::OtherRun(e) => write!(f, "{e}; not resumed"),
            WalkError::CheckpointEndsEarly => f.write_str("the checkpoint ends early"),
            WalkError::Changed(path) => {
                write!(f, "{}: changed while it was read", path.display())
            }
            WalkError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            WalkError::CheckpointWrite(e) => {
                write!(f, "the checkpoint could not be written: {e}")
            }
            WalkError::Header(e) => write!(f, "{e}"),
            WalkError::Skip { name, error } => write!(f, "{name}: {error}"),
            WalkError::Source(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for WalkError {}

/// A walk that cannot end with its reports fails (status 1).
impl From<WalkError> for crate::error::CliError {
    fn from(e: WalkError) -> crate::error::CliError {
        crate::error::CliError::failure(e.to_string())
    }
}

impl From<crate::durable::DurableError> for WalkError {
    fn from(e: crate::durable::DurableError) -> WalkError {
        WalkError::File(e)
    }
}

/// Where the coordinator gets unit `k`'s record (asked in increasing `k`).
pub(crate) trait UnitSource {
    fn unit(&mut self, k: u64) -> Result<Fetched, WalkError>;

    /// The next record of unit `k`, whose last record had `more` set: more of its bodies.
    fn more(&mut self, k: u64) -> Result<UnitRecord, WalkError> {
        Err(WalkError::EndsEarly(self.name(k)))
    }

    /// Whether [`UnitSource::added`] wants the text each unit printed.
    fn keeps_printed(&self) -> bool {
        false
    }

    /// Unit `k` is done: added from its record, or explored by the coordinator and checked
    /// against it (then `printed` is empty). `printed` is what it printed on stdout when
    /// [`UnitSource::keeps_printed`].
    fn added(
        &mut self,
        _k: u64,
        _stats: &Stats,
        _profile: &[u64],
        _printed: &[u8],
    ) -> Result<(), WalkError> {
        Ok(())
    }

    /// Where unit `k`'s record came from, for an error message.
    fn name(&self, k: u64) -> String {
        format!("unit {k}")
    }
}

/// The error when unit `name`'s record (`want`) and a new exploration (`got`) disagree.
pub(crate) fn disagreement(name: &str, want: &Stats, got: &Stats) -> WalkError {
    WalkError::Disagreement {
        name: name.to_owned(),
        recorded: UnitCounters::of(want).to_array(),
        found: UnitCounters::of(got).to_array(),
    }
}

/// Appends Knuth's line before a solution, `n:` and a newline (as `printf("%lld:\n")`).
fn push_number_line(out: &mut Vec<u8>, n: i64) {
    let mut digits = [0u8; 21];
    let mut at = digits.len();
    let mut rest = n.unsigned_abs();
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    if n < 0 {
        at -= 1;
        digits[at] = b'-';
    }
    out.extend_from_slice(&digits[at..]);
    out.extend_from_slice(b":\n");
}

/// How the coordinated walk ended.
pub(crate) enum Walked {
    /// The search ended, for this reason (the closing reports are due).
    Done(DoneReason),
    /// The engine failed (its error report is due).
    Failed(Dlx3Error),
    /// Stopped from outside (a signal, a closed stdout): the reports so far are due.
    Stopped,
}

/// What the coordinator writes to and checks between steps.
pub(crate) trait Output {
    /// Standard output (solutions) and standard error (reports).
    fn streams(&mut self) -> (&mut dyn ByteSink, &mut dyn ByteSink);
    /// Called after solutions were written: flush; false when the walk must stop.
    fn solutions_written(&mut self) -> bool;
    /// Called between slices: flush reports; false when the walk must stop (a signal).
    fn keep_going(&mut self) -> bool;
}

/// Walks the search of `e` (the user's settings, splitting at `split`) in order. Each
/// unit's record comes from `source`; its solutions are printed with their numbers in
/// the whole search and its totals added. A unit is explored here instead, which prints
/// what the sequential run prints there, when its record is missing, when it holds a
/// progress report, the timeout or the solution limit, or when it holds a printed
/// solution and its record keeps counts only (see `part_file`); an explored unit that
/// has a record must then give the record's counters, or the walk ends with an error.
pub(crate) fn coordinate(
    e: &mut Dlx3<'_>,
    split: u32,
    source: &mut dyn UnitSource,
    io: &mut dyn Output,
) -> Result<Walked, WalkError> {
    e.set_split_level(Some(split)).map_err(WalkError::Split)?;
    // The unit being explored here with a record to check: its number, the counters
    // when it began and the record's. A counts-only record's unit is explored for the
    // solutions it prints, which are held until the check; others print as they go (as
    // the sequential run interleaves them with progress reports).
    let mut checking: Option<(u64, Stats, Stats, Vec<u64>)> = None;
    let keep = source.keeps_printed();
    let mut shown = Vec::new();
    // The numbered solutions of one record, written at once (reused).
    let mut block = Vec::new();
    let mut holding = false;
    let mut held = Buffer::default();
    let release = |io: &mut dyn Output, held: &mut Buffer| {
        if !held.0.is_empty() {
            io.streams().0.write_bytes(&held.0);
            held.0.clear();
        }
    };
    loop {
        if !io.keep_going() {
            release(io, &mut held);
            return Ok(Walked::Stopped);
        }
        let event = {
            let (out, err) = io.streams();
            let out: &mut dyn ByteSink = if holding { &mut held } else { out };
            let mut sinks = Sinks {
                out,
                err,
                shape: None,
            };
            e.run(SLICE, &mut sinks)
        };
        if matches!(event, Ok(Event::Done(_)) | Err(_)) {
            // The walk ends inside the unit (a limit, an error): what it printed goes out
            // as the sequential run prints it.
            release(io, &mut held);
        }
        match event {
            Ok(Event::Unit(k)) => {
                let mut rec = match source.unit(k)? {
                    Fetched::Record(rec) => rec,
                    Fetched::Explore => continue,
                    Fetched::Interrupted => return Ok(Walked::Stopped),
                };
                let first = e.stats().count;
                let counts_only =
                    rec.printed.is_none() && !rec.more && rec.ends.len() as u64 != rec.stats.count;
                if e.must_explore(&rec.stats)
                    || (counts_only && e.settings().prints_any(first, rec.stats.count))
                {
                    let want = rec.stats;
                    let mut profile = std::mem::take(&mut rec.profile);
                    while rec.more {
                        rec = source.more(k)?;
                        if profile.is_empty() {
                            profile = std::mem::take(&mut rec.profile);
                        }
                    }
                    checking = Some((k, e.stats(), want, profile));
                    holding = counts_only;
                    continue;
                }
                let settings = *e.settings();
                // A unit may come in several records (its bodies in `part_body` records,
                // its text in a second pass's): the first has the whole unit's counters,
                // one of them its profile.
                let whole = rec.stats;
                let mut profile = std::mem::take(&mut rec.profile);
                let mut printed = false;
                let mut n = first;
                shown.clear();
                loop {
                    if let Some(bytes) = rec.printed.as_ref().filter(|b| !b.is_empty()) {
                        io.streams().0.write_bytes(bytes);
                        if keep {
                            shown.extend_from_slice(bytes);
                        }
                        printed = true;
                    }
                    // The record's solutions due, numbered, in one block and one write.
                    block.clear();
                    for body in rec.bodies() {
                        n += 1;
                        if settings.prints(n) {
                            push_number_line(&mut block, n as i64);
                            block.extend_from_slice(body);
                        }
                    }
                    if !block.is_empty() {
                        io.streams().0.write_bytes(&block);
                        if keep {
                            shown.extend_from_slice(&block);
                        }
                        printed = true;
                    }
                    if !rec.more {
                        break;
                    }
                    if printed && !io.solutions_written() {
                        return Ok(Walked::Stopped);
                    }
                    printed = false;
                    rec = source.more(k)?;
                    if profile.is_empty() {
                        profile = std::mem::take(&mut rec.profile);
                    }
                }
                if UnitCounters::of(&rec.stats) != UnitCounters::of(&whole) {
                    return Err(disagreement(&source.name(k), &whole, &rec.stats));
                }
                if printed && !io.solutions_written() {
                    return Ok(Walked::Stopped);
                }
                let totals = UnitTotals {
                    stats: whole,
                    profile: &profile,
                };
                e.skip_unit(Some(totals)).map_err(|error| WalkError::Skip {
                    name: source.name(k),
                    error,
                })?;
                source.added(k, &whole, &profile, &shown)?;
            }
            Ok(Event::UnitDone(k)) => {
                holding = false;
                if let Some((j, before, want, profile)) = checking.take() {
                    let got = e.stats().since(&before);
                    if j == k && UnitCounters::of(&got) != UnitCounters::of(&want) {
                        // What the unit printed is not output: its record is wrong.
                        return Err(disagreement(&source.name(k), &want, &got));
                    }
                    release(io, &mut held);
                    if !io.solutions_written() {
                        return Ok(Walked::Stopped);
                    }
                    if j == k {
                        source.added(k, &want, &profile, &[])?;
                    }
                }
            }
            Ok(Event::Solution) => {
                if !io.solutions_written() {
                    return Ok(Walked::Stopped);
                }
            }
            Ok(Event::Done(why)) => return Ok(Walked::Done(why)),
            Ok(_) => {}
            Err(x) => return Ok(Walked::Failed(x)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::push_number_line;

    #[test]
    fn a_number_line_is_printfs() {
        let mut out = b"x".to_vec();
        for n in [0, 7, 10, 1_000_000_007, i64::MAX, -3, i64::MIN] {
            push_number_line(&mut out, n);
        }
        let want = format!(
            "x0:\n7:\n10:\n1000000007:\n{}:\n-3:\n{}:\n",
            i64::MAX,
            i64::MIN
        );
        assert_eq!(String::from_utf8(out).unwrap(), want);
    }
}
