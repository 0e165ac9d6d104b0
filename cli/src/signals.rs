//! SIGINT and SIGTERM for the long runs of `xcover dlx3` and `xcover gridcheck`: the first
//! signal sets a flag that the run checks between slices of work (it then stops cleanly
//! and reports), a second one ends the process at once with the shell's status for it.
//!
//! Installed only once the input has been read, so a signal before that ends the program
//! as usual.
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use signal_hook::consts::{SIGINT, SIGTERM};

/// Exit status after `signal`: the shell's 128 + signal number.
pub fn exit_status(signal: i32) -> i32 {
    128 + signal
}

/// The handlers' flags: which signal arrived first (0 while none has).
pub struct Signals {
    received: Arc<AtomicUsize>,
}

impl Signals {
    /// Installs the handlers for SIGINT and SIGTERM.
    pub fn install() -> std::io::Result<Signals> {
        let received = Arc::new(AtomicUsize::new(0));
        let armed = Arc::new(AtomicBool::new(false));
        for signal in [SIGINT, SIGTERM] {
            // Registered first, so it runs first: it exits only once `armed` is set, that
            // is from the second signal on.
            signal_hook::flag::register_conditional_shutdown(
                signal,
                exit_status(signal),
                Arc::clone(&armed),
            )?;
            signal_hook::flag::register(signal, Arc::clone(&armed))?;
            signal_hook::flag::register_usize(signal, Arc::clone(&received), signal as usize)?;
        }
        Ok(Signals { received })
    }

    /// The signal that asked the run to stop, if any.
    pub fn received(&self) -> Option<i32> {
        match self.received.load(Ordering::Relaxed) {
            0 => None,
            signal => Some(signal as i32),
        }
    }

    /// The flag itself (the signal number, 0 while none arrived), for worker threads.
    pub fn flag(&self) -> &AtomicUsize {
        &self.received
    }
}
