//! Checked writes to stdout and stderr: `print!` and `eprint!` panic when a write fails
//! (a full disk, EIO), which aborts the process; these return the error instead, so the
//! run stops with a message and exit status 1.
use std::io::Write;

use anyhow::{anyhow, Result};

/// Writes `bytes` to stdout and flushes.
pub(crate) fn out(bytes: &[u8]) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(bytes)
        .and_then(|()| stdout.flush())
        .map_err(|e| anyhow!("writing to stdout: {e}"))
}

/// Writes `text` to stderr.
pub(crate) fn note(text: &str) -> Result<()> {
    std::io::stderr()
        .lock()
        .write_all(text.as_bytes())
        .map_err(|e| anyhow!("writing to stderr: {e}"))
}

/// Writes the line `text` to stderr.
pub(crate) fn line(text: &str) -> Result<()> {
    note(&format!("{text}\n"))
}

/// Writes `text` to stderr when it can: for the last message of a run that fails anyway.
pub(crate) fn note_quietly(text: &str) {
    let _ = note(text);
}
