//! The life of one grid-checker session: set a grid, set the options, gather unavoidable
//! sets, prepare the scan, then run its chunks one after another, with the counters of the
//! chunks run so far.
//!
//! A [`Session`] holds what each phase produced, in typed form, over storage the caller
//! lends it once ([`Storage`]): the grid once it is set, the options, the UA list, the
//! prepared scan, the current chunk run. Its [`Phase`] is read from which of them exist,
//! so it is stored once; the C ABI's `GRIDCHECK_STATE_*` and the CLI project it. Every
//! call is all-or-nothing: an error means nothing changed.
//!
//! After preparation the chunk runs are a [`Runs`]: the prepared scan (shared, read-only)
//! and one workspace. Other threads run other chunks of the same scan with a [`Runs`]
//! each over [`Session::prepared`].
//!
//! ```
//! use core::mem::MaybeUninit;
//! use core::ops::ControlFlow;
//! use xcover_core::gridcheck::scan::{self, BitmapTable, ChunkId, LevelState, RunStatus};
//! use xcover_core::gridcheck::scan::{ScanOptions, WorkspaceView};
//! use xcover_core::gridcheck::session::{Phase, Session, Storage};
//! use xcover_core::gridcheck::{Cells, Grid};
//!
//! let grid = Grid::parse(b"123456789456789123789123456214365897365897214897214365531642978642978531978531642")?;
//! let (mut grid_slot, mut prepared_slot) = (MaybeUninit::uninit(), MaybeUninit::uninit());
//! let mut uas = [Cells::EMPTY; 8];
//! let mut work = [0u128; scan::prepare_work_entries(8)];
//! let mut table = Box::new(BitmapTable::new());
//! let mut states = [LevelState::ZERO; 82];
//! let mut session = Session::new(Storage {
//!     grid: &mut grid_slot,
//!     prepared: &mut prepared_slot,
//!     uas: &mut uas,
//!     uas_held: 0,
//!     ua_scratch: &mut [],
//!     work: &mut work,
//!     workspace: WorkspaceView::new(&mut table, &mut states),
//! });
//! assert!(session.prepare().is_err()); // no grid yet: nothing changes
//! assert_eq!(session.phase(), Phase::Empty);
//! session.set_grid(grid)?;
//! let mut options = ScanOptions::new(75);
//! options.mask.givens = Cells::ALL - Cells::from_cells(&[0, 1, 2, 3, 4, 5, 6, 7, 8]);
//! session.set_options(options)?;
//! session.prepare()?;
//! session.begin_chunk(ChunkId::WHOLE)?;
//! let mut found = 0;
//! let mut count = |_| {
//!     found += 1;
//!     ControlFlow::Continue(())
//! };
//! let mut status = RunStatus::BudgetExhausted;
//! while status == RunStatus::BudgetExhausted {
//!     status = session.run(100, &mut count)?; // in slices of about 100 steps
//! }
//! // Three of the first row's cells given, the other rows whole: C(9, 3) puzzles.
//! assert_eq!((status, found), (RunStatus::Done, 84));
//! assert_eq!((session.phase(), session.chunks_done()), (Phase::ChunkDone, 1));
//! assert_eq!(session.totals().found, 84);
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
use core::fmt;
use core::mem::MaybeUninit;
use core::ops::ControlFlow;

use crate::gridcheck::scan::{
    self, ChunkId, ChunkRun, Prepared, RunStats, RunStatus, ScanError, ScanOptions, WorkspaceSize,
    WorkspaceView,
};
use crate::gridcheck::ua::budget::{self, Recipe};
use crate::gridcheck::ua::{verify_ua, UaList};
use crate::gridcheck::{Cells, Grid};

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
    /// Begin a chunk.
    BeginChunk,
    /// Run the current chunk.
    Run,
}

impl Phase {
    /// Whether `step` is allowed in this phase.
    pub const fn allows(self, step: Step) -> bool {
        use Phase::*;
        match step {
            Step::SetGrid => matches!(self, Empty),
            Step::SetOptions | Step::AddUa => matches!(self, Grid | Options),
            Step::GenerateUa | Step::Prepare => matches!(self, Options),
            Step::ListChunks | Step::BeginChunk => matches!(self, Prepared | Running | ChunkDone),
            Step::Run => matches!(self, Running | ChunkDone),
        }
    }
}

/// Why a session refused a call. The session is as it was, except after
/// [`SessionError::Internal`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SessionError {
    /// `step` is not allowed in `phase`.
    WrongPhase {
        /// What was asked.
        step: Step,
        /// Where the session is.
        phase: Phase,
    },
    /// The set is not an unavoidable set of the grid (refused: a wrong set would make the
    /// scan miss puzzles).
    NotAUa,
    /// The UA list's storage is full.
    UaListFull {
        /// Sets it holds.
        capacity: usize,
    },
    /// UA generation needs scratch storage, and none was lent.
    NoUaScratch,
    /// The options, a chunk id, the UA list or the storage, as the scan sees them.
    Scan(ScanError),
    /// The scan refused what the session had checked (never happens): the storage lent to
    /// it is gone, and the session cannot go on.
    Internal(ScanError),
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::WrongPhase { step, phase } => {
                write!(f, "{step:?} is not allowed in phase {phase:?}")
            }
            SessionError::NotAUa => f.write_str("not an unavoidable set of the grid"),
            SessionError::UaListFull { capacity } => {
                write!(f, "the UA list is full ({capacity} sets)")
            }
            SessionError::NoUaScratch => f.write_str("UA generation needs scratch storage"),
            SessionError::Scan(e) => write!(f, "{e}"),
            SessionError::Internal(e) => write!(f, "internal error: {e}"),
        }
    }
}

impl core::error::Error for SessionError {}

impl From<ScanError> for SessionError {
    fn from(e: ScanError) -> Self {
        SessionError::Scan(e)
    }
}

/// The storage a session borrows for its whole life, lent once at [`Session::new`].
pub struct Storage<'s> {
    /// Room for the grid.
    pub grid: &'s mut MaybeUninit<Grid>,
    /// Room for the prepared scan.
    pub prepared: &'s mut MaybeUninit<Prepared<'s>>,
    /// The UA list's storage (its capacity).
    pub uas: &'s mut [Cells],
    /// Sets already at the start of `uas`: real unavoidable sets of the grid the session
    /// will be given, which the lender vouches for (as for [`scan::prepare`]); 0 for an
    /// empty list (at most `uas.len()` are taken).
    pub uas_held: usize,
    /// Antichain scratch of UA generation (may be empty: no generation).
    pub ua_scratch: &'s mut [Cells],
    /// The work list of the preparation ([`scan::prepare_work_entries`] of the UA count).
    pub work: &'s mut [u128],
    /// The storage of one chunk run (level states for the largest clue count); with band
    /// words (`WorkspaceView::with_bands`, `bands` feature) whole-grid scans run on the band
    /// engine.
    pub workspace: WorkspaceView<'s>,
}

/// What the phases Grid and Options hold: the grid, the options once set, the UA list, and
/// the storage still to be used.
struct Setup<'s> {
    grid: &'s Grid,
    options: Option<ScanOptions>,
    uas: &'s mut [Cells],
    ua_len: usize,
    ua_scratch: &'s mut [Cells],
    work: &'s mut [u128],
    prepared: &'s mut MaybeUninit<Prepared<'s>>,
    workspace: WorkspaceView<'s>,
}

/// The data of each phase.
// The chunk run is large (its frames), and boxing needs an allocator: the session lives
// where its owner puts it (the C ABI: in the caller's buffer).
#[allow(clippy::large_enum_variant)]
enum Stage<'s> {
    /// Phase Empty: the storage, untouched.
    Empty(Storage<'s>),
    /// Phase Grid (no options) or Options.
    Setup(Setup<'s>),
    /// Phase Prepared, Running or ChunkDone.
    Scan(Runs<'s>),
    /// Only inside a transition, never seen by a caller.
    Moving,
}

/// A grid checker's session over storage lent by the caller. See the [module](self).
pub struct Session<'s> {
    stage: Stage<'s>,
}

/// What [`Session::generate_ua`] or [`Session::generate_default_ua`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UaGenerated {
    /// Sets added to the list.
    pub added: usize,
    /// The distinct new sets did not all fit: the list holds those that did (all real UA).
    pub full: bool,
}

impl<'s> Session<'s> {
    /// A session with nothing set, over `storage`.
    pub fn new(storage: Storage<'s>) -> Session<'s> {
        Session {
            stage: Stage::Empty(storage),
        }
    }

    /// The current phase (from the data the session holds).
    pub fn phase(&self) -> Phase {
        match &self.stage {
            Stage::Empty(_) | Stage::Moving => Phase::Empty,
            Stage::Setup(setup) => match setup.options {
                None => Phase::Grid,
                Some(_) => Phase::Options,
            },
            Stage::Scan(runs) => runs.phase(),
        }
    }

    /// Whether `step` is allowed now.
    pub fn allows(&self, step: Step) -> bool {
        self.phase().allows(step)
    }

    /// Err(WrongPhase) unless `step` is allowed now.
    fn expect(&self, step: Step) -> Result<(), SessionError> {
        let phase = self.phase();
        match phase.allows(step) {
            true => Ok(()),
            false => Err(SessionError::WrongPhase { step, phase }),
        }
    }

    /// The grid, once set.
    pub fn grid(&self) -> Option<&'s Grid> {
        match &self.stage {
            Stage::Setup(setup) => Some(setup.grid),
            Stage::Scan(runs) => Some(runs.prepared.grid()),
            Stage::Empty(_) | Stage::Moving => None,
        }
    }

    /// The options, once set.
    pub fn options(&self) -> Option<ScanOptions> {
        match &self.stage {
            Stage::Setup(setup) => setup.options,
            Stage::Scan(runs) => Some(*runs.prepared.options()),
            Stage::Empty(_) | Stage::Moving => None,
        }
    }

    /// Sets in the UA list (after preparation: those the scan was prepared with).
    pub fn ua_count(&self) -> usize {
        match &self.stage {
            Stage::Empty(storage) => storage.uas_held.min(storage.uas.len()),
            Stage::Setup(setup) => setup.ua_len,
            Stage::Scan(runs) => runs.prepared.stats().ua_input,
            Stage::Moving => 0,
        }
    }

    /// The prepared scan (phase Prepared or later), shareable with other threads' [`Runs`].
    pub fn prepared(&self) -> Option<&'s Prepared<'s>> {
        match &self.stage {
            Stage::Scan(runs) => Some(runs.prepared),
            _ => None,
        }
    }

    /// The setup data (phase Grid or Options).
    fn setup(&mut self) -> Option<&mut Setup<'s>> {
        match &mut self.stage {
            Stage::Setup(setup) => Some(setup),
            _ => None,
        }
    }

    /// Sets the solution grid (phase Empty -> Grid).
    pub fn set_grid(&mut self, grid: Grid) -> Result<(), SessionError> {
        self.expect(Step::SetGrid)?;
        let Stage::Empty(storage) = core::mem::replace(&mut self.stage, Stage::Moving) else {
            unreachable!("phase Empty is Stage::Empty")
        };
        let grid: &'s Grid = storage.grid.write(grid);
        self.stage = Stage::Setup(Setup {
            grid,
            options: None,
            ua_len: storage.uas_held.min(storage.uas.len()),
            uas: storage.uas,
            ua_scratch: storage.ua_scratch,
            work: storage.work,
            prepared: storage.prepared,
            workspace: storage.workspace,
        });
        Ok(())
    }

    /// Sets (or changes, until preparation) the options: checked as
    /// [`ScanOptions::check`] does, and against the workspace's level states (phase Grid or
    /// Options -> Options).
    pub fn set_options(&mut self, options: ScanOptions) -> Result<(), SessionError> {
        self.expect(Step::SetOptions)?;
        options.check()?;
        let setup = self
            .setup()
            .ok_or(SessionError::Internal(ScanError::BadChunk))?;
        let needed = WorkspaceSize::for_clues(options.clues).states;
        let given = setup.workspace.states.len();
        if given < needed {
            return Err(SessionError::Scan(ScanError::StorageTooSmall {
                what: "workspace states",
                needed,
                given,
            }));
        }
        setup.options = Some(options);
        Ok(())
    }

    /// Adds `ua`, verified against the grid (phase Grid or Options).
    pub fn add_ua(&mut self, ua: Cells) -> Result<(), SessionError> {
        self.expect(Step::AddUa)?;
        let setup = self
            .setup()
            .ok_or(SessionError::Internal(ScanError::BadChunk))?;
        if !verify_ua(setup.grid, ua) {
            return Err(SessionError::NotAUa);
        }
        let capacity = setup.uas.len();
        let slot = setup
            .uas
            .get_mut(setup.ua_len)
            .ok_or(SessionError::UaListFull { capacity })?;
        *slot = ua;
        setup.ua_len += 1;
        Ok(())
    }

    /// Generates unavoidable sets with
    /// [`generate::for_mask`](crate::gridcheck::ua::generate::for_mask) (the options'
    /// forced givens are never blanked): the 4-digit subsets and `random` random
    /// pseudo-puzzles drawn from `seed`, appended, sorted and de-duplicated among
    /// themselves (phase Options). A list too small keeps the new sets that fit, all real
    /// UA, and says so in [`UaGenerated::full`].
    pub fn generate_ua(&mut self, random: u32, seed: u64) -> Result<UaGenerated, SessionError> {
        self.generate_recipe(Some(random), seed)
    }

    /// Generates unavoidable sets as [`Session::generate_ua`] does, with the recipe every
    /// front end uses by default ([`budget::scan_recipe`]: chosen per grid for a whole
    /// grid, the 4-digit subsets and [`budget::MASKED_RANDOM`] for a masked scan).
    pub fn generate_default_ua(&mut self, seed: u64) -> Result<UaGenerated, SessionError> {
        self.generate_recipe(None, seed)
    }

    /// The generation of [`Session::generate_ua`] (`Some(random)`) and
    /// [`Session::generate_default_ua`] (`None`).
    fn generate_recipe(
        &mut self,
        random: Option<u32>,
        seed: u64,
    ) -> Result<UaGenerated, SessionError> {
        self.expect(Step::GenerateUa)?;
        let setup = self
            .setup()
            .ok_or(SessionError::Internal(ScanError::BadChunk))?;
        // Phase Options: the options are set.
        let options = setup
            .options
            .ok_or(SessionError::Internal(ScanError::BadChunk))?;
        if setup.ua_scratch.is_empty() {
            return Err(SessionError::NoUaScratch);
        }
        let recipe = match random {
            Some(random) => Recipe::given(random),
            None => budget::scan_recipe(setup.grid, &options),
        };
        let mut list = UaList::new(&mut setup.uas[setup.ua_len..]);
        let result = recipe.generate(
            setup.grid,
            seed,
            options.mask.givens,
            &mut list,
            setup.ua_scratch,
        );
        let added = list.len();
        setup.ua_len += added;
        Ok(UaGenerated {
            added,
            full: result.is_err(),
        })
    }

    /// Prepares the scan (phase Options -> Prepared).
    pub fn prepare(&mut self) -> Result<(), SessionError> {
        self.expect(Step::Prepare)?;
        let setup = self
            .setup()
            .ok_or(SessionError::Internal(ScanError::BadChunk))?;
        // What `scan::prepare` refuses, checked while nothing is lent: the options were
        // checked when set.
        let uas = &setup.uas[..setup.ua_len];
        let needed = scan::prepare_work_entries(uas.len());
        if setup.work.len() < needed {
            return Err(SessionError::Scan(ScanError::StorageTooSmall {
                what: "prepare work list",
                needed,
                given: setup.work.len(),
            }));
        }
        if let Some(index) = uas.iter().position(|ua| ua.is_empty()) {
            return Err(SessionError::Scan(ScanError::EmptyUa { index }));
        }
        let Stage::Setup(setup) = core::mem::replace(&mut self.stage, Stage::Moving) else {
            unreachable!("phase Options is Stage::Setup")
        };
        let Setup {
            grid,
            options,
            uas,
            ua_len,
            work,
            prepared,
            workspace,
            ..
        } = setup;
        let options = options.unwrap_or(ScanOptions::new(0));
        // A workspace with band words runs whole-grid scans on the band engine.
        #[cfg(feature = "bands")]
        let prepare = if workspace.has_bands() {
            scan::prepare_with_bands
        } else {
            scan::prepare
        };
        #[cfg(not(feature = "bands"))]
        let prepare = scan::prepare;
        match prepare(grid, &uas[..ua_len], &options, work) {
            Ok(scan) => {
                let prepared: &'s Prepared<'s> = prepared.write(scan);
                self.stage = Stage::Scan(Runs::checked(prepared, workspace));
                Ok(())
            }
            Err(e) => {
                // Not reached (checked above); the work list went to `prepare`.
                self.stage = Stage::Setup(Setup {
                    grid,
                    options: Some(options),
                    uas,
                    ua_len,
                    ua_scratch: &mut [],
                    work: &mut [],
                    prepared,
                    workspace,
                });
                Err(SessionError::Internal(e))
            }
        }
    }

    /// The chunk runs (phase Prepared or later).
    fn runs(&mut self, step: Step) -> Result<&mut Runs<'s>, SessionError> {
        self.expect(step)?;
        match &mut self.stage {
            Stage::Scan(runs) => Ok(runs),
            _ => Err(SessionError::Internal(ScanError::BadChunk)),
        }
    }

    /// Begins a run of `chunk` (phase Prepared, Running or ChunkDone -> Running); see
    /// [`Runs::begin_chunk`].
    pub fn begin_chunk(&mut self, chunk: ChunkId) -> Result<(), SessionError> {
        self.runs(Step::BeginChunk)?.begin_chunk(chunk)
    }

    /// Runs the current chunk for about `budget` steps (phase Running or ChunkDone); see
    /// [`Runs::run`].
    pub fn run<F>(&mut self, budget: u64, on_found: &mut F) -> Result<RunStatus, SessionError>
    where
        F: FnMut(Cells) -> ControlFlow<()>,
    {
        self.runs(Step::Run)?.run(budget, on_found)
    }

    /// The counters of every chunk run so far, the current one included.
    pub fn totals(&self) -> RunStats {
        match &self.stage {
            Stage::Scan(runs) => runs.totals(),
            _ => RunStats::default(),
        }
    }

    /// Chunks run to their end, the current one included once it is over.
    pub fn chunks_done(&self) -> u64 {
        match &self.stage {
            Stage::Scan(runs) => runs.chunks_done(),
            _ => 0,
        }
    }

    /// The chunk runs of a prepared session (to run them on another thread), or the
    /// session itself if it is not prepared yet.
    #[allow(clippy::result_large_err)] // the session handed back, as it was
    pub fn into_runs(self) -> Result<Runs<'s>, Session<'s>> {
        match self.stage {
            Stage::Scan(runs) => Ok(runs),
            stage => Err(Session { stage }),
        }
    }
}

/// The current chunk run of a [`Runs`].
#[allow(clippy::large_enum_variant)] // as for `Stage`
enum Current<'s> {
    /// No chunk begun: the workspace waits.
    Idle(WorkspaceView<'s>),
    /// A chunk is running.
    Running(ChunkRun<'s, 's>),
    /// The chunk is over (done or stopped).
    Ended(ChunkRun<'s, 's>),
    /// The workspace went to a run the scan refused (never happens, see
    /// [`SessionError::Internal`]).
    Lost,
    /// Only inside a transition, never seen by a caller.
    Moving,
}

/// The chunk runs of a prepared scan over one workspace, one after another, with the
/// counters of those run so far: the phases Prepared, Running and ChunkDone of a
/// [`Session`], which also lets a thread of its own run chunks of a scan prepared once.
///
/// ```
/// use core::ops::ControlFlow;
/// use xcover_core::gridcheck::scan::{self, ChunkId, RunStatus, ScanOptions, Workspace};
/// use xcover_core::gridcheck::session::{Phase, Runs};
/// use xcover_core::gridcheck::Grid;
///
/// let grid = Grid::parse(b"123456789456789123789123456214365897365897214897214365531642978642978531978531642")?;
/// let mut work = [0u128; scan::prepare_work_entries(0)];
/// let prepared = scan::prepare(&grid, &[], &ScanOptions::new(1), &mut work)?;
/// let mut workspace: Box<Workspace<2>> = Box::default();
/// let mut runs = Runs::new(&prepared, workspace.as_mut_view())?;
/// assert!(runs.run(10, &mut |_| ControlFlow::Continue(())).is_err()); // no chunk yet
/// for chunk in prepared.chunks() {
///     runs.begin_chunk(chunk)?;
///     while runs.run(10, &mut |_| ControlFlow::Continue(()))? == RunStatus::BudgetExhausted {}
/// }
/// assert_eq!(runs.phase(), Phase::ChunkDone);
/// assert_eq!(runs.totals().found, 0); // one clue never makes a unique puzzle
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub struct Runs<'s> {
    prepared: &'s Prepared<'s>,
    current: Current<'s>,
    /// Counters of the chunk runs before the current one.
    earlier: RunStats,
    /// Chunks run to their end before the current one.
    earlier_done: u64,
}

impl<'s> Runs<'s> {
    /// Chunk runs of `prepared` in `workspace` (at least [`WorkspaceSize::for_scan`], band
    /// words included when the band engine runs it).
    pub fn new(
        prepared: &'s Prepared<'s>,
        workspace: WorkspaceView<'s>,
    ) -> Result<Runs<'s>, SessionError> {
        let needed = WorkspaceSize::for_scan(prepared);
        #[cfg(feature = "bands")]
        let band_words = workspace.bands.len();
        #[cfg(not(feature = "bands"))]
        let band_words = 0;
        for (what, needed, given) in [
            ("workspace states", needed.states, workspace.states.len()),
            ("band words", needed.band_words, band_words),
        ] {
            if given < needed {
                return Err(SessionError::Scan(ScanError::StorageTooSmall {
                    what,
                    needed,
                    given,
                }));
            }
        }
        Ok(Runs::checked(prepared, workspace))
    }

    /// As [`Runs::new`], the workspace's size known to suffice.
    fn checked(prepared: &'s Prepared<'s>, workspace: WorkspaceView<'s>) -> Runs<'s> {
        Runs {
            prepared,
            current: Current::Idle(workspace),
            earlier: RunStats::default(),
            earlier_done: 0,
        }
    }

    /// The prepared scan.
    pub fn prepared(&self) -> &'s Prepared<'s> {
        self.prepared
    }

    /// Prepared (no chunk begun), Running or ChunkDone.
    pub fn phase(&self) -> Phase {
        match self.current {
            Current::Idle(_) | Current::Lost | Current::Moving => Phase::Prepared,
            Current::Running(_) => Phase::Running,
            Current::Ended(_) => Phase::ChunkDone,
        }
    }

    /// Begins a run of `chunk`; the run it replaces (running or over) is kept in the
    /// counters. An id that is not one of this scan's chunks is refused.
    pub fn begin_chunk(&mut self, chunk: ChunkId) -> Result<(), SessionError> {
        if !self.prepared.chunk_fits(chunk) {
            return Err(SessionError::Scan(ScanError::BadChunk));
        }
        if let Current::Lost = self.current {
            return Err(SessionError::Internal(ScanError::BadChunk));
        }
        let (workspace, previous, ended) =
            match core::mem::replace(&mut self.current, Current::Moving) {
                Current::Idle(workspace) => (workspace, None, false),
                Current::Running(run) => {
                    let stats = run.stats();
                    (run.into_view(), Some(stats), false)
                }
                Current::Ended(run) => {
                    let stats = run.stats();
                    (run.into_view(), Some(stats), true)
                }
                Current::Lost | Current::Moving => unreachable!("checked above"),
            };
        if let Some(previous) = previous {
            self.earlier += previous;
        }
        self.earlier_done += u64::from(ended);
        // The size was checked by `new` and the chunk above: this cannot fail.
        match ChunkRun::new(self.prepared, workspace, chunk) {
            Ok(run) => {
                self.current = Current::Running(run);
                Ok(())
            }
            Err(e) => {
                self.current = Current::Lost;
                Err(SessionError::Internal(e))
            }
        }
    }

    /// Runs the current chunk for about `budget` steps (see [`ChunkRun::run`]); a chunk
    /// that is over gives its last status again.
    // Not inlined: the search keeps its own code, as when a caller drives a `ChunkRun`.
    #[inline(never)]
    pub fn run<F>(&mut self, budget: u64, on_found: &mut F) -> Result<RunStatus, SessionError>
    where
        F: FnMut(Cells) -> ControlFlow<()>,
    {
        let status = match &mut self.current {
            Current::Running(run) | Current::Ended(run) => run.run(budget, on_found),
            _ => {
                return Err(SessionError::WrongPhase {
                    step: Step::Run,
                    phase: self.phase(),
                })
            }
        };
        if status != RunStatus::BudgetExhausted {
            if let Current::Running(_) = self.current {
                if let Current::Running(run) =
                    core::mem::replace(&mut self.current, Current::Moving)
                {
                    self.current = Current::Ended(run);
                }
            }
        }
        Ok(status)
    }

    /// The current run's counters (zero when none is begun).
    pub fn current_stats(&self) -> RunStats {
        match &self.current {
            Current::Running(run) | Current::Ended(run) => run.stats(),
            _ => RunStats::default(),
        }
    }

    /// The counters of every chunk run so far, the current one included.
    pub fn totals(&self) -> RunStats {
        let mut total = self.earlier;
        total += self.current_stats();
        total
    }

    /// Chunks run to their end, the current one included once it is over.
    pub fn chunks_done(&self) -> u64 {
        self.earlier_done + u64::from(matches!(self.current, Current::Ended(_)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gridcheck::scan::{BitmapTable, LevelState};
    use std::boxed::Box;
    use std::vec;
    use std::vec::Vec;

    const GRID: &[u8] =
        b"123456789456789123789123456214365897365897214897214365531642978642978531978531642";

    /// The caller's storage of a session.
    struct Owned {
        grid: MaybeUninit<Grid>,
        uas: Vec<Cells>,
        scratch: Vec<Cells>,
        work: Vec<u128>,
        table: Box<BitmapTable>,
        states: Vec<LevelState>,
    }

    fn owned(uas: usize, scratch: usize, states: usize) -> Box<Owned> {
        Box::new(Owned {
            grid: MaybeUninit::uninit(),
            uas: vec![Cells::EMPTY; uas],
            scratch: vec![Cells::EMPTY; scratch],
            work: vec![0; scan::prepare_work_entries(uas)],
            table: Box::new(BitmapTable::new()),
            states: vec![LevelState::ZERO; states],
        })
    }

    /// A session over `o`, with `room` for the prepared scan (which borrows from `o`, so it
    /// lives beside it, not in it).
    fn session<'s>(
        o: &'s mut Owned,
        room: &'s mut MaybeUninit<Prepared<'s>>,
        uas_held: usize,
    ) -> Session<'s> {
        Session::new(Storage {
            grid: &mut o.grid,
            prepared: room,
            uas: &mut o.uas,
            uas_held,
            ua_scratch: &mut o.scratch,
            work: &mut o.work,
            workspace: WorkspaceView::new(&mut o.table, &mut o.states),
        })
    }

    /// What a caller can observe of a session.
    fn seen(s: &Session<'_>) -> (Phase, usize, Option<ScanOptions>, RunStats, u64, bool) {
        (
            s.phase(),
            s.ua_count(),
            s.options(),
            s.totals(),
            s.chunks_done(),
            s.grid().is_some(),
        )
    }

    fn grid() -> Grid {
        Grid::parse(GRID).unwrap()
    }

    /// A real UA: two digits' cells.
    fn ua() -> Cells {
        let g = grid();
        g.cells_of_digit(1) | g.cells_of_digit(2)
    }

    /// Every step refused in `s`'s phase returns WrongPhase and changes nothing.
    fn refused_out_of_phase(s: &mut Session<'_>) {
        let before = seen(s);
        let phase = before.0;
        let refused = |step| SessionError::WrongPhase { step, phase };
        // Only where refused: the others would change the session.
        if !phase.allows(Step::SetGrid) {
            assert_eq!(s.set_grid(grid()), Err(refused(Step::SetGrid)));
        }
        if !phase.allows(Step::SetOptions) {
            let r = s.set_options(ScanOptions::new(20));
            assert_eq!(r, Err(refused(Step::SetOptions)));
        }
        if !phase.allows(Step::AddUa) {
            assert_eq!(s.add_ua(ua()), Err(refused(Step::AddUa)));
        }
        if !phase.allows(Step::GenerateUa) {
            assert_eq!(s.generate_ua(5, 1), Err(refused(Step::GenerateUa)));
            let r = s.generate_default_ua(1);
            assert_eq!(r, Err(refused(Step::GenerateUa)));
        }
        if !phase.allows(Step::Prepare) {
            assert!(matches!(s.prepare(), Err(SessionError::WrongPhase { .. })));
        }
        if !phase.allows(Step::BeginChunk) {
            assert!(matches!(
                s.begin_chunk(ChunkId::WHOLE),
                Err(SessionError::WrongPhase { .. })
            ));
        }
        if !phase.allows(Step::Run) {
            let r = s.run(10, &mut |_| ControlFlow::Continue(()));
            assert!(matches!(r, Err(SessionError::WrongPhase { .. })));
        }
        assert_eq!(seen(s), before, "refused in {phase:?}");
    }

    #[test]
    fn every_error_leaves_the_session_as_it_was() {
        let mut o = owned(2, 64, 22);
        let mut room = MaybeUninit::uninit();
        let mut s = session(&mut o, &mut room, 0);
        refused_out_of_phase(&mut s);
        s.set_grid(grid()).unwrap();
        refused_out_of_phase(&mut s);
        // A set that is not a UA; the list full.
        let before = seen(&s);
        assert_eq!(s.add_ua(Cells::single(0)), Err(SessionError::NotAUa));
        assert_eq!(seen(&s), before);
        s.add_ua(ua()).unwrap();
        s.add_ua(ua()).unwrap();
        let before = seen(&s);
        assert_eq!(
            s.add_ua(ua()),
            Err(SessionError::UaListFull { capacity: 2 })
        );
        assert_eq!(seen(&s), before);
        // Options: a bad clue count, more clues than the workspace's levels.
        assert!(matches!(
            s.set_options(ScanOptions::new(0)),
            Err(SessionError::Scan(ScanError::BadClueCount { .. }))
        ));
        assert!(matches!(
            s.set_options(ScanOptions::new(22)),
            Err(SessionError::Scan(ScanError::StorageTooSmall { .. }))
        ));
        assert_eq!(seen(&s), before);
        s.set_options(ScanOptions::new(20)).unwrap();
        refused_out_of_phase(&mut s);
        let before = seen(&s);
        assert_eq!(before.0, Phase::Options);
        s.prepare().unwrap();
        refused_out_of_phase(&mut s);
        // A chunk id of no chunk.
        let before = seen(&s);
        assert_eq!(
            s.begin_chunk(ChunkId {
                top: 200,
                second: 100,
                third: 5
            }),
            Err(SessionError::Scan(ScanError::BadChunk))
        );
        assert_eq!(seen(&s), before);
        let chunk = s.prepared().unwrap().chunks().next().unwrap();
        s.begin_chunk(chunk).unwrap();
        refused_out_of_phase(&mut s);
        assert_eq!(s.phase(), Phase::Running);
    }

    #[test]
    fn prepare_refuses_what_the_scan_would_and_changes_nothing() {
        // An empty set vouched for by the lender; a work list too small.
        let mut o = owned(1, 0, 22);
        let mut room = MaybeUninit::uninit();
        let mut s = session(&mut o, &mut room, 1);
        assert_eq!(s.ua_count(), 1);
        s.set_grid(grid()).unwrap();
        s.set_options(ScanOptions::new(20)).unwrap();
        let before = seen(&s);
        assert_eq!(
            s.prepare(),
            Err(SessionError::Scan(ScanError::EmptyUa { index: 0 }))
        );
        assert_eq!(s.generate_ua(5, 1), Err(SessionError::NoUaScratch));
        assert_eq!(s.generate_default_ua(1), Err(SessionError::NoUaScratch));
        assert_eq!(seen(&s), before);
        let mut o = owned(1, 0, 22);
        o.work.truncate(3);
        let mut room = MaybeUninit::uninit();
        let mut s = session(&mut o, &mut room, 0);
        s.set_grid(grid()).unwrap();
        s.set_options(ScanOptions::new(20)).unwrap();
        let before = seen(&s);
        assert!(matches!(
            s.prepare(),
            Err(SessionError::Scan(ScanError::StorageTooSmall { .. }))
        ));
        assert_eq!(seen(&s), before);
    }

    #[test]
    fn the_phase_follows_the_data_and_totals_keep_every_run_once() {
        let mut o = owned(4096, 4096, 82);
        let mut room = MaybeUninit::uninit();
        let mut s = session(&mut o, &mut room, 0);
        s.set_grid(grid()).unwrap();
        assert_eq!((s.phase(), s.options()), (Phase::Grid, None));
        let mut options = ScanOptions::new(75);
        options.mask.givens = Cells::ALL - Cells::from_cells(&[0, 1, 2, 3, 4, 5, 6, 7, 8]);
        s.set_options(options).unwrap();
        let generated = s.generate_ua(10, 1).unwrap();
        assert_eq!(s.ua_count(), generated.added);
        s.prepare().unwrap();
        assert_eq!(s.ua_count(), generated.added, "from the prepared scan");
        assert_eq!((s.phase(), s.options()), (Phase::Prepared, Some(options)));
        let chunks: Vec<ChunkId> = s.prepared().unwrap().chunks().collect();
        let mut found = 0;
        let mut count = |_| {
            found += 1;
            ControlFlow::Continue(())
        };
        // Abandoned while running: counted in the totals, not as done.
        s.begin_chunk(chunks[0]).unwrap();
        s.run(1, &mut count).unwrap();
        let abandoned = s.totals();
        assert_eq!((s.phase(), s.chunks_done()), (Phase::Running, 0));
        for &chunk in &chunks {
            s.begin_chunk(chunk).unwrap();
            while s.run(1, &mut count).unwrap() == RunStatus::BudgetExhausted {}
            assert_eq!(s.phase(), Phase::ChunkDone);
            assert_eq!(s.run(1, &mut count), Ok(RunStatus::Done), "over: the same");
        }
        assert_eq!(s.chunks_done(), chunks.len() as u64);
        assert_eq!(s.totals().found - abandoned.found, 84);
        assert!(s.totals().steps > abandoned.steps);
        let runs = s.into_runs().ok().unwrap();
        assert_eq!(runs.chunks_done(), chunks.len() as u64);
    }

    /// The default generation is the recipe the front ends use (`budget::scan_recipe`),
    /// for a whole grid rich in rectangles (400 random pseudo-puzzles alone) and for a
    /// masked scan (the 4-digit subsets and 300): the same sets as the recipe's own list.
    #[test]
    fn the_default_generation_is_the_front_ends_recipe() {
        // 13 unavoidable rectangles: a 16-clue whole-grid scan takes the rich recipe.
        let rich = Grid::parse(
            b"128465973534789261697231854271354698359876412486912735813647529965128347742593186",
        )
        .unwrap();
        let mut masked = ScanOptions::new(20);
        masked.mask.givens = Cells::from_cells(&[0, 10, 20, 30]);
        for options in [ScanOptions::new(16), masked] {
            let recipe = budget::scan_recipe(&rich, &options);
            let expected = recipe
                .generate_to_vec(&rich, 3, options.mask.givens)
                .unwrap();
            let mut o = owned(1 << 15, 1 << 14, 22);
            let mut room = MaybeUninit::uninit();
            let mut s = session(&mut o, &mut room, 0);
            s.set_grid(rich).unwrap();
            s.set_options(options).unwrap();
            let generated = s.generate_default_ua(3).unwrap();
            assert!(!generated.full);
            let setup = s.setup().unwrap();
            assert_eq!(&setup.uas[..setup.ua_len], &expected[..], "{recipe:?}");
        }
    }
}
