//! `xcover gridcheck`: every N-clue puzzle with a unique solution inside Sudoku grids.
//!
//! Grids come from the arguments, `--file F` or stdin (one per line). For each grid the UA
//! list is generated (4-digit subsets plus `--ua-random` random pseudo-puzzles, seeded by
//! `--seed`) or loaded from `--ua-file` (every UA verified against the grid; a wrong one is
//! refused), the scan is prepared and its chunks run on `--threads` threads. Puzzles go to
//! stdout, sorted and de-duplicated (prefixed by the grid and a tab when several grids are
//! scanned); a summary per grid goes to stderr, and a progress line when stderr is a
//! terminal.
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use clap::Parser;
use xcover_core::gridcheck::scan::{self, ClueMask, ScanOptions, TruncationLimits};
use xcover_core::gridcheck::{Grid, Puzzle};

mod grids;
pub mod runner;
pub mod ua_source;

/// Default number of random pseudo-puzzles for UA generation (whole-grid scan).
pub const DEFAULT_UA_RANDOM: u32 = 3000;
/// Default number of random pseudo-puzzles for a masked scan (forced givens stay given, so
/// they are small; measured: 300 gives most of the pruning at a few ms).
pub const DEFAULT_UA_RANDOM_MASKED: u32 = 300;
/// UA kept for a masked scan unless `--keep-ua` says otherwise: 768 lets the enumeration
/// run in the 768-set bitmap mode from the root (measured on `ga` k=6: 0.44 s vs 1.41 s
/// with the reference's 4000).
pub const DEFAULT_KEEP_UA_MASKED: usize = 768;

#[derive(Parser, Debug)]
#[command(
    name = "xcover gridcheck",
    about = "List every N-clue puzzle with a unique solution inside Sudoku solution grids",
    version
)]
struct Args {
    /// Solution grids (81 digits each). Without any, grids are read from --file or stdin.
    grids: Vec<String>,
    /// Read grids from this file, one per line.
    #[arg(long, value_name = "F")]
    file: Option<PathBuf>,
    /// Number of clues N of the reported puzzles (forced givens included).
    #[arg(long, short = 'n', value_name = "N", default_value_t = 17)]
    clues: u32,
    /// Clue mask (up to 81 chars): `1` forced given, `0` forced empty, anything else free.
    #[arg(long, value_name = "M")]
    mask: Option<String>,
    /// Stop at the first puzzle found (one puzzle per grid is printed).
    #[arg(long)]
    stop_at_first: bool,
    /// Report only minimal puzzles (no clue can be removed keeping a unique solution).
    #[arg(long)]
    minimal: bool,
    /// Load the UA list from this file instead of generating it (verified against the grid).
    #[arg(long, value_name = "F")]
    ua_file: Option<PathBuf>,
    /// Save the UA list (loaded or generated) to this file.
    #[arg(long, value_name = "F")]
    save_ua: Option<PathBuf>,
    /// Random pseudo-puzzles for UA generation (default 3000, masked 300).
    #[arg(long, value_name = "K")]
    ua_random: Option<u32>,
    /// Seed of the UA generator's random numbers (results never depend on it, times do).
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// UA kept for the enumeration (default 2000, masked 768; all sets up to the largest
    /// size class that fits in 3/4 of it, then those with the highest lowest cell).
    #[arg(long, value_name = "K")]
    keep_ua: Option<usize>,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
}

/// Runs `xcover gridcheck ARGS` (`args` excludes the program and subcommand names).
/// Returns the process exit status.
pub fn main(args: Vec<OsString>) -> i32 {
    let argv = std::iter::once(OsString::from("xcover gridcheck")).chain(args);
    let args = match Args::try_parse_from(argv) {
        Ok(args) => args,
        Err(err) => {
            let _ = err.print();
            return err.exit_code();
        }
    };
    match run(&args) {
        Ok(()) => 0,
        Err(err) => {
            eprintln!("xcover gridcheck: {err:#}");
            1
        }
    }
}

fn options(args: &Args) -> Result<ScanOptions> {
    if args.clues == 0 || args.clues > 81 {
        bail!("--clues {} is out of range 1..=81", args.clues);
    }
    let mut options = ScanOptions::new(args.clues as u8);
    if let Some(mask) = &args.mask {
        options.mask = ClueMask::parse(mask.as_bytes()).map_err(|e| anyhow!("bad --mask: {e}"))?;
        let forced = options.mask.givens.len();
        if forced > args.clues {
            bail!(
                "--mask forces {forced} givens but --clues is {}",
                args.clues
            );
        }
    }
    let keep = match args.keep_ua {
        Some(0) => bail!("--keep-ua must be at least 1"),
        Some(total) => Some(total),
        None if !options.mask.is_free() => Some(DEFAULT_KEEP_UA_MASKED),
        None => None,
    };
    if let Some(total) = keep {
        options.truncation = Some(TruncationLimits {
            small: total * 3 / 4,
            total,
        });
    }
    options.stop_at_first = args.stop_at_first;
    options.minimal_only = args.minimal;
    Ok(options)
}

fn run(args: &Args) -> Result<()> {
    let options = options(args)?;
    let threads = match args.threads {
        Some(0) => bail!("--threads must be at least 1"),
        Some(t) => t,
        None => std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
    };
    let grids = grids::collect(&args.grids, args.file.as_deref())?;
    if grids.is_empty() {
        bail!("no grid given (arguments, --file or stdin)");
    }
    if grids.len() > 1 && (args.ua_file.is_some() || args.save_ua.is_some()) {
        bail!(
            "--ua-file and --save-ua need exactly one grid ({} given)",
            grids.len()
        );
    }
    let batch = grids.len() > 1;
    let stdout = std::io::stdout();
    for (index, grid) in grids.iter().enumerate() {
        let label = format!("grid {}/{}", index + 1, grids.len());
        let puzzles = scan_grid(args, &options, grid, threads, &label)?;
        let mut out = stdout.lock();
        for puzzle in &puzzles {
            if batch {
                write!(out, "{grid}\t")?;
            }
            writeln!(out, "{puzzle}")?;
        }
        out.flush()?;
    }
    Ok(())
}

/// Scans one grid; returns the puzzles as sorted, de-duplicated 81-char lines.
fn scan_grid(
    args: &Args,
    options: &ScanOptions,
    grid: &Grid,
    threads: usize,
    label: &str,
) -> Result<Vec<String>> {
    let started = Instant::now();
    let (uas, ua_origin) = match &args.ua_file {
        Some(path) => (ua_source::load(path, grid)?, "loaded"),
        None => {
            let random = args.ua_random.unwrap_or(if options.mask.is_free() {
                DEFAULT_UA_RANDOM
            } else {
                DEFAULT_UA_RANDOM_MASKED
            });
            (
                ua_source::generate(grid, random, args.seed, options.mask.givens)?,
                "generated",
            )
        }
    };
    if let Some(path) = &args.save_ua {
        ua_source::save(path, &uas)?;
    }
    let ua_seconds = started.elapsed().as_secs_f64();

    let prepare_started = Instant::now();
    let mut work = vec![0u128; scan::required_work_entries(uas.len(), options)];
    let prepared = scan::prepare(grid, &uas, options, &mut work)
        .map_err(|e| anyhow!("preparing the scan: {e}"))?;
    let chunks: Vec<scan::ChunkId> = prepared.chunks().collect();
    let prepare_seconds = prepare_started.elapsed().as_secs_f64();

    let scan_started = Instant::now();
    let outcome = runner::run_chunks(&prepared, &chunks, threads, label)?;
    let scan_seconds = scan_started.elapsed().as_secs_f64();

    let mut found: Vec<_> = outcome.found;
    found.sort_unstable();
    found.dedup();
    if options.stop_at_first {
        found.truncate(1);
    }
    let mut lines: Vec<String> = found
        .iter()
        .map(|&givens| Puzzle::from_grid(grid, givens).to_string())
        .collect();
    lines.sort_unstable();
    lines.dedup();

    let sizes: Vec<String> = prepared
        .clique_members()
        .iter()
        .map(|m| m.count_ones().to_string())
        .collect();
    let stats = prepared.stats();
    let mut summary = format!(
        "xcover gridcheck: {label}: UA {} ({ua_origin}), {} after forced cells, {} kept; \
         forced givens {} (+{} from UA); clique {} [{}]{}; chunks {}; nodes {}; candidates checked {}; \
         found {}; seconds: UA {:.3}, prepare {:.3}, scan {:.3} ({} threads)",
        stats.ua_input,
        stats.ua_after_forced,
        stats.ua_kept,
        prepared.forced_givens().len(),
        prepared.extra_forced_givens().len(),
        sizes.len(),
        sizes.join(","),
        if prepared.clique_truncated() { " (search budget hit)" } else { "" },
        chunks.len(),
        outcome.stats.steps,
        outcome.stats.candidates,
        lines.len(),
        ua_seconds,
        prepare_seconds,
        scan_seconds,
        threads,
    );
    if let Some(reason) = prepared.impossible() {
        summary.push_str(&format!("; no puzzle possible: {reason:?}"));
    }
    eprintln!("{summary}");
    Ok(lines)
}
