//! DLX3 in the browser: Knuth's arguments, the matrix, the search in mem budgets and the
//! closing reports, printed byte for byte as `xcover dlx3` prints them (the same core
//! writers; solutions to stdout, the rest to stderr).
use alloc::boxed::Box;
use core::fmt::Write as _;

use xcover_core::dlx3::image::{Item, Level, Node};
use xcover_core::dlx3::{
    measure, ArgOutcome, Capacity, Dlx3, Dlx3Error, Event, FgetsLines, HeapWorkspace, InputError,
    Name, Settings, Sinks, Stage, MAX_LEVEL,
};
use xcover_core::sink::ByteSink;

use crate::buffers::{buffers, Buffers, Output};
use crate::state::Global;

/// The name the usage message gives the program (as `xcover dlx3` names itself).
const ARGV0: &str = "xcover dlx3";

/// The most engine storage a page run may take (wasm32 memory is at most 4 GiB, and
/// browsers give less): an input that needs more is refused before any is allocated.
pub const STORAGE_LIMIT: u64 = 1 << 30;

/// Exit statuses as `xcover dlx3` gives them.
const USAGE_STATUS: i32 = 255;
/// The CLI's status for an input over its memory limit.
const MEMORY_STATUS: i32 = 1;
/// The CLI's status when SIGINT ends a search (here: the page's Stop).
const INTERRUPTED_STATUS: i32 = 130;

/// A DLX3 run: its settings, then its engine over storage leaked for the instance's life.
pub(crate) struct Dlx3Run {
    settings: Settings,
    engine: Option<Dlx3<'static>>,
    /// 1-based line of the input error, 0 if none.
    error_line: u32,
    /// The exit status `xcover dlx3` would end with, once known.
    status: Option<i32>,
}

/// The instance's run.
pub(crate) static RUN: Global<Option<Dlx3Run>> = Global::new(None);

/// Bytes of engine storage for capacity `cap` (the formula of the CLI's `--max-memory`).
fn storage_bytes(cap: &Capacity) -> u64 {
    let item = (core::mem::size_of::<Item>() + core::mem::size_of::<Name>()) as u64;
    let node = core::mem::size_of::<Node>() as u64;
    let level = core::mem::size_of::<Level>() as u64;
    (cap.item_slots as u64)
        .saturating_mul(item)
        .saturating_add((cap.node_slots as u64).saturating_mul(node))
        .saturating_add(MAX_LEVEL as u64 * level)
}

/// Starts a run with the arguments in the inbox (separated by white space), applied as
/// Knuth's loop applies them: from last to first, so the first of a letter wins. Returns
/// 0, or `xcover dlx3`'s usage status 255 with the usage line on stderr (a bad argument,
/// or `S<file>`: the page has no files to write).
#[no_mangle]
#[allow(unsafe_code)] // the exported name (the lint counts `no_mangle`); no unsafe code
pub extern "C" fn dlx3_begin() -> i32 {
    let mut buffers = buffers();
    let buffers = &mut *buffers;
    let mut slot = RUN.get();
    let mut settings = Settings::DEFAULT;
    let mut bad = false;
    let args = &buffers.inbox;
    for arg in args
        .split(|c| c.is_ascii_whitespace())
        .filter(|a| !a.is_empty())
        .rev()
    {
        match settings.apply_arg(arg) {
            ArgOutcome::Set => {}
            ArgOutcome::Bad => bad = true,
            ArgOutcome::ShapeFile(_) => {
                let _ = buffers
                    .err
                    .write_str("S<file> writes a file: not in the browser\n");
                bad = true;
            }
        }
    }
    if bad {
        let _ = writeln!(
            buffers.err,
            "Usage: {ARGV0} [v<n>] [m<n>] [s<n>] [d<n>] [c<n>] [C<n>] [l<n>] [t<n>] [T<n>] [S<bar>] < foo.dlx"
        );
        *slot = None;
        return USAGE_STATUS;
    }
    *slot = Some(Dlx3Run {
        settings,
        engine: None,
        error_line: 0,
        status: None,
    });
    0
}

/// Reads the matrix in the inbox, as `xcover dlx3` reads standard input: storage sized by
/// `measure`, every line as `fgets` cuts it, the input reports on stderr. Returns 0 when
/// the search is ready; otherwise the CLI's exit status, with Knuth's error report on
/// stderr and the line in [`dlx3_error_line`] (102 bad input, 1 over the page's storage
/// limit or out of order).
#[no_mangle]
#[allow(unsafe_code)] // the exported name (the lint counts `no_mangle`); no unsafe code
pub extern "C" fn dlx3_read() -> i32 {
    let mut buffers = buffers();
    let buffers = &mut *buffers;
    let mut slot = RUN.get();
    let Some(run) = slot.as_mut() else {
        let _ = writeln!(buffers.err, "{}", Dlx3Error::OutOfOrder);
        return Dlx3Error::OutOfOrder.exit_status();
    };
    if run.engine.is_some() {
        let _ = writeln!(buffers.err, "{}", Dlx3Error::OutOfOrder);
        return Dlx3Error::OutOfOrder.exit_status();
    }
    let status = read_matrix(run, buffers);
    if status != 0 {
        run.status = Some(status);
    }
    status
}

/// [`dlx3_read`]'s work.
fn read_matrix(run: &mut Dlx3Run, buffers: &mut Buffers) -> i32 {
    let input = &buffers.inbox;
    let err = &mut buffers.err;
    let need = storage_bytes(&measure(input)).saturating_add(input.len() as u64);
    if need > STORAGE_LIMIT {
        let _ = writeln!(
            err,
            "{ARGV0}: the input needs {need} bytes of memory, more than the page's limit of {STORAGE_LIMIT}"
        );
        return MEMORY_STATUS;
    }
    let storage: &'static mut HeapWorkspace = Box::leak(Box::new(HeapWorkspace::for_input(input)));
    let engine = match Dlx3::new(storage.as_mut_view(), run.settings) {
        Ok(e) => run.engine.insert(e),
        Err(e) => {
            let _ = writeln!(err, "{e}");
            return e.exit_status();
        }
    };
    let mut line = 1u32;
    for chunk in FgetsLines::new(input) {
        if let Err(e) = engine.read_line(chunk, err) {
            engine.write_error_report(&e, err);
            run.error_line = line;
            return e.exit_status();
        }
        if chunk.last() == Some(&b'\n') {
            line += 1;
        }
    }
    if let Err(e) = engine.end_input(err) {
        engine.write_error_report(&e, err);
        // "No items": the input ended first (the line after the last).
        if matches!(
            e,
            Dlx3Error::Input {
                kind: InputError::NoItems,
                ..
            }
        ) {
            run.error_line = line;
        }
        return e.exit_status();
    }
    0
}

/// 1-based line of the input error [`dlx3_read`] reported, 0 if none.
#[no_mangle]
#[allow(unsafe_code)] // the exported name (the lint counts `no_mangle`); no unsafe code
pub extern "C" fn dlx3_error_line() -> u32 {
    RUN.get().as_mut().map_or(0, |r| r.error_line)
}

/// Runs the search for at least `budget` more mems (or to the next printed solution), as
/// the CLI's loop does (`run_to_printed`). Returns 1 while there is more to do, 0 when the
/// run is over: then the closing reports (or an error report) are on stderr and
/// [`dlx3_status`] holds the exit status.
#[no_mangle]
#[allow(unsafe_code)] // the exported name (the lint counts `no_mangle`); no unsafe code
pub extern "C" fn dlx3_run(budget: f64) -> i32 {
    let mut buffers = buffers();
    let buffers = &mut *buffers;
    let mut slot = RUN.get();
    let Some(run) = slot.as_mut() else {
        return 0;
    };
    let Some(engine) = run.engine.as_mut().filter(|_| run.status.is_none()) else {
        return 0;
    };
    let Buffers { out, err, .. } = buffers;
    let mut sinks = Sinks {
        out: out as &mut dyn ByteSink,
        err: err as &mut dyn ByteSink,
        shape: None,
    };
    // `as` saturates: a NaN or negative budget is 0 (one step), a huge one u64::MAX.
    match engine.run_to_printed(budget as u64, &mut sinks) {
        Ok(Event::Done(_)) => {
            engine.finish(err);
            run.status = Some(0);
            0
        }
        Ok(_) => 1,
        Err(e) => {
            engine.write_error_report(&e, err);
            run.status = Some(e.exit_status());
            0
        }
    }
}

/// Ends a search that is still going as `xcover dlx3` ends on SIGINT: `INTERRUPTED!`,
/// then the closing reports of the search so far; the status is 130. Returns the status
/// (that of the run's end when it was already over).
#[no_mangle]
#[allow(unsafe_code)] // the exported name (the lint counts `no_mangle`); no unsafe code
pub extern "C" fn dlx3_interrupt() -> i32 {
    let mut buffers = buffers();
    let buffers = &mut *buffers;
    let mut slot = RUN.get();
    let Some(run) = slot.as_mut() else {
        return 0;
    };
    if let Some(status) = run.status {
        return status;
    }
    let err: &mut Output = &mut buffers.err;
    let _ = err.write_str("INTERRUPTED!\n");
    if let Some(engine) = run.engine.as_mut() {
        engine.finish(err);
    }
    run.status = Some(INTERRUPTED_STATUS);
    INTERRUPTED_STATUS
}

/// The exit status `xcover dlx3` would give, or -1 while the run goes on.
#[no_mangle]
#[allow(unsafe_code)] // the exported name (the lint counts `no_mangle`); no unsafe code
pub extern "C" fn dlx3_status() -> i32 {
    RUN.get().as_mut().and_then(|r| r.status).unwrap_or(-1)
}

/// Core's [`Stage`] of the engine as a number: 0 items, 1 options, 2 ready, 3 searching,
/// 4 at a solution, 5 done, 6 failed; -1 before the matrix is read.
#[no_mangle]
#[allow(unsafe_code)] // the exported name (the lint counts `no_mangle`); no unsafe code
pub extern "C" fn dlx3_stage() -> i32 {
    let mut slot = RUN.get();
    let Some(engine) = slot.as_mut().and_then(|r| r.engine.as_ref()) else {
        return -1;
    };
    match engine.stage() {
        Stage::Items => 0,
        Stage::Options => 1,
        Stage::Ready => 2,
        Stage::Searching => 3,
        Stage::Solution => 4,
        Stage::Done => 5,
        Stage::Failed => 6,
        _ => 6,
    }
}

/// One of the engine's counters (Knuth's names): 0 solutions (`count`), 1 `mems`, 2 search
/// tree `nodes`, 3 `imems`, 4 `updates`, 5 `cleansings`, 6 deepest level `maxl`; as a
/// double (exact below 2^53). 0 before the matrix is read or for another number.
#[no_mangle]
#[allow(unsafe_code)] // the exported name (the lint counts `no_mangle`); no unsafe code
pub extern "C" fn dlx3_counter(which: u32) -> f64 {
    let mut slot = RUN.get();
    let Some(engine) = slot.as_mut().and_then(|r| r.engine.as_ref()) else {
        return 0.0;
    };
    let s = engine.stats();
    (match which {
        0 => s.count,
        1 => s.mems,
        2 => s.nodes,
        3 => s.imems,
        4 => s.updates,
        5 => s.cleansings,
        6 => u64::from(s.maxl),
        _ => 0,
    }) as f64
}
