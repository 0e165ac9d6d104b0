//! The handle at the start of the caller's buffer: a magic number and a state in front of
//! pointers to the scan objects, so every call can tell a live workspace from garbage, a
//! dead one, or a call made out of order.

use super::layout::{self, Carver, Counts};
use super::types::{
    gridcheck_limits, GRIDCHECK_HEADER_BYTES, GRIDCHECK_STATE_CHUNK_DONE, GRIDCHECK_STATE_DEAD,
    GRIDCHECK_STATE_EMPTY, GRIDCHECK_WORKSPACE_ALIGN,
};
use crate::raw::{is_aligned, Checked};
use crate::status::xcover_status;
use core::mem::size_of;
use xcover_core::gridcheck::scan::{
    BitmapTable, ChunkRun, LevelState, Prepared, RunStats, ScanOptions, WorkspaceView,
};
use xcover_core::gridcheck::{Cells, Grid};

/// "XCOVGRID": marks a buffer that holds an initialized gridcheck workspace.
const MAGIC: u64 = u64::from_le_bytes(*b"XCOVGRID");
/// Written over the magic number by `gridcheck_release`.
const RELEASED: u64 = u64::from_le_bytes(*b"gridfree");

/// Rounded size of `T` in the header block.
const fn slot_bytes<T>() -> usize {
    size_of::<T>().div_ceil(16) * 16
}

const _: () = assert!(
    slot_bytes::<gridcheck>()
        + slot_bytes::<Grid>()
        + slot_bytes::<ScanOptions>()
        + slot_bytes::<Prepared<'static>>()
        + slot_bytes::<ChunkRun<'static, 'static>>()
        <= GRIDCHECK_HEADER_BYTES,
    "the scan objects grew: raise GRIDCHECK_HEADER_BYTES, then XCOVER_BLESS=1 cargo test -p xcover-ffi --test header"
);

/// Where the scan objects and arrays live in the caller's buffer. The objects are written
/// once their inputs are known (grid, options, prepare, chunk begin); until then the slots
/// hold garbage and the state says so.
#[derive(Clone, Copy)]
struct Regions {
    grid: *mut Grid,
    options: *mut ScanOptions,
    prepared: *mut Prepared<'static>,
    run: *mut ChunkRun<'static, 'static>,
    table: *mut BitmapTable,
    uas: *mut Cells,
    scratch: *mut Cells,
    work: *mut u128,
    states: *mut LevelState,
    counts: Counts,
}

/// The opaque workspace handle: it points to the start of the caller's buffer given to
/// `gridcheck_init` (opaque: C only ever holds a pointer to it).
#[allow(non_camel_case_types)]
pub struct gridcheck {
    magic: u64,
    state: u32,
    /// Why the workspace died (XCOVER_OK while alive).
    pub failure: xcover_status,
    /// The capacities given at init.
    pub limits: gridcheck_limits,
    regions: Regions,
    /// Sets in the UA list.
    pub ua_len: usize,
    /// Counters of the chunks run before the current one.
    pub done_stats: RunStats,
    /// Chunks run to their end.
    pub chunks_done: u64,
    /// The last puzzle found, as text (`found_any` says whether there is one).
    pub last_puzzle: [u8; 82],
    /// Whether a puzzle was found.
    pub found_any: bool,
    /// Whether the prepared-scan slot holds a prepared scan.
    prepared_live: bool,
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
) -> Checked<*mut gridcheck> {
    if buf.is_null() {
        return Err(xcover_status::XCOVER_NULL_POINTER);
    }
    if (buf as usize) % GRIDCHECK_WORKSPACE_ALIGN != 0 {
        return Err(xcover_status::XCOVER_MISALIGNED);
    }
    let counts = layout::counts(&limits).ok_or(xcover_status::XCOVER_BAD_ARGUMENT)?;
    let needed = layout::bytes(&counts).ok_or(xcover_status::XCOVER_BAD_ARGUMENT)?;
    if len < needed {
        return Err(xcover_status::XCOVER_BUFFER_TOO_SMALL);
    }
    let existing = buf.cast::<gridcheck>();
    // SAFETY: the buffer is 8-aligned and at least GRIDCHECK_HEADER_BYTES (more than a
    // handle) long, so the magic field can be read (volatile: the C caller's bytes may be
    // anything).
    if unsafe { core::ptr::addr_of!((*existing).magic).read_volatile() } == MAGIC {
        // SAFETY: our magic number: an earlier init wrote a gridcheck handle here.
        let state = unsafe { (*existing).state };
        if state != GRIDCHECK_STATE_DEAD {
            return Err(xcover_status::XCOVER_ALREADY_INITIALIZED);
        }
    }
    // SAFETY: `needed` <= len bytes at `buf` are writable for the workspace's lifetime
    // (this function's contract); the handle occupies the first bytes, skipped here.
    let mut carver = unsafe { Carver::new(buf, size_of::<gridcheck>(), needed) };
    let regions = (|| {
        Some(Regions {
            grid: carver.slot::<Grid>()?,
            options: carver.slot::<ScanOptions>()?,
            prepared: carver.slot::<Prepared<'static>>()?,
            run: carver.slot::<ChunkRun<'static, 'static>>()?,
            table: carver.slot::<BitmapTable>()?,
            uas: carver.zeroed::<Cells>(counts.uas)?.as_mut_ptr(),
            scratch: carver.zeroed::<Cells>(counts.scratch)?.as_mut_ptr(),
            work: carver.zeroed::<u128>(counts.work)?.as_mut_ptr(),
            states: carver.zeroed::<LevelState>(counts.states)?.as_mut_ptr(),
            counts,
        })
    })()
    .ok_or(xcover_status::XCOVER_INTERNAL_ERROR)?;
    debug_assert!(carver.next() as usize <= buf as usize + needed);
    let handle = buf.cast::<gridcheck>();
    // SAFETY: the table slot was carved above (16-aligned, room for a BitmapTable);
    // `write` does not drop the garbage that was there.
    unsafe { regions.table.write(BitmapTable::new()) };
    // SAFETY: `buf` is 8-aligned (the handle's alignment: it holds no u128, see the
    // assertion in `tests`) and its first size_of::<gridcheck>() bytes are the handle's
    // (the carver started after them).
    unsafe {
        handle.write(gridcheck {
            magic: MAGIC,
            state: GRIDCHECK_STATE_EMPTY,
            failure: xcover_status::XCOVER_OK,
            limits,
            regions,
            ua_len: 0,
            done_stats: RunStats::default(),
            chunks_done: 0,
            last_puzzle: [0; 82],
            found_any: false,
            prepared_live: false,
        })
    };
    Ok(handle)
}

/// What a call accepts of a dead workspace.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Dead {
    /// Return XCOVER_DEAD.
    Refuse,
    /// Go ahead (stats, state, release).
    Allow,
}

/// Validates a handle: NULL, alignment, magic number, state, and (unless allowed) dead.
///
/// # Safety
/// `handle` is NULL or points to at least `size_of::<gridcheck>()` readable bytes; if
/// they start with the magic number, to a workspace made by `gridcheck_init` whose buffer
/// is still valid, used by no other thread during the call.
pub unsafe fn handle<'a>(handle: *mut gridcheck, dead: Dead) -> Checked<&'a mut gridcheck> {
    if handle.is_null() {
        return Err(xcover_status::XCOVER_NULL_POINTER);
    }
    if !is_aligned(handle) {
        return Err(xcover_status::XCOVER_MISALIGNED);
    }
    // SAFETY: non-null and aligned; readable per this contract (volatile: any bytes).
    let magic = unsafe { core::ptr::addr_of!((*handle).magic).read_volatile() };
    if magic != MAGIC {
        return Err(xcover_status::XCOVER_NOT_INITIALIZED);
    }
    // SAFETY: the magic number says gridcheck_init wrote a handle here; the caller
    // guarantees exclusive access for the call.
    let h = unsafe { &mut *handle };
    if !(GRIDCHECK_STATE_EMPTY..=GRIDCHECK_STATE_DEAD).contains(&h.state) {
        return Err(xcover_status::XCOVER_NOT_INITIALIZED);
    }
    if dead == Dead::Refuse && h.state == GRIDCHECK_STATE_DEAD {
        return Err(xcover_status::XCOVER_DEAD);
    }
    Ok(h)
}

impl gridcheck {
    /// The current state (a `GRIDCHECK_STATE_*`).
    pub fn state(&self) -> u32 {
        self.state
    }

    /// Moves to `state`.
    pub fn set_state(&mut self, state: u32) {
        self.state = state;
    }

    /// Returns BAD_STATE unless the workspace is in one of `allowed`.
    pub fn expect(&self, allowed: &[u32]) -> Checked<()> {
        if allowed.contains(&self.state) {
            Ok(())
        } else {
            Err(xcover_status::XCOVER_BAD_STATE)
        }
    }

    /// Marks the workspace dead because of `why`, and returns `why`.
    pub fn kill(&mut self, why: xcover_status) -> xcover_status {
        self.state = GRIDCHECK_STATE_DEAD;
        self.failure = why;
        why
    }

    /// Forgets the workspace: its handle is refused from now on.
    pub fn release(&mut self) {
        self.magic = RELEASED;
    }

    /// Stores the grid (its slot is then valid for `grid()`).
    pub fn store_grid(&mut self, grid: Grid) {
        // SAFETY: the slot was carved for a Grid at init and nothing borrows it before the
        // grid is stored (the state machine allows this once, before any other use).
        unsafe { self.regions.grid.write(grid) };
    }

    /// The grid. Only after `store_grid` (state GRID or later).
    pub fn grid(&self) -> &'static Grid {
        debug_assert!(self.state > GRIDCHECK_STATE_EMPTY);
        // SAFETY: written by `store_grid` (states GRID and later) and never written again;
        // the buffer outlives every use (init's contract).
        unsafe { &*self.regions.grid }
    }

    /// Stores the options (state GRID or OPTIONS: nothing borrows them yet).
    pub fn store_options(&mut self, options: ScanOptions) {
        // SAFETY: the slot was carved for ScanOptions; the prepared scan copies the options,
        // so no reference to the slot is alive while it can be rewritten.
        unsafe { self.regions.options.write(options) };
    }

    /// The options. Only after `store_options` (state OPTIONS or later).
    pub fn options(&self) -> ScanOptions {
        // SAFETY: written by `store_options` before the state became OPTIONS.
        unsafe { self.regions.options.read() }
    }

    /// The UA list storage and the generation scratch (states GRID / OPTIONS only: the
    /// prepared scan does not borrow them).
    pub fn ua_storage(&mut self) -> (&mut [Cells], &mut [Cells]) {
        let counts = self.regions.counts;
        // SAFETY: carved (zeroed) at init with these lengths; `&mut self` makes the
        // borrows exclusive, and no scan object keeps a reference to them.
        unsafe {
            (
                core::slice::from_raw_parts_mut(self.regions.uas, counts.uas),
                core::slice::from_raw_parts_mut(self.regions.scratch, counts.scratch),
            )
        }
    }

    /// Prepares the scan into its slot with `f(grid, uas, work)`.
    pub fn prepare_with<E>(
        &mut self,
        f: impl FnOnce(&'static Grid, &[Cells], &'static mut [u128]) -> Result<Prepared<'static>, E>,
    ) -> Result<(), E> {
        let counts = self.regions.counts;
        // SAFETY: the UA list and the work list were carved with these lengths; prepare
        // runs once (state OPTIONS -> PREPARED), so no earlier borrow of `work` exists,
        // and the prepared scan keeps `work` for the rest of the workspace's life.
        let (uas, work) = unsafe {
            (
                core::slice::from_raw_parts(self.regions.uas, self.ua_len.min(counts.uas)),
                core::slice::from_raw_parts_mut(self.regions.work, counts.work),
            )
        };
        let prepared = f(self.grid(), uas, work)?;
        // SAFETY: the slot was carved for a Prepared; written once.
        unsafe { self.regions.prepared.write(prepared) };
        self.prepared_live = true;
        Ok(())
    }

    /// Whether the scan is prepared (stays true if the workspace dies later).
    pub fn is_prepared(&self) -> bool {
        self.prepared_live
    }

    /// The prepared scan (state PREPARED or later).
    pub fn prepared(&self) -> &'static Prepared<'static> {
        debug_assert!(self.prepared_live);
        // SAFETY: written by `prepare_with` (which sets `prepared_live`) before the state
        // became PREPARED, and never again.
        unsafe { &*self.regions.prepared }
    }

    /// The per-chunk storage, borrowed afresh for a new chunk run (any earlier run is
    /// over: the caller replaces it).
    pub fn chunk_workspace(&mut self) -> WorkspaceView<'static> {
        let r = self.regions;
        // SAFETY: carved at init with these lengths; the only other borrower is the
        // previous ChunkRun, which the caller overwrites with the run built from this
        // workspace (`store_run`) and never uses again.
        unsafe {
            WorkspaceView::new(
                &mut *r.table,
                core::slice::from_raw_parts_mut(r.states, r.counts.states),
            )
        }
    }

    /// Stores the run of the chunk just begun (the previous one is forgotten: nothing to
    /// drop, it only borrows).
    pub fn store_run(&mut self, run: ChunkRun<'static, 'static>) {
        // SAFETY: the slot was carved for a ChunkRun; `write` does not drop the old one.
        unsafe { self.regions.run.write(run) };
    }

    /// The current chunk run (state RUNNING or CHUNK_DONE).
    pub fn run(&mut self) -> &mut ChunkRun<'static, 'static> {
        debug_assert!(self.state >= super::types::GRIDCHECK_STATE_RUNNING);
        // SAFETY: written by `store_run` before the state became RUNNING; `&mut self`
        // makes the borrow exclusive.
        unsafe { &mut *self.regions.run }
    }

    /// Counters of the chunks so far, the current one included.
    pub fn total_stats(&mut self) -> RunStats {
        let mut total = self.done_stats;
        if matches!(
            self.state,
            super::types::GRIDCHECK_STATE_RUNNING | GRIDCHECK_STATE_CHUNK_DONE
        ) {
            let current = self.run().stats();
            total.steps += current.steps;
            total.candidates += current.candidates;
            total.solver_calls += current.solver_calls;
            total.found += current.found;
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_fits_and_handle_needs_only_8_byte_alignment() {
        let used = slot_bytes::<gridcheck>()
            + slot_bytes::<Grid>()
            + slot_bytes::<ScanOptions>()
            + slot_bytes::<Prepared<'static>>()
            + slot_bytes::<ChunkRun<'static, 'static>>();
        std::println!(
            "gridcheck header: {used} of {GRIDCHECK_HEADER_BYTES} reserved (handle {}, prepared {}, run {}), table {}",
            size_of::<gridcheck>(),
            size_of::<Prepared<'static>>(),
            size_of::<ChunkRun<'static, 'static>>(),
            size_of::<BitmapTable>()
        );
        assert!(used <= GRIDCHECK_HEADER_BYTES);
        assert!(core::mem::align_of::<gridcheck>() <= GRIDCHECK_WORKSPACE_ALIGN);
    }
}
