//! Synthetic journals for measuring and testing resume on a large journal: `count`
//! distinct puzzle records of the batch's first grid, written through `Journal` for the
//! run that `xcover gridcheck ARGS` describes (same fingerprint, clue count and mask), so
//! that `xcover gridcheck ARGS --resume` reads them back. The puzzles are clue sets of the
//! right size inside the mask, not checked for a unique solution (resume does not solve
//! them either).
use std::collections::HashSet;
use std::ffi::OsString;
use std::path::Path;

use crate::error::{bail, cli_error, Result};

use super::args::{options, parse_args};
use super::journal::Journal;
use super::{fingerprint, grids};
use crate::memory;

/// Writes the journal `args`' `--checkpoint` names (it must not exist) with `count`
/// puzzle records of the first grid; with `finished`, every grid is then marked done (a
/// resume prints the puzzles without scanning).
pub fn write_journal(args: &[&str], count: usize, finished: bool) -> Result<()> {
    let args = parse_args(args.iter().map(OsString::from).collect())?;
    let options = options(&args)?;
    let limit = args.max_memory.unwrap_or_else(memory::default_limit);
    let grids = grids::collect(&args.grids, args.file.as_deref(), limit)?;
    let path = args
        .checkpoint
        .as_deref()
        .ok_or_else(|| cli_error!("no --checkpoint"))?;
    if args.shard.is_some() || grids.is_empty() {
        bail!("a synthetic journal is for an unsharded run of at least one grid");
    }
    let identity = fingerprint::of_run(&args, &options, &grids, limit)?;
    let journal = Journal::create(Path::new(path), &identity, grids.len(), false)?;
    let free: Vec<u8> = options.mask.free_cells().iter().collect();
    let wanted = u32::from(options.clues) - options.mask.givens.len();
    let mut seen = HashSet::with_capacity(count);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut tries = 0usize;
    while seen.len() < count {
        tries += 1;
        if tries > count.saturating_mul(20).max(1000) {
            bail!("the mask leaves too few distinct clue sets for {count} puzzles");
        }
        let mut givens = options.mask.givens;
        while givens.len() < u32::from(options.clues) && !free.is_empty() {
            // xorshift64: a fixed sequence, so the same journal each time.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            givens.insert(free[(state % free.len() as u64) as usize]);
        }
        if givens.len() - options.mask.givens.len() == wanted && seen.insert(givens) {
            journal.puzzle(0, &grids[0], givens)?;
        }
    }
    if finished {
        for index in 0..grids.len() {
            journal.grid_done(index)?;
        }
    }
    journal.sync()
}
