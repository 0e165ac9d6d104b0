//! The ABI's calls as the page's worker makes them, on the host: Knuth's conformance corpus
//! through `dlx3_*` in small budgets, the error line, Stop, the grid checker and the
//! solver. (`web/tests/page.test.js` runs the real module in a browser.)
extern crate std;

use std::path::{Path, PathBuf};
use std::string::String;
use std::sync::Mutex;
use std::vec::Vec;

use xcover_core::gridcheck::{solver, Puzzle};

use crate::buffers::buffers;
use crate::buffers::{xc_drain, xc_inbox};
use crate::dlx3::{
    dlx3_begin, dlx3_counter, dlx3_error_line, dlx3_interrupt, dlx3_read, dlx3_run, dlx3_status,
};
use crate::gridcheck::{grid_begin, grid_figure, grid_run};
use crate::sudoku::sudoku_solve;

/// The state is the instance's one global: a test holds this for its whole sequence.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Holds the state for one test, starting from a fresh instance's (no run, empty outputs).
fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    let held = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    *crate::dlx3::RUN.get() = None;
    *crate::gridcheck::SCAN.get() = None;
    xc_drain();
    held
}

/// Writes `bytes` into the inbox as the worker does (through the offset on wasm32; here,
/// where an address does not fit 32 bits, into the buffer the call made).
fn put(bytes: &[u8]) {
    let at = xc_inbox(bytes.len() as u32);
    assert!(at != 0 || bytes.is_empty());
    buffers().inbox.copy_from_slice(bytes);
}

/// Reads and drains both outputs.
fn take(out: &mut Vec<u8>, err: &mut Vec<u8>) {
    {
        let st = buffers();
        out.extend_from_slice(&st.out.bytes);
        err.extend_from_slice(&st.err.bytes);
        assert_eq!(st.out.lost + st.err.lost, 0);
    }
    xc_drain();
}

/// A DLX3 run through the ABI in slices of `budget` mems: stdout, stderr, exit status.
fn run_dlx3(args: &str, input: &[u8], budget: f64) -> (Vec<u8>, Vec<u8>, i32) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    put(args.as_bytes());
    let mut status = dlx3_begin();
    if status == 0 {
        put(input);
        status = dlx3_read();
    }
    if status == 0 {
        while dlx3_run(budget) == 1 {
            take(&mut out, &mut err);
        }
        status = dlx3_status();
    }
    take(&mut out, &mut err);
    (out, err, status)
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/dlx3")
}

#[test]
fn the_conformance_corpus_through_the_abi_in_small_slices() {
    let _one = one_at_a_time();
    let dir = corpus();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e} (the corpus lies in ../shared)", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("args").exists())
        .collect();
    cases.sort();
    let mut ran = 0;
    for case in &cases {
        let read = |name: &str| std::fs::read(case.join(name)).unwrap();
        let args = String::from_utf8(read("args")).unwrap();
        let args = args.trim_end_matches('\n');
        // `S<file>` writes a file: the page refuses it (tested below).
        if args.split(' ').any(|a| a.starts_with('S')) {
            continue;
        }
        // Big budgets on the big cases keep the test short; small ones slice the rest.
        let budget = if read("stdout").len() > 1 << 20 {
            1e7
        } else {
            997.0
        };
        let (out, err, status) = run_dlx3(args, &read("input.dlx"), budget);
        let name = case.file_name().unwrap().to_string_lossy();
        let want_err =
            String::from_utf8_lossy(&read("stderr")).replace("Usage: dlx3 ", "Usage: xcover dlx3 ");
        assert_eq!(
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&read("stdout")),
            "{name}: stdout"
        );
        assert_eq!(String::from_utf8_lossy(&err), want_err, "{name}: stderr");
        let exit: i32 = String::from_utf8(read("exit"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert_eq!(status, exit, "{name}: exit status");
        ran += 1;
    }
    assert!(ran >= 200, "only {ran} cases ran");
}

#[test]
fn a_shape_file_is_refused_with_the_usage_line() {
    let _one = one_at_a_time();
    let (out, err, status) = run_dlx3("m1 Sshape.out", b"A\nA\n", 1e6);
    assert_eq!(status, 255);
    assert!(out.is_empty());
    let err = String::from_utf8(err).unwrap();
    assert!(err.starts_with("S<file> writes a file: not in the browser\nUsage: xcover dlx3 "));
}

#[test]
fn an_input_error_names_its_line() {
    let _one = one_at_a_time();
    for (input, line) in [
        (&b"A B C\nA B\nC\nA X\nB\n"[..], 4),
        (b"A B\nA:x\n", 2),
        (b"A A\n", 1),
        // No items: the input ended (the line after the last).
        (b"", 1),
        (b"| only a comment\n", 2),
    ] {
        put(b"");
        assert_eq!(dlx3_begin(), 0);
        put(input);
        assert_eq!(dlx3_read(), 102, "{input:?}");
        assert_eq!(dlx3_error_line(), line, "{input:?}");
        assert_eq!(dlx3_status(), 102);
        xc_drain();
    }
    // A good input has none.
    put(b"");
    assert_eq!(dlx3_begin(), 0);
    put(b"A\nA\n");
    assert_eq!((dlx3_read(), dlx3_error_line()), (0, 0));
}

#[test]
fn stop_ends_the_run_as_an_interrupt_does() {
    let _one = one_at_a_time();
    let queens: &[u8] = include_bytes!("../../examples/queens8.dlx");
    put(b"m0");
    assert_eq!(dlx3_begin(), 0);
    put(queens);
    assert_eq!(dlx3_read(), 0);
    assert_eq!(dlx3_run(1000.0), 1);
    assert_eq!(dlx3_status(), -1);
    let mems = dlx3_counter(1);
    assert!(mems >= 1000.0);
    assert_eq!(dlx3_interrupt(), 130);
    assert_eq!(dlx3_status(), 130);
    // Over: no more steps, and the interrupt is not written twice.
    assert_eq!(dlx3_run(1000.0), 0);
    assert_eq!(dlx3_interrupt(), 130);
    assert_eq!(dlx3_counter(1), mems);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    take(&mut out, &mut err);
    let err = String::from_utf8(err).unwrap();
    assert!(
        err.ends_with("ccost 0%.\n") || err.contains("\nINTERRUPTED!\nAltogether "),
        "{err}"
    );
    assert_eq!(err.matches("INTERRUPTED!").count(), 1);
}

const GRID: &str = include_str!("../../examples/grid.txt");
const MASK: &str = include_str!("../../examples/grid.mask");

#[test]
fn the_grid_checker_finds_unique_puzzles_of_n_clues() {
    let _one = one_at_a_time();
    put(std::format!("{}\n{}", GRID.trim(), MASK.trim()).as_bytes());
    let chunks = grid_begin(18, 0);
    assert!(chunks > 0);
    // Small budgets: chunks begin and end inside one call and across calls.
    while grid_run(50.0) == 1 {}
    let (mut out, mut err) = (Vec::new(), Vec::new());
    take(&mut out, &mut err);
    assert!(err.is_empty());
    let lines: Vec<&str> = std::str::from_utf8(&out).unwrap().lines().collect();
    assert_eq!(grid_figure(0), f64::from(chunks));
    assert_eq!(grid_figure(1), f64::from(chunks));
    assert_eq!(grid_figure(2), lines.len() as f64);
    assert!(lines.len() > 10);
    let forced: Vec<usize> = MASK
        .trim()
        .bytes()
        .enumerate()
        .filter(|&(_, c)| c == b'1')
        .map(|(i, _)| i)
        .collect();
    for line in &lines {
        let puzzle = Puzzle::parse(line.as_bytes()).unwrap();
        assert_eq!(puzzle.clue_count(), 18);
        assert_eq!(solver::count_solutions(&puzzle, 2), 1, "{line}");
        assert!(forced.iter().all(|&i| line.as_bytes()[i] != b'0'));
        assert!(line
            .bytes()
            .zip(GRID.trim().bytes())
            .all(|(p, g)| p == b'0' || p == g));
    }
    let mut unique = lines.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), lines.len());
}

#[test]
fn the_grid_checker_refuses_bad_grids_and_options_with_a_message() {
    let _one = one_at_a_time();
    for (inbox, clues, message) in [
        (String::from("123\n"), 17, "grid: "),
        (std::format!("{}\n", GRID.trim()), 0, "clues: "),
        (
            std::format!("{}\n{}", GRID.trim(), "1".repeat(81)),
            17,
            "mask: ",
        ),
        (
            std::format!("{}\nxyz", GRID.trim()),
            17,
            "mask: character 1 is not",
        ),
        (
            std::format!("{}\n{}", GRID.trim(), &MASK.trim()[..80]),
            17,
            "mask: 80 characters",
        ),
    ] {
        put(inbox.as_bytes());
        assert_eq!(grid_begin(clues, 0), -1, "{inbox}");
        let (mut out, mut err) = (Vec::new(), Vec::new());
        take(&mut out, &mut err);
        assert!(
            String::from_utf8(err).unwrap().starts_with(message),
            "{inbox}"
        );
        assert_eq!(grid_run(1e6), 0);
    }
}

#[test]
fn sudoku_solves_counts_and_refuses() {
    let _one = one_at_a_time();
    let grid = GRID.trim();
    // The grid less its first row: one solution, the grid.
    put(std::format!("{}{}", ".".repeat(9), &grid[9..]).as_bytes());
    assert_eq!(sudoku_solve(2), 1);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    take(&mut out, &mut err);
    assert_eq!(out, std::format!("{grid}\n").into_bytes());
    // An empty board: the limit stops the count.
    put(".".repeat(81).as_bytes());
    assert_eq!(sudoku_solve(50), 50);
    xc_drain();
    put(b"12x");
    assert_eq!(sudoku_solve(2), -1);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    take(&mut out, &mut err);
    assert!(out.is_empty());
    assert!(String::from_utf8(err)
        .unwrap()
        .starts_with("not a puzzle: "));
}
