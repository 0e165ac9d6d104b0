//! Whole-grid scans of many grids, one thread each: the mean, median and tail of the time
//! per grid.
//!
//! ```text
//! grid_median (--random K [--grid-seed S] | --file F) [--clues N] [--ua-random K] [--seed S]
//! ```
//! The grids are K random solution grids (`xcover_benches::grids::random_grid`, one
//! generator seeded with S, default 1) or those of F (81 digits at the start of each line;
//! other lines are skipped). Each grid goes through what `xcover gridcheck --clues N
//! --threads 1 GRID` does: UA generation (4-digit subsets and `--ua-random` pseudo-puzzles,
//! default 3000, seed `--seed`, default 1), preparation, and every chunk of the scan.
//! Prints a line per grid (the seconds of each phase, wall clock, and the total), then the
//! mean, median, p90, p99, max, quartiles and min of the total and of the scan phase, and a
//! histogram of the totals with the share of the time each range makes up (a full search
//! pays the mean, so the tail matters).
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use xcover_benches::grids::{generate_uas, random_grids};
use xcover_benches::number_arg;
use xcover_benches::times::{histogram_text, Summary};
use xcover_core::gridcheck::scan::{
    self, BitmapTable, ChunkRun, LevelState, ScanOptions, WorkspaceSize, WorkspaceView,
};
use xcover_core::gridcheck::Grid;

struct Options {
    random: Option<usize>,
    grid_seed: u64,
    file: Option<PathBuf>,
    clues: u8,
    ua_random: u32,
    seed: u64,
}

fn parse_options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut options = Options {
        random: None,
        grid_seed: 1,
        file: None,
        clues: 16,
        ua_random: 3000,
        seed: 1,
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--random" => options.random = Some(number_arg(args.next(), "--random")? as usize),
            "--grid-seed" => options.grid_seed = number_arg(args.next(), "--grid-seed")?,
            "--file" => {
                options.file = Some(PathBuf::from(args.next().ok_or("--file needs a file")?))
            }
            "--clues" => {
                options.clues = u8::try_from(number_arg(args.next(), "--clues")?)
                    .map_err(|_| "--clues: at most 81".to_string())?
            }
            "--ua-random" => {
                options.ua_random = u32::try_from(number_arg(args.next(), "--ua-random")?)
                    .map_err(|_| "--ua-random: too large".to_string())?
            }
            "--seed" => options.seed = number_arg(args.next(), "--seed")?,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if options.random.is_some() == options.file.is_some() {
        return Err("give one of --random K and --file F".into());
    }
    if options.random == Some(0) {
        return Err("--random: at least one grid".into());
    }
    Ok(options)
}

fn read_grids(path: &PathBuf) -> Result<Vec<Grid>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut grids = Vec::new();
    for (number, line) in text.lines().enumerate() {
        // Lines that do not start with 81 digits (headers, blank lines) are skipped.
        let Some(head) = line
            .get(..81)
            .filter(|h| h.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        let grid = Grid::parse(head.as_bytes())
            .map_err(|e| format!("{} line {}: {e}", path.display(), number + 1))?;
        grids.push(grid);
    }
    if grids.is_empty() {
        return Err(format!("{}: no grid (81 digits) found", path.display()));
    }
    Ok(grids)
}

/// Seconds of each phase of one grid's scan.
struct Times {
    ua: f64,
    prepare: f64,
    scan: f64,
}

impl Times {
    fn total(&self) -> f64 {
        self.ua + self.prepare + self.scan
    }
}

/// Scans `grid` whole; returns the phase times, the steps (placements, as `xcover
/// gridcheck` counts its nodes) and the puzzles found.
fn scan_grid(grid: &Grid, options: &Options) -> Result<(Times, u64, u64), String> {
    let started = Instant::now();
    let uas = generate_uas(grid, options.ua_random, options.seed)?;
    let ua = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let scan_options = ScanOptions::new(options.clues);
    let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
    let prepared =
        scan::prepare(grid, &uas, &scan_options, &mut work).map_err(|e| e.to_string())?;
    let prepare = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let size = WorkspaceSize::for_scan(&prepared);
    let mut table = Box::new(BitmapTable::new());
    let mut states = vec![LevelState::ZERO; size.states];
    let (mut steps, mut found) = (0u64, 0u64);
    for chunk in prepared.chunks() {
        let workspace = WorkspaceView::new(&mut table, &mut states);
        let mut run = ChunkRun::new(&prepared, workspace, chunk).map_err(|e| e.to_string())?;
        run.run(u64::MAX, &mut |_| ControlFlow::Continue(()));
        steps += run.stats().steps;
        found += run.stats().found;
    }
    let scan = started.elapsed().as_secs_f64();
    Ok((Times { ua, prepare, scan }, steps, found))
}

fn summary(what: &str, values: &[f64]) {
    if let Some(summary) = Summary::of(values) {
        println!("{what}: {} grids", summary.line());
    }
}

fn run() -> Result<(), String> {
    let options = parse_options()?;
    let grids = match (&options.file, options.random) {
        (Some(path), _) => read_grids(path)?,
        (None, Some(count)) => random_grids(count, options.grid_seed),
        (None, None) => unreachable!("checked by parse_options"),
    };
    let mut totals = Vec::new();
    let mut scans = Vec::new();
    for (i, grid) in grids.iter().enumerate() {
        let (times, steps, found) = scan_grid(grid, &options)?;
        println!(
            "{:>3} {grid} UA {:.2} prepare {:.2} scan {:.2} total {:.2} s; nodes {steps} found {found}",
            i + 1,
            times.ua,
            times.prepare,
            times.scan,
            times.total()
        );
        totals.push(times.total());
        scans.push(times.scan);
    }
    summary("total (UA, prepare, scan)", &totals);
    summary("scan phase", &scans);
    print!("total per grid:\n{}", histogram_text(&totals));
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("grid_median: {e}");
            ExitCode::from(2)
        }
    }
}
