//! `xcover dlx3`: a drop-in replacement for Knuth's `dlx3` (placeholder).
use std::ffi::OsString;

/// Runs `dlx3` with Knuth's arguments; `argv0` is what the usage message names.
/// Returns the process exit status.
pub fn main(argv0: &str, args: Vec<OsString>) -> i32 {
    let _ = (argv0, args);
    eprintln!("xcover dlx3: not implemented yet");
    1
}
