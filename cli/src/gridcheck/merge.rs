//! `xcover gridcheck merge PART...`: joins the part files of a sharded run
//! (`--shard I/N`) and prints what one unsharded run prints.
//!
//! Stdout gets exactly the bytes of the unsharded run. Stderr gets one summary line per
//! grid with the run's deterministic figures (UA, clique, chunks, nodes, candidates,
//! found), summed over the parts; parts keep no timings (a resumed shard must write the
//! same bytes), so `merged from N parts` stands where one run prints its seconds.
//!
//! Every part is checked before anything is printed: complete (trailer and checksum chain),
//! every record meaningful (see `part`), of the same run (fingerprint: input grids,
//! options, version) and shard count, each shard once, and together every chunk of every
//! grid exactly once, with counters that add up without wrapping. Parts are read through
//! the durable layer, bounded by `--max-memory`. An error names the file (and the record);
//! a failed write to stdout or stderr is an error too (exit 1).
use std::collections::{BTreeSet, HashMap};
use std::ffi::OsString;
use std::path::Path;

use clap::error::ErrorKind;

use crate::error::{bail, cli_error, Result};

use super::args::MergeArgs;
use super::output;
use super::part::{self, Part};
use super::summary::{self, Counts};
use super::validate;
use super::verify::{self, Verify};
use crate::memory;

impl MergeArgs {
    /// The arguments of `xcover gridcheck merge ARGS`; a usage error (or the help).
    /// `merge` as clap read it, with at least one part; `command` is `xcover gridcheck`'s
    /// (for the usage line of the error).
    pub(crate) fn checked(self, command: &mut clap::Command) -> Result<MergeArgs> {
        if self.parts.is_empty() {
            let (kind, why) = (ErrorKind::MissingRequiredArgument, "no part file given");
            let e = match command.find_subcommand_mut("merge") {
                Some(merge) => merge.error(kind, why),
                None => command.error(kind, why),
            };
            return Err(e.into());
        }
        Ok(self)
    }

    /// The audit asked for.
    fn audit(&self) -> Option<Verify> {
        self.verify.map(|amount| Verify {
            amount,
            seed: self.verify_seed,
            ua_file: self.ua_file.clone(),
        })
    }
}

/// Runs `xcover gridcheck merge` with `args`; returns the exit status.
pub(crate) fn main(args: Result<MergeArgs>) -> i32 {
    let merged = args.and_then(|args| {
        let limit = args.max_memory.unwrap_or_else(memory::default_limit);
        merge(&args.parts, limit, args.audit().as_ref())
    });
    match merged {
        Ok(()) => 0,
        Err(err) => err.report("xcover gridcheck merge"),
    }
}

/// A part and the name it was given by.
struct Named {
    name: String,
    part: Part,
}

/// The first `key=value` field where two fingerprints differ, as `key` and both values.
fn difference<'a>(ours: &'a str, theirs: &'a str) -> Option<(&'a str, &'a str, &'a str)> {
    let fields = |fp: &'a str| -> HashMap<&'a str, &'a str> {
        fp.split(' ').filter_map(|f| f.split_once('=')).collect()
    };
    let (a, b) = (fields(ours), fields(theirs));
    let mut keys: Vec<&str> = ours
        .split(' ')
        .chain(theirs.split(' '))
        .filter_map(|f| f.split_once('=').map(|(k, _)| k))
        .collect();
    keys.dedup();
    keys.into_iter().find(|k| a.get(k) != b.get(k)).map(|k| {
        (
            k,
            a.get(k).copied().unwrap_or("-"),
            b.get(k).copied().unwrap_or("-"),
        )
    })
}

/// Reads and checks every part (at most `limit` bytes of them together); returns them
/// ordered by shard.
fn load(args: &[OsString], limit: u64) -> Result<Vec<Named>> {
    let mut parts = Vec::with_capacity(args.len());
    let mut left = limit;
    for arg in args {
        let name = arg.to_string_lossy().into_owned();
        let part = part::read(Path::new(arg), left)?;
        left = left.saturating_sub(part.bytes);
        parts.push(Named { name, part });
    }
    // The run: the fingerprint and shard count most parts have (the first part's on a tie).
    let mut votes: Vec<((&str, usize), usize)> = Vec::new();
    for named in &parts {
        let key = (named.part.fingerprint.as_str(), named.part.shard.count);
        match votes.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += 1,
            None => votes.push((key, 1)),
        }
    }
    let best = votes.iter().map(|&(_, n)| n).max().unwrap_or(0);
    let (fingerprint, count) = votes
        .iter()
        .find(|&&(_, n)| n == best)
        .map(|&(k, _)| k)
        .ok_or_else(|| cli_error!("no part"))?;
    let (fingerprint, count) = (fingerprint.to_owned(), count);
    for named in &parts {
        let part = &named.part;
        if let Some((key, ours, theirs)) = difference(&fingerprint, &part.fingerprint) {
            if key == "grids" {
                bail!("{}: from another run (input hash differs)", named.name);
            }
            bail!(
                "{}: from another run (options differ: {key}={theirs} here, {key}={ours} in the \
                 other parts)",
                named.name
            );
        }
        if part.fingerprint != fingerprint {
            bail!("{}: from another run (its fingerprint differs)", named.name);
        }
        if part.shard.count != count {
            bail!(
                "{}: from another run (split into {} shards, the other parts into {count})",
                named.name,
                part.shard.count
            );
        }
    }
    let mut by_shard: Vec<Option<Named>> = (0..count).map(|_| None).collect();
    for named in parts {
        let slot = &mut by_shard[named.part.shard.index];
        if let Some(first) = slot {
            bail!(
                "{}: duplicate of shard {} (also in {})",
                named.name,
                named.part.shard.index,
                first.name
            );
        }
        *slot = Some(named);
    }
    let mut ordered = Vec::with_capacity(count);
    for (index, slot) in by_shard.into_iter().enumerate() {
        ordered.push(slot.ok_or_else(|| cli_error!("shard {index} of {count} missing"))?);
    }
    Ok(ordered)
}

/// Merges the parts named by `args` (reading at most `limit` bytes) and prints the run's
/// output; with `audit`, once the parts have been audited.
fn merge(args: &[OsString], limit: u64, audit: Option<&Verify>) -> Result<()> {
    let parts = load(args, limit)?;
    let first = &parts[0];
    let grid_count = first.part.grids.len();
    for named in &parts[1..] {
        for (index, grid) in named.part.grids.iter().enumerate() {
            let theirs = first.part.grids.get(index);
            if theirs.map(|g| (&g.grid, &g.prepared)) != Some((&grid.grid, &grid.prepared)) {
                bail!(
                    "{}: grid {} differs from {}'s (a part of another build?)",
                    named.name,
                    index + 1,
                    first.name
                );
            }
        }
        if named.part.grids.len() != grid_count {
            bail!(
                "{}: {} grids, {} has {grid_count}",
                named.name,
                named.part.grids.len(),
                first.name
            );
        }
    }
    let batch = grid_count > 1;
    let mut out = Vec::new();
    let mut summaries = String::new();
    for index in 0..grid_count {
        let label = format!("grid {}/{grid_count}", index + 1);
        let prepared = &first.part.grids[index].prepared;
        let mut owner: HashMap<u32, &str> = HashMap::new();
        let mut counts = Counts::default();
        let mut puzzles = BTreeSet::new();
        for named in &parts {
            let grid = &named.part.grids[index];
            for &(id, c) in &grid.chunks {
                if let Some(other) = owner.insert(id, &named.name) {
                    bail!(
                        "{label}: chunk {id} is in both {other} and {} (a part of another \
                         build?)",
                        named.name
                    );
                }
                counts = validate::add_counts(counts, c)
                    .map_err(|e| cli_error!("{label}: {e} (adding {}'s chunks)", named.name))?;
            }
            puzzles.extend(grid.puzzles.iter().map(String::as_str));
        }
        if owner.len() != prepared.chunks {
            bail!(
                "{label}: the parts hold {} of its {} chunks (a part of another build?)",
                owner.len(),
                prepared.chunks
            );
        }
        let grid = &first.part.grids[index].grid;
        for puzzle in &puzzles {
            if batch {
                out.extend_from_slice(grid.as_bytes());
                out.push(b'\t');
            }
            out.extend_from_slice(puzzle.as_bytes());
            out.push(b'\n');
        }
        let tail = format!("merged from {}", summary::count(parts.len(), "part"));
        summaries.push_str(&summary::line(
            &label,
            prepared,
            "",
            counts,
            puzzles.len(),
            &tail,
        ));
        summaries.push('\n');
    }
    if let Some(audit) = audit {
        let named: Vec<verify::Named<'_>> = parts
            .iter()
            .map(|n| verify::Named {
                name: &n.name,
                part: &n.part,
            })
            .collect();
        verify::audit(&named, audit, limit)?;
    }
    // Nothing is printed until every part has passed.
    output::out(&out)?;
    output::note(&summaries)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Kind;
    use crate::shared_args::Amount;
    use std::path::PathBuf;

    /// `xcover gridcheck merge ARGS`, read as `xcover gridcheck` reads it.
    fn parse(args: &[&str]) -> Result<MergeArgs> {
        let words = std::iter::once("merge").chain(args.iter().copied());
        match super::super::args::asked(words.map(OsString::from).collect())? {
            super::super::args::Asked::Merge(merge) => merge,
            super::super::args::Asked::Scan(_) => panic!("{args:?}: not read as merge"),
        }
    }

    #[test]
    fn options_are_read_and_bad_ones_refused() {
        let m = parse(&["a", "--verify", "3", "--ua-file", "u", "b"]).unwrap();
        assert_eq!(m.parts, ["a", "b"]);
        let v = m.audit().unwrap();
        assert_eq!(v.amount, Amount::Units(3));
        assert_eq!(v.seed, None);
        assert_eq!(v.ua_file, Some(PathBuf::from("u")));
        let m = parse(&["--verify=all", "--verify-seed=5", "--max-memory=2K", "p"]).unwrap();
        let v = m.audit().unwrap();
        assert_eq!(
            (v.amount, v.seed, m.max_memory),
            (Amount::All, Some(5), Some(2048))
        );
        let m = parse(&["p"]).unwrap();
        assert_eq!((m.audit(), m.max_memory), (None, None));
        for bad in [
            &["p", "--verify", "0"][..],
            &["p", "--verify", "-1"],
            &["p", "--verify", "few"],
            &["p", "--verify"],
            &["p", "--verify-seed", "1"],
            &["p", "--verify", "1", "--verify-seed", "x"],
            &["p", "--ua-file", "u"],
            &["p", "--verify", "1", "--ua-file"],
            &["p", "--max-memory", "1Z"],
            &["p", "--bogus"],
            &["--verify", "1"],
            &[],
        ] {
            let e = parse(bad).err().unwrap_or_else(|| panic!("{bad:?} taken"));
            assert_eq!((e.kind(), e.exit_status()), (Kind::Usage, 2), "{bad:?}");
        }
        let none = parse(&[]).err().unwrap().to_string();
        assert!(none.contains("no part file given"), "{none}");
        for bad in [&["p", "--verify", "0"][..], &[], &["p", "--ua-file", "u"]] {
            let e = parse(bad).err().unwrap().to_string();
            assert!(e.contains("Usage: xcover gridcheck merge"), "{bad:?}: {e}");
        }
    }
}
