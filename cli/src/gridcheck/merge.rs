//! `xcover gridcheck merge PART...`: joins the part files of a sharded run
//! (`--shard I/N`) and prints what one unsharded run prints.
//!
//! Stdout gets exactly the bytes of the unsharded run. Stderr gets one summary line per
//! grid with the run's deterministic figures (UA, clique, chunks, nodes, candidates,
//! found), summed over the parts; parts keep no timings (a resumed shard must write the
//! same bytes), so `merged from N parts` stands where one run prints its seconds.
//!
//! Every part is checked before anything is printed: complete (trailer and checksum), of
//! the same run (fingerprint: input grids, options, version) and shard count, each shard
//! once, and together every chunk of every grid exactly once. An error names the file.
use std::collections::{BTreeSet, HashMap};
use std::ffi::OsString;
use std::io::Write;

use anyhow::{anyhow, bail, Context, Result};

use super::part::{self, Part};
use super::summary::{self, Counts};

const USAGE: &str = "\
Usage: xcover gridcheck merge PART...

Joins the part files of `xcover gridcheck --shard I/N ... > PART` (shards 0..N-1, in any
order) and prints to stdout exactly what the unsharded run prints, and a summary line per
grid to stderr. A missing, duplicated, truncated or foreign part is refused, naming it.

Exit status: 0 done; 1 a refused part or an unreadable file; 2 usage error.
";

/// Runs `xcover gridcheck merge ARGS`; returns the exit status.
pub fn main(args: &[OsString]) -> i32 {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{USAGE}");
        return 0;
    }
    if args.is_empty() {
        eprint!("xcover gridcheck merge: no part file given\n\n{USAGE}");
        return 2;
    }
    if let Some(option) = args.iter().find(|a| a.to_string_lossy().starts_with('-')) {
        eprint!(
            "xcover gridcheck merge: unknown option `{}'\n\n{USAGE}",
            option.to_string_lossy()
        );
        return 2;
    }
    match merge(args) {
        Ok(()) => 0,
        Err(err) => {
            eprintln!("xcover gridcheck merge: {err:#}");
            1
        }
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

/// Reads and checks every part; returns them ordered by shard.
fn load(args: &[OsString]) -> Result<Vec<Named>> {
    let mut parts = Vec::with_capacity(args.len());
    for arg in args {
        let name = arg.to_string_lossy().into_owned();
        let bytes = std::fs::read(arg).with_context(|| format!("{name}: cannot read"))?;
        let part = part::read(&bytes).map_err(|e| anyhow!("{name}: {e}"))?;
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
        .ok_or_else(|| anyhow!("no part"))?;
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
        ordered.push(slot.ok_or_else(|| anyhow!("shard {index} of {count} missing"))?);
    }
    Ok(ordered)
}

/// Merges the parts named by `args` and prints the run's output.
fn merge(args: &[OsString]) -> Result<()> {
    let parts = load(args)?;
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
    let mut summaries = Vec::with_capacity(grid_count);
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
                counts.nodes += c.nodes;
                counts.candidates += c.candidates;
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
                write!(out, "{grid}\t")?;
            }
            writeln!(out, "{puzzle}")?;
        }
        let tail = format!("merged from {} parts", parts.len());
        summaries.push(summary::line(
            &label,
            prepared,
            "",
            counts,
            puzzles.len(),
            &tail,
        ));
    }
    // Nothing is printed until every part has passed.
    std::io::stdout().write_all(&out)?;
    std::io::stdout().flush()?;
    for line in summaries {
        eprintln!("{line}");
    }
    Ok(())
}
