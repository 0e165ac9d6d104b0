//! Waiting for work done on other threads without the GIL, in short ticks, looking for
//! Ctrl-C (`check_signals`) between them: another Python thread runs meanwhile, and
//! `KeyboardInterrupt` comes within a tick of the signal.
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How long the GIL stays released between looks for signals.
pub(crate) const TICK: Duration = Duration::from_millis(20);

/// Runs `work` on a thread of its own and waits for its answer without the GIL. On a
/// signal (Ctrl-C), sets `stop` (which `work` looks at), waits for `work` to end and
/// raises the signal's exception.
pub(crate) fn run_stoppable<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send + 'static,
    F: FnOnce(Arc<AtomicBool>) -> T + Send + 'static,
{
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, mut rx) = mpsc::channel();
    let flag = Arc::clone(&stop);
    std::thread::Builder::new()
        .name("xcover_dlx search".into())
        .spawn(move || {
            let _ = tx.send(work(flag));
        })
        .map_err(|e| PyRuntimeError::new_err(format!("can't start the search thread: {e}")))?;
    loop {
        let (back, got) = py.detach(move || {
            let got = rx.recv_timeout(TICK);
            (rx, got)
        });
        rx = back;
        match got {
            Ok(answer) => return Ok(answer),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(signal) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    // The work ends within a slice; its answer is dropped.
                    let _ = py.detach(move || rx.recv());
                    return Err(signal);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "the search thread ended without an answer",
                ))
            }
        }
    }
}

/// Waits until `ready` says the answer is there, without the GIL, in ticks, raising a
/// signal's exception between them.
pub(crate) fn wait_until<S: Send>(
    py: Python<'_>,
    state: &mut S,
    mut ready: impl FnMut(&mut S, Duration) -> bool + Send,
) -> PyResult<()> {
    if ready(state, Duration::ZERO) {
        return Ok(());
    }
    loop {
        if py.detach(|| ready(state, TICK)) {
            return Ok(());
        }
        py.check_signals()?;
    }
}
