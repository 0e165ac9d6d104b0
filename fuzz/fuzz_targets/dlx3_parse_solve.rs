//! Arbitrary bytes as a dlx3 run: the first line holds Knuth's command-line arguments
//! (`v<n> m<n> s<n> d<n> c<n> C<n> l<n> t<n> T<n> S<x>`, separated by spaces), the rest is
//! the `.dlx` input. The input is read into a fixed small storage and into one sized by
//! `measure_within` (as the CLI sizes it, capped), then searched for a few mem-budgeted
//! slices with all output discarded. Errors are fine; a panic is a bug.
//!
//! Then the documented promise "pausing never changes the results" is checked: with a mem
//! timeout (`T`) small enough to end the search, a run in slices of a few mems and a run
//! in one call write the same bytes (solutions, reports, shape) and end with the same
//! counters.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xcover_core::dlx3::{
    measure_within, ArgOutcome, Capacity, Dlx3, Event, HeapWorkspace, Settings, Sinks, Workspace,
    WorkspaceView,
};
use xcover_core::sink::ByteSink;

/// The storage an input is sized within (as the CLI sizes it, capped so that an input
/// stays cheap).
const LIMITS: Capacity = Capacity {
    item_slots: 4_000,
    node_slots: 40_000,
};

/// A sink that keeps the first 256 KiB of output.
struct Keep(Vec<u8>);

impl ByteSink for Keep {
    fn write_bytes(&mut self, bytes: &[u8]) {
        let room = (256usize << 10).saturating_sub(self.0.len());
        self.0.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }
}

/// What a whole run wrote, and its counters.
#[derive(Debug, PartialEq, Eq)]
struct Transcript {
    out: Vec<u8>,
    err: Vec<u8>,
    shape: Vec<u8>,
    stats: xcover_core::dlx3::Stats,
    result: Result<(), xcover_core::dlx3::Dlx3Error>,
}

/// Reads `input` and runs the search to its end in calls of `budget` mems (at most
/// `max_calls` calls; `None` if that was not enough).
fn transcript(
    input: &[u8],
    settings: Settings,
    budget: u64,
    max_calls: usize,
) -> Option<Transcript> {
    let mut workspace = HeapWorkspace::new(measure_within(input, LIMITS), 64);
    let mut engine = Dlx3::new(workspace.as_mut_view(), settings).ok()?;
    let (mut out, mut err, mut shape) = (Keep(Vec::new()), Keep(Vec::new()), Keep(Vec::new()));
    engine.read_input(input, &mut err).ok()?;
    let mut result = Ok(());
    let mut calls = 0;
    loop {
        calls += 1;
        if calls > max_calls {
            return None;
        }
        let mut sinks = Sinks {
            out: &mut out,
            err: &mut err,
            shape: Some(&mut shape),
        };
        match engine.run(budget, &mut sinks) {
            Ok(Event::Solution) | Ok(Event::BudgetExhausted) => {}
            // No split level is set here.
            Ok(Event::Unit(_) | Event::UnitDone(_)) => unreachable!("unit event without a split"),
            Ok(Event::Done(_)) => {
                engine.finish(&mut err);
                break;
            }
            Err(e) => {
                engine.write_error_report(&e, &mut err);
                result = Err(e);
                break;
            }
        }
    }
    Some(Transcript {
        out: out.0,
        err: err.0,
        shape: shape.0,
        stats: engine.stats(),
        result,
    })
}

/// A sink that drops the text (but still makes the engine format it).
struct Discard(usize);

impl ByteSink for Discard {
    fn write_bytes(&mut self, bytes: &[u8]) {
        self.0 = self.0.wrapping_add(bytes.len());
    }
}

/// Mems per `run` call and the number of calls: small, so one input costs little.
const BUDGETS: [u64; 4] = [1, 100, 5_000, 50_000];
const MAX_RUNS: usize = 12;

/// Applies the argument line as the CLI does (first occurrence wins: apply last to first).
/// Returns the settings and whether a shape sink is wanted.
fn settings_from(line: &[u8]) -> (Settings, bool) {
    let mut settings = Settings::DEFAULT;
    let mut shape = false;
    let args: Vec<&[u8]> = line
        .split(|&c| c == b' ' || c == b'\t')
        .filter(|a| !a.is_empty())
        .take(16)
        .collect();
    for arg in args.iter().rev() {
        match settings.apply_arg(arg) {
            ArgOutcome::ShapeFile(_) => shape = true,
            ArgOutcome::Set | ArgOutcome::Bad => {}
        }
    }
    // Huge progress reports or state dumps on every node only cost time, never coverage.
    if settings.get_report_interval_mems() < 64 {
        settings = settings.report_interval_mems(64);
    }
    (settings, shape)
}

fn solve(storage: WorkspaceView<'_>, settings: Settings, shape: bool, input: &[u8], budget: u64) {
    let mut out = Discard(0);
    let mut err = Discard(0);
    let mut shape_sink = Discard(0);
    let mut engine = match Dlx3::new(storage, settings) {
        Ok(e) => e,
        Err(_) => return,
    };
    if let Err(e) = engine.read_input(input, &mut err) {
        engine.write_error_report(&e, &mut err);
        // A failed engine must keep failing, not search.
        let mut sinks = Sinks {
            out: &mut out,
            err: &mut err,
            shape: None,
        };
        assert!(engine.run(budget, &mut sinks).is_err());
        return;
    }
    let _ = (engine.layout(), engine.item_count(), engine.option_count());
    for _ in 0..MAX_RUNS {
        let mut sinks = Sinks {
            out: &mut out,
            err: &mut err,
            shape: if shape {
                Some(&mut shape_sink as &mut dyn ByteSink)
            } else {
                None
            },
        };
        match engine.run(budget, &mut sinks) {
            Ok(Event::Solution) => {
                // Read the solution back as a library caller would.
                let depth = engine.depth();
                let mut cells = [(0u32, 0i32); 64];
                for l in 0..depth.min(8) {
                    if let Some(xcover_core::dlx3::Move::Option(j)) = engine.solution_move(l) {
                        let _ = engine.option_items(j, &mut cells);
                    }
                }
            }
            Ok(Event::BudgetExhausted) => {}
            Ok(Event::Unit(_) | Event::UnitDone(_)) => unreachable!("unit event without a split"),
            Ok(Event::Done(_)) => break,
            Err(e) => {
                engine.write_error_report(&e, &mut err);
                return;
            }
        }
    }
    let _ = engine.stats();
    engine.finish(&mut err);
}

fuzz_target!(|data: &[u8]| {
    if data.len() > 1 << 16 {
        return;
    }
    let (head, input) = match data.iter().position(|&c| c == b'\n') {
        Some(p) => (&data[..p], &data[p + 1..]),
        None => (&data[..0], data),
    };
    let (settings, shape) = settings_from(head);
    let budget = BUDGETS[head.len() % BUDGETS.len()];

    // 1. A fixed small workspace: capacity errors at small sizes.
    let mut ws: Box<Workspace<24, 256, 12>> = Box::new(Workspace::new());
    solve(ws.as_mut_view(), settings, shape, input, budget);

    // 2. Storage sized from the input, as the CLI does (within `LIMITS`).
    let levels = 1 + (head.len() * 7) % 64;
    let mut workspace = HeapWorkspace::new(measure_within(input, LIMITS), levels);
    solve(workspace.as_mut_view(), settings, shape, input, budget);

    // 3. Pausing changes nothing: slices of a few mems against one call, under a timeout.
    if input.len() <= 4096 {
        let bounded = settings.timeout_mems(settings.get_timeout_mems().min(20_000));
        let slice = 1 + (head.len() as u64 * 13) % 200;
        let whole = transcript(input, bounded, u64::MAX, 1 << 20);
        let sliced = transcript(input, bounded, slice, 1 << 20);
        if let (Some(whole), Some(sliced)) = (whole, sliced) {
            assert_eq!(whole, sliced, "a run in slices of {slice} mems differs");
        }
    }
});
