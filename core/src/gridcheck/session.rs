//! The life of one grid-checker session: set a grid, set the options, gather unavoidable
//! sets, prepare the scan, then run its chunks one after another, with the counters of the
//! chunks run so far.
//!
//! The data (the grid, the UA list, the prepared scan, the chunk run) lives where the
//! front end keeps it: the C ABI carves it from the caller's buffer, whose slots borrow
//! one another. [`Session`] is the part every front end would otherwise write again: which
//! [`Step`] is allowed in which [`Phase`], the phase it leads to, and the totals. The C
//! ABI's `GRIDCHECK_STATE_*` is a projection of [`Session::phase`].
//!
//! ```
//! use xcover_core::gridcheck::scan::RunStats;
//! use xcover_core::gridcheck::session::{Phase, Session, Step};
//!
//! let mut session = Session::new();
//! assert!(!session.allows(Step::Prepare)); // no grid yet
//! for step in [Step::SetGrid, Step::SetOptions, Step::Prepare] {
//!     assert!(session.allows(step));
//!     session.done(step);
//! }
//! assert_eq!(session.phase(), Phase::Prepared);
//! session.begin_chunk(None);
//! let run = RunStats { steps: 7, candidates: 2, solver_calls: 3, found: 1 };
//! session.chunk_ended();
//! assert_eq!(session.chunks_done(), 1);
//! assert_eq!(session.totals(Some(run)).found, 1);
//! session.begin_chunk(Some(run)); // the next chunk: the last one's counters are kept
//! assert_eq!((session.phase(), session.chunks_done()), (Phase::Running, 1));
//! assert_eq!(session.totals(Some(RunStats::default())).steps, 7);
//! ```
use crate::gridcheck::scan::RunStats;

/// Where a session is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Nothing set: the grid comes first.
    Empty,
    /// The grid is set: options next (UA may be added already).
    Grid,
    /// The options are set: UA may be added or generated, or the scan prepared.
    Options,
    /// The scan is prepared (read-only from now on): chunks may be listed and begun.
    Prepared,
    /// A chunk is running.
    Running,
    /// The current chunk is over (done or stopped); the next may be begun.
    ChunkDone,
}

/// What a front end asks of a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Set the solution grid (once).
    SetGrid,
    /// Set (or change, until preparation) the scan options.
    SetOptions,
    /// Add unavoidable sets read from text.
    AddUa,
    /// Generate unavoidable sets (needs the options: the mask's givens are kept).
    GenerateUa,
    /// Prepare the scan.
    Prepare,
    /// List the prepared scan's chunks.
    ListChunks,
    /// Begin a chunk ([`Session::begin_chunk`]).
    BeginChunk,
    /// Run the current chunk.
    Run,
}

/// A session's phase and the counters of its finished chunk runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Session {
    phase: Phase,
    /// Counters of the chunk runs before the current one.
    earlier: RunStats,
    /// Chunks run to their end before the current one.
    earlier_done: u64,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    /// A session with nothing set.
    pub const fn new() -> Session {
        Session {
            phase: Phase::Empty,
            earlier: RunStats {
                steps: 0,
                candidates: 0,
                solver_calls: 0,
                found: 0,
            },
            earlier_done: 0,
        }
    }

    /// The current phase.
    pub const fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether `step` is allowed now.
    pub const fn allows(&self, step: Step) -> bool {
        use Phase::*;
        match step {
            Step::SetGrid => matches!(self.phase, Empty),
            Step::SetOptions | Step::AddUa => matches!(self.phase, Grid | Options),
            Step::GenerateUa | Step::Prepare => matches!(self.phase, Options),
            Step::ListChunks | Step::BeginChunk => {
                matches!(self.phase, Prepared | Running | ChunkDone)
            }
            Step::Run => matches!(self.phase, Running | ChunkDone),
        }
    }

    /// Records that `step`, allowed ([`Session::allows`]), succeeded: moves to the phase it
    /// leads to. A chunk is begun with [`Session::begin_chunk`] and ends with
    /// [`Session::chunk_ended`], since they carry counters.
    pub fn done(&mut self, step: Step) {
        debug_assert!(self.allows(step));
        self.phase = match step {
            Step::SetGrid => Phase::Grid,
            Step::SetOptions => Phase::Options,
            Step::Prepare => Phase::Prepared,
            Step::BeginChunk => Phase::Running,
            Step::AddUa | Step::GenerateUa | Step::ListChunks | Step::Run => self.phase,
        };
    }

    /// A new chunk run has begun; `previous` has the counters of the run it replaces (the
    /// current one, if a chunk was running or is over), which the totals keep.
    pub fn begin_chunk(&mut self, previous: Option<RunStats>) {
        self.keep_run(previous);
        self.phase = Phase::Running;
    }

    /// A chunk could not be begun, but the run it was to replace is gone (its storage was
    /// lent to the new one): its counters `previous` are kept, and no run is current.
    pub fn chunk_not_begun(&mut self, previous: Option<RunStats>) {
        self.keep_run(previous);
        self.phase = Phase::Prepared;
    }

    /// Adds the counters of the current run, `previous`, to the earlier ones.
    fn keep_run(&mut self, previous: Option<RunStats>) {
        debug_assert!(self.allows(Step::BeginChunk));
        if let Some(previous) = previous {
            self.earlier += previous;
        }
        if self.phase == Phase::ChunkDone {
            self.earlier_done += 1;
        }
    }

    /// The current chunk run is over (done, or stopped at a puzzle).
    pub fn chunk_ended(&mut self) {
        debug_assert!(matches!(self.phase, Phase::Running | Phase::ChunkDone));
        self.phase = Phase::ChunkDone;
    }

    /// Whether the scan is prepared (phase Prepared or later): a front end's prepared-scan
    /// slot holds it from then on, for the rest of the session.
    ///
    /// ```
    /// use xcover_core::gridcheck::session::{Session, Step};
    ///
    /// let mut session = Session::new();
    /// for step in [Step::SetGrid, Step::SetOptions] {
    ///     session.done(step);
    /// }
    /// assert!(!session.is_prepared());
    /// session.done(Step::Prepare);
    /// session.begin_chunk(None);
    /// assert!(session.is_prepared());
    /// ```
    pub const fn is_prepared(&self) -> bool {
        matches!(
            self.phase,
            Phase::Prepared | Phase::Running | Phase::ChunkDone
        )
    }

    /// Whether a chunk run exists (running or over), whose counters [`Session::totals`]
    /// wants.
    pub const fn has_run(&self) -> bool {
        matches!(self.phase, Phase::Running | Phase::ChunkDone)
    }

    /// The counters of every chunk run so far: the earlier ones and `current`, the current
    /// run's (ignored unless [`Session::has_run`]).
    pub fn totals(&self, current: Option<RunStats>) -> RunStats {
        let mut total = self.earlier;
        if let (true, Some(current)) = (self.has_run(), current) {
            total += current;
        }
        total
    }

    /// Chunks run to their end, the current one included once it is over.
    pub const fn chunks_done(&self) -> u64 {
        self.earlier_done + matches!(self.phase, Phase::ChunkDone) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL_STEPS: [Step; 8] = [
        Step::SetGrid,
        Step::SetOptions,
        Step::AddUa,
        Step::GenerateUa,
        Step::Prepare,
        Step::ListChunks,
        Step::BeginChunk,
        Step::Run,
    ];

    fn allowed(session: &Session) -> std::vec::Vec<Step> {
        ALL_STEPS
            .into_iter()
            .filter(|s| session.allows(*s))
            .collect()
    }

    #[test]
    fn each_phase_allows_its_steps() {
        let mut s = Session::new();
        assert_eq!(allowed(&s), [Step::SetGrid]);
        s.done(Step::SetGrid);
        assert_eq!(allowed(&s), [Step::SetOptions, Step::AddUa]);
        s.done(Step::AddUa);
        assert_eq!(s.phase(), Phase::Grid);
        s.done(Step::SetOptions);
        assert_eq!(
            allowed(&s),
            [
                Step::SetOptions,
                Step::AddUa,
                Step::GenerateUa,
                Step::Prepare
            ]
        );
        s.done(Step::Prepare);
        assert_eq!(allowed(&s), [Step::ListChunks, Step::BeginChunk]);
        s.begin_chunk(None);
        assert_eq!(allowed(&s), [Step::ListChunks, Step::BeginChunk, Step::Run]);
        s.chunk_ended();
        assert_eq!(s.phase(), Phase::ChunkDone);
        assert_eq!(allowed(&s), [Step::ListChunks, Step::BeginChunk, Step::Run]);
    }

    #[test]
    fn totals_keep_every_run_once() {
        let run = |steps| RunStats {
            steps,
            candidates: 1,
            solver_calls: 1,
            found: 0,
        };
        let mut s = Session::new();
        assert_eq!(s.totals(Some(run(99))), RunStats::default());
        for step in [Step::SetGrid, Step::SetOptions, Step::Prepare] {
            s.done(step);
        }
        assert_eq!(s.totals(Some(run(99))), RunStats::default());
        s.begin_chunk(None);
        assert_eq!(s.totals(Some(run(5))).steps, 5);
        // Abandoned while running: counted in the totals, not as done.
        s.begin_chunk(Some(run(5)));
        assert_eq!((s.totals(Some(run(2))).steps, s.chunks_done()), (7, 0));
        s.chunk_ended();
        assert_eq!(s.chunks_done(), 1);
        s.begin_chunk(Some(run(2)));
        assert_eq!((s.totals(Some(run(0))).steps, s.chunks_done()), (7, 1));
        assert_eq!(s.totals(Some(run(0))).candidates, 3);
        s.chunk_ended();
        s.chunk_not_begun(Some(run(4)));
        assert_eq!(s.phase(), Phase::Prepared);
        assert_eq!((s.totals(Some(run(50))).steps, s.chunks_done()), (11, 2));
    }
}
