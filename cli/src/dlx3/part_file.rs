//! The part file of a shard (`xcover dlx3 --shard I/N`): which run it belongs to, the
//! records of the units it explored, in unit order, and a trailer that proves it complete.
//!
//! ```text
//! xcover dlx3 part 1
//! input <bytes> <hash>          FNV-1a 64 of the input, hex
//! args <n>                      Knuth's arguments, each as "<length> <bytes>"
//! shard <I> <N>
//! split <level>
//! data <bytes>                  shard 0 only: the input itself, then a newline
//! unit <k> <count> <mems> <cmems> <updates> <cleansings> <nodes> <maxl>
//!      <p> <profile...> <s> <length...>      (one line) then the s solution bodies
//! end <units> <hash>            FNV-1a 64 of every byte before this line
//! ```
//! Records are appended as units finish, so a killed shard leaves a prefix that `--resume`
//! keeps (cut at the last whole record).
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};

use xcover_core::dlx3::Stats;

use super::units::UnitRecord;

const MAGIC: &[u8] = b"xcover dlx3 part 1\n";

/// FNV-1a, 64 bits: enough to tell runs and damaged files apart (not an adversary).
#[derive(Clone, Copy)]
pub(crate) struct Fnv(u64);

impl Fnv {
    pub const NEW: Fnv = Fnv(0xcbf2_9ce4_8422_2325);

    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    pub fn of(bytes: &[u8]) -> u64 {
        let mut h = Fnv::NEW;
        h.update(bytes);
        h.0
    }
}

/// What a part file says of its run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    pub input_len: u64,
    pub input_hash: u64,
    pub args: Vec<Vec<u8>>,
    pub shard: u64,
    pub shards: u64,
    pub split: u32,
}

impl Header {
    /// The header's bytes (with the input after it for shard 0).
    pub fn bytes(&self, input: Option<&[u8]>) -> Vec<u8> {
        let mut b = MAGIC.to_vec();
        b.extend(format!("input {} {:016x}\n", self.input_len, self.input_hash).bytes());
        b.extend(format!("args {}\n", self.args.len()).bytes());
        for a in &self.args {
            b.extend(format!("{} ", a.len()).bytes());
            b.extend_from_slice(a);
            b.push(b'\n');
        }
        b.extend(format!("shard {} {}\n", self.shard, self.shards).bytes());
        b.extend(format!("split {}\n", self.split).bytes());
        if let Some(data) = input {
            b.extend(format!("data {}\n", data.len()).bytes());
            b.extend_from_slice(data);
            b.push(b'\n');
        }
        b
    }

    /// Whether `other` comes from the same run (any shard).
    pub fn same_run(&self, other: &Header) -> bool {
        (
            self.input_len,
            self.input_hash,
            &self.args,
            self.shards,
            self.split,
        ) == (
            other.input_len,
            other.input_hash,
            &other.args,
            other.shards,
            other.split,
        )
    }
}

/// The bytes of one unit's record.
pub(crate) fn record_bytes(k: u64, r: &UnitRecord) -> Vec<u8> {
    let s = &r.stats;
    let mut line = format!(
        "unit {k} {} {} {} {} {} {} {} {}",
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
        line += &format!(" {p}");
    }
    line += &format!(" {}", r.ends.len());
    let mut start = 0;
    for &end in &r.ends {
        line += &format!(" {}", end - start);
        start = end;
    }
    line.push('\n');
    let mut b = line.into_bytes();
    b.extend_from_slice(&r.solutions);
    b
}

/// The trailer after `units` records whose bytes (header included) hash to `hash`.
pub(crate) fn trailer(units: u64, hash: u64) -> Vec<u8> {
    format!("end {units} {hash:016x}\n").into_bytes()
}

/// A part file read from its start, hashing every byte it consumes.
pub(crate) struct Reader {
    inner: BufReader<File>,
    hash: Fnv,
    /// Bytes consumed.
    pub offset: u64,
}

/// One step of reading records.
pub(crate) enum Next {
    Unit(u64, UnitRecord),
    /// The trailer, checked: the number of records.
    End(u64),
}

impl Reader {
    pub fn open(path: &std::path::Path) -> Result<Reader, String> {
        let f = File::open(path).map_err(|e| format!("can't open it: {e}"))?;
        Ok(Reader {
            inner: BufReader::new(f),
            hash: Fnv::NEW,
            offset: 0,
        })
    }

    /// A line without its newline; `None` at the end of the file or in a cut line.
    fn line(&mut self) -> Result<Option<Vec<u8>>, String> {
        let mut l = Vec::new();
        self.inner
            .read_until(b'\n', &mut l)
            .map_err(|e| format!("read error: {e}"))?;
        if l.last() != Some(&b'\n') {
            return Ok(None);
        }
        self.hash.update(&l);
        self.offset += l.len() as u64;
        l.pop();
        Ok(Some(l))
    }

    fn bytes(&mut self, n: u64) -> Result<Option<Vec<u8>>, String> {
        let mut b = Vec::new();
        (&mut self.inner)
            .take(n)
            .read_to_end(&mut b)
            .map_err(|e| format!("read error: {e}"))?;
        if b.len() as u64 != n {
            return Ok(None);
        }
        self.hash.update(&b);
        self.offset += n;
        Ok(Some(b))
    }

    /// The header, and for shard 0 the input.
    pub fn header(&mut self) -> Result<(Header, Option<Vec<u8>>), String> {
        let bad = || "not a dlx3 part file (or a damaged one)".to_string();
        let first = self.line()?.ok_or_else(bad)?;
        if first != MAGIC[..MAGIC.len() - 1] {
            return Err(bad());
        }
        // `input <len> <hash>`: the length is decimal, the hash hex.
        let l = self.line()?.ok_or_else(bad)?;
        let text = String::from_utf8(l).map_err(|_| bad())?;
        let words: Vec<&str> = text.split(' ').collect();
        let (input_len, input_hash) = match words[..] {
            ["input", len, hash] => (
                len.parse::<u64>().map_err(|_| bad())?,
                u64::from_str_radix(hash, 16).map_err(|_| bad())?,
            ),
            _ => return Err(bad()),
        };
        let nargs = self.line()?.ok_or_else(bad)?;
        let nargs: u64 = std::str::from_utf8(&nargs)
            .ok()
            .and_then(|t| t.strip_prefix("args "))
            .and_then(|t| t.parse().ok())
            .ok_or_else(bad)?;
        let mut args = Vec::new();
        for _ in 0..nargs {
            let l = self.line()?.ok_or_else(bad)?;
            let sp = l.iter().position(|&c| c == b' ').ok_or_else(bad)?;
            let len: usize = std::str::from_utf8(&l[..sp])
                .ok()
                .and_then(|t| t.parse().ok())
                .ok_or_else(bad)?;
            if l.len() - sp - 1 != len {
                return Err(bad());
            }
            args.push(l[sp + 1..].to_vec());
        }
        let mut field = |name: &str, n: usize| -> Result<Vec<u64>, String> {
            let l = self.line()?.ok_or_else(bad)?;
            let text = String::from_utf8(l).map_err(|_| bad())?;
            let mut words = text.split(' ');
            if words.next() != Some(name) {
                return Err(bad());
            }
            let v: Vec<u64> = words
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|_| bad())?;
            (v.len() == n).then_some(v).ok_or_else(bad)
        };
        let shard = field("shard", 2)?;
        let split = field("split", 1)?[0];
        let header = Header {
            input_len,
            input_hash,
            args,
            shard: shard[0],
            shards: shard[1],
            split: u32::try_from(split).map_err(|_| bad())?,
        };
        if header.shards == 0 || header.shard >= header.shards {
            return Err(bad());
        }
        let data = if header.shard == 0 {
            let len = field("data", 1)?[0];
            let data = self.bytes(len)?.ok_or_else(bad)?;
            if self.bytes(1)?.as_deref() != Some(b"\n") {
                return Err(bad());
            }
            Some(data)
        } else {
            None
        };
        Ok((header, data))
    }

    /// The next record or the trailer; `Ok(None)` where the file is cut short.
    pub fn next(&mut self) -> Result<Option<Next>, String> {
        let before = self.hash;
        let Some(l) = self.line()? else {
            return Ok(None);
        };
        let bad = || "a damaged record".to_string();
        let text = String::from_utf8(l).map_err(|_| bad())?;
        let mut words = text.split(' ');
        let kind = words.next();
        let nums: Vec<&str> = words.collect();
        if kind == Some("end") {
            let units: u64 = nums.first().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
            let hash = nums.get(1).and_then(|w| u64::from_str_radix(w, 16).ok());
            if nums.len() != 2 || hash != Some(before.0) {
                return Err("its checksum does not match its contents".into());
            }
            return Ok(Some(Next::End(units)));
        }
        if kind != Some("unit") {
            return Err(bad());
        }
        let v: Vec<u64> = nums
            .iter()
            .map(|w| w.parse())
            .collect::<Result<_, _>>()
            .map_err(|_| bad())?;
        let at = |i: usize| v.get(i).copied().ok_or_else(bad);
        let k = at(0)?;
        let stats = Stats {
            count: at(1)?,
            mems: at(2)?,
            cmems: at(3)?,
            updates: at(4)?,
            cleansings: at(5)?,
            nodes: at(6)?,
            maxl: u32::try_from(at(7)?).map_err(|_| bad())?,
            ..Stats::default()
        };
        let np = at(8)? as usize;
        let profile = v.get(9..9 + np).ok_or_else(bad)?.to_vec();
        let ns = at(9 + np)? as usize;
        let lens = v.get(10 + np..).ok_or_else(bad)?;
        if lens.len() != ns {
            return Err(bad());
        }
        let total: u64 = lens.iter().sum();
        let Some(solutions) = self.bytes(total)? else {
            return Ok(None);
        };
        let mut ends = Vec::with_capacity(ns);
        let mut end = 0usize;
        for &len in lens {
            end += len as usize;
            ends.push(end);
        }
        let rec = UnitRecord {
            stats,
            profile,
            solutions,
            ends,
        };
        Ok(Some(Next::Unit(k, rec)))
    }

    /// The hash of everything consumed so far.
    pub fn hash(&self) -> Fnv {
        self.hash
    }
}

/// Appends records to a part file, keeping the running hash for the trailer.
pub(crate) struct Writer<W: Write> {
    inner: W,
    hash: Fnv,
    units: u64,
}

impl<W: Write> Writer<W> {
    /// A writer after `prefix_hash` / `units` already written (for a resumed file).
    pub fn new(inner: W, hash: Fnv, units: u64) -> Self {
        Writer { inner, hash, units }
    }

    pub fn write_raw(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.hash.update(bytes);
        self.inner.write_all(bytes)
    }

    pub fn unit(&mut self, k: u64, r: &UnitRecord) -> std::io::Result<()> {
        self.write_raw(&record_bytes(k, r))?;
        self.units += 1;
        self.inner.flush()
    }

    pub fn finish(mut self) -> std::io::Result<()> {
        let t = trailer(self.units, self.hash.0);
        self.inner.write_all(&t)?;
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (Header, UnitRecord) {
        let header = Header {
            input_len: 5,
            input_hash: Fnv::of(b"A B\nA"),
            args: vec![b"m1".to_vec(), b"v\xff 1".to_vec()],
            shard: 0,
            shards: 3,
            split: 2,
        };
        let rec = UnitRecord {
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
        };
        (header, rec)
    }

    #[test]
    fn a_part_reads_back_as_written() {
        let (header, rec) = sample();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p");
        let head = header.bytes(Some(b"A B\nA"));
        let mut w = Writer::new(Vec::new(), Fnv::NEW, 0);
        w.write_raw(&head).unwrap();
        w.unit(3, &rec).unwrap();
        w.unit(6, &UnitRecord::default()).unwrap();
        let Writer {
            mut inner, hash, ..
        } = w;
        inner.extend(trailer(2, hash.0));
        std::fs::write(&path, &inner).unwrap();
        let mut r = Reader::open(&path).unwrap();
        let (h, data) = r.header().unwrap();
        assert_eq!((h, data.as_deref()), (header, Some(&b"A B\nA"[..])));
        let Some(Next::Unit(3, got)) = r.next().unwrap() else {
            panic!("no unit 3")
        };
        assert_eq!(got, rec);
        assert_eq!(got.bodies().count(), 2);
        assert!(matches!(r.next(), Ok(Some(Next::Unit(6, _)))));
        assert!(matches!(r.next(), Ok(Some(Next::End(2)))));
        // Any byte changed before the trailer breaks the checksum or the syntax.
        for at in [40, inner.len() - 30] {
            let mut bad = inner.clone();
            bad[at] ^= 4;
            std::fs::write(&path, &bad).unwrap();
            let mut r = Reader::open(&path).unwrap();
            let ok = r.header().is_ok() && (0..3).all(|_| matches!(r.next(), Ok(Some(_))));
            assert!(!ok, "damage at {at} not seen");
        }
    }
}
