//! Whole-grid scans of many grids, one thread each: the mean, median and tail of the time
//! per grid.
//!
//! ```text
//! grid_median (--random K [--grid-seed S] | --file F) [--clues N] [--ua-random K] [--seed S]
//!             [--list] [--detail] [--enumeration]
//! ```
//! The grids are K random solution grids (`xcover_benches::grids::random_grid`, one
//! generator seeded with S, default 1) or those of F (81 digits at the start of each line;
//! other lines are skipped). Each grid goes through what `xcover gridcheck --clues N
//! --threads 1 GRID` does: UA generation (4-digit subsets and `--ua-random` pseudo-puzzles,
//! by default the CLI's recipe for the grid, `ua::budget::whole_grid_recipe`: the 4-digit
//! subsets and 1000, or for at most 16 clues on a grid with many 4-cell UA 400 random
//! pseudo-puzzles alone; seed `--seed`, default 1), preparation, and every chunk of the scan
//! on the engine the command runs it with (the band engine for a whole grid;
//! `--enumeration` runs the enumeration instead, whose placements `--detail` counts).
//! Prints a line per grid (the seconds of each phase, wall clock, and the total), then the
//! mean, median, p90, p99, max, quartiles and min of the total and of the scan phase, and a
//! histogram of the totals with the share of the time each range makes up (a full search
//! pays the mean, so the tail matters).
//!
//! `--list` prints the grids and stops (to scan them elsewhere with `--file`).
//!
//! `--detail` adds a line per grid with what may make it slow: its UA by size, its clique
//! (members' sizes) and, when built with `--features scan-profile`, the placements by
//! clues left and the probe outcomes. It ends with the slowest tenth of the grids set
//! against the middle fifth (the grids around the median), feature by feature.
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use xcover_benches::{out, outln};

use xcover_benches::grids::random_grids;
use xcover_benches::sample::Sample;
use xcover_benches::times::{histogram_text, Summary};
use xcover_core::gridcheck::scan::{
    self, BitmapTable, ChunkRun, LevelState, ScanOptions, WorkspaceSize, WorkspaceView,
};
use xcover_core::gridcheck::Grid;

struct Options {
    sample: Sample,
    detail: bool,
    list: bool,
    enumeration: bool,
}

fn parse_options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut options = Options {
        sample: Sample::default(),
        detail: false,
        list: false,
        enumeration: false,
    };
    while let Some(a) = args.next() {
        if options.sample.take(&a, &mut args)? {
            continue;
        }
        match a.as_str() {
            "--detail" => options.detail = true,
            "--list" => options.list = true,
            "--enumeration" => options.enumeration = true,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    options.sample.check()?;
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

/// What one grid's scan looked like (`--detail`).
#[derive(Clone, Default)]
struct Detail {
    /// UA by size (index: cells).
    ua_by_size: Vec<usize>,
    /// Sizes of the clique's members.
    clique: Vec<u32>,
    /// Placements by clues left, then the probes by clues left after the placement:
    /// pruned, all hit, open (empty without the `scan-profile` feature).
    placements: Vec<u64>,
    probes: Vec<[u64; 3]>,
}

impl Detail {
    /// UA of `lo..=hi` cells.
    fn uas(&self, lo: usize, hi: usize) -> usize {
        self.ua_by_size.iter().take(hi + 1).skip(lo).sum()
    }

    /// The named figures compared between the tail and the middle.
    fn features(&self) -> Vec<(String, f64)> {
        let mut f = vec![
            ("UA 4".to_string(), self.uas(4, 4) as f64),
            ("UA 6".to_string(), self.uas(6, 6) as f64),
            ("UA 8".to_string(), self.uas(8, 8) as f64),
            ("UA 9-12".to_string(), self.uas(9, 12) as f64),
            ("UA 13-16".to_string(), self.uas(13, 16) as f64),
            ("clique members".to_string(), self.clique.len() as f64),
            (
                "clique cells".to_string(),
                self.clique.iter().sum::<u32>() as f64,
            ),
        ];
        for (left, &n) in self.placements.iter().enumerate().rev() {
            if n > 0 {
                f.push((format!("placements, {left} left"), n as f64));
            }
        }
        for (left, p) in self.probes.iter().enumerate().rev() {
            if p.iter().sum::<u64>() > 0 {
                f.push((format!("probes pruned, {left} left after"), p[0] as f64));
                f.push((format!("probes open, {left} left after"), p[2] as f64));
            }
        }
        f
    }

    fn line(&self) -> String {
        let sizes: Vec<String> = self
            .ua_by_size
            .iter()
            .enumerate()
            .filter(|(z, &n)| n > 0 && *z <= 16)
            .map(|(z, n)| format!("{z}:{n}"))
            .collect();
        let mut line = format!(
            "    UA by size {} (17+: {}); clique {} {:?}",
            sizes.join(" "),
            self.uas(17, 81),
            self.clique.len(),
            self.clique
        );
        if !self.placements.is_empty() {
            let by_left: Vec<String> = self
                .placements
                .iter()
                .enumerate()
                .rev()
                .filter(|(_, &n)| n > 0)
                .map(|(left, n)| format!("{left}:{n}"))
                .collect();
            line += &format!("\n    placements by clues left {}", by_left.join(" "));
            let probes: Vec<String> = self
                .probes
                .iter()
                .enumerate()
                .rev()
                .filter(|(_, p)| p.iter().sum::<u64>() > 0)
                .map(|(left, p)| format!("{left}:{}/{}/{}", p[0], p[1], p[2]))
                .collect();
            line += &format!(
                "\n    probes by clues left after (pruned/all hit/open) {}",
                probes.join(" ")
            );
        }
        line
    }
}

/// Scans `grid` whole; returns the phase times, the steps (placements, as `xcover
/// gridcheck` counts its nodes), the puzzles found and the detail.
fn scan_grid(grid: &Grid, options: &Options) -> Result<(Times, u64, u64, Detail), String> {
    let started = Instant::now();
    let uas = options.sample.uas(grid)?;
    let ua = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let scan_options = ScanOptions::new(options.sample.clues);
    let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
    let prepare = if options.enumeration {
        scan::prepare
    } else {
        scan::prepare_with_bands
    };
    let prepared = prepare(grid, &uas, &scan_options, &mut work).map_err(|e| e.to_string())?;
    let prepare = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let size = WorkspaceSize::for_scan(&prepared);
    let mut table = Box::new(BitmapTable::new());
    let mut states = vec![LevelState::ZERO; size.states];
    let mut band_words = vec![0u64; size.band_words];
    let (mut steps, mut found) = (0u64, 0u64);
    #[cfg(feature = "scan-profile")]
    let mut profile = scan::ScanProfile::ZERO;
    for chunk in prepared.chunks() {
        let workspace = WorkspaceView::new(&mut table, &mut states).with_bands(&mut band_words);
        let mut run = ChunkRun::new(&prepared, workspace, chunk).map_err(|e| e.to_string())?;
        run.run(u64::MAX, &mut |_| ControlFlow::Continue(()));
        steps += run.stats().steps;
        found += run.stats().found;
        #[cfg(feature = "scan-profile")]
        {
            profile += run.profile();
        }
    }
    let scan = started.elapsed().as_secs_f64();
    let mut detail = Detail {
        ua_by_size: vec![0; 82],
        clique: prepared
            .clique_members()
            .iter()
            .map(|m| m.count_ones())
            .collect(),
        ..Detail::default()
    };
    for ua in &uas {
        detail.ua_by_size[ua.len() as usize] += 1;
    }
    #[cfg(feature = "scan-profile")]
    {
        detail.placements = profile.placements.to_vec();
        detail.probes = (0..profile.pruned.len())
            .map(|l| [profile.pruned[l], profile.all_hit[l], profile.open[l]])
            .collect();
    }
    Ok((Times { ua, prepare, scan }, steps, found, detail))
}

/// The slowest tenth of the grids against the middle fifth, feature by feature (means).
fn tail_against_middle(totals: &[f64], details: &[Detail]) {
    let mut order: Vec<usize> = (0..totals.len()).collect();
    order.sort_by(|&a, &b| totals[a].total_cmp(&totals[b]));
    let n = order.len();
    let tail = &order[n - n.div_ceil(10)..];
    let middle = &order[n * 2 / 5..(n * 3 / 5).max(n * 2 / 5 + 1).min(n)];
    let mean = |grids: &[usize], i: usize| {
        grids
            .iter()
            .map(|&g| details[g].features()[i].1)
            .sum::<f64>()
            / grids.len() as f64
    };
    let time = |grids: &[usize]| grids.iter().map(|&g| totals[g]).sum::<f64>() / grids.len() as f64;
    outln!(
        "slowest {} grids (mean {:.2} s) against the middle {} (mean {:.2} s), means per grid:",
        tail.len(),
        time(tail),
        middle.len(),
        time(middle)
    );
    // Only features every grid has (the placements by level may differ in length).
    let names = details[order[0]].features();
    for (i, (name, _)) in names.iter().enumerate() {
        if details
            .iter()
            .any(|d| d.features().get(i).map(|f| &f.0) != Some(name))
        {
            continue;
        }
        let (t, m) = (mean(tail, i), mean(middle, i));
        let ratio = if m > 0.0 {
            format!("{:.2}x", t / m)
        } else {
            "-".into()
        };
        outln!("  {name:<34} {t:>14.1} {m:>14.1}  {ratio}");
    }
}

fn summary(what: &str, values: &[f64]) {
    if let Some(summary) = Summary::of(values) {
        outln!("{what}: {} grids", summary.line());
    }
}

fn run() -> Result<(), String> {
    let options = parse_options()?;
    let grids = match (&options.sample.file, options.sample.random) {
        (Some(path), _) => read_grids(path)?,
        (None, Some(count)) => random_grids(count, options.sample.grid_seed),
        (None, None) => unreachable!("checked by parse_options"),
    };
    if options.list {
        for grid in &grids {
            outln!("{grid}");
        }
        return Ok(());
    }
    let mut totals = Vec::new();
    let mut scans = Vec::new();
    let mut details = Vec::new();
    for (i, grid) in grids.iter().enumerate() {
        let (times, steps, found, detail) = scan_grid(grid, &options)?;
        outln!(
            "{:>3} {grid} UA {:.2} prepare {:.2} scan {:.2} total {:.2} s; nodes {steps} found {found}",
            i + 1,
            times.ua,
            times.prepare,
            times.scan,
            times.total()
        );
        if options.detail {
            outln!("{}", detail.line());
        }
        totals.push(times.total());
        scans.push(times.scan);
        details.push(detail);
    }
    summary("total (UA, prepare, scan)", &totals);
    summary("scan phase", &scans);
    out!("total per grid:\n{}", histogram_text(&totals));
    if options.detail && totals.len() >= 10 {
        tail_against_middle(&totals, &details);
    }
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
