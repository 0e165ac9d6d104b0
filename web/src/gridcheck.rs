//! The grid checker in the browser: a solution grid, a clue count and a mask, then the
//! scan's chunks in step budgets, each puzzle printed (81 characters and a newline) as
//! `xcover gridcheck` prints it. The UA come from the default recipe of every front end
//! (`budget::scan_recipe`, seed 1); the puzzles never depend on them. The scan is core's
//! `session::Session`, which holds its phase, its data and its totals.
use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::Write as _;
use core::mem::MaybeUninit;
use core::ops::ControlFlow;

use xcover_core::gridcheck::scan::{
    self, BitmapTable, ChunkId, ClueMask, LevelState, RunStatus, ScanOptions, WorkspaceSize,
    WorkspaceView,
};
use xcover_core::gridcheck::session::{Phase, Session, Storage};
use xcover_core::gridcheck::ua::budget;
use xcover_core::gridcheck::{Cells, Grid, Puzzle};

use crate::buffers::{buffers, Output};
use crate::state::Global;

/// The generator's seed (the CLI's default `--seed`).
const UA_SEED: u64 = 1;

/// A scan: core's session over storage leaked for the instance's life, and the chunks.
pub(crate) struct GridRun {
    session: Session<'static>,
    chunks: Vec<ChunkId>,
    /// The next chunk to begin.
    next: usize,
    done: bool,
}

/// The instance's scan.
pub(crate) static SCAN: Global<Option<GridRun>> = Global::new(None);

/// Starts a scan. The inbox holds the grid's 81 digits, a newline and the mask (81
/// characters `1` forced given, `0` forced empty, `.` free; nothing: no mask). `clues` is
/// N; `minimal` keeps only minimal puzzles. Generates the UA and prepares the scan.
/// Returns the number of chunks (0: nothing to scan), or -1 with the message on stderr.
#[no_mangle]
#[allow(unsafe_code)] // the exported name (the lint counts `no_mangle`); no unsafe code
pub extern "C" fn grid_begin(clues: u32, minimal: u32) -> i32 {
    let mut buffers = buffers();
    let mut slot = SCAN.get();
    *slot = None;
    match begin(&buffers.inbox, clues, minimal != 0) {
        Ok(run) => {
            let chunks = run.chunks.len() as i32;
            *slot = Some(run);
            chunks
        }
        Err(message) => {
            let _ = buffers.err.write_str(&message);
            let _ = buffers.err.write_str("\n");
            -1
        }
    }
}

/// A message for an error of the grid or its options (`what` says which).
fn message(what: &str, e: impl core::fmt::Display) -> alloc::string::String {
    let mut text = alloc::string::String::new();
    let _ = write!(text, "{what}: {e}");
    text
}

/// Leaks `value` for the instance's life.
fn leak<T>(value: T) -> &'static mut T {
    Box::leak(Box::new(value))
}

/// [`grid_begin`]'s work.
fn begin(inbox: &[u8], clues: u32, minimal: bool) -> Result<GridRun, alloc::string::String> {
    let mut lines = inbox.split(|&c| c == b'\n');
    let grid_line = lines.next().unwrap_or(&[]);
    let mask_line = lines.next().unwrap_or(&[]);
    let grid = Grid::parse(grid_line).map_err(|e| message("grid", e))?;
    let mut options = ScanOptions::for_clues(clues).map_err(|e| message("clues", e))?;
    let mask_line = mask_line.trim_ascii();
    if !mask_line.is_empty() {
        options.mask = parse_mask(mask_line)?;
    }
    options.minimal_only = minimal;
    options.check().map_err(|e| message("mask", e))?;
    let uas = budget::scan_recipe(&grid, &options)
        .generate_to_vec(&grid, UA_SEED, options.mask.givens)
        .map_err(|e| message("generating UA", e))?;
    let uas = Vec::leak(uas);
    let mut session = Session::new(Storage {
        grid: leak(MaybeUninit::uninit()),
        prepared: leak(MaybeUninit::uninit()),
        uas_held: uas.len(),
        work: Vec::leak(vec![0u128; scan::prepare_work_entries(uas.len())]),
        uas,
        ua_scratch: &mut [],
        workspace: WorkspaceView::new(
            leak(BitmapTable::new()),
            Vec::leak(vec![
                LevelState::ZERO;
                WorkspaceSize::for_clues(options.clues).states
            ]),
        ),
    });
    session.set_grid(grid).map_err(|e| message("grid", e))?;
    session
        .set_options(options)
        .map_err(|e| message("scan", e))?;
    session.prepare().map_err(|e| message("scan", e))?;
    let chunks: Vec<ChunkId> = session
        .prepared()
        .map(|prepared| prepared.chunks().collect())
        .unwrap_or_default();
    Ok(GridRun {
        session,
        chunks,
        next: 0,
        done: false,
    })
}

/// A mask as `xcover gridcheck --mask` takes it, all 81 cells written out: anything else
/// is refused, so that a typo never turns into a scan of the whole grid.
fn parse_mask(text: &[u8]) -> Result<ClueMask, alloc::string::String> {
    const SYNTAX: &str = "a mask is 81 characters, one per cell row by row: `1` forced given, `0` forced empty, `.` free";
    if let Some(at) = text.iter().position(|c| !matches!(c, b'0' | b'1' | b'.')) {
        let mut text = alloc::string::String::new();
        let _ = write!(
            text,
            "mask: character {} is not `0`, `1` or `.`; {SYNTAX}",
            at + 1
        );
        return Err(text);
    }
    if text.len() != 81 {
        return Err(message(
            "mask",
            format_args!("{} characters; {SYNTAX}", text.len()),
        ));
    }
    ClueMask::parse(text).map_err(|e| message("mask", e))
}

/// Writes a found puzzle's line.
fn print_puzzle(out: &mut Output, grid: &Grid, givens: Cells) {
    let _ = writeln!(out, "{}", Puzzle::from_grid(grid, givens));
}

/// Runs the scan for about `budget` placements (steps), across chunks; each puzzle found
/// goes to stdout as a line. Returns 1 while there is more to do, 0 when the scan is over.
#[no_mangle]
#[allow(unsafe_code)] // the exported name (the lint counts `no_mangle`); no unsafe code
pub extern "C" fn grid_run(budget: f64) -> i32 {
    let mut buffers = buffers();
    let mut slot = SCAN.get();
    let Some(scan) = slot.as_mut() else {
        return 0;
    };
    let out = &mut buffers.out;
    let mut left = budget as u64;
    loop {
        if scan.done {
            return 0;
        }
        if scan.session.phase() != Phase::Running && !begin_next_chunk(scan) {
            scan.done = true;
            return 0;
        }
        let Some(grid) = scan.session.grid() else {
            return 0;
        };
        let before = scan.session.totals().steps;
        let status = scan.session.run(left.max(1), &mut |givens| {
            print_puzzle(out, grid, givens);
            ControlFlow::Continue(())
        });
        let spent = scan.session.totals().steps.saturating_sub(before).max(1);
        left = left.saturating_sub(spent);
        match status {
            Ok(RunStatus::BudgetExhausted) => return 1,
            Ok(_) if begin_next_chunk(scan) => {}
            // The last chunk is over (or the session refused: not reached).
            _ => {
                scan.done = true;
                return 0;
            }
        }
        if left == 0 {
            return 1;
        }
    }
}

/// Begins the next chunk (the session keeps the last one's counters); false when none is
/// left.
fn begin_next_chunk(scan: &mut GridRun) -> bool {
    let Some(&chunk) = scan.chunks.get(scan.next) else {
        return false;
    };
    scan.next += 1;
    // Not refused: the chunk is the scan's own and the workspace sized for its clues.
    scan.session.begin_chunk(chunk).is_ok()
}

/// One of the scan's figures: 0 chunks done, 1 chunks in all, 2 puzzles found, 3 steps
/// (placements, the CLI's "nodes"), 4 candidates checked, 5 UA generated, 6 UA kept, 7
/// forced givens; as a double. 0 without a scan or for another number.
#[no_mangle]
#[allow(unsafe_code)] // the exported name (the lint counts `no_mangle`); no unsafe code
pub extern "C" fn grid_figure(which: u32) -> f64 {
    let slot = SCAN.get();
    let Some(scan) = slot.as_ref() else {
        return 0.0;
    };
    let totals = scan.session.totals();
    let prepared = scan.session.prepared();
    (match which {
        0 => scan.session.chunks_done(),
        1 => scan.chunks.len() as u64,
        2 => totals.found,
        3 => totals.steps,
        4 => totals.candidates,
        5 => scan.session.ua_count() as u64,
        6 => prepared.map_or(0, |p| p.kept_len() as u64),
        7 => prepared.map_or(0, |p| u64::from(p.forced_givens().len())),
        _ => 0,
    }) as f64
}
