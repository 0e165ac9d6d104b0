//! The grids of a batch scanned at once: with `--threads N` and at least two grids left to
//! scan, each of up to N "lanes" takes the next grid and scans it whole (UA list,
//! preparation, chunks) on threads of its own; the main thread takes the outcomes in batch
//! order, so that the output is the one-thread run's.
//!
//! Threads sharing one grid wait at its ends: its UA list and preparation run on one of
//! them, and its last chunks leave the others idle; lanes wait only at the batch's end
//! (two threads: 1.57× one thread's grids a second before, 1.98× with lanes, in
//! docs/PERFORMANCE.md's twentieth pass). With fewer grids than threads the lanes share the
//! threads out; a single lane (one thread, or one grid to scan) runs on the main thread.
//!
//! A lane stops taking grids at a signal, and after a grid that did not end (a signal or an
//! error): the grids in flight end as their own scans end, and every outcome up to the
//! first that did not end is handed over. Each grid in flight holds its own buffers, so
//! each gets `1/lanes` of `--max-memory`.
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};

use crate::error::Result;
use xcover_core::gridcheck::scan::ScanOptions;
use xcover_core::gridcheck::Grid;

use super::args::Args;
use super::grid_scan::{scan_grid, Budget, GridContext, GridOutcome};
use super::journal::{GridRecord, Journal};
use crate::signals::Signals;

/// A grid's scan as a lane hands it over.
pub(super) type Scanned = Result<GridOutcome>;

/// The batch's grids to scan and all their scans share.
pub(super) struct Batch<'a> {
    pub(super) args: &'a Args,
    pub(super) options: &'a ScanOptions,
    pub(super) grids: &'a [Grid],
    /// What the journal holds per grid (empty records without one).
    pub(super) records: &'a [GridRecord],
    pub(super) journal: Option<&'a Journal>,
    pub(super) signals: &'a Signals,
    /// `--threads`, resolved.
    pub(super) threads: usize,
    /// `--max-memory`, resolved.
    pub(super) limit: u64,
    /// Indices of the grids to scan, ascending (those the journal finished are left out).
    pub(super) todo: &'a [usize],
}

/// What the lanes share: the next grid to hand out, and the order to stop taking grids.
struct Dispatch {
    /// Position in `todo` of the next grid to scan.
    next: AtomicUsize,
    /// Set when no lane may take another grid.
    halt: AtomicBool,
}

impl Batch<'_> {
    /// Lanes: one a thread, at most one a grid to scan.
    fn lanes(&self) -> usize {
        self.threads.min(self.todo.len()).max(1)
    }

    /// Threads of lane `lane` of `lanes`: the threads shared out, the first lanes taking
    /// the remainder.
    fn lane_threads(&self, lane: usize, lanes: usize) -> usize {
        (self.threads / lanes + usize::from(lane < self.threads % lanes)).max(1)
    }

    /// Scans grid `todo[position]` on `threads` threads, one of `lanes` grids at once, and
    /// journals its end when it ran to it.
    fn scan(&self, position: usize, threads: usize, lanes: usize) -> Scanned {
        let index = self.todo[position];
        let record = &self.records[index];
        let label = format!("grid {}/{}", index + 1, self.grids.len());
        let context = GridContext {
            args: self.args,
            options: self.options,
            grid: &self.grids[index],
            index,
            threads,
            label: &label,
            budget: Budget {
                limit: self.limit,
                share: lanes,
            },
            signals: self.signals,
            journal: self.journal.map(|j| (j, index, record)),
        };
        let outcome = scan_grid(&context)?;
        if let (GridOutcome::Done(_), Some(journal)) = (&outcome, self.journal) {
            if !record.done {
                journal.grid_done(index)?;
            }
        }
        Ok(outcome)
    }

    /// One lane: scans grids until none is left, a signal comes, the dispatch halts or a
    /// grid does not end; hands each outcome over on `send`.
    fn lane(
        &self,
        dispatch: &Dispatch,
        threads: usize,
        lanes: usize,
        send: Sender<(usize, Scanned)>,
    ) {
        while !dispatch.halt.load(Ordering::Relaxed) && self.signals.received().is_none() {
            let position = dispatch.next.fetch_add(1, Ordering::Relaxed);
            let Some(&index) = self.todo.get(position) else {
                return;
            };
            let outcome = self.scan(position, threads, lanes);
            if !matches!(outcome, Ok(GridOutcome::Done(_))) {
                dispatch.halt.store(true, Ordering::Relaxed);
            }
            if send.send((index, outcome)).is_err() {
                return;
            }
        }
    }

    /// Runs `consume` over the outcomes of the grids to scan, scanned on as many lanes as
    /// the threads and grids allow; when it returns, no lane takes another grid, and the
    /// grids in flight end before this does.
    pub(super) fn run<R>(&self, consume: impl FnOnce(&mut Outcomes<'_, '_>) -> R) -> R {
        let lanes = self.lanes();
        if lanes == 1 {
            return consume(&mut Outcomes {
                batch: self,
                source: Source::Inline {
                    next: 0,
                    halted: false,
                },
            });
        }
        let dispatch = Dispatch {
            next: AtomicUsize::new(0),
            halt: AtomicBool::new(false),
        };
        std::thread::scope(|scope| {
            let (send, receive) = mpsc::channel();
            for lane in 0..lanes {
                let (send, dispatch) = (send.clone(), &dispatch);
                let threads = self.lane_threads(lane, lanes);
                scope.spawn(move || self.lane(dispatch, threads, lanes, send));
            }
            drop(send);
            let mut outcomes = Outcomes {
                batch: self,
                source: Source::Lanes {
                    receive,
                    early: BTreeMap::new(),
                },
            };
            let result = consume(&mut outcomes);
            dispatch.halt.store(true, Ordering::Relaxed);
            result
        })
    }
}

/// Where the outcomes come from.
enum Source {
    /// Scanned on the calling thread when asked for: position in `todo` of the next grid,
    /// and whether a grid did not end.
    Inline { next: usize, halted: bool },
    /// Handed over by the lanes; those that came before their turn wait in `early`.
    Lanes {
        receive: Receiver<(usize, Scanned)>,
        early: BTreeMap<usize, Scanned>,
    },
}

/// The outcomes of a batch's scans, taken in batch order.
pub(super) struct Outcomes<'b, 'a> {
    batch: &'b Batch<'a>,
    source: Source,
}

impl Outcomes<'_, '_> {
    /// The outcome of grid `index` (the next grid of `todo`), or `None` when it was not
    /// scanned: a signal came, or a grid before it did not end.
    pub(super) fn take(&mut self, index: usize) -> Option<Scanned> {
        match &mut self.source {
            Source::Inline { next, halted } => {
                debug_assert_eq!(self.batch.todo.get(*next), Some(&index));
                if *halted || self.batch.signals.received().is_some() {
                    return None;
                }
                *next += 1;
                let outcome = self.batch.scan(*next - 1, self.batch.threads, 1);
                *halted = !matches!(outcome, Ok(GridOutcome::Done(_)));
                Some(outcome)
            }
            Source::Lanes { receive, early } => loop {
                if let Some(outcome) = early.remove(&index) {
                    return Some(outcome);
                }
                let (done, outcome) = receive.recv().ok()?;
                early.insert(done, outcome);
            },
        }
    }
}
