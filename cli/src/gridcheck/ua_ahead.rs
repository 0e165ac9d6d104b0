//! The next grid's UA list, generated on a thread of its own while the current grid's
//! chunks run (a batch scanned on two threads or more).
//!
//! UA generation runs on one thread; without this, the other workers wait for it at the
//! start of every grid (about a tenth of a batch's time on two threads). The list is the
//! one [`ua_source::generate`] gives in line, from the same grid, count, seed and kept
//! cells, so the output does not depend on it; only the timing does.
use std::thread::JoinHandle;
use std::time::Instant;

use crate::error::{cli_error, Result};
use xcover_core::gridcheck::{Cells, Grid};

use super::ua_source;

/// What the generating thread hands back: the list and its seconds of generation.
type Generated = (Result<Vec<Cells>>, f64);

/// The UA list of the grid at `index` in the batch, being generated.
pub(super) struct UaAhead {
    index: usize,
    thread: JoinHandle<Generated>,
}

/// How a list is generated: [`ua_source::generate`]'s arguments but the grid.
#[derive(Clone, Copy)]
pub(super) struct Generation {
    pub(super) random: u32,
    pub(super) seed: u64,
    pub(super) keep: Cells,
}

impl UaAhead {
    /// Starts generating the list of `grid`, the batch's grid `index`; `None` when no
    /// thread could be started (the list is then generated in line, as without it).
    ///
    /// The thread owns what it uses; a run that ends early (an error, a signal) leaves it
    /// to finish on its own and drops its list.
    pub(super) fn start(index: usize, grid: Grid, how: Generation) -> Option<UaAhead> {
        let thread = std::thread::Builder::new()
            .name("ua-ahead".to_owned())
            .spawn(move || {
                let started = Instant::now();
                let uas = ua_source::generate(&grid, how.random, how.seed, how.keep);
                (uas, started.elapsed().as_secs_f64())
            })
            .ok()?;
        Some(UaAhead { index, thread })
    }

    /// The list of the batch's grid `index` and its seconds of generation, when `ahead`
    /// generates it (waiting for the thread to end); `None` otherwise (then `ahead` is
    /// left as it was).
    pub(super) fn take(ahead: &mut Option<UaAhead>, index: usize) -> Option<Generated> {
        match ahead.take() {
            Some(job) if job.index == index => Some(
                job.thread
                    .join()
                    .unwrap_or_else(|_| (Err(cli_error!("generating UA: the thread failed")), 0.0)),
            ),
            other => {
                *ahead = other;
                None
            }
        }
    }
}
