//! `xcover dlx3 merge PART...`: checks that the parts are the N complete, distinct shards
//! of one run, then walks that run's search (the input travels in shard 0's part) adding
//! the recorded units in order, which prints exactly what the unsharded run prints.
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::PathBuf;

use super::part_file::{Fnv, Header, Next, Reader};
use super::units::{Fetched, UnitSource};

/// Parts checked and ready to be walked.
pub(crate) struct Parts {
    /// The run's input (from shard 0).
    pub input: Vec<u8>,
    /// The run's arguments (Knuth's letters).
    pub args: Vec<OsString>,
    /// The split level the shards used.
    pub split: u32,
    /// The part file of each shard, in shard order.
    paths: Vec<PathBuf>,
}

/// Reads and checks every part; errors name the file at fault.
pub(crate) fn check(paths: &[PathBuf]) -> Result<Parts, String> {
    if paths.is_empty() {
        return Err("merge needs the part files of every shard".into());
    }
    let mut headers: Vec<(Header, Option<Vec<u8>>)> = Vec::new();
    for p in paths {
        let mut r = Reader::open(p).map_err(|e| format!("{}: {e}", p.display()))?;
        headers.push(r.header().map_err(|e| format!("{}: {e}", p.display()))?);
    }
    // The run is the one of shard 0's part if there is one (it carries the input).
    let reference = headers.iter().position(|(h, _)| h.shard == 0).unwrap_or(0);
    let want = headers[reference].0.clone();
    for (p, (h, _)) in paths.iter().zip(&headers) {
        if !h.same_run(&want) {
            return Err(format!(
                "{}: a part of another run (its input, arguments or shard count differ from {}'s)",
                p.display(),
                paths[reference].display()
            ));
        }
    }
    let n = want.shards;
    let mut by_shard: Vec<Option<usize>> =
        vec![None; usize::try_from(n).unwrap_or(usize::MAX).min(1 << 24)];
    for (i, (h, _)) in headers.iter().enumerate() {
        let slot = &mut by_shard[h.shard as usize];
        if let Some(j) = *slot {
            return Err(format!(
                "{}: shard {}/{n} again (also in {})",
                paths[i].display(),
                h.shard,
                paths[j].display()
            ));
        }
        *slot = Some(i);
    }
    if let Some(missing) = by_shard.iter().position(Option::is_none) {
        return Err(format!("shard {missing}/{n} is missing"));
    }
    let order: Vec<usize> = by_shard.into_iter().flatten().collect();
    // Each part whole: records of its own units in order, the trailer, the checksum.
    for &i in &order {
        let p = &paths[i];
        let shard = headers[i].0.shard;
        let mut r = Reader::open(p).map_err(|e| format!("{}: {e}", p.display()))?;
        r.header().map_err(|e| format!("{}: {e}", p.display()))?;
        let (mut units, mut last) = (0u64, None);
        loop {
            match r.next().map_err(|e| format!("{}: {e}", p.display()))? {
                None => {
                    return Err(format!(
                    "{}: truncated (shard {shard}/{n} did not finish; run it again with --resume)",
                    p.display()
                ))
                }
                Some(Next::Unit(k, _)) => {
                    if k % n != shard || last.is_some_and(|l| k <= l) {
                        return Err(format!("{}: unit {k} out of place", p.display()));
                    }
                    (units, last) = (units + 1, Some(k));
                }
                Some(Next::End(count)) => {
                    if count != units {
                        return Err(format!("{}: its trailer counts other records", p.display()));
                    }
                    break;
                }
            }
        }
    }
    let input = headers[order[0]].1.take().unwrap_or_default();
    if Fnv::of(&input) != want.input_hash || input.len() as u64 != want.input_len {
        return Err(format!(
            "{}: its input is damaged",
            paths[order[0]].display()
        ));
    }
    Ok(Parts {
        input,
        args: want
            .args
            .iter()
            .map(|a| OsString::from_vec(a.clone()))
            .collect(),
        split: want.split,
        paths: order.iter().map(|&i| paths[i].clone()).collect(),
    })
}

/// The units of checked parts, read in unit order (unit `k` from shard `k % N`).
pub(crate) struct Recorded {
    readers: Vec<(PathBuf, Reader)>,
}

impl Recorded {
    pub fn open(parts: &Parts) -> Result<Recorded, String> {
        let mut readers = Vec::new();
        for p in &parts.paths {
            let mut r = Reader::open(p).map_err(|e| format!("{}: {e}", p.display()))?;
            r.header().map_err(|e| format!("{}: {e}", p.display()))?;
            readers.push((p.clone(), r));
        }
        Ok(Recorded { readers })
    }
}

impl UnitSource for Recorded {
    fn unit(&mut self, k: u64) -> Result<Fetched, String> {
        let n = self.readers.len() as u64;
        let (path, r) = &mut self.readers[(k % n) as usize];
        match r.next().map_err(|e| format!("{}: {e}", path.display()))? {
            Some(Next::Unit(j, rec)) if j == k => Ok(Fetched::Record(rec)),
            _ => Err(format!(
                "{}: has no record of unit {k}, which the search meets (a part of another run?)",
                path.display()
            )),
        }
    }
}
