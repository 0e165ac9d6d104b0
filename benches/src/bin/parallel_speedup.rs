//! Measures `xcover dlx3 --threads T` and `--shard I/N` against one thread, on the heavy
//! inputs, as ratios taken in one run (the programs alternate, so both see the same
//! machine).
//!
//! ```text
//! parallel_speedup [--xcover PATH] [--threads T] [--shards N] [--repeat R] [NAME...]
//! parallel_speedup --list | --write NAME FILE
//! ```
//! For each input (default: all of [`HEAVY`]; `--list` names them, `--write` writes one to
//! a file) it runs
//! `xcover dlx3 m0 v1` with `--threads 1` and `--threads T` (default 2) alternately R
//! times (default 3), checks that both print the same statistics, and prints the minimum
//! and median wall times, the speed-up (one-thread minimum over T-thread minimum) and the
//! CPU time of each. With `--shards N` (default 4) it also runs the N shards one after the
//! other and reports the sum of their CPU times over one run's CPU time, and the largest
//! shard's share of that sum (1/N is perfect balance).
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};
use xcover_benches::outln;

use xcover_benches::{edge_matching_dlx, pentominoes_dlx, queens_dlx, queens_k_dlx};

/// A workload: its name, what it is, and the generator of its input.
type Workload = (&'static str, &'static str, fn() -> String);

/// The heavy inputs.
const HEAVY: [Workload; 6] = [
    ("queens14", "n queens 14, count all", || queens_dlx(14)),
    ("queens15", "n queens 15, count all", || queens_dlx(15)),
    ("pent6x10", "the twelve pentominoes into 6x10", || {
        pentominoes_dlx(6, 10)
    }),
    ("k9_queens10", "9 queens on 10x10, every line 0:1", || {
        queens_k_dlx(10, 9)
    }),
    ("edges3x4", "edge matching 3x4, 2 colours", || {
        edge_matching_dlx(3, 4, 2)
    }),
    ("queens13", "n queens 13, count all", || queens_dlx(13)),
];

/// CPU seconds (user + system) of the children waited for so far.
fn children_cpu() -> f64 {
    // SAFETY: getrusage writes one rusage struct, which lives on this stack frame.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: as above; RUSAGE_CHILDREN is a valid `who`.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(u.ru_utime) + secs(u.ru_stime)
}

/// One run: (wall time, CPU time, the statistics line, stdout).
fn run(
    xcover: &Path,
    input: &Path,
    args: &[&str],
) -> Result<(Duration, f64, String, Vec<u8>), String> {
    let cpu0 = children_cpu();
    let start = Instant::now();
    let out = Command::new(xcover)
        .arg("dlx3")
        .args(args)
        .stdin(std::fs::File::open(input).map_err(|e| e.to_string())?)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("{}: {e}", xcover.display()))?;
    let wall = start.elapsed();
    let cpu = children_cpu() - cpu0;
    if !out.status.success() {
        return Err(format!(
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let err = String::from_utf8_lossy(&out.stderr);
    let line = err
        .lines()
        .find(|l| l.starts_with("Altogether"))
        .unwrap_or("")
        .to_string();
    Ok((wall, cpu, line, out.stdout))
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn main() -> ExitCode {
    match real_main() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("parallel_speedup: {e}");
            ExitCode::FAILURE
        }
    }
}

fn real_main() -> Result<(), String> {
    let mut xcover = PathBuf::from("target/release/xcover");
    let (mut threads, mut shards, mut repeat) = (2u64, 4u64, 3usize);
    let mut names = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |what: &str| args.next().ok_or(format!("{what} needs a value"));
        match a.as_str() {
            "--xcover" => xcover = PathBuf::from(value("--xcover")?),
            "--threads" => {
                threads = value("--threads")?
                    .parse()
                    .map_err(|e| format!("--threads: {e}"))?
            }
            "--shards" => {
                shards = value("--shards")?
                    .parse()
                    .map_err(|e| format!("--shards: {e}"))?
            }
            "--repeat" => {
                repeat = value("--repeat")?
                    .parse()
                    .map_err(|e| format!("--repeat: {e}"))?
            }
            "--write" => {
                let name = value("--write")?;
                let file = value("--write NAME")?;
                let (_, _, make) = HEAVY
                    .iter()
                    .find(|h| h.0 == name)
                    .ok_or(format!("no input {name} (see --list)"))?;
                return std::fs::write(&file, make()).map_err(|e| format!("{file}: {e}"));
            }
            "--list" => {
                for (n, what, _) in HEAVY {
                    outln!("{n:12} {what}");
                }
                return Ok(());
            }
            name => names.push(name.to_string()),
        }
    }
    if names.is_empty() {
        names = HEAVY.iter().map(|h| h.0.to_string()).collect();
    }
    let dir = std::env::temp_dir().join(format!("parallel_speedup.{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let t_arg = threads.to_string();
    outln!("input         1 thread min/median   {threads} threads min/median   speed-up   CPU 1 / {threads}   shards {shards}: CPU sum / one, largest share");
    for name in &names {
        let (_, _, make) = HEAVY
            .iter()
            .find(|h| h.0 == name)
            .ok_or(format!("no input {name} (see --list)"))?;
        let input = dir.join(format!("{name}.dlx"));
        std::fs::write(&input, make()).map_err(|e| e.to_string())?;
        let (mut one, mut many) = (Vec::new(), Vec::new());
        let (mut cpu_one, mut cpu_many) = (Vec::new(), Vec::new());
        for _ in 0..repeat {
            let a = run(&xcover, &input, &["--threads", "1", "m0", "v1"])?;
            let b = run(&xcover, &input, &["--threads", &t_arg, "m0", "v1"])?;
            if a.2 != b.2 {
                return Err(format!("{name}: statistics differ:\n{}\n{}", a.2, b.2));
            }
            one.push(a.0.as_secs_f64());
            many.push(b.0.as_secs_f64());
            cpu_one.push(a.1);
            cpu_many.push(b.1);
        }
        let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
        let (one_min, many_min) = (min(&one), min(&many));
        let (one_med, many_med) = (median(&mut one), median(&mut many));
        let (c1, cn) = (median(&mut cpu_one), median(&mut cpu_many));
        let mut shard_line = String::new();
        if shards > 1 {
            let mut cpus = Vec::new();
            for i in 0..shards {
                let s = format!("{i}/{shards}");
                let (_, cpu, _, _) = run(&xcover, &input, &["--shard", &s, "m0", "v1"])?;
                cpus.push(cpu);
            }
            let sum: f64 = cpus.iter().sum();
            let largest = cpus.iter().copied().fold(0.0, f64::max);
            shard_line = format!("{:.3}, {:.3}", sum / c1, largest / sum);
        }
        outln!(
            "{name:12} {one_min:7.3} / {one_med:7.3} s   {many_min:7.3} / {many_med:7.3} s     {:5.2}x    {c1:6.2} / {cn:6.2} s   {shard_line}",
            one_min / many_min
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
