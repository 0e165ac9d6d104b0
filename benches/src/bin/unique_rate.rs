//! Measures the grid checker's uniqueness test (`solver::is_unique_with_grid`), one thread.
//!
//! ```text
//! unique_rate [FILE] [--count N] [--rounds R] [--only17]
//! ```
//! Reads the first N puzzles (default 20000) of FILE (default: the shared 17-clue list,
//! `../shared/data/sudoku17.txt` beside the repository), solves each one for its grid
//! (untimed), then times `is_unique_with_grid` over all of them in R rounds (default 7, each
//! repeating the set for about 0.3 s) and prints the best round as puzzles per second, by
//! wall time and by the thread's CPU time (`/proc/thread-self/schedstat`, which a busy
//! machine disturbs less). Unless `--only17`, it does the same for the 16-clue variants made
//! by dropping each puzzle's lowest given, which are never unique. A wrong answer on either
//! set (a 17 not unique, a 16 unique) is reported and makes the exit status 1.
//!
//! The timed loops are those of the criterion benches `sudoku17/is_unique_with_grid` and
//! `sudoku17/is_unique_with_grid_16` (givens taken from the puzzle inside the loop), which
//! use the first 2000 puzzles: `--count 2000` reproduces their set.
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use xcover_benches::outln;

use xcover_core::gridcheck::{solver, Cells, Grid, Puzzle};

/// How a timed pass picks the givens of a puzzle.
#[derive(Copy, Clone)]
enum Givens {
    /// All of them (the 17s).
    All,
    /// All but the lowest (a 16).
    DropLowest,
}

struct Options {
    file: PathBuf,
    count: usize,
    rounds: usize,
    only17: bool,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        file: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/sudoku17.txt"),
        count: 20_000,
        rounds: 7,
        only17: false,
    };
    let mut args = std::env::args().skip(1);
    let number = |v: Option<String>, what: &str| -> Result<usize, String> {
        let v = v.ok_or(format!("{what} needs a value"))?;
        match v.parse::<usize>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(format!("{what}: {v:?} is not a positive number")),
        }
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--count" => options.count = number(args.next(), "--count")?,
            "--rounds" => options.rounds = number(args.next(), "--rounds")?,
            "--only17" => options.only17 = true,
            "-h" | "--help" => {
                return Err("usage: unique_rate [FILE] [--count N] [--rounds R] [--only17]".into())
            }
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            _ => options.file = PathBuf::from(arg),
        }
    }
    Ok(options)
}

/// The first `count` puzzles of the file with their grids (the first solution of each).
fn load(options: &Options) -> Result<Vec<(Puzzle, Grid)>, String> {
    let text = std::fs::read_to_string(&options.file)
        .map_err(|e| format!("{}: {e}", options.file.display()))?;
    let mut set = Vec::with_capacity(options.count);
    for (i, line) in text.lines().take(options.count).enumerate() {
        let where_ = || format!("{} line {}", options.file.display(), i + 1);
        let p =
            Puzzle::parse(line.trim().as_bytes()).map_err(|e| format!("{}: {e:?}", where_()))?;
        let solution = solver::solve(&p).ok_or_else(|| format!("{}: no solution", where_()))?;
        let grid =
            Grid::from_digits(solution).map_err(|e| format!("{}: bad grid {e:?}", where_()))?;
        set.push((p, grid));
    }
    if set.is_empty() {
        return Err(format!("{}: no puzzles", options.file.display()));
    }
    Ok(set)
}

/// The calling thread's on-CPU time in nanoseconds (0 if unavailable).
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Runs the uniqueness test on every set entry `reps` times; returns the number found
/// unique (per pass).
fn pass(set: &[(Puzzle, Grid)], which: Givens, reps: usize) -> usize {
    let mut unique = 0;
    for _ in 0..reps {
        unique = match which {
            Givens::All => set
                .iter()
                .filter(|(p, g)| solver::is_unique_with_grid(g, p.givens()))
                .count(),
            Givens::DropLowest => set
                .iter()
                .filter(|(p, g)| {
                    let givens = p.givens();
                    let dropped = givens - Cells::single(givens.lowest().unwrap_or(0));
                    solver::is_unique_with_grid(g, dropped)
                })
                .count(),
        };
    }
    unique
}

/// Best wall and CPU seconds per pass over the set, over `rounds` rounds, and the number
/// found unique. A round repeats the pass until it lasts about [`ROUND_SECONDS`]: the
/// thread's CPU time is only brought up to date at scheduler ticks (a few milliseconds), so a
/// shorter round would misread it.
fn time_rounds(set: &[(Puzzle, Grid)], which: Givens, rounds: usize) -> (f64, f64, usize) {
    let start = Instant::now();
    let unique = pass(set, which, 1);
    let once = start.elapsed().as_secs_f64().max(1e-6);
    let reps = ((ROUND_SECONDS / once).ceil() as usize).max(1);
    let (mut best_wall, mut best_cpu) = (f64::MAX, f64::MAX);
    for _ in 0..rounds {
        let (cpu0, wall0) = (thread_cpu_ns(), Instant::now());
        std::hint::black_box(pass(std::hint::black_box(set), which, reps));
        let wall = wall0.elapsed().as_secs_f64() / reps as f64;
        let cpu = thread_cpu_ns().saturating_sub(cpu0) as f64 * 1e-9 / reps as f64;
        best_wall = best_wall.min(wall);
        if cpu > 0.0 {
            best_cpu = best_cpu.min(cpu);
        }
    }
    (best_wall, best_cpu, unique)
}

/// Target length of one timed round.
const ROUND_SECONDS: f64 = 0.3;

fn report(name: &str, n: usize, (wall, cpu, unique): (f64, f64, usize)) {
    let cpu_rate = if cpu < f64::MAX {
        format!("{:.0}", n as f64 / cpu)
    } else {
        "n/a".into()
    };
    outln!(
        "{name}: {n} puzzles, {unique} unique; best pass {:.2} ms wall = {:.0} puzzles/s, \
         {cpu_rate} puzzles/s by CPU time",
        wall * 1e3,
        n as f64 / wall,
    );
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("unique_rate: {e}");
            return ExitCode::from(2);
        }
    };
    let set = match load(&options) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("unique_rate: {e}");
            return ExitCode::from(2);
        }
    };
    let full = time_rounds(&set, Givens::All, options.rounds);
    report("17 clues", set.len(), full);
    let dropped = if options.only17 {
        (0.0, 0.0, 0)
    } else {
        let dropped = time_rounds(&set, Givens::DropLowest, options.rounds);
        report("16 clues (lowest given dropped)", set.len(), dropped);
        dropped
    };
    // Every puzzle of the shared list is unique, and no 16-clue Sudoku is (McGuire et al.).
    let mut ok = true;
    if full.2 != set.len() {
        eprintln!(
            "unique_rate: {} of {} puzzles not found unique",
            set.len() - full.2,
            set.len()
        );
        ok = false;
    }
    if dropped.2 != 0 {
        eprintln!("unique_rate: {} 16-clue variants found unique", dropped.2);
        ok = false;
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
