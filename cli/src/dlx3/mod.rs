//! `xcover dlx3`: a drop-in replacement for Knuth's `dlx3`, byte for byte (same arguments,
//! same output on stdout and stderr, same exit codes).
//!
//! Two additions: SIGINT or SIGTERM during the search ends it like the `T` timeout does
//! (`INTERRUPTED!` instead of `TIMEOUT!`, then the closing reports so far) with exit status
//! 130 / 143; and `--max-memory SIZE` refuses an input whose storage would exceed SIZE
//! before allocating it.
mod args;
mod sink;

use std::ffi::OsString;
use std::io::{Read, Write as _};

use xcover_core::dlx3::{measure, Dlx3, Event, Item, Level, Node, Sinks, WorkspaceView, MAX_LEVEL};

use self::args::{parse_args, ArgsOutcome};
use self::sink::IoSink;
use crate::memory;
use crate::signals::{self, Signals};

/// Mems per call of the engine; between calls buffered stderr is flushed and the signal
/// flag is checked (about 0.1 s at 10^9 mems per second).
const MEM_SLICE: u64 = 1 << 26;

/// Exit status when a usage or `--max-memory` value is wrong (Knuth's usage status; also
/// that of `--export-c` / `--export-rust`).
pub(crate) const USAGE_STATUS: i32 = 255;
/// Exit status when the input needs more memory than `--max-memory` allows.
const MEMORY_STATUS: i32 = 1;

/// Exit status when stdout is a closed pipe: what a C program killed by SIGPIPE reports.
const SIGPIPE_STATUS: i32 = 128 + libc::SIGPIPE;

/// Runs `dlx3` with Knuth's arguments; `argv0` is what the usage message names.
/// Returns the process exit status.
pub fn main(argv0: &str, args: Vec<OsString>) -> i32 {
    if args.len() == 1 {
        match args[0].to_str() {
            Some("--help") => {
                print!("{}", args::help_text(argv0));
                return 0;
            }
            Some("--version") => {
                println!(
                    "{argv0} (xcover {}), after D. E. Knuth's DLX3",
                    env!("CARGO_PKG_VERSION")
                );
                return 0;
            }
            _ => {}
        }
    }
    let mut err = IoSink::new(std::io::BufWriter::new(std::io::stderr()));
    let (args, max_memory) = match take_max_memory(args) {
        Ok(split) => split,
        Err(message) => {
            use std::fmt::Write as _;
            let _ = writeln!(err, "{argv0}: {message}");
            err.flush();
            return USAGE_STATUS;
        }
    };
    let limit = max_memory.unwrap_or_else(memory::default_limit);
    let (settings, shape_file) = match parse_args(&args, &mut err) {
        ArgsOutcome::Ok { settings, shape } => (settings, shape),
        ArgsOutcome::Usage => {
            args::write_usage(&mut err, argv0);
            err.flush();
            return USAGE_STATUS;
        }
    };
    if let Some(len) = stdin_file_len() {
        if let Err(message) = memory::check(len, limit, "the input file") {
            use std::fmt::Write as _;
            let _ = writeln!(err, "{argv0}: {message}");
            err.flush();
            return MEMORY_STATUS;
        }
    }
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().lock().read_to_end(&mut input) {
        use std::fmt::Write as _;
        let _ = writeln!(err, "{argv0}: can't read standard input: {e}");
        err.flush();
        return 1;
    }
    let need = storage_bytes(&measure(&input)).saturating_add(input.len() as u64);
    if let Err(message) = memory::check(need, limit, "the input") {
        use std::fmt::Write as _;
        let _ = writeln!(err, "{argv0}: {message}");
        err.flush();
        return MEMORY_STATUS;
    }
    let status = solve(&input, settings, shape_file, &mut err);
    err.flush();
    status
}

/// Removes `--max-memory SIZE` / `--max-memory=SIZE` from Knuth's arguments (none of his
/// starts with `-`); returns the rest and the size.
fn take_max_memory(args: Vec<OsString>) -> Result<(Vec<OsString>, Option<u64>), String> {
    let mut rest = Vec::with_capacity(args.len());
    let mut size = None;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let text = arg.to_str();
        let value = match text {
            Some("--max-memory") => Some(
                args.next()
                    .ok_or("--max-memory needs a SIZE (e.g. 512M, 4G)")?
                    .to_string_lossy()
                    .into_owned(),
            ),
            Some(t) => t.strip_prefix("--max-memory=").map(str::to_owned),
            None => None,
        };
        match value {
            Some(v) => {
                size = Some(memory::parse_size(&v).map_err(|e| format!("--max-memory: {e}"))?)
            }
            None => rest.push(arg),
        }
    }
    Ok((rest, size))
}

/// Length of standard input when it is a regular file (known before reading it).
fn stdin_file_len() -> Option<u64> {
    use std::os::fd::AsFd;
    let fd = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
    let meta = std::fs::File::from(fd).metadata().ok()?;
    meta.is_file().then_some(meta.len())
}

/// Bytes of the engine storage `solve` allocates for capacity `cap`.
pub fn storage_bytes(cap: &xcover_core::dlx3::Capacity) -> u64 {
    let item = std::mem::size_of::<Item>() + std::mem::size_of::<[u8; 8]>();
    let bytes = cap.item_slots as u128 * item as u128
        + cap.node_slots as u128 * std::mem::size_of::<Node>() as u128
        + MAX_LEVEL as u128 * std::mem::size_of::<Level>() as u128;
    u64::try_from(bytes).unwrap_or(u64::MAX)
}

/// Reads the matrix and runs the search; returns the exit status.
fn solve(
    input: &[u8],
    settings: xcover_core::dlx3::Settings,
    shape_file: Option<std::fs::File>,
    err: &mut IoSink<std::io::BufWriter<std::io::Stderr>>,
) -> i32 {
    // Storage follows the input, clamped to Knuth's limits (see `measure`).
    let cap = measure(input);
    let mut items = vec![Item::ZERO; cap.item_slots];
    let mut names = vec![[0u8; 8]; cap.item_slots];
    let mut nodes = vec![Node::ZERO; cap.node_slots];
    let mut levels = vec![Level::ZERO; MAX_LEVEL];
    let storage = WorkspaceView::new(&mut items, &mut names, &mut nodes, &mut levels);
    let mut engine = match Dlx3::new(storage, settings) {
        Ok(e) => e,
        Err(e) => {
            use std::fmt::Write as _;
            let _ = writeln!(err, "{e}");
            return e.exit_status();
        }
    };
    if let Err(e) = engine.read_input(input, err) {
        engine.write_error_report(&e, err);
        return e.exit_status();
    }
    err.flush();
    let mut out = IoSink::new(std::io::BufWriter::new(std::io::stdout().lock()));
    let mut shape = shape_file.map(|f| IoSink::line_flushed(std::io::BufWriter::new(f)));
    // The first SIGINT or SIGTERM stops the search at the end of its slice; installed only
    // around the search, so a signal while the input is read ends the program as usual.
    let signals = Signals::install().ok();
    let mut status = 0;
    loop {
        if let Some(signal) = signals.as_ref().and_then(Signals::received) {
            // Like the `T` timeout: say why, then the closing reports of the search so far.
            use std::fmt::Write as _;
            out.flush();
            let _ = err.write_str("INTERRUPTED!\n");
            status = signals::exit_status(signal);
            break;
        }
        let mut sinks = Sinks {
            out: &mut out,
            err: &mut *err,
            shape: shape
                .as_mut()
                .map(|s| s as &mut dyn xcover_core::sink::ByteSink),
        };
        match engine.run(MEM_SLICE, &mut sinks) {
            Ok(Event::Solution) => {
                out.flush();
                if out.broken_pipe {
                    // Knuth's program would be killed by SIGPIPE here; stop quietly.
                    return SIGPIPE_STATUS;
                }
            }
            Ok(Event::BudgetExhausted) => err.flush(),
            Ok(Event::Done(_)) => break,
            Err(e) => {
                out.flush();
                engine.write_error_report(&e, err);
                return e.exit_status();
            }
        }
    }
    out.flush();
    engine.finish(err);
    if let Some(s) = shape.as_mut() {
        s.flush();
    }
    let _ = std::io::stdout().flush();
    status
}

#[cfg(test)]
mod tests {
    use super::*;
    use xcover_core::dlx3::Capacity;

    /// The README's figure: 24 bytes per item slot (item and name), 16 per node slot,
    /// 24 per level (500 levels); Knuth's full limits need about 1.5 GiB.
    #[test]
    fn storage_bytes_is_the_readme_formula() {
        let cap = Capacity {
            item_slots: 12,
            node_slots: 345,
        };
        assert_eq!(storage_bytes(&cap), 24 * 12 + 16 * 345 + 24 * 500);
        let knuth = storage_bytes(&Capacity::KNUTH);
        assert_eq!(knuth, 24 * 10_002 + 16 * 100_000_000 + 24 * 500);
    }

    #[test]
    fn max_memory_is_taken_out_of_knuths_arguments() {
        let args = |list: &[&str]| list.iter().map(OsString::from).collect::<Vec<_>>();
        let (rest, size) = take_max_memory(args(&["m1", "--max-memory", "2K", "T5"])).unwrap();
        assert_eq!((rest, size), (args(&["m1", "T5"]), Some(2048)));
        let (rest, size) = take_max_memory(args(&["--max-memory=1M", "v0"])).unwrap();
        assert_eq!((rest, size), (args(&["v0"]), Some(1 << 20)));
        assert!(take_max_memory(args(&["m1", "--max-memory"])).is_err());
        assert!(take_max_memory(args(&["--max-memory=1Z"])).is_err());
        let (rest, size) = take_max_memory(args(&["m1", "-max-memory=1"])).unwrap();
        assert_eq!((rest, size), (args(&["m1", "-max-memory=1"]), None));
    }
}
