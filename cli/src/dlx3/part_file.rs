//! The part file of a shard (`xcover dlx3 --shard I/N`), a closed format of the durable
//! record layer (`crate::durable`, whose module doc defines the frames and the checks):
//!
//! ```text
//! xcover-dlx3-part 3
//! head   the run's identity (see `Header`): input length and SHA-256, Knuth's
//!        arguments, shard I/N, split level, units at that level, bodies kept or not
//! data   shard 0 only, the first record: the input itself (merge reads the matrix there)
//! body   (m1-m8) the first bodies of a unit too big to hold (see `part_body`), zero or
//!        more right before the unit's own `unit` record
//! unit   one per explored unit, in unit order (see `encode_unit`)
//! end    the trailer: the part is complete
//! ```
//!
//! Version 3 names the input by its SHA-256 (version 2 by its CRC-32C, which two inputs
//! can be made to share) and may hold `body` records. The chained CRCs catch damage to
//! the bytes; the checks here catch values that make no sense under a valid checksum (a count that disagrees with the bodies, a unit that is
//! not this shard's, counters that overflow), for `--resume` and for `merge` alike.
use xcover_core::dlx3::{Part, Settings, Stats, UnitCounters, MAX_LEVEL};

use super::units::UnitRecord;
use crate::durable::Format;

/// What is wrong with a part's header or records (their meaning; the frames are the
/// durable layer's). Its text is the message the user reads, after the file's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PartError {
    /// The header is not a dlx3 part's: which line is wrong.
    NotAHeader(&'static str),
    /// The header names a shard out of range.
    Shard { shard: u64, shards: u64 },
    /// A `unit` or `body` record (`record`) that makes no sense: why.
    Nonsense {
        record: &'static str,
        what: &'static str,
    },
    /// A unit whose count differs from the bodies it holds.
    Count { k: u64, count: u64, holds: u64 },
    /// A unit's record before the end of another unit's body records.
    Unclosed { k: u64, open: u64 },
    /// A unit past the split's units.
    OutOfRange { k: u64, units: u64 },
    /// A unit another shard owns.
    NotOwned { k: u64, shard: u64, shards: u64 },
    /// A unit at or before the last one recorded.
    OutOfOrder { k: u64, last: u64 },
    /// The counters of the part overflow at unit `k`.
    Overflow { k: u64 },
    /// A unit's body records hold more bodies than can be counted.
    TooManyBodies { k: u64 },
}

impl std::fmt::Display for PartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            PartError::NotAHeader(what) => write!(f, "its header is not a dlx3 part's ({what})"),
            PartError::Shard { shard, shards } => write!(
                f,
                "its header names shard {shard}/{shards} (at most {} shards)",
                Part::MAX_COUNT
            ),
            PartError::Nonsense { record, what } => {
                write!(f, "a {record} record that makes no sense ({what})")
            }
            PartError::Count { k, count, holds } => {
                write!(f, "unit {k} counts {count} solutions but holds {holds}")
            }
            PartError::Unclosed { k, open } => {
                write!(f, "unit {k} before the end of unit {open}'s bodies")
            }
            PartError::OutOfRange { k, units } => {
                write!(f, "unit {k} out of range (the split has {units})")
            }
            PartError::NotOwned { k, shard, shards } => {
                write!(f, "unit {k} is not shard {shard}/{shards}'s")
            }
            PartError::OutOfOrder { k, last } => {
                write!(f, "unit {k} after unit {last} (out of order)")
            }
            PartError::Overflow { k } => write!(f, "unit {k}: the part's counters overflow"),
            PartError::TooManyBodies { k } => write!(f, "unit {k}: too many bodies"),
        }
    }
}

impl std::error::Error for PartError {}

/// Mapped once into the command's error (a failure, exit 1).
impl From<PartError> for crate::error::CliError {
    fn from(e: PartError) -> crate::error::CliError {
        crate::error::CliError::failure(e.to_string())
    }
}

/// Solution bodies are kept in the parts when `m<n>` prints at least one solution in this
/// many: a part then stores at most this many bodies per printed one. With a larger
/// spacing a part keeps counts only, and the merge explores again the few units that hold
/// a printed solution.
pub(crate) const KEEP_BODIES_UP_TO: u64 = 8;

/// The part file format.
pub(crate) const PART: Format = Format {
    magic: "xcover-dlx3-part",
    version: 3,
    // The data record holds the whole input (Knuth's limits keep it well below this), a
    // unit record the bodies of one unit's solutions.
    max_record: 1 << 32,
    closed: true,
    noun: "part",
};

/// The tag of shard 0's copy of the input.
pub(crate) const DATA: &str = "data";
/// The tag of a unit's record.
pub(crate) const UNIT: &str = "unit";

/// Whether the parts of a run with these settings keep solution bodies (see
/// [`KEEP_BODIES_UP_TO`]); with `m0` nothing is printed and nothing is kept.
pub(crate) fn keeps_bodies(settings: &Settings) -> bool {
    (1..=KEEP_BODIES_UP_TO).contains(&spacing(settings))
}

/// The print spacing `m<n>` as a number of solutions (0: nothing printed; a negative
/// one, taken as Knuth's `%` takes it, is a huge one).
pub(crate) fn spacing(settings: &Settings) -> u64 {
    i64::from(settings.get_print_interval()) as u64
}

/// The settings a shard's worker explores units with: the user's for units, and no
/// printing when the part keeps counts only (a solution's number is the merge's). The
/// audit (`merge --verify`) explores with the same.
pub(crate) fn unit_settings(settings: &Settings, bodies: bool) -> Settings {
    let s = settings.for_units();
    if bodies {
        s
    } else {
        s.print_interval(0)
    }
}

/// SHA-256 of the input, for the header: parts of two inputs never pass for one run's.
pub(crate) fn input_digest(input: &[u8]) -> [u8; 32] {
    use sha2::Digest as _;
    sha2::Sha256::digest(input).into()
}

/// 64 lowercase hex digits.
fn hex(digest: &[u8; 32]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The digest written by [`hex`], in its one spelling.
fn unhex(text: &[u8]) -> Option<[u8; 32]> {
    if text.len() != 64 || !text.iter().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, pair) in text.chunks(2).enumerate() {
        out[i] = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
    }
    Some(out)
}

/// What a part file says of its run (the `head` payload).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    pub input_len: u64,
    /// SHA-256 of the input.
    pub input_digest: [u8; 32],
    /// Knuth's arguments, as given.
    pub args: Vec<Vec<u8>>,
    pub shard: u64,
    pub shards: u64,
    pub split: u32,
    /// The number of units at the split level.
    pub units: u64,
    /// Whether unit records carry their solutions' bodies.
    pub bodies: bool,
    /// Whether unit records carry, instead of bodies, the byte lengths of their bodies
    /// (`--lengths-only`, `m1`-`m8`: see `placed`); the header then ends with a line
    /// `lengths 1`, which a part without lengths does not have.
    pub lengths: bool,
}

impl Header {
    /// The identity payload: text lines, each argument as `<length> <bytes>`.
    pub fn identity(&self) -> Vec<u8> {
        let mut b = format!(
            "input {} {}\nargs {}\n",
            self.input_len,
            hex(&self.input_digest),
            self.args.len()
        )
        .into_bytes();
        for a in &self.args {
            b.extend(format!("{} ", a.len()).bytes());
            b.extend_from_slice(a);
            b.push(b'\n');
        }
        b.extend(
            format!(
                "shard {} {}\nsplit {}\nunits {}\nbodies {}\n",
                self.shard,
                self.shards,
                self.split,
                self.units,
                u8::from(self.bodies)
            )
            .bytes(),
        );
        if self.lengths {
            b.extend_from_slice(b"lengths 1\n");
        }
        b
    }

    /// Reads an identity payload, checking every value's range.
    pub fn parse(bytes: &[u8]) -> Result<Header, PartError> {
        let mut lines = Lines(bytes);
        let bad = PartError::NotAHeader;
        let input = lines.words("input", 2).ok_or_else(|| bad("input"))?;
        let input_len = number(input[0]).ok_or_else(|| bad("input length"))?;
        let input_digest = unhex(input[1]).ok_or_else(|| bad("input digest"))?;
        let nargs = lines.words("args", 1).ok_or_else(|| bad("args"))?;
        let nargs = number(nargs[0]).ok_or_else(|| bad("args"))?;
        let mut args = Vec::new();
        for _ in 0..nargs {
            args.push(lines.arg().ok_or_else(|| bad("an argument"))?);
        }
        let shard = lines.words("shard", 2).ok_or_else(|| bad("shard"))?;
        let (shard, shards) = (number(shard[0]), number(shard[1]));
        let (Some(shard), Some(shards)) = (shard, shards) else {
            return Err(bad("shard"));
        };
        // At most `Part::MAX_COUNT`, as `--shard` is parsed: a merge sizes a table by N.
        if shards == 0 || shards > Part::MAX_COUNT || shard >= shards {
            return Err(PartError::Shard { shard, shards });
        }
        let split = lines.words("split", 1).and_then(|w| number(w[0]));
        let split = split
            .and_then(|s| u32::try_from(s).ok())
            .filter(|&s| (s as usize) + 1 < MAX_LEVEL)
            .ok_or_else(|| bad("split level"))?;
        let units = lines.words("units", 1).and_then(|w| number(w[0]));
        let units = units.ok_or_else(|| bad("units"))?;
        let bodies = match lines.words("bodies", 1).map(|w| w[0]) {
            Some(b"0") => false,
            Some(b"1") => true,
            _ => return Err(bad("bodies")),
        };
        let lengths = !lines.0.is_empty();
        if lengths && (lines.words("lengths", 1).map(|w| w[0]) != Some(b"1") || bodies) {
            return Err(bad("lengths"));
        }
        if !lines.0.is_empty() {
            return Err(bad("bytes after it"));
        }
        Ok(Header {
            input_len,
            input_digest,
            args,
            shard,
            shards,
            split,
            units,
            bodies,
            lengths,
        })
    }

    /// Whether `other` comes from the same run (any shard).
    pub fn same_run(&self, other: &Header) -> bool {
        let key = |h: &Header| {
            (
                h.input_len,
                h.input_digest,
                h.args.clone(),
                h.shards,
                h.split,
                h.units,
                h.bodies,
                h.lengths,
            )
        };
        key(self) == key(other)
    }

    /// The number of units shard `self.shard` owns among the split's.
    pub fn owned_units(&self) -> u64 {
        Part::new(self.shard, self.shards).map_or(0, |p| p.units_among(self.units))
    }
}

/// The lines of a payload, read one at a time.
struct Lines<'b>(&'b [u8]);

impl<'b> Lines<'b> {
    fn line(&mut self) -> Option<&'b [u8]> {
        let nl = self.0.iter().position(|&c| c == b'\n')?;
        let (l, rest) = (&self.0[..nl], &self.0[nl + 1..]);
        self.0 = rest;
        Some(l)
    }

    /// A line `<name> <w1> ... <wn>`: its n words.
    fn words(&mut self, name: &str, n: usize) -> Option<Vec<&'b [u8]>> {
        let l = self.line()?;
        let mut w = l.split(|&c| c == b' ');
        if w.next()? != name.as_bytes() {
            return None;
        }
        let v: Vec<&[u8]> = w.collect();
        (v.len() == n).then_some(v)
    }

    /// An argument `<length> <bytes>` (the bytes may hold anything but a newline).
    fn arg(&mut self) -> Option<Vec<u8>> {
        let sp = self.0.iter().position(|&c| c == b' ')?;
        let len = usize::try_from(number(&self.0[..sp])?).ok()?;
        let rest = &self.0[sp + 1..];
        if rest.len() <= len || rest[len] != b'\n' {
            return None;
        }
        self.0 = &rest[len + 1..];
        Some(rest[..len].to_vec())
    }
}

/// Knuth's six counters as every dlx3 record line spells them, in this order: `count mems
/// cmems updates cleansings nodes`, each read by `next` (which names the field it wants, for
/// the error).
pub(crate) fn read_counters<E>(
    next: &mut impl FnMut(&'static str) -> Result<u64, E>,
) -> Result<Stats, E> {
    Ok(Stats {
        count: next("count")?,
        mems: next("mems")?,
        cmems: next("cmems")?,
        updates: next("updates")?,
        cleansings: next("cleansings")?,
        nodes: next("nodes")?,
        ..Stats::default()
    })
}

/// A decimal number without sign or leading zeros (so each value has one spelling), at
/// most `u64::MAX`. Read digit by digit: a part holds one per solution (its length).
pub(crate) fn number(w: &[u8]) -> Option<u64> {
    if w.is_empty() || (w.len() > 1 && w[0] == b'0') {
        return None;
    }
    let mut n: u64 = 0;
    for &c in w {
        let digit = c.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(u64::from(digit))?;
    }
    Some(n)
}

/// A unit record's payload: one line of numbers,
/// `k count mems cmems updates cleansings nodes maxl <p> <profile...> <s> <lengths...>`,
/// then the `s` solution bodies (when bodies are kept, `s` = count; otherwise 0). A part
/// with lengths (`Header::lengths`) adds ` <m> <sums...>` to the line: for each `r` below
/// the print spacing `m`, the bytes of the bodies of the unit's solutions `i` (from 1)
/// with `i % m == r` (see `placed`).
pub(crate) fn encode_unit(k: u64, r: &UnitRecord) -> Vec<u8> {
    use std::fmt::Write as _;
    let s = &r.stats;
    let mut line = format!(
        "{k} {} {} {} {} {} {} {} {}",
        s.count,
        s.mems,
        s.cmems,
        s.updates,
        s.cleansings,
        s.nodes,
        s.maxl,
        r.profile.len()
    );
    for p in &r.profile {
        let _ = write!(line, " {p}");
    }
    let _ = write!(line, " {}", r.ends.len());
    let mut start = 0;
    for &end in &r.ends {
        let _ = write!(line, " {}", end - start);
        start = end;
    }
    if !r.text_sums.is_empty() {
        let _ = write!(line, " {}", r.text_sums.len());
        for s in &r.text_sums {
            let _ = write!(line, " {s}");
        }
    }
    line.push('\n');
    let mut b = line.into_bytes();
    b.extend_from_slice(&r.solutions);
    b
}

/// Reads a unit record's payload for a part with header `h`, checking what can be checked
/// of one record: the syntax, the profile's length against the levels below the split,
/// the deepest level, and the bodies against the count.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn decode_unit(payload: &[u8], h: &Header) -> Result<(u64, UnitRecord), PartError> {
    decode_unit_after(payload, h, 0)
}

/// [`decode_unit`] for the closing record of a unit whose first `carried` bodies came in
/// `body` records before it (see `part_body`): it holds the count less those.
pub(crate) fn decode_unit_after(
    payload: &[u8],
    h: &Header,
    carried: u64,
) -> Result<(u64, UnitRecord), PartError> {
    let (k, mut rec, bodies) = decode_unit_line(payload, h, carried)?;
    rec.solutions = bodies.to_vec();
    Ok((k, rec))
}

/// [`decode_unit_after`] without the copy of the bodies: the record has the ends but no
/// `solutions`, and the bodies are the slice returned (all checked alike).
pub(crate) fn decode_unit_line<'p>(
    payload: &'p [u8],
    h: &Header,
    carried: u64,
) -> Result<(u64, UnitRecord, &'p [u8]), PartError> {
    let bad = |what: &'static str| PartError::Nonsense {
        record: "unit",
        what,
    };
    let nl = payload
        .iter()
        .position(|&c| c == b'\n')
        .ok_or_else(|| bad("no newline"))?;
    let (line, bodies) = (&payload[..nl], &payload[nl + 1..]);
    let mut words = line.split(|&c| c == b' ');
    let mut next = |what: &'static str| words.next().and_then(number).ok_or_else(|| bad(what));
    let k = next("unit")?;
    let mut stats = read_counters(&mut next)?;
    stats.maxl = u32::try_from(next("maxl")?).map_err(|_| bad("maxl"))?;
    if stats.maxl as usize >= MAX_LEVEL {
        return Err(bad("a level deeper than the search has"));
    }
    let np = next("profile length")?;
    let levels_below = (MAX_LEVEL as u64).saturating_sub(u64::from(h.split) + 1);
    if np > levels_below {
        return Err(bad("a profile longer than the levels below the split"));
    }
    let mut profile = Vec::with_capacity(np as usize);
    for _ in 0..np {
        profile.push(next("profile")?);
    }
    let ns = next("solutions")?;
    let expected = if h.bodies {
        stats
            .count
            .checked_sub(carried)
            .ok_or_else(|| bad("fewer solutions than its body records hold"))?
    } else {
        0
    };
    if ns != expected {
        return Err(if h.bodies {
            PartError::Count {
                k,
                count: stats.count,
                holds: ns,
            }
        } else {
            bad("solution bodies in a part that keeps counts only")
        });
    }
    // Every length is a number of bytes in this payload, so `ns` is bounded by its size.
    if ns > bodies.len() as u64 {
        return Err(bad("more solutions than bytes"));
    }
    let ends = body_ends(ns, bodies.len(), &mut next, bad)?;
    let mut text_sums = Vec::new();
    if h.lengths {
        let m = next("spacing")?;
        if !(1..=KEEP_BODIES_UP_TO).contains(&m) {
            return Err(bad("a print spacing the lengths are not kept for"));
        }
        for _ in 0..m {
            text_sums.push(next("a length")?);
        }
        if stats.count == 0 && text_sums.iter().any(|&s| s != 0) {
            return Err(bad("text lengths of a unit without solutions"));
        }
    }
    if words.next().is_some() {
        return Err(bad("extra numbers"));
    }
    let rec = UnitRecord {
        stats,
        profile,
        solutions: Vec::new(),
        ends,
        text_sums,
        printed: None,
        more: false,
    };
    Ok((k, rec, bodies))
}

/// What a part records of one unit, as an audit (`merge --verify`) compares it with the
/// unit explored again: everything but `maxl` (which depends on what the exploring engine
/// did before).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct UnitCheck {
    pub counters: UnitCounters,
    pub profile: Vec<u64>,
    /// SHA-256 of the bodies and their lengths (of none, for a counts-only record).
    pub bodies: [u8; 32],
}

/// The digest of a unit's bodies taken as they come, a few at a time (in `body` records
/// of a part, or spilled by an audit's worker): the same as of all of them at once.
#[derive(Clone, Default)]
pub(crate) struct BodiesDigest(sha2::Sha256);

impl BodiesDigest {
    /// Takes the bodies of `rec`, which follow those taken before.
    pub(crate) fn add(&mut self, rec: &UnitRecord) {
        use sha2::Digest as _;
        for body in rec.bodies() {
            self.0.update((body.len() as u64).to_le_bytes());
            self.0.update(body);
        }
    }

    /// The check of the unit closed by `rec` (its counters, profile and last bodies).
    pub(crate) fn check(mut self, rec: &UnitRecord) -> UnitCheck {
        use sha2::Digest as _;
        self.add(rec);
        UnitCheck {
            counters: UnitCounters::of(&rec.stats),
            profile: rec.profile.clone(),
            bodies: self.0.finalize().into(),
        }
    }
}

/// The checks across the records of one part: units in range, owned by the part's shard,
/// increasing; their counters add up without overflow.
#[derive(Debug, Default)]
pub(crate) struct Sequence {
    /// The last unit recorded, and the deepest level the records show so far.
    pub last: Option<(u64, u32)>,
    /// Unit records seen.
    pub units: u64,
    /// The sum of their counters.
    pub totals: Stats,
    /// A unit whose bodies began in `body` records (see `part_body`), and how many
    /// bodies those hold: its closing `unit` record is due.
    pub open: Option<(u64, u64)>,
}

impl Sequence {
    /// Takes unit `k`'s record (after [`decode_unit`]).
    pub fn take(&mut self, h: &Header, k: u64, rec: &UnitRecord) -> Result<(), PartError> {
        if self.open.is_some_and(|(j, _)| j != k) {
            let open = self.open.map_or(0, |o| o.0);
            return Err(PartError::Unclosed { k, open });
        }
        self.open = None;
        if k >= h.units {
            let units = h.units;
            return Err(PartError::OutOfRange { k, units });
        }
        if !Part::new(h.shard, h.shards).is_some_and(|p| p.owns(k)) {
            let (shard, shards) = (h.shard, h.shards);
            return Err(PartError::NotOwned { k, shard, shards });
        }
        if let Some((last, _)) = self.last {
            if k <= last {
                return Err(PartError::OutOfOrder { k, last });
            }
        }
        self.totals = add_stats(&self.totals, &rec.stats).ok_or(PartError::Overflow { k })?;
        let deepest = self.last.map_or(0, |(_, d)| d).max(rec.stats.maxl);
        self.last = Some((k, deepest));
        self.units += 1;
        Ok(())
    }
}

/// `a + b` for the added counters (`maxl` the larger), `None` on overflow.
pub(crate) fn add_stats(a: &Stats, b: &Stats) -> Option<Stats> {
    Some(Stats {
        count: a.count.checked_add(b.count)?,
        mems: a.mems.checked_add(b.mems)?,
        cmems: a.cmems.checked_add(b.cmems)?,
        updates: a.updates.checked_add(b.updates)?,
        cleansings: a.cleansings.checked_add(b.cleansings)?,
        nodes: a.nodes.checked_add(b.nodes)?,
        maxl: a.maxl.max(b.maxl),
        ..Stats::default()
    })
}

/// The end offsets of `ns` solution bodies (a `unit` or `body` record's), each length read
/// by `next`; together they must make up the record's `total` bytes of bodies. (Generic,
/// not `dyn`: one length per solution, the reader is inlined into this loop.)
pub(crate) fn body_ends(
    ns: u64,
    total: usize,
    mut next: impl FnMut(&'static str) -> Result<u64, PartError>,
    bad: impl Fn(&'static str) -> PartError,
) -> Result<Vec<usize>, PartError> {
    let mut ends = Vec::with_capacity(ns as usize);
    let mut end = 0u64;
    for _ in 0..ns {
        end = end
            .checked_add(next("a solution's length")?)
            .ok_or_else(|| bad("lengths"))?;
        ends.push(usize::try_from(end).map_err(|_| bad("lengths"))?);
    }
    if end != total as u64 {
        return Err(bad("the bodies' lengths do not add up to the record"));
    }
    Ok(ends)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(bodies: bool) -> Header {
        Header {
            input_len: 5,
            input_digest: input_digest(b"A B\nA"),
            args: vec![b"m1".to_vec(), b"v\xff 1".to_vec(), Vec::new()],
            shard: 1,
            shards: 3,
            split: 2,
            units: 11,
            bodies,
            lengths: false,
        }
    }

    fn record() -> UnitRecord {
        UnitRecord {
            stats: Stats {
                count: 2,
                mems: 90,
                cmems: 7,
                updates: 11,
                cleansings: 1,
                nodes: 4,
                maxl: 5,
                ..Stats::default()
            },
            profile: vec![1, 2],
            solutions: b" A (1 of 1)\n B x:1 (1 of 2)\n".to_vec(),
            ends: vec![12, 28],
            text_sums: Vec::new(),
            printed: None,
            more: false,
        }
    }

    #[test]
    fn a_header_reads_back_as_written() {
        for bodies in [false, true] {
            let h = header(bodies);
            assert_eq!(Header::parse(&h.identity()), Ok(h.clone()));
        }
        // A part with lengths: one more line, read back; never with bodies.
        let lengths = Header {
            lengths: true,
            ..header(false)
        };
        assert_eq!(Header::parse(&lengths.identity()), Ok(lengths.clone()));
        assert!(!lengths.same_run(&header(false)));
        let text = String::from_utf8_lossy(&lengths.identity()).into_owned();
        for forged in [
            text.replace("lengths 1", "lengths 0"),
            text.replace("bodies 0", "bodies 1"),
            text.clone() + "x\n",
        ] {
            assert!(Header::parse(forged.as_bytes()).is_err(), "{forged}");
        }
        // Its unit records hold the lengths by solution number modulo m, no bodies.
        let rec = UnitRecord {
            text_sums: vec![30, 0, 12],
            ..UnitRecord::default()
        };
        let mut rec = rec;
        rec.stats.count = 2;
        let bytes = encode_unit(4, &rec);
        assert_eq!(decode_unit(&bytes, &lengths), Ok((4, rec.clone())));
        assert!(decode_unit(&bytes, &header(false)).is_err());
        let none = UnitRecord {
            text_sums: vec![1; 9],
            ..rec.clone()
        };
        assert!(decode_unit(&encode_unit(4, &none), &lengths).is_err());
        let empty = UnitRecord {
            text_sums: vec![5],
            ..UnitRecord::default()
        };
        assert!(decode_unit(&encode_unit(4, &empty), &lengths).is_err());
        let h = header(true);
        assert_eq!(h.owned_units(), 4); // 1, 4, 7, 10
        let text = String::from_utf8_lossy(&h.identity()).into_owned();
        for (from, to) in [
            ("shard 1 3", "shard 1 65537"),
            ("shard 1 3", "shard 3 3"),
            ("shard 1 3", "shard 01 3"),
            ("split 2", "split 499"),
            ("bodies 1", "bodies 2"),
            ("args 3", "args 4"),
            ("args 3", "args 99999999999999999999"),
        ] {
            let forged = text.replace(from, to);
            assert!(Header::parse(forged.as_bytes()).is_err(), "{to}");
        }
    }

    #[test]
    fn a_unit_reads_back_as_written_and_wrong_values_are_refused() {
        let h = header(true);
        let rec = record();
        let bytes = encode_unit(4, &rec);
        assert_eq!(decode_unit(&bytes, &h), Ok((4, rec.clone())));
        // The count disagrees with the bodies.
        let mut wrong = rec.clone();
        wrong.stats.count = 3;
        assert!(decode_unit(&encode_unit(4, &wrong), &h).is_err());
        // Bodies in a counts-only part; a counts-only record in a part with bodies.
        assert!(decode_unit(&bytes, &header(false)).is_err());
        let counts = UnitRecord {
            solutions: Vec::new(),
            ends: Vec::new(),
            ..rec.clone()
        };
        assert!(decode_unit(&encode_unit(4, &counts), &h).is_err());
        assert!(decode_unit(&encode_unit(4, &counts), &header(false)).is_ok());
        // A profile longer than the levels below the split.
        let long = UnitRecord {
            profile: vec![1; MAX_LEVEL],
            ..counts.clone()
        };
        assert!(decode_unit(&encode_unit(4, &long), &header(false)).is_err());
        // Sequence: owned, in range, increasing, no overflow.
        let mut seq = Sequence::default();
        assert!(seq.take(&h, 4, &rec).is_ok());
        assert!(seq.take(&h, 4, &rec).is_err());
        assert!(seq.take(&h, 5, &rec).is_err());
        assert!(seq.take(&h, 13, &rec).is_err());
        let mut huge = rec.clone();
        huge.stats.mems = u64::MAX;
        assert!(seq.take(&h, 7, &huge).is_err());
        assert_eq!(seq.units, 1);
    }

    #[test]
    fn a_part_error_says_what_the_messages_said() {
        let said = [
            (
                PartError::NotAHeader("units"),
                "its header is not a dlx3 part's (units)",
            ),
            (
                PartError::Shard {
                    shard: 3,
                    shards: 2,
                },
                "its header names shard 3/2 (at most 65536 shards)",
            ),
            (
                PartError::Nonsense {
                    record: "body",
                    what: "no newline",
                },
                "a body record that makes no sense (no newline)",
            ),
            (
                PartError::Count {
                    k: 4,
                    count: 3,
                    holds: 2,
                },
                "unit 4 counts 3 solutions but holds 2",
            ),
            (
                PartError::Unclosed { k: 7, open: 4 },
                "unit 7 before the end of unit 4's bodies",
            ),
            (
                PartError::OutOfRange { k: 13, units: 11 },
                "unit 13 out of range (the split has 11)",
            ),
            (
                PartError::NotOwned {
                    k: 5,
                    shard: 1,
                    shards: 3,
                },
                "unit 5 is not shard 1/3's",
            ),
            (
                PartError::OutOfOrder { k: 4, last: 4 },
                "unit 4 after unit 4 (out of order)",
            ),
            (
                PartError::Overflow { k: 7 },
                "unit 7: the part's counters overflow",
            ),
            (PartError::TooManyBodies { k: 7 }, "unit 7: too many bodies"),
        ];
        for (e, text) in said {
            assert_eq!(e.to_string(), text);
            assert_eq!(crate::error::CliError::from(e).message(), text);
        }
        let h = header(true);
        let mut seq = Sequence::default();
        assert_eq!(
            seq.take(&h, 5, &record()),
            Err(PartError::NotOwned {
                k: 5,
                shard: 1,
                shards: 3
            })
        );
    }

    #[test]
    fn a_number_has_one_spelling() {
        for (text, n) in [("0", Some(0)), ("7", Some(7)), ("120", Some(120))] {
            assert_eq!(number(text.as_bytes()), n, "{text}");
        }
        let max = u64::MAX.to_string();
        assert_eq!(number(max.as_bytes()), Some(u64::MAX));
        for bad in [
            "",
            "01",
            "00",
            "-1",
            "+1",
            "1 ",
            "1a",
            "18446744073709551616",
            "99999999999999999999",
        ] {
            assert_eq!(number(bad.as_bytes()), None, "{bad}");
        }
    }

    #[test]
    fn bodies_are_kept_for_small_spacings_only() {
        for (m, keep) in [(0, false), (1, true), (8, true), (9, false), (-1, false)] {
            let s = Settings::new().print_interval(m);
            assert_eq!(keeps_bodies(&s), keep, "m{m}");
        }
    }
}
