//! The band engine (`scan::prepare_with_bands`, what `xcover gridcheck` runs a whole grid
//! on) against the enumeration (`scan::prepare`), grid by grid.
//!
//! ```text
//! band_scan (--random K [--grid-seed S] | --file F) [--clues N] [--ua-random K] [--seed S]
//!           [--bands-only]
//! ```
//! For each grid (K random grids of `grid_median`'s generator, or the lines of F that start
//! with 81 characters of a grid, or of a puzzle, whose solution is then the grid): the UA list
//! `xcover gridcheck --clues N` generates (seed S, default 1; with `--ua-random K` the 4-digit
//! subsets and K random pseudo-puzzles, as `xcover gridcheck --ua-random K`), then today's scan
//! (the enumeration, one thread) and the band scan in turn, the order swapping from grid to
//! grid. The puzzles of both must be the same, and a puzzle line's own givens must be among
//! them when it has N clues (exit status 1 if not, 2 for bad input).
//! Prints a line per grid (seconds of UA generation, today's scan, the band scan, and the
//! band scan's counts), then the mean, median, p90, p99 and max of each total (UA included)
//! and of their ratio. `--bands-only` skips today's scan (nothing is compared).
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use xcover_benches::grids::random_grids;
use xcover_benches::outln;
use xcover_benches::sample::Sample;
use xcover_benches::times::Summary;
use xcover_core::gridcheck::scan::{
    self, BandCounts, BitmapTable, ChunkRun, Engine, LevelState, RunStats, ScanOptions,
    WorkspaceSize, WorkspaceView,
};
use xcover_core::gridcheck::{solver, Cells, Grid, Puzzle};

struct Options {
    sample: Sample,
    bands_only: bool,
}

fn parse_options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut options = Options {
        sample: Sample::default(),
        bands_only: false,
    };
    while let Some(a) = args.next() {
        if options.sample.take(&a, &mut args)? {
            continue;
        }
        match a.as_str() {
            "--bands-only" => options.bands_only = true,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    options.sample.check()?;
    if !(1..=27).contains(&options.sample.clues) {
        return Err("--clues: 1 to 27 (a band holds 27 cells)".into());
    }
    Ok(options)
}

/// A grid to scan, and the puzzle it came from (whose givens the scan must find).
struct Subject {
    grid: Grid,
    source: Option<Cells>,
}

/// The lines of `path` that start with 81 characters of a grid (digits `1`-`9`) or of a
/// puzzle (digits, `0` or `.` for an empty cell; scanned as its solution, which must be
/// unique).
fn read_subjects(path: &PathBuf) -> Result<Vec<Subject>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut subjects = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let Some(head) = line
            .get(..81)
            .filter(|h| h.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
        else {
            continue;
        };
        let at = |e: String| format!("{} line {}: {e}", path.display(), number + 1);
        if head.bytes().all(|b| (b'1'..=b'9').contains(&b)) {
            let grid = Grid::parse(head.as_bytes()).map_err(|e| at(e.to_string()))?;
            subjects.push(Subject { grid, source: None });
            continue;
        }
        let puzzle = Puzzle::parse(head.as_bytes()).map_err(|e| at(e.to_string()))?;
        let (solution, count) = solver::solve_and_count(&puzzle, 2);
        let solution = solution
            .filter(|_| count == 1)
            .ok_or_else(|| at("the puzzle has no unique solution".into()))?;
        let grid = Grid::from_digits(solution).map_err(|e| at(e.to_string()))?;
        subjects.push(Subject {
            grid,
            source: Some(puzzle.givens()),
        });
    }
    if subjects.is_empty() {
        return Err(format!("{}: no grid or puzzle found", path.display()));
    }
    Ok(subjects)
}

/// Today's scan of `grid` with `uas`: the puzzles, sorted.
fn todays_scan(grid: &Grid, uas: &[Cells], clues: u8) -> Result<Vec<Cells>, String> {
    let options = ScanOptions::new(clues);
    let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
    let prepared = scan::prepare(grid, uas, &options, &mut work).map_err(|e| e.to_string())?;
    let size = WorkspaceSize::for_scan(&prepared);
    let mut table = Box::new(BitmapTable::new());
    let mut states = vec![LevelState::ZERO; size.states];
    let mut puzzles = Vec::new();
    for chunk in prepared.chunks() {
        let workspace = WorkspaceView::new(&mut table, &mut states);
        let mut run = ChunkRun::new(&prepared, workspace, chunk).map_err(|e| e.to_string())?;
        run.run(u64::MAX, &mut |puzzle| {
            puzzles.push(puzzle);
            ControlFlow::Continue(())
        });
    }
    puzzles.sort_unstable_by_key(|p| p.0);
    Ok(puzzles)
}

/// What a band scan of one grid found and counted.
struct BandScanned {
    puzzles: Vec<Cells>,
    stats: RunStats,
    counts: BandCounts,
    /// Seconds preparing (the enumeration's steps, then the band lists, the band-set
    /// counts and the orientation) and running.
    seconds_prepare: f64,
    seconds_run: f64,
}

/// The band engine's scan of `grid` with `uas`, chunk by chunk in one workspace.
fn band_scan(grid: &Grid, uas: &[Cells], clues: u8) -> Result<BandScanned, String> {
    let started = Instant::now();
    let options = ScanOptions::new(clues);
    let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
    let prepared =
        scan::prepare_with_bands(grid, uas, &options, &mut work).map_err(|e| e.to_string())?;
    if prepared.engine() != Engine::Bands {
        return Err(format!("{grid}: the band engine does not take this scan"));
    }
    let seconds_prepare = started.elapsed().as_secs_f64();
    let size = WorkspaceSize::for_scan(&prepared);
    let mut table = Box::new(BitmapTable::new());
    let mut states = vec![LevelState::ZERO; size.states];
    let mut band_words = vec![0u64; size.band_words];
    let (mut stats, mut counts) = (RunStats::default(), BandCounts::default());
    let mut puzzles = Vec::new();
    for chunk in prepared.chunks() {
        let workspace = WorkspaceView::new(&mut table, &mut states).with_bands(&mut band_words);
        let mut run = ChunkRun::new(&prepared, workspace, chunk).map_err(|e| e.to_string())?;
        run.run(u64::MAX, &mut |puzzle| {
            puzzles.push(puzzle);
            ControlFlow::Continue(())
        });
        stats += run.stats();
        counts += run.band_counts().unwrap_or_default();
    }
    puzzles.sort_unstable_by_key(|p| p.0);
    Ok(BandScanned {
        puzzles,
        stats,
        counts,
        seconds_prepare,
        seconds_run: started.elapsed().as_secs_f64() - seconds_prepare,
    })
}

fn summary(what: &str, values: &[f64]) {
    if let Some(summary) = Summary::of(values) {
        outln!("{what}: {} grids", summary.line());
    }
}

fn run() -> Result<bool, String> {
    let options = parse_options()?;
    let subjects = match (&options.sample.file, options.sample.random) {
        (Some(path), _) => read_subjects(path)?,
        (None, Some(count)) => random_grids(count, options.sample.grid_seed)
            .into_iter()
            .map(|grid| Subject { grid, source: None })
            .collect(),
        (None, None) => unreachable!("checked by parse_options"),
    };
    let (mut today_totals, mut band_totals, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    let mut all_same = true;
    for (i, Subject { grid, source }) in subjects.iter().enumerate() {
        let started = Instant::now();
        let uas = options.sample.uas(grid)?;
        let ua = started.elapsed().as_secs_f64();
        let mut today = None;
        let run_today = || -> Result<(f64, Vec<Cells>), String> {
            let started = Instant::now();
            let puzzles = todays_scan(grid, &uas, options.sample.clues)?;
            Ok((started.elapsed().as_secs_f64(), puzzles))
        };
        if !options.bands_only && i % 2 == 0 {
            today = Some(run_today()?);
        }
        let started = Instant::now();
        let scanned = band_scan(grid, &uas, options.sample.clues)?;
        let puzzles = &scanned.puzzles;
        let band = started.elapsed().as_secs_f64();
        if !options.bands_only && i % 2 == 1 {
            today = Some(run_today()?);
        }
        let same = today.as_ref().map_or(true, |(_, p)| p == puzzles);
        // The source puzzle is found when it has the clues scanned for.
        let source_missing = source
            .is_some_and(|s| s.len() == u32::from(options.sample.clues) && !puzzles.contains(&s));
        all_same &= same && !source_missing;
        let today_text = today
            .as_ref()
            .map_or("-".to_string(), |(s, _)| format!("{:.3}", ua + s));
        outln!(
            "{:>3} {grid} UA {ua:.3} today {today_text} bands {:.3} (prepare {:.3} run {:.3}) \
             found {}{}; first {:.2e}, survivors {}, root-refuted {}, band-3 nodes {}, \
             candidates {}",
            i + 1,
            ua + band,
            scanned.seconds_prepare,
            scanned.seconds_run,
            puzzles.len(),
            match (same, source_missing) {
                (true, false) => "",
                (false, false) => " DIFFERENT",
                (true, true) => " SOURCE MISSING",
                (false, true) => " DIFFERENT, SOURCE MISSING",
            },
            scanned.counts.first_passed as f64,
            scanned.counts.survivors,
            scanned.counts.refuted_at_root,
            scanned.counts.band3_nodes,
            scanned.stats.candidates,
        );
        band_totals.push(ua + band);
        if let Some((s, _)) = today {
            today_totals.push(ua + s);
            ratios.push((ua + band) / (ua + s));
        }
    }
    summary("today (UA included)", &today_totals);
    summary("bands (UA included)", &band_totals);
    if let Some(ratio) = Summary::of(&ratios) {
        // A ratio, not seconds.
        let line = ratio.line().replace(" s,", ",").replace(" s;", ";");
        outln!("bands / today per grid: {line} grids");
    }
    if !today_totals.is_empty() {
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        outln!(
            "ratio of means: {:.3}",
            mean(&band_totals) / mean(&today_totals)
        );
    }
    Ok(all_same)
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!(
                "band_scan: the puzzles differ on some grid, or a source puzzle was not found \
                 (DIFFERENT or SOURCE MISSING above)"
            );
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("band_scan: {e}");
            ExitCode::from(2)
        }
    }
}
