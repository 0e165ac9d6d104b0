//! `xcover dlx3`: a drop-in replacement for Knuth's `dlx3`, byte for byte (same arguments,
//! same output on stdout and stderr, same exit codes).
mod args;
pub mod memory;
mod sink;

use std::ffi::OsString;
use std::io::{Read, Write as _};

use xcover_core::dlx3::{measure, Dlx3, Event, Item, Level, Node, Sinks, Storage, MAX_LEVEL};

use self::args::{parse_args, ArgsOutcome};
use self::sink::ByteSink;

/// Mems per call of the engine; between calls buffered stderr is flushed.
const MEM_SLICE: u64 = 1 << 28;

/// Exit status when stdout is a closed pipe: what a C program killed by SIGPIPE reports.
const SIGPIPE_STATUS: i32 = 128 + 13;

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
    let mut err = ByteSink::new(std::io::BufWriter::new(std::io::stderr()));
    let (settings, shape_file) = match parse_args(&args, &mut err) {
        ArgsOutcome::Ok { settings, shape } => (settings, shape),
        ArgsOutcome::Usage => {
            args::write_usage(&mut err, argv0);
            err.flush();
            return 255;
        }
    };
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().lock().read_to_end(&mut input) {
        use std::fmt::Write as _;
        let _ = writeln!(err, "{argv0}: can't read standard input: {e}");
        err.flush();
        return 1;
    }
    let status = solve(&input, settings, shape_file, &mut err);
    err.flush();
    status
}

/// Reads the matrix and runs the search; returns the exit status.
fn solve(
    input: &[u8],
    settings: xcover_core::dlx3::Settings,
    shape_file: Option<std::fs::File>,
    err: &mut ByteSink<std::io::BufWriter<std::io::Stderr>>,
) -> i32 {
    // Storage follows the input, clamped to Knuth's limits (see `measure`).
    let cap = measure(input);
    let mut items = vec![Item::ZERO; cap.item_slots];
    let mut names = vec![[0u8; 8]; cap.item_slots];
    let mut nodes = vec![Node::ZERO; cap.node_slots];
    let mut levels = vec![Level::ZERO; MAX_LEVEL];
    let storage = Storage::new(&mut items, &mut names, &mut nodes, &mut levels);
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
    let mut out = ByteSink::new(std::io::BufWriter::new(std::io::stdout().lock()));
    let mut shape = shape_file.map(|f| ByteSink::line_flushed(std::io::BufWriter::new(f)));
    loop {
        let mut sinks = Sinks {
            out: &mut out,
            err: &mut *err,
            shape: shape.as_mut().map(|s| s as &mut dyn std::fmt::Write),
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
    0
}
