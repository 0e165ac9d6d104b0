//! SIGINT, SIGTERM and SIGHUP for the long runs of `xcover dlx3` and `xcover gridcheck`:
//! the first signal sets a flag that the run checks between slices of work (it then stops
//! cleanly, reports and saves what it keeps), a second one ends the process at once with
//! the shell's status for it (128 + the signal number: 130, 143, 129).
//!
//! SIGHUP (the terminal closed, an ssh session dropped) is handled as the other two: a run
//! started from a terminal that goes away stops the way Ctrl-C stops it, with its journal
//! or part synced, rather than dying at a random point of a write. A signal the process
//! started with ignored stays ignored: `nohup xcover ...` keeps running when the terminal
//! goes, as its user asked.
//!
//! Installed only once the input has been read, so a signal before that ends the program
//! as usual.
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

/// The signals that stop a run cleanly.
const STOP_SIGNALS: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

/// Whether `signal` is ignored now, as `nohup` leaves SIGHUP for the program it starts.
fn ignored(signal: i32) -> bool {
    let mut current = std::mem::MaybeUninit::<libc::sigaction>::zeroed();
    // SAFETY: with a null new action, sigaction only writes the current one into
    // `current`, a valid, writable `struct sigaction`; it changes nothing.
    let read = unsafe { libc::sigaction(signal, std::ptr::null(), current.as_mut_ptr()) };
    // SAFETY: zeroed is a valid `struct sigaction` (plain integers, a mask and a pointer
    // value), and sigaction filled it in when it returned 0.
    read == 0 && unsafe { current.assume_init() }.sa_sigaction == libc::SIG_IGN
}

/// Exit status after `signal`: the shell's 128 + signal number.
pub fn exit_status(signal: i32) -> i32 {
    128 + signal
}

/// The handlers' flags: which signal arrived first (0 while none has).
pub struct Signals {
    received: Arc<AtomicUsize>,
}

impl Signals {
    /// Installs the handlers for SIGINT, SIGTERM and SIGHUP.
    pub fn install() -> std::io::Result<Signals> {
        let received = Arc::new(AtomicUsize::new(0));
        let armed = Arc::new(AtomicBool::new(false));
        for signal in STOP_SIGNALS.into_iter().filter(|&s| !ignored(s)) {
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
