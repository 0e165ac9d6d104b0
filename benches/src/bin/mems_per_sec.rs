//! Runs a `.dlx` file through the DLX3 engine and prints solutions, mems, seconds and
//! G mems/s; optionally runs a reference `dlx3` program on the same file and prints the
//! time ratio.
//!
//! ```text
//! mems_per_sec (FILE.dlx | --kind NAME) [DLX3-ARGS...] [--repeat N] [--ref PATH | --no-ref]
//! ```
//! `--kind NAME` generates one of the inputs of `xcover_benches::KINDS` (plain queens,
//! bounds, multiplicities, polyominoes, colors, random tie breaks) instead of reading a
//! file; `--kind list` lists them. The input is written to a temporary file for the
//! reference.
//! DLX3-ARGS are Knuth's (`s7`, `t1000`, ...); the default is `m0 v0` (count only, no text).
//! The reference defaults to `$XCOVER_REF_DLX3` or, if it exists, `/work/scratch/ref/dlx3`;
//! it is run as `PATH DLX3-ARGS m0 v1 < FILE` (stdout discarded) and its statistics line is
//! checked against ours. The two alternate; times are the minimum over N repetitions
//! (default 3); ours covers parsing and search of the in-memory file, the reference's is the
//! wall time of its process.
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};
use xcover_benches::outln;

use xcover_benches::{kind_input, load, quiet_settings, run_to_end, Discard, HeapWorkspace, KINDS};
use xcover_core::dlx3::{ArgOutcome, Settings, Stats};

const DEFAULT_REF: &str = "/work/scratch/ref/dlx3";

/// The numbers of a statistics line: (solutions, input mems, search mems).
type Altogether = (u64, u64, u64);

struct Options {
    file: PathBuf,
    dlx3_args: Vec<String>,
    repeat: u32,
    reference: Option<PathBuf>,
}

fn parse_options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut file = None;
    let mut dlx3_args = Vec::new();
    let mut repeat = 3;
    let mut reference = std::env::var_os("XCOVER_REF_DLX3")
        .map(PathBuf::from)
        .or_else(|| Some(PathBuf::from(DEFAULT_REF)).filter(|p| p.exists()));
    while let Some(a) = args.next() {
        match a.as_str() {
            "--repeat" => {
                repeat = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n| n > 0)
                    .ok_or("--repeat needs a positive number")?;
            }
            "--ref" => reference = Some(PathBuf::from(args.next().ok_or("--ref needs a path")?)),
            "--no-ref" => reference = None,
            "--kind" if file.is_none() => {
                let name = args.next().ok_or("--kind needs a name")?;
                if name == "list" {
                    for (n, what) in KINDS {
                        outln!("{n:12} {what}");
                    }
                    std::process::exit(0);
                }
                let (text, extra) = kind_input(&name).ok_or_else(|| {
                    let names: Vec<&str> = KINDS.iter().map(|(n, _)| *n).collect();
                    format!("kinds: {}", names.join(" "))
                })?;
                let path = std::env::temp_dir().join(format!("mems_per_sec_{name}.dlx"));
                std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
                dlx3_args.extend(extra.iter().map(|a| a.to_string()));
                file = Some(path);
            }
            _ if file.is_none() => file = Some(PathBuf::from(a)),
            _ => dlx3_args.push(a),
        }
    }
    let file = file.ok_or(
        "usage: mems_per_sec (FILE.dlx | --kind NAME) [DLX3-ARGS...] [--repeat N] [--ref PATH | --no-ref]",
    )?;
    Ok(Options {
        file,
        dlx3_args,
        repeat,
        reference,
    })
}

/// Settings from Knuth-style arguments over a quiet default (first occurrence wins).
fn settings(args: &[String]) -> Result<Settings, String> {
    let mut s = quiet_settings();
    for a in args.iter().rev() {
        match s.apply_arg(a.as_bytes()) {
            ArgOutcome::Set => {}
            ArgOutcome::ShapeFile(_) => return Err("S<file> is not supported here".into()),
            ArgOutcome::Bad => return Err(format!("bad dlx3 argument `{a}'")),
        }
    }
    Ok(s)
}

fn run_ours(input: &[u8], settings: Settings) -> Result<(Stats, Duration), String> {
    let start = Instant::now();
    let mut workspace = HeapWorkspace::for_input(input);
    let mut engine =
        load(input, settings, &mut workspace, &mut Discard).map_err(|e| format!("input: {e}"))?;
    let stats = run_to_end(&mut engine, &mut Discard, &mut Discard).map_err(|e| e.to_string())?;
    Ok((stats, start.elapsed()))
}

/// `Altogether C solutions, I+M mems, ...` -> (C, I, M).
fn parse_altogether(stderr: &str) -> Option<Altogether> {
    let line = stderr.lines().find(|l| l.starts_with("Altogether "))?;
    let mut words = line.split(' ');
    let count = words.nth(1)?.parse().ok()?;
    let mems = words.nth(1)?;
    let (i, m) = mems.split_once('+')?;
    Some((count, i.parse().ok()?, m.parse().ok()?))
}

fn run_reference(
    path: &PathBuf,
    file: &PathBuf,
    args: &[String],
) -> Result<(Option<Altogether>, Duration), String> {
    let input = std::fs::File::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let start = Instant::now();
    let out = Command::new(path)
        .args(args)
        .args(["m0", "v1"])
        .stdin(input)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let elapsed = start.elapsed();
    Ok((
        parse_altogether(&String::from_utf8_lossy(&out.stderr)),
        elapsed,
    ))
}

fn gmems_per_sec(mems: u64, t: Duration) -> f64 {
    mems as f64 / t.as_secs_f64() / 1e9
}

fn real_main() -> Result<(), String> {
    let opts = parse_options()?;
    let input = std::fs::read(&opts.file).map_err(|e| format!("{}: {e}", opts.file.display()))?;
    let settings = settings(&opts.dlx3_args)?;

    // Ours and the reference alternate, so that a busy spell of the machine hits both.
    let mut best: Option<(Stats, Duration)> = None;
    let mut best_ref: Option<(Option<Altogether>, Duration)> = None;
    for _ in 0..opts.repeat {
        let (stats, t) = run_ours(&input, settings)?;
        if best.as_ref().map_or(true, |(_, bt)| t < *bt) {
            best = Some((stats, t));
        }
        if let Some(path) = &opts.reference {
            let (alt, t) = run_reference(path, &opts.file, &opts.dlx3_args)?;
            if best_ref.as_ref().map_or(true, |(_, bt)| t < *bt) {
                best_ref = Some((alt, t));
            }
        }
    }
    let (stats, ours) = best.ok_or("no run")?;
    let mems = stats.imems + stats.mems;
    outln!("file       {}", opts.file.display());
    outln!("solutions  {}", stats.count);
    outln!("mems       {}+{} = {}", stats.imems, stats.mems, mems);
    outln!(
        "seconds    {:.6}  (min of {})",
        ours.as_secs_f64(),
        opts.repeat
    );
    outln!("G mems/s   {:.3}", gmems_per_sec(mems, ours));

    if let (Some(path), Some((alt, theirs))) = (&opts.reference, best_ref) {
        outln!("reference  {}", path.display());
        match alt {
            Some((c, i, m)) => {
                let same = c == stats.count && i == stats.imems && m == stats.mems;
                outln!(
                    "ref stats  {c} solutions, {i}+{m} mems ({})",
                    if same { "same" } else { "DIFFERENT" }
                );
            }
            None => outln!("ref stats  (no statistics line)"),
        }
        outln!(
            "ref secs   {:.6}  (min of {}, process wall time)",
            theirs.as_secs_f64(),
            opts.repeat
        );
        outln!("ref G m/s  {:.3}", gmems_per_sec(mems, theirs));
        outln!(
            "ratio      {:.3}  (ours / reference time; < 1 means faster)",
            ours.as_secs_f64() / theirs.as_secs_f64()
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    match real_main() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mems_per_sec: {e}");
            ExitCode::FAILURE
        }
    }
}
