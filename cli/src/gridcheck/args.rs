//! The arguments of `xcover gridcheck` and the scan options they give.
use std::ffi::OsString;
use std::path::PathBuf;

use crate::error::{bail, cli_error, Context as _, Result};
use clap::Parser;
use xcover_core::gridcheck::scan::{ScanError, ScanOptions, TruncationLimits};

use super::mask;
use super::shard::{self, Shard};
use crate::memory;
use crate::shared_args::{parse_amount, Amount};

#[derive(Parser, Debug)]
#[command(
    name = "xcover gridcheck",
    about = "List every N-clue puzzle with a unique solution inside Sudoku solution grids",
    version,
    after_help = "Exit status: 0 done; 1 an error (a bad grid or --mask, --clues out of range, a \
        file, the memory limit, the journal, a failed write); 2 usage error (an unknown \
        option, a value of the wrong kind); 130 / 143 / 129 interrupted by SIGINT / SIGTERM / \
        SIGHUP (with --checkpoint, continue with --resume; without, the puzzles found so far \
        are printed).\n\n`xcover gridcheck merge PART...` joins the part files \
        of a --shard run (`xcover gridcheck merge --help`).",
    // `merge` is a subcommand only in the first place: after an option or a grid, the
    // word is a grid (and refused as one).
    args_conflicts_with_subcommands = true,
    subcommand_value_name = "merge",
    subcommand_help_heading = "Subcommands"
)]
pub(crate) struct Args {
    /// `merge PART...`.
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
    /// Solution grids (81 digits each). Without any, grids are read from --file or stdin.
    pub(crate) grids: Vec<String>,
    /// Read grids from this file, one per line.
    #[arg(long, value_name = "F")]
    pub(crate) file: Option<PathBuf>,
    /// Number of clues N of the reported puzzles (forced givens included).
    #[arg(long, short = 'n', value_name = "N", default_value_t = 17)]
    pub(crate) clues: u32,
    /// Clue mask: 81 characters, one per cell row by row: `1` forced given, `0` forced
    /// empty, `.` free; end a shorter mask with `*` to leave the remaining cells free
    /// (`1.1*`). Any other character or length is an error.
    #[arg(long, value_name = "M")]
    pub(crate) mask: Option<String>,
    /// Stop at the first puzzle found (one puzzle per grid is printed).
    #[arg(long)]
    pub(crate) stop_at_first: bool,
    /// Report only minimal puzzles (no clue can be removed keeping a unique solution).
    #[arg(long)]
    pub(crate) minimal: bool,
    /// Load the UA list from this file instead of generating it (verified against the grid).
    #[arg(long, value_name = "F")]
    pub(crate) ua_file: Option<PathBuf>,
    /// Save the UA list (loaded or generated) to this file.
    #[arg(long, value_name = "F")]
    pub(crate) save_ua: Option<PathBuf>,
    /// Random pseudo-puzzles for UA generation, after the 4-digit subsets (default: 1000 for
    /// a whole grid, or 400 without the 4-digit subsets for one with 9 or more 4-cell UA and
    /// at most 16 clues; 300 for a masked scan).
    #[arg(long, value_name = "K")]
    pub(crate) ua_random: Option<u32>,
    /// Seed of the UA generator's random numbers (results never depend on it, times do).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub(crate) seed: u64,
    /// UA kept for the enumeration: the K smallest (default 768, the most its table uses).
    #[arg(long, value_name = "K")]
    pub(crate) keep_ua: Option<usize>,
    /// Worker threads: N, or 0 for one per available core (default 1, as in every
    /// subcommand; the puzzles printed never depend on it). A batch is scanned N grids at
    /// once, a thread each (each within 1/N of --max-memory), a lone grid on all N; no more
    /// than N threads work at once.
    #[arg(long, value_name = "N", value_parser = crate::shared_args::parse_threads)]
    pub(crate) threads: Option<usize>,
    /// Journal every puzzle and finished chunk to this file, so that an interrupted batch
    /// can be resumed with --resume.
    #[arg(long, value_name = "FILE")]
    pub(crate) checkpoint: Option<PathBuf>,
    /// Continue the run journaled in --checkpoint FILE (same grids and options); prints
    /// what an uninterrupted run prints.
    #[arg(long, requires = "checkpoint")]
    pub(crate) resume: bool,
    /// With --resume, audit the journal first: scan again K of the chunks it records as
    /// done, chosen at random (the seed is printed), or `all` of them, and check every
    /// puzzle it holds with the solver; a difference is refused (exit 1, the journal left
    /// as it is).
    #[arg(long, value_name = "K|all", value_parser = parse_amount,
        requires = "resume", conflicts_with = "stop_at_first")]
    pub(crate) verify: Option<Amount>,
    /// The seed of --verify's random choice, to repeat an audit.
    #[arg(long, value_name = "S", requires = "verify")]
    pub(crate) verify_seed: Option<u64>,
    /// Refuse a scan whose buffers need more memory than SIZE (bytes, or with K, M, G, T;
    /// default: 4G, or 3/4 of the physical memory if less).
    #[arg(long, value_name = "SIZE", value_parser = memory::parse_size)]
    pub(crate) max_memory: Option<u64>,
    /// Run only shard I of N (0 <= I < N <= 65536) of the batch's (grid, chunk) units and
    /// write a part file to stdout instead of the puzzles; `xcover gridcheck merge` joins
    /// the N parts. Every shard generates the UA and prepares every grid. Not with
    /// --stop-at-first (which puzzle comes first depends on the run's timing).
    #[arg(long, value_name = "I/N", value_parser = shard::parse, conflicts_with = "stop_at_first")]
    pub(crate) shard: Option<Shard>,
}

/// The arguments of `xcover gridcheck merge`.
#[derive(clap::Args, Debug)]
#[command(
    override_usage = "xcover gridcheck merge [--max-memory SIZE] [--verify K|all [--verify-seed S]
                              [--ua-file F]] PART...",
    about = "Joins the part files of `xcover gridcheck --shard I/N ... > PART` (shards 0..N-1, in \
             any order) and prints to stdout exactly what the unsharded run prints, and a \
             summary line per grid to stderr. A missing, duplicated, truncated, damaged or \
             foreign part is refused, naming it and the record at fault.",
    after_help = "--verify K audits the parts: it scans again K chunks of every part, chosen at \
        random (it prints the seed; --verify-seed S repeats the choice), with the shards' own \
        code, and refuses the parts, naming the part and the chunk, if a chunk's counters \
        differ from its record or it finds a puzzle its part lacks; every puzzle of every \
        part is also checked to have a unique solution (and to be minimal with --minimal). A \
        part with f forged chunks among its u is caught with probability \
        1 - C(u-f,K)/C(u,K); --verify all scans every chunk (the search's cost again). A run \
        whose UA list came from --ua-file needs that file again: --ua-file F. The audit uses \
        all cores.\n\n\
        Exit status: 0 done; 1 a refused part, an unreadable file or a failed write; 2 usage \
        error."
)]
pub(crate) struct MergeArgs {
    /// The part files (any order)
    #[arg(value_name = "PART")]
    pub(super) parts: Vec<OsString>,
    /// Bound the bytes read from all parts together (suffix K, M, G, T; default 4G, or 3/4
    /// of the physical memory if less)
    #[arg(long, value_name = "SIZE", value_parser = memory::parse_size)]
    pub(super) max_memory: Option<u64>,
    /// Audit the parts: scan again K chunks of every part, chosen at random, or all
    #[arg(long, value_name = "K|all", value_parser = parse_amount)]
    pub(super) verify: Option<Amount>,
    /// The seed of --verify's choice, to repeat an audit
    #[arg(long, value_name = "S", requires = "verify")]
    pub(super) verify_seed: Option<u64>,
    /// The UA file of a run whose UA list came from --ua-file (for --verify)
    #[arg(long, value_name = "F", requires = "verify")]
    pub(super) ua_file: Option<PathBuf>,
}

/// The subcommand of `xcover gridcheck`.
#[derive(clap::Subcommand, Debug)]
pub(crate) enum Command {
    /// Join the part files of a --shard run
    Merge(MergeArgs),
}

/// The arguments of `xcover gridcheck ARGS`.
pub(crate) fn parse_args(args: Vec<OsString>) -> Result<Args, clap::Error> {
    let argv = std::iter::once(OsString::from("xcover gridcheck")).chain(args);
    Args::try_parse_from(argv)
}

/// What `xcover gridcheck ARGS` asks for: a scan, or `merge`'s arguments (checked).
pub(crate) enum Asked {
    Scan(Box<Args>),
    Merge(Result<MergeArgs>),
}

/// Reads `xcover gridcheck ARGS`: a usage error, a scan or a merge.
pub(crate) fn asked(args: Vec<OsString>) -> std::result::Result<Asked, clap::Error> {
    use clap::CommandFactory as _;
    let mut command = Args::command();
    // A bad value of merge's (which clap says without a usage line) gets merge's usage:
    // clap took `merge` as the subcommand exactly when it is the first word.
    let in_merge = args.first().is_some_and(|a| a == "merge");
    let parsed = parse_args(args).map_err(|e| match command.find_subcommand_mut("merge") {
        Some(merge) if in_merge => crate::shared_args::with_usage(e, merge),
        _ => e,
    })?;
    Ok(match parsed.command {
        Some(Command::Merge(merge)) => Asked::Merge(merge.checked(&mut command)),
        None => Asked::Scan(Box::new(parsed)),
    })
}

/// The scan options the arguments ask for (`--clues`, `--mask`, `--keep-ua`, ...).
pub(crate) fn options(args: &Args) -> Result<ScanOptions> {
    // core's rule (ScanOptions::check), in the words of the arguments.
    let in_args_words = |e: ScanError| match e {
        ScanError::BadClueCount { clues } => cli_error!("--clues {clues} is out of range 1..=81"),
        ScanError::TooManyForcedGivens { forced, clues } => {
            cli_error!("--mask forces {forced} givens but --clues is {clues}")
        }
        other => cli_error!("{other}"),
    };
    let mut options = ScanOptions::for_clues(args.clues).map_err(in_args_words)?;
    if let Some(text) = &args.mask {
        options.mask = mask::parse(text).context("bad --mask")?;
    }
    options.check().map_err(in_args_words)?;
    match args.keep_ua {
        Some(0) => bail!("--keep-ua must be at least 1"),
        Some(total) => options.truncation = Some(TruncationLimits { total }),
        None => {}
    }
    options.stop_at_first = args.stop_at_first;
    options.minimal_only = args.minimal;
    Ok(options)
}
