//! The handle at the start of the caller's buffer: a magic number and a live/dead state in
//! front of core's session, which holds the rest of the buffer (see `crate::carve`), so
//! every call can tell a live workspace from garbage or a dead one, and the session tells a
//! call made out of order.

use super::grid_outcome::GridOutcome;
use super::layout::{self, GRIDCHECK_REGION_ALIGN};
use super::types::gridcheck_state::{self, *};
use super::types::{gridcheck_limits, GRIDCHECK_HEADER_BYTES, GRIDCHECK_WORKSPACE_ALIGN};
use crate::carve::Carver;
pub use crate::handle::Dead;
use crate::handle::{self, Header};
use crate::raw::Checked;
use crate::status::xcover_status;
use core::marker::{PhantomData, PhantomPinned};
use core::mem::size_of;
use xcover_core::gridcheck::scan::{BitmapTable, LevelState, Prepared, WorkspaceView};
use xcover_core::gridcheck::session::{Phase, Session, Step, Storage};
use xcover_core::gridcheck::{Cells, Grid};

/// Rounded size of `T` in the header block.
const fn slot_bytes<T>() -> usize {
    size_of::<T>().div_ceil(GRIDCHECK_REGION_ALIGN) * GRIDCHECK_REGION_ALIGN
}

/// Bytes of the handle, the session (with its chunk run), and the rooms of the grid and the
/// prepared scan.
const fn header_bytes() -> usize {
    slot_bytes::<Record>()
        + slot_bytes::<Session>()
        + slot_bytes::<Grid>()
        + slot_bytes::<Prepared>()
}

const _: () = assert!(
    header_bytes() <= GRIDCHECK_HEADER_BYTES,
    "the scan objects grew: raise GRIDCHECK_HEADER_BYTES, then XCOVER_BLESS=1 cargo test -p xcover-ffi --test header"
);

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
pub const fn c_state(phase: Phase) -> gridcheck_state {
    match phase {
        Phase::Empty => GRIDCHECK_STATE_EMPTY,
        Phase::Grid => GRIDCHECK_STATE_GRID,
        Phase::Options => GRIDCHECK_STATE_OPTIONS,
        Phase::Prepared => GRIDCHECK_STATE_PREPARED,
        Phase::Running => GRIDCHECK_STATE_RUNNING,
        Phase::ChunkDone => GRIDCHECK_STATE_CHUNK_DONE,
    }
}

/// The header's state of a live workspace: the life cycle is the session's ([`Record::state`]
/// projects it); the header only tells live from dead.
const LIVE: u32 = GRIDCHECK_STATE_EMPTY as u32;

/// The workspace record at the start of the caller's buffer, which a
/// `gridcheck_workspace *` points to. `'buf` is the span during which the C caller keeps
/// the buffer: each call borrows the record for itself (see [`handle()`]). `repr(C)` keeps
/// the header first.
#[repr(C)]
pub struct Record<'buf> {
    /// Magic number, live or dead, why it died.
    pub header: Header,
    /// Core's session over the rest of the buffer: the grid, options, UA list, prepared
    /// scan and chunk run it holds are the phase. (It lies in the first 16-byte aligned
    /// region: it holds `u128` sets, and the buffer is only 8-aligned.)
    pub session: &'buf mut Session<'buf>,
    /// The capacities given at init.
    pub limits: gridcheck_limits,
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
    const FIRST_STATE: u32 = LIVE;
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
    // Each region is handed to the session for its whole life: no view is kept.
    let session = (|| {
        let session = carver.slot::<Session>()?;
        let grid = carver.slot::<Grid>()?.into_uninit();
        let prepared = carver.slot::<Prepared>()?.into_uninit();
        let table = carver.slot::<BitmapTable>()?.into_init(BitmapTable::new());
        Some(session.into_init(Session::new(Storage {
            grid,
            prepared,
            uas: carver.zeroed::<Cells>(counts.uas)?.into_mut(),
            uas_held: 0,
            ua_scratch: carver.zeroed::<Cells>(counts.scratch)?.into_mut(),
            work: carver.zeroed::<u128>(counts.work)?.into_mut(),
            workspace: WorkspaceView::new(
                table,
                carver.zeroed::<LevelState>(counts.states)?.into_mut(),
            ),
        })))
    })()
    .ok_or(xcover_status::XCOVER_INTERNAL_ERROR)?;
    debug_assert!(carver.used() <= needed);
    let record = buf.cast::<Record>();
    // SAFETY: `buf` is 8-aligned (the handle's alignment: it holds no u128, see the
    // assertion in `tests`) and its first size_of::<Record>() bytes are the handle's
    // (the carver started after them).
    unsafe {
        record.write(Record {
            header: Header::new::<Record>(LIVE),
            session,
            limits,
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

impl Record<'_> {
    /// The current state: DEAD once killed, otherwise the session's phase as C sees it.
    pub fn state(&self) -> gridcheck_state {
        if self.header.state() == <Self as handle::Record>::DEAD {
            GRIDCHECK_STATE_DEAD
        } else {
            c_state(self.session.phase())
        }
    }

    /// Returns BAD_STATE unless the session allows `step` now.
    pub fn allow(&self, step: Step) -> Checked<()> {
        match self.session.allows(step) {
            true => Ok(()),
            false => Err(xcover_status::XCOVER_BAD_STATE),
        }
    }

    /// Marks the workspace dead because of `why`, and returns `why`.
    pub fn kill(&mut self, why: xcover_status) -> xcover_status {
        self.header.kill::<Self>(why)
    }

    /// Forgets the workspace: its handle is refused from now on.
    pub fn release(&mut self) {
        self.header.release::<Self>();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xcover_core::gridcheck::scan::ChunkRun;

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
