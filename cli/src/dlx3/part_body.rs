//! The `body` record of a part file: the first solutions of a unit too big to hold in
//! memory (`--max-memory`). A shard that keeps bodies (`m1`-`m8`) writes a unit's
//! solutions as they come, in `body` records of bounded size, and closes the unit with
//! its `unit` record, which holds the remaining bodies and the whole unit's counters:
//!
//! ```text
//! body   k s <lengths...>, then s solution bodies      (zero or more per unit)
//! unit   as in `part_file`, its bodies the count less those of the unit's body records
//! ```
//!
//! The chained CRCs order the records; the checks here keep their meaning: a unit's body
//! records come together, right before its own `unit` record, and add up to its count.
use super::part_file::{body_ends, number, Header, PartError, Sequence};
use super::units::UnitRecord;

/// The tag of a record with some of a unit's bodies.
pub(crate) const BODY: &str = "body";

/// The most bytes of solution text a shard holds for one unit under `--max-memory
/// limit`: a sixteenth of it (a record is copied a few times on its way to the file),
/// between 4 KiB and 4 MiB (records larger than that save nothing).
pub(crate) fn held_bytes(limit: u64) -> usize {
    (limit / 16).clamp(1 << 12, 1 << 22) as usize
}

/// A `body` record's payload: `k s <lengths...>` and the bodies of `rec`.
pub(crate) fn encode_body(k: u64, rec: &UnitRecord) -> Vec<u8> {
    use std::fmt::Write as _;
    let mut line = format!("{k} {}", rec.ends.len());
    let mut start = 0;
    for &end in &rec.ends {
        let _ = write!(line, " {}", end - start);
        start = end;
    }
    line.push('\n');
    let mut b = Vec::with_capacity(line.len() + rec.solutions.len());
    b.extend_from_slice(line.as_bytes());
    b.extend_from_slice(&rec.solutions);
    b
}

/// Reads a `body` record of a part with header `h`: the unit and its bodies (as a record
/// with `more` set and no counters).
pub(crate) fn decode_body(payload: &[u8], h: &Header) -> Result<(u64, UnitRecord), PartError> {
    let (k, mut rec, bodies) = decode_body_line(payload, h)?;
    rec.solutions = bodies.to_vec();
    Ok((k, rec))
}

/// [`decode_body`] without the copy of the bodies: the record has the ends but no
/// `solutions`, and the bodies are the slice returned (all checked alike).
pub(crate) fn decode_body_line<'p>(
    payload: &'p [u8],
    h: &Header,
) -> Result<(u64, UnitRecord, &'p [u8]), PartError> {
    let bad = |what: &'static str| PartError::Nonsense {
        record: "body",
        what,
    };
    if !h.bodies {
        return Err(bad("solution bodies in a part that keeps counts only"));
    }
    let nl = payload
        .iter()
        .position(|&c| c == b'\n')
        .ok_or_else(|| bad("no newline"))?;
    let (line, bodies) = (&payload[..nl], &payload[nl + 1..]);
    let mut words = line.split(|&c| c == b' ');
    let mut next = |what: &'static str| words.next().and_then(number).ok_or_else(|| bad(what));
    let k = next("unit")?;
    let ns = next("solutions")?;
    if ns == 0 || ns > bodies.len() as u64 {
        return Err(bad("a count of bodies the record cannot hold"));
    }
    let ends = body_ends(ns, bodies.len(), &mut next, bad)?;
    if words.next().is_some() {
        return Err(bad("extra numbers"));
    }
    let rec = UnitRecord {
        ends,
        more: true,
        ..UnitRecord::default()
    };
    Ok((k, rec, bodies))
}

impl Sequence {
    /// Takes a `body` record of unit `k` with `bodies` solutions (after [`decode_body`]):
    /// the unit is this shard's, after the last one closed, and the one whose bodies are
    /// under way if any.
    pub fn take_body(&mut self, h: &Header, k: u64, bodies: u64) -> Result<(), PartError> {
        if k >= h.units {
            let units = h.units;
            return Err(PartError::OutOfRange { k, units });
        }
        if !xcover_core::dlx3::Part::new(h.shard, h.shards).is_some_and(|p| p.owns(k)) {
            let (shard, shards) = (h.shard, h.shards);
            return Err(PartError::NotOwned { k, shard, shards });
        }
        if let Some((last, _)) = self.last {
            if k <= last {
                return Err(PartError::OutOfOrder { k, last });
            }
        }
        let held = match self.open {
            Some((open, _)) if open != k => {
                return Err(PartError::Unclosed { k, open });
            }
            Some((_, n)) => n,
            None => 0,
        };
        let held = held
            .checked_add(bodies)
            .ok_or(PartError::TooManyBodies { k })?;
        self.open = Some((k, held));
        Ok(())
    }

    /// The bodies that the body records of the unit under way hold so far (0 when none
    /// is): its closing record holds the count less these.
    pub fn carried(&self) -> u64 {
        self.open.map_or(0, |(_, n)| n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dlx3::part_file::{decode_unit_after, encode_unit, input_digest};

    fn header() -> Header {
        Header {
            input_len: 5,
            input_digest: input_digest(b"A B\nA"),
            args: vec![b"m1".to_vec()],
            shard: 1,
            shards: 3,
            split: 2,
            units: 11,
            bodies: true,
            lengths: false,
        }
    }

    #[test]
    fn a_unit_in_body_records_reads_back_and_adds_up() {
        let h = header();
        let first = UnitRecord {
            solutions: b" A\n B x\n".to_vec(),
            ends: vec![3, 8],
            ..UnitRecord::default()
        };
        let (k, back) = decode_body(&encode_body(4, &first), &h).unwrap();
        assert_eq!(
            (k, &back.solutions, &back.ends, back.more),
            (4, &first.solutions, &first.ends, true)
        );
        let mut seq = Sequence::default();
        seq.take_body(&h, 4, 2).unwrap();
        // A body of another unit before this one closes; one of a unit not the shard's.
        assert!(Sequence { ..seq_with(4, 2) }.take_body(&h, 7, 1).is_err());
        assert!(Sequence::default().take_body(&h, 5, 1).is_err());
        // The closing record holds the count less the carried bodies.
        let mut last = UnitRecord {
            solutions: b" C\n".to_vec(),
            ends: vec![3],
            ..UnitRecord::default()
        };
        last.stats.count = 2;
        let payload = encode_unit(4, &last);
        assert!(decode_unit_after(&payload, &h, seq.carried()).is_err());
        last.stats.count = 1 + 2;
        let payload = encode_unit(4, &last);
        let (_, rec) = decode_unit_after(&payload, &h, seq.carried()).unwrap();
        seq.take(&h, 4, &rec).unwrap();
        assert_eq!((seq.open, seq.units), (None, 1));
        // A unit record of another unit while one is open.
        let mut open = seq_with(7, 1);
        assert!(open.take(&h, 10, &rec).is_err());
        // No bodies, or bodies in a counts-only part.
        assert!(decode_body(b"4 0\n", &h).is_err());
        let counts = Header {
            bodies: false,
            ..header()
        };
        assert!(decode_body(&encode_body(4, &first), &counts).is_err());
    }

    fn seq_with(k: u64, n: u64) -> Sequence {
        Sequence {
            open: Some((k, n)),
            ..Sequence::default()
        }
    }
}
