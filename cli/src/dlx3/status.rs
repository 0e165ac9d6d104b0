//! The command's exit statuses (besides Knuth's own), shared by the files that end a run.

/// Exit status when a usage or `--max-memory` value is wrong (Knuth's usage status; also
/// that of `--export-c` / `--export-rust`).
pub(crate) const USAGE_STATUS: i32 = 255;
/// Exit status when the input needs more memory than `--max-memory` allows.
pub(crate) const MEMORY_STATUS: i32 = 1;

/// Exit status when stdout is a closed pipe: what a C program killed by SIGPIPE reports.
pub(crate) const SIGPIPE_STATUS: i32 = 128 + libc::SIGPIPE;
