//! Checked writes to stdout and stderr: `print!` and `eprint!` panic when a write fails
//! (a full disk, EIO), which aborts the process; these return the error instead, so the
//! run stops with a message and exit status 1.
use std::io::Write;

use crate::error::{cli_error, Result};

/// Writes `bytes` to stdout and flushes.
pub(crate) fn out(bytes: &[u8]) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(bytes)
        .and_then(|()| stdout.flush())
        .map_err(|e| cli_error!("writing to stdout: {e}"))
}

/// Writes `text` to stderr.
pub(crate) fn note(text: &str) -> Result<()> {
    std::io::stderr()
        .lock()
        .write_all(text.as_bytes())
        .map_err(|e| cli_error!("writing to stderr: {e}"))
}

/// Writes the line `text` to stderr.
pub(crate) fn line(text: &str) -> Result<()> {
    note(&format!("{text}\n"))
}
