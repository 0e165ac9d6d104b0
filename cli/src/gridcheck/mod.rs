//! `xcover gridcheck`: every N-clue puzzle of a Sudoku grid (placeholder).
use std::ffi::OsString;

/// Runs `xcover gridcheck ARGS` (`args` excludes the program and subcommand names).
/// Returns the process exit status.
pub fn main(args: Vec<OsString>) -> i32 {
    let _ = args;
    eprintln!("xcover gridcheck: not implemented yet");
    1
}
