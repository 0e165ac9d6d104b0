//! The handle at the start of the caller's buffer: a magic number and a state in front of
//! views of the scan objects and arrays (see `crate::carve`), so every call can tell a live
//! workspace from garbage, a dead one, or a call made out of order.

use super::grid_outcome::GridOutcome;
use super::layout::{self, GRIDCHECK_REGION_ALIGN};
use super::types::gridcheck_state::{self, *};
use super::types::{gridcheck_limits, GRIDCHECK_HEADER_BYTES, GRIDCHECK_WORKSPACE_ALIGN};
use crate::carve::{Carver, Slot, WeakSliceMut};
pub use crate::handle::Dead;
use crate::handle::{self, Header};
use crate::raw::Checked;
use crate::status::xcover_status;
use core::marker::{PhantomData, PhantomPinned};
use core::mem::size_of;
use xcover_core::gridcheck::scan::{
    BitmapTable, ChunkId, ChunkRun, LevelState, Prepared, RunStats, ScanError, ScanOptions,
    WorkspaceView,
};
use xcover_core::gridcheck::session::{Phase, Session, Step};
use xcover_core::gridcheck::{Cells, Grid};

/// Rounded size of `T` in the header block.
const fn slot_bytes<T>() -> usize {
    size_of::<T>().div_ceil(GRIDCHECK_REGION_ALIGN) * GRIDCHECK_REGION_ALIGN
}

/// Bytes of the handle and the scan objects.
const fn header_bytes() -> usize {
    slot_bytes::<Record>()
        + slot_bytes::<Grid>()
        + slot_bytes::<ScanOptions>()
        + slot_bytes::<Prepared>()
        + slot_bytes::<ChunkRun>()
}

const _: () = assert!(
    header_bytes() <= GRIDCHECK_HEADER_BYTES,
    "the scan objects grew: raise GRIDCHECK_HEADER_BYTES, then XCOVER_BLESS=1 cargo test -p xcover-ffi --test header"
);

/// Where the scan objects and arrays live in the caller's buffer. The objects are written
/// once their inputs are known (grid, options, prepare, chunk begin); until then the slots
/// hold garbage and the state says so.
struct Regions<'buf> {
    grid: Slot<'buf, Grid>,
    options: Slot<'buf, ScanOptions>,
    prepared: Slot<'buf, Prepared<'buf>>,
    run: Slot<'buf, ChunkRun<'buf, 'buf>>,
    table: Slot<'buf, BitmapTable>,
    uas: WeakSliceMut<'buf, Cells>,
    scratch: WeakSliceMut<'buf, Cells>,
    work: WeakSliceMut<'buf, u128>,
    states: WeakSliceMut<'buf, LevelState>,
}

/// The opaque handle type: C (and Rust callers of this crate) only hold
/// `gridcheck_workspace *`, declared by the header's `after_includes` in cbindgen.toml (as
/// `dlx3_workspace`). It points to the start of the caller's buffer given to
/// `gridcheck_init`, where the [`Record`] lies.
/// cbindgen:ignore
#[allow(non_camel_case_types)]
pub struct gridcheck_workspace {
    _opaque: [u8; 0],
    // Neither Send, Sync nor Unpin: it stands for the record in the C buffer.
    _buffer: PhantomData<(*mut u8, PhantomPinned)>,
}

/// The `gridcheck_state` of a live workspace in `phase` (DEAD is the header's own).
pub const fn c_state(phase: Phase) -> u32 {
    let state: gridcheck_state = match phase {
        Phase::Empty => GRIDCHECK_STATE_EMPTY,
        Phase::Grid => GRIDCHECK_STATE_GRID,
        Phase::Options => GRIDCHECK_STATE_OPTIONS,
        Phase::Prepared => GRIDCHECK_STATE_PREPARED,
        Phase::Running => GRIDCHECK_STATE_RUNNING,
        Phase::ChunkDone => GRIDCHECK_STATE_CHUNK_DONE,
    };
    state as u32
}

/// The workspace record at the start of the caller's buffer, which a
/// `gridcheck_workspace *` points to. `'buf` is the span during which the C caller keeps
/// the buffer: each call borrows the record for itself (see [`handle()`]). `repr(C)` keeps
/// the header first.
#[repr(C)]
pub struct Record<'buf> {
    /// Magic number, state, why it died. The state is [`c_state`] of the session's phase
    /// (written only by `Record::sync_state`) until the workspace dies.
    pub header: Header,
    /// The phase and the counters of the chunk runs (core's; the C state projects it).
    session: Session,
    /// The capacities given at init.
    pub limits: gridcheck_limits,
    regions: Regions<'buf>,
    /// Sets in the UA list.
    pub ua_len: usize,
    /// The last puzzle found, as text (`found_any` says whether there is one).
    pub last_puzzle: [u8; 82],
    /// Whether a puzzle was found.
    pub found_any: bool,
    /// The outcome of the last `gridcheck_set_grid` (`gridcheck_get_grid_error`).
    pub(crate) last_grid: GridOutcome,
}

// SAFETY: repr(C), the header first, written by `install` with Header::new::<Self>.
unsafe impl handle::Record for Record<'_> {
    /// "XCOVGRID": marks a buffer that holds an initialized gridcheck workspace.
    const MAGIC: u64 = u64::from_le_bytes(*b"XCOVGRID");
    /// Written over the magic number by `gridcheck_release`.
    const RELEASED: u64 = u64::from_le_bytes(*b"gridfree");
    const FIRST_STATE: u32 = GRIDCHECK_STATE_EMPTY as u32;
    const DEAD: u32 = GRIDCHECK_STATE_DEAD as u32;
}

/// Checks a buffer handed to `gridcheck_init`, carves it and writes the handle.
///
/// # Safety
/// `buf` is NULL or valid for reads and writes of `len` bytes, and stays so (untouched by
/// the caller) while the workspace is in use.
pub unsafe fn install(
    buf: *mut u8,
    len: usize,
    limits: gridcheck_limits,
) -> Checked<*mut gridcheck_workspace> {
    let counts = layout::counts(&limits);
    let needed = counts.as_ref().and_then(layout::bytes);
    // SAFETY: forwarded contract.
    let base = unsafe { handle::claim::<Record>(buf, len, needed, GRIDCHECK_WORKSPACE_ALIGN) }?;
    let (counts, needed) = counts
        .zip(needed)
        .ok_or(xcover_status::XCOVER_INTERNAL_ERROR)?;
    // SAFETY: `needed` <= len bytes at `buf` are writable while the workspace is in use
    // (this function's contract); the handle occupies the first bytes, skipped here.
    let mut carver: Carver<'_, GRIDCHECK_REGION_ALIGN> =
        unsafe { Carver::new(base, size_of::<Record>(), needed) };
    let mut regions = (|| {
        Some(Regions {
            grid: carver.slot()?,
            options: carver.slot()?,
            prepared: carver.slot()?,
            run: carver.slot()?,
            table: carver.slot()?,
            uas: carver.zeroed(counts.uas)?,
            scratch: carver.zeroed(counts.scratch)?,
            work: carver.zeroed(counts.work)?,
            states: carver.zeroed(counts.states)?,
        })
    })()
    .ok_or(xcover_status::XCOVER_INTERNAL_ERROR)?;
    debug_assert!(carver.used() <= needed);
    regions.table.write(BitmapTable::new());
    let record = buf.cast::<Record>();
    // SAFETY: `buf` is 8-aligned (the handle's alignment: it holds no u128, see the
    // assertion in `tests`) and its first size_of::<gridcheck>() bytes are the handle's
    // (the carver started after them).
    unsafe {
        record.write(Record {
            header: Header::new::<Record>(c_state(Phase::Empty)),
            session: Session::new(),
            limits,
            regions,
            ua_len: 0,
            last_puzzle: [0; 82],
            found_any: false,
            last_grid: GridOutcome::NONE,
        })
    };
    Ok(record.cast())
}

/// Validates a handle (see [`handle::open`]) and gives its record for the call.
///
/// # Safety
/// As for [`handle::open`]: `handle` is NULL or points to at least 16 readable bytes; if
/// they start with the magic number, to a workspace made by `gridcheck_init` whose buffer
/// stays valid during `'a`, used by no other thread then.
pub unsafe fn handle<'a>(
    handle: *mut gridcheck_workspace,
    dead: Dead,
) -> Checked<&'a mut Record<'a>> {
    // SAFETY: forwarded contract.
    unsafe { handle::open::<Record<'a>>(handle.cast(), dead) }
}

impl<'buf> Record<'buf> {
    /// The current state (a `GRIDCHECK_STATE_*`).
    pub fn state(&self) -> u32 {
        self.header.state()
    }

    /// The session's phase.
    pub fn phase(&self) -> Phase {
        self.session.phase()
    }

    /// Writes the C state of the session's phase into the header.
    fn sync_state(&mut self) {
        self.header.set_state(c_state(self.session.phase()));
    }

    /// Returns BAD_STATE unless the session allows `step` now.
    pub fn allow(&self, step: Step) -> Checked<()> {
        match self.session.allows(step) {
            true => Ok(()),
            false => Err(xcover_status::XCOVER_BAD_STATE),
        }
    }

    /// Records that `step` succeeded (see [`Session::done`]).
    pub fn done(&mut self, step: Step) {
        self.session.done(step);
        self.sync_state();
    }

    /// Begins a run of `chunk` of the prepared scan, keeping the counters of the run it
    /// replaces (see [`Session::begin_chunk`]). On error no run is current (the previous
    /// one's storage went to the new one; its counters are kept) and the phase is Prepared.
    pub fn begin_chunk(&mut self, chunk: ChunkId) -> Result<(), ScanError> {
        let previous = self.current_run_stats();
        let prepared = self.prepared();
        let workspace = self.chunk_workspace();
        match ChunkRun::new(prepared, workspace, chunk) {
            Ok(run) => {
                self.regions.run.write(run);
                self.session.begin_chunk(previous);
                self.sync_state();
                Ok(())
            }
            Err(e) => {
                self.session.chunk_not_begun(previous);
                self.sync_state();
                Err(e)
            }
        }
    }

    /// The current chunk run is over.
    pub fn chunk_ended(&mut self) {
        self.session.chunk_ended();
        self.sync_state();
    }

    /// Chunks run to their end (see [`Session::chunks_done`]).
    pub fn chunks_done(&self) -> u64 {
        self.session.chunks_done()
    }

    /// Marks the workspace dead because of `why`, and returns `why`.
    pub fn kill(&mut self, why: xcover_status) -> xcover_status {
        self.header.kill::<Self>(why)
    }

    /// Forgets the workspace: its handle is refused from now on.
    pub fn release(&mut self) {
        self.header.release::<Self>();
    }

    /// Stores the grid (its slot is then valid for `grid()`).
    pub fn store_grid(&mut self, grid: Grid) {
        // The state machine allows this once, before anything borrows the grid.
        self.regions.grid.write(grid);
    }

    /// The grid. Only after `store_grid` (phase Grid or later).
    pub fn grid(&self) -> &'buf Grid {
        debug_assert!(self.phase() != Phase::Empty);
        // SAFETY: written by `store_grid` (states GRID and later) and never written again.
        unsafe { self.regions.grid.lend() }
    }

    /// Stores the options (state GRID or OPTIONS: nothing borrows them yet).
    pub fn store_options(&mut self, options: ScanOptions) {
        // The prepared scan copies the options, so nothing borrows the slot.
        self.regions.options.write(options);
    }

    /// The options. Only after `store_options` (state OPTIONS or later).
    pub fn options(&self) -> ScanOptions {
        // SAFETY: written by `store_options` before the state became OPTIONS.
        *unsafe { self.regions.options.assume_init_ref() }
    }

    /// The UA list storage and the generation scratch (states GRID / OPTIONS only: the
    /// prepared scan does not borrow them).
    pub fn ua_storage(&mut self) -> (&mut [Cells], &mut [Cells]) {
        (
            self.regions.uas.as_mut_slice(),
            self.regions.scratch.as_mut_slice(),
        )
    }

    /// Prepares the scan into its slot with `f(grid, uas, work)`; on success the session is
    /// Prepared, in the same step (the slot is valid exactly when the phase says so).
    pub fn prepare_with<E>(
        &mut self,
        f: impl FnOnce(&'buf Grid, &[Cells], &'buf mut [u128]) -> Result<Prepared<'buf>, E>,
    ) -> Result<(), E> {
        let grid = self.grid();
        let uas = self.regions.uas.as_slice();
        let uas = &uas[..self.ua_len.min(uas.len())];
        // SAFETY: prepare runs once (state OPTIONS -> PREPARED), so no earlier borrow of
        // `work` exists, and the prepared scan keeps it for the rest of the workspace's life.
        let work = unsafe { self.regions.work.lend() };
        let prepared = f(grid, uas, work)?;
        self.regions.prepared.write(prepared);
        self.done(Step::Prepare);
        Ok(())
    }

    /// Whether the scan is prepared (the session's phase; it stays so if the workspace
    /// dies later, since death is the header's, not the session's).
    pub fn is_prepared(&self) -> bool {
        self.session.is_prepared()
    }

    /// The prepared scan (state PREPARED or later).
    pub fn prepared(&self) -> &'buf Prepared<'buf> {
        debug_assert!(self.session.is_prepared());
        // SAFETY: written by `prepare_with`, which makes the session Prepared in the same
        // step (and never again written): the phase is Prepared or later exactly when the
        // slot holds the scan.
        unsafe { self.regions.prepared.lend() }
    }

    /// The per-chunk storage, borrowed afresh for a new chunk run (any earlier run is
    /// over: `begin_chunk` replaces it).
    fn chunk_workspace(&mut self) -> WorkspaceView<'buf> {
        // SAFETY: the table was written at init; the only other borrower of the table and
        // the states is the previous ChunkRun, which `begin_chunk` overwrites with the run
        // built from this workspace, or forgets (the session has no run then), and never
        // uses again.
        unsafe { WorkspaceView::new(self.regions.table.lend_mut(), self.regions.states.lend()) }
    }

    /// The current chunk run (phase Running or ChunkDone).
    pub fn run(&mut self) -> &mut ChunkRun<'buf, 'buf> {
        debug_assert!(self.session.has_run());
        // SAFETY: written by `begin_chunk` before the phase became Running. (The previous
        // run it replaces is forgotten: nothing to drop, it only borrows.)
        unsafe { self.regions.run.assume_init_mut() }
    }

    /// The current run's counters, if there is a run.
    fn current_run_stats(&mut self) -> Option<RunStats> {
        match self.session.has_run() {
            true => Some(self.run().stats()),
            false => None,
        }
    }

    /// Counters of the chunks so far, the current one included.
    pub fn total_stats(&mut self) -> RunStats {
        let current = self.current_run_stats();
        self.session.totals(current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_fits_and_handle_needs_only_8_byte_alignment() {
        let used = header_bytes();
        std::println!(
            "gridcheck header: {used} of {GRIDCHECK_HEADER_BYTES} reserved (handle {}, prepared {}, run {}), table {}",
            size_of::<Record>(),
            size_of::<Prepared>(),
            size_of::<ChunkRun>(),
            size_of::<BitmapTable>()
        );
        assert!(used <= GRIDCHECK_HEADER_BYTES);
        assert!(core::mem::align_of::<Record>() <= GRIDCHECK_WORKSPACE_ALIGN);
    }
}
