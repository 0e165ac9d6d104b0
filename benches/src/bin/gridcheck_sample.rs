//! Estimates the cost of a whole-grid scan from a fixed sample of its chunks, one thread.
//!
//! ```text
//! gridcheck_sample GRID [--clues N] [--ua-file F] [--ua-random K] [--seed S]
//!                  [--sample M] [--offset O] [--all] [--verbose] [--keep K] [--threads T]
//! ```
//! GRID is 81 digits. The UA list is generated (4-digit subsets + K random 54-blank
//! pseudo-puzzles, seed S; without K, the CLI's recipe for the grid,
//! `ua::budget::whole_grid_recipe`) or loaded from F (0/1 masks or `{rc,...}`
//! lines, as the reference tool writes them; every set is verified). Prints the preparation
//! figures (UA, clique sizes and cells in `rc` notation, kept UA, chunks), then
//! runs M chunks (default 40) spread evenly over the chunk list (chunk `i * chunks / M + O`)
//! and prints their steps, candidates and CPU seconds, and the whole scan extrapolated from
//! them (steps and seconds times chunks / M). `--all` runs every chunk instead. `--keep K`
//! keeps K UA for the enumeration (all sizes up to 3K/4, then the highest lowest cell).
//! CPU time is the thread's on-CPU time (`/proc/thread-self/schedstat`, nanoseconds), so a
//! busy machine changes it less than wall time. `--threads T` (default 1) runs the sampled
//! chunks on T threads, each with its own workspace, taking the next chunk as they finish
//! one (as `xcover gridcheck` does); the wall time of the chunk phase is printed, so two
//! runs with different T give the speed-up on the same work.
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use xcover_benches::outln;

use xcover_benches::grids::{generate_default_uas, generate_uas};
use xcover_benches::number_arg;
use xcover_core::gridcheck::scan::{
    self, BitmapTable, ChunkRun, LevelState, ScanOptions, TruncationLimits, WorkspaceSize,
    WorkspaceView,
};
use xcover_core::gridcheck::ua::{file, UaList};
use xcover_core::gridcheck::{Cells, Grid};

struct Options {
    grid: Grid,
    clues: u8,
    ua_file: Option<PathBuf>,
    /// `None`: the CLI's per-grid recipe (`budget::whole_grid_recipe`).
    ua_random: Option<u32>,
    seed: u64,
    sample: usize,
    offset: usize,
    all: bool,
    verbose: bool,
    keep: Option<usize>,
    threads: usize,
}

fn parse_options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut grid = None;
    let mut options = Options {
        grid: placeholder_grid(),
        clues: 16,
        ua_file: None,
        ua_random: None,
        seed: 1,
        sample: 40,
        offset: 0,
        all: false,
        verbose: false,
        keep: None,
        threads: 1,
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--clues" => options.clues = number_arg(args.next(), "--clues")? as u8,
            "--ua-file" => {
                options.ua_file = Some(PathBuf::from(args.next().ok_or("--ua-file needs a file")?))
            }
            "--ua-random" => {
                options.ua_random = Some(number_arg(args.next(), "--ua-random")? as u32)
            }
            "--seed" => options.seed = number_arg(args.next(), "--seed")?,
            "--sample" => options.sample = number_arg(args.next(), "--sample")? as usize,
            "--offset" => options.offset = number_arg(args.next(), "--offset")? as usize,
            "--all" => options.all = true,
            "--keep" => options.keep = Some(number_arg(args.next(), "--keep")? as usize),
            "--verbose" => options.verbose = true,
            "--threads" => {
                options.threads = (number_arg(args.next(), "--threads")? as usize).max(1)
            }
            text if text.len() == 81 => {
                grid = Some(Grid::parse(text.as_bytes()).map_err(|e| format!("grid: {e}"))?);
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    options.grid = grid.ok_or("no grid given (81 digits)")?;
    Ok(options)
}

/// Any valid grid (only used before the real one is parsed).
fn placeholder_grid() -> Grid {
    let mut digits = [0u8; 81];
    for (i, d) in digits.iter_mut().enumerate() {
        let (r, c) = (i / 9, i % 9);
        *d = ((r * 3 + r / 3 + c) % 9) as u8 + 1;
    }
    Grid::from_digits(digits).expect("pattern grid")
}

/// Nanoseconds this thread has been on a CPU.
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn load_uas(options: &Options) -> Result<Vec<Cells>, String> {
    let grid = &options.grid;
    match &options.ua_file {
        Some(path) => {
            let text = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut storage = vec![Cells::EMPTY; text.split(|&b| b == b'\n').count()];
            let mut list = UaList::new(&mut storage);
            file::read_verified(grid, &text, &mut list)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            list.dedup();
            Ok(list.as_slice().to_vec())
        }
        None => match options.ua_random {
            Some(random) => generate_uas(grid, random, options.seed),
            None => generate_default_uas(grid, options.clues, options.seed),
        },
    }
}

fn rc_list(set: u128) -> String {
    let cells: Vec<String> = (0..81)
        .filter(|c| set >> c & 1 == 1)
        .map(|c| format!("{}{}", c / 9 + 1, c % 9 + 1))
        .collect();
    format!("{{{}}}", cells.join(","))
}

fn run() -> Result<(), String> {
    let options = parse_options()?;
    let started = Instant::now();
    let uas = load_uas(&options)?;
    let ua_seconds = started.elapsed().as_secs_f64();
    let mut scan_options = ScanOptions::new(options.clues);
    if let Some(total) = options.keep {
        scan_options.truncation = Some(TruncationLimits { total });
    }
    let prepare_started = Instant::now();
    let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
    let prepared =
        scan::prepare(&options.grid, &uas, &scan_options, &mut work).map_err(|e| e.to_string())?;
    let prepare_seconds = prepare_started.elapsed().as_secs_f64();
    let members = prepared.clique_members();
    let sizes: Vec<String> = members.iter().map(|m| m.count_ones().to_string()).collect();
    let mut by_size = [0usize; 82];
    for ua in &uas {
        by_size[ua.len() as usize] += 1;
    }
    let small: usize = by_size[..=13].iter().sum();
    outln!(
        "UA {} ({} of size <= 13; {:.2} s), kept {}; clique {} [{}] product {}{}; prepare {:.3} s",
        uas.len(),
        small,
        ua_seconds,
        prepared.kept_len(),
        members.len(),
        sizes.join(","),
        prepared_product(members),
        if prepared.clique_truncated() {
            " (budget hit)"
        } else {
            ""
        },
        prepare_seconds
    );
    if options.verbose {
        for &m in members {
            outln!("  {} ({})", rc_list(m), m.count_ones());
        }
        let order: Vec<String> = (0..prepared.free_cell_count())
            .map(|p| {
                let c = prepared.cell_at(p).unwrap_or(0);
                format!("{}{}", c / 9 + 1, c % 9 + 1)
            })
            .collect();
        outln!("  order {}", order.join(" "));
    }
    let chunks: Vec<_> = prepared.chunks().collect();
    let picked: Vec<usize> = if options.all || options.sample >= chunks.len() {
        (0..chunks.len()).collect()
    } else {
        (0..options.sample)
            .map(|i| (i * chunks.len() / options.sample + options.offset) % chunks.len())
            .collect()
    };
    let next = AtomicUsize::new(0);
    let wall = Instant::now();
    let totals = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..options.threads)
            .map(|_| {
                scope.spawn(|| run_chunks(&prepared, &chunks, &picked, &next, options.verbose))
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().map_err(|_| "a worker panicked".to_string())?)
            .collect::<Result<Vec<_>, String>>()
    })?;
    let wall_seconds = wall.elapsed().as_secs_f64();
    let (steps, candidates, found, cpu_ns) = totals.iter().fold((0, 0, 0, 0), |a, t| {
        (a.0 + t.0, a.1 + t.1, a.2 + t.2, a.3 + t.3)
    });
    let scale = chunks.len() as f64 / picked.len().max(1) as f64;
    outln!(
        "chunks {} sampled {}: steps {} candidates {} found {} cpu {:.3} s; whole scan estimate: steps {:.4e}, cpu {:.1} s",
        chunks.len(),
        picked.len(),
        steps,
        candidates,
        found,
        cpu_ns as f64 * 1e-9,
        steps as f64 * scale,
        cpu_ns as f64 * 1e-9 * scale
    );
    outln!(
        "threads {}: chunk phase wall {:.3} s",
        options.threads,
        wall_seconds
    );
    Ok(())
}

/// One worker: runs the picked chunks it takes from `next`, with its own workspace;
/// returns its steps, candidates, puzzles found and CPU nanoseconds.
fn run_chunks(
    prepared: &scan::Prepared<'_>,
    chunks: &[scan::ChunkId],
    picked: &[usize],
    next: &AtomicUsize,
    verbose: bool,
) -> Result<(u64, u64, u64, u64), String> {
    let size = WorkspaceSize::for_scan(prepared);
    let mut table = Box::new(BitmapTable::new());
    let mut states = vec![LevelState::ZERO; size.states];
    let (mut steps, mut candidates, mut found, mut cpu_ns) = (0u64, 0u64, 0u64, 0u64);
    while let Some(&index) = picked.get(next.fetch_add(1, Ordering::Relaxed)) {
        let workspace = WorkspaceView::new(&mut table, &mut states);
        let mut run =
            ChunkRun::new(prepared, workspace, chunks[index]).map_err(|e| e.to_string())?;
        let before = thread_cpu_ns();
        run.run(u64::MAX, &mut |_| ControlFlow::Continue(()));
        let spent = thread_cpu_ns() - before;
        let stats = run.stats();
        if verbose {
            outln!(
                "  chunk {index} top {} second {} third {}: steps {} candidates {} cpu {:.3} s",
                chunks[index].top,
                chunks[index].second,
                chunks[index].third,
                stats.steps,
                stats.candidates,
                spent as f64 * 1e-9
            );
        }
        steps += stats.steps;
        candidates += stats.candidates;
        found += stats.found;
        cpu_ns += spent;
    }
    Ok((steps, candidates, found, cpu_ns))
}

fn prepared_product(members: &[u128]) -> u64 {
    members.iter().map(|m| u64::from(m.count_ones())).product()
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gridcheck_sample: {e}");
            ExitCode::from(2)
        }
    }
}
