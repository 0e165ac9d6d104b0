//! `xcover sudoku solve|count`: puzzles on stdin (placeholder).
use std::ffi::OsString;

/// Runs `xcover sudoku ARGS` (`args` excludes the program and subcommand names).
/// Returns the process exit status.
pub fn main(args: Vec<OsString>) -> i32 {
    let _ = args;
    eprintln!("xcover sudoku: not implemented yet");
    1
}
