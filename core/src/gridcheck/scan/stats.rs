//! What a chunk run reports: its status, its counters and (with the `scan-profile`
//! feature) where its placements went.
#[cfg(doc)]
use super::chunk_run::ChunkRun;
#[cfg(feature = "scan-profile")]
use super::levels::{MAX_FRAMES, PACKING_LEVELS};
#[cfg(feature = "scan-profile")]
use super::table::Probe;

/// Outcome of [`ChunkRun::run`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RunStatus {
    /// The chunk is finished.
    Done,
    /// The budget ran out; call `run` again to continue.
    BudgetExhausted,
    /// Stopped at a puzzle (stop-at-first, or the callback asked to stop).
    Stopped,
}

/// Counters of a run (cumulative over resumptions).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct RunStats {
    /// Placements tried (the budget unit).
    pub steps: u64,
    /// Candidates that hit all loaded UA and went to the solver.
    pub candidates: u64,
    /// Solver calls (candidates plus minimality checks).
    pub solver_calls: u64,
    /// Puzzles reported.
    pub found: u64,
}

/// Adds another run's counters: the totals of several chunks, threads or slices.
///
/// ```
/// use xcover_core::gridcheck::scan::RunStats;
/// let mut total = RunStats { steps: 5, candidates: 2, solver_calls: 3, found: 1 };
/// total += RunStats { steps: 1, candidates: 1, solver_calls: 1, found: 0 };
/// assert_eq!(total, RunStats { steps: 6, candidates: 3, solver_calls: 4, found: 1 });
/// ```
impl core::ops::AddAssign for RunStats {
    fn add_assign(&mut self, more: RunStats) {
        self.steps += more.steps;
        self.candidates += more.candidates;
        self.solver_calls += more.solver_calls;
        self.found += more.found;
    }
}

/// Where a run's placements went, for finding out what makes a grid slow (only with the
/// `scan-profile` feature, which the analysis tools turn on: the counting costs time).
#[cfg(feature = "scan-profile")]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ScanProfile {
    /// Placements by the clues left before them (index 1: the last clue).
    pub placements: [u64; MAX_FRAMES],
    /// Probes of children (index: clues left after the placement, at most
    /// [`PACKING_LEVELS`]) the packing or the exact test pruned.
    pub pruned: [u64; PACKING_LEVELS + 1],
    /// Probes whose child hit every set.
    pub all_hit: [u64; PACKING_LEVELS + 1],
    /// Probes whose child was visited (sets still unhit, not proved hopeless).
    pub open: [u64; PACKING_LEVELS + 1],
}

#[cfg(feature = "scan-profile")]
impl ScanProfile {
    /// Nothing counted yet.
    pub const ZERO: ScanProfile = ScanProfile {
        placements: [0; MAX_FRAMES],
        pruned: [0; PACKING_LEVELS + 1],
        all_hit: [0; PACKING_LEVELS + 1],
        open: [0; PACKING_LEVELS + 1],
    };

    pub(super) fn probed(&mut self, left: usize, probe: Probe) {
        let counts = match probe {
            Probe::Pruned => &mut self.pruned,
            Probe::AllHit => &mut self.all_hit,
            Probe::Open => &mut self.open,
        };
        counts[left] += 1;
    }
}

#[cfg(feature = "scan-profile")]
impl core::ops::AddAssign for ScanProfile {
    fn add_assign(&mut self, more: ScanProfile) {
        let add = |a: &mut [u64], b: &[u64]| a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        add(&mut self.placements, &more.placements);
        add(&mut self.pruned, &more.pruned);
        add(&mut self.all_hit, &more.all_hit);
        add(&mut self.open, &more.open);
    }
}
