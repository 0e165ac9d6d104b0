//! The arguments of `xcover dlx3 merge`, read by clap; a usage error is Knuth's (status
//! 255), as every usage error of `xcover dlx3`.
use std::ffi::OsString;
use std::path::PathBuf;

use clap::Parser;

use super::verify::{Amount, Verify};
use crate::memory;
use crate::shared_args::parse_threads;

/// `xcover dlx3 merge`.
#[derive(Parser, Debug)]
#[command(
    name = "xcover dlx3 merge",
    override_usage = "xcover dlx3 merge [--max-memory SIZE] [--threads N] [--plan PLAN] \
                      [--print-file FILE] [--verify K|all [--verify-seed S]] PART...",
    about = "Checks that the parts are the N complete shards of one run (in any order) and \
             prints exactly what the unsharded run prints (`xcover dlx3 --help` says more).",
    after_help = "Exit status: 0 done; 1 parts that merge or its audit refuses, a failed write \
                  or input over --max-memory; 255 usage error."
)]
pub(crate) struct MergeArgs {
    /// The part files of `xcover dlx3 --shard I/N` (and of `--second-pass`)
    #[arg(value_name = "PART")]
    pub parts: Vec<OsString>,
    /// Bound each part read (suffix K, M, G, T; default 4G, or 3/4 of the physical memory
    /// if less)
    #[arg(long, value_name = "SIZE", value_parser = memory::parse_size)]
    pub max_memory: Option<u64>,
    /// Explore ahead the units to explore again on N threads (default 1; 0: one per core)
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Write the plan of a second pass to PLAN instead of the output (m<n> over 8)
    #[arg(long, value_name = "PLAN")]
    pub plan: Option<PathBuf>,
    /// The output file that a second pass wrote in place (m1-m8 with --lengths-only):
    /// created by --plan; checked by the merge
    #[arg(long, value_name = "FILE")]
    pub print_file: Option<PathBuf>,
    /// Audit: explore again K units of every part, chosen at random, or all of them
    #[arg(long, value_name = "K|all", value_parser = parse_amount)]
    pub verify: Option<Amount>,
    /// The seed of --verify's choice, to repeat an audit
    #[arg(long, value_name = "S", requires = "verify")]
    pub verify_seed: Option<u64>,
}

impl MergeArgs {
    /// The audit asked for.
    pub(crate) fn audit(&self) -> Option<Verify> {
        self.verify.map(|amount| Verify {
            amount,
            seed: self.verify_seed,
        })
    }
}

/// A bad `--verify` value (clap says it as a usage error).
#[derive(Debug)]
pub(crate) struct AmountError(String);

impl std::fmt::Display for AmountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}`: a number of units (1 or more) or `all`", self.0)
    }
}

impl std::error::Error for AmountError {}

impl From<AmountError> for crate::error::CliError {
    fn from(e: AmountError) -> crate::error::CliError {
        crate::error::CliError::new(crate::error::Kind::KnuthUsage, e.to_string())
    }
}

/// `--verify K|all`: K units of every part (1 or more), or all of them.
fn parse_amount(text: &str) -> Result<Amount, AmountError> {
    match text {
        "all" => Ok(Amount::All),
        k => match k.parse::<u64>() {
            Ok(k) if k > 0 => Ok(Amount::Units(k)),
            _ => Err(AmountError(k.to_owned())),
        },
    }
}
