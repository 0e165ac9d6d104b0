//! Sizing, creating and releasing a gridcheck workspace; the grid, the options and the UA
//! list; preparing the scan.

use super::grid_outcome::{GridOutcome, GRID_READ_LIMIT};
use super::handle::{self, gridcheck_workspace, Dead};
use super::layout;
use super::types::{
    gridcheck_limits, GRIDCHECK_MINIMAL, GRIDCHECK_STOP_AT_FIRST, GRIDCHECK_WORKSPACE_ALIGN,
};
use crate::raw::{in_param, is_aligned, out_param, status_of, write_optional};
use crate::status::xcover_status;
use core::ffi::{c_char, c_void};
use xcover_core::gridcheck::scan::{ClueMask, ScanError, ScanOptions};
use xcover_core::gridcheck::session::{SessionError, Step};
use xcover_core::gridcheck::ua::file;
use xcover_core::gridcheck::{Grid, GridcheckError};

/// Reads a NUL-terminated text of at most `max` bytes (the NUL excluded); None when no
/// NUL comes within `max + 1` bytes (the text is too long: nothing past it is read).
///
/// # Safety
/// `text` is non-NULL and readable up to its NUL or `max + 1` bytes, whichever is first.
unsafe fn bounded_text<'a>(text: *const c_char, max: usize) -> Option<&'a [u8]> {
    let bytes = text.cast::<u8>();
    for len in 0..=max {
        // SAFETY: bytes 0..len were not NUL, so byte `len` is still inside the string
        // (or at its NUL): readable per the contract.
        if unsafe { bytes.add(len).read() } == 0 {
            // SAFETY: the `len` bytes before the NUL are readable.
            return Some(unsafe { core::slice::from_raw_parts(bytes, len) });
        }
    }
    None
}

/// Computes the buffer size and alignment of a workspace with capacities `limits`:
///
/// ```text
/// size = 8 + GRIDCHECK_HEADER_BYTES + GRIDCHECK_TABLE_BYTES
///        + 16 * (max_ua + ua_scratch + W) + 96 * (max_clues + 1)
/// W = max_ua + clamp(8 * max_ua, 4096, 262144)
/// ```
///
/// (`XCOVER_GRIDCHECK_WORKSPACE_SIZE(max_ua, keep_ua, ua_scratch, max_clues)` is the same
/// number at compile time.) `align` may be NULL; it receives GRIDCHECK_WORKSPACE_ALIGN (8).
///
/// Returns XCOVER_OK; XCOVER_NULL_POINTER / XCOVER_MISALIGNED for bad pointers;
/// XCOVER_BAD_ARGUMENT if a limit is out of range (max_ua or keep_ua 0, max_clues outside
/// 1..=81) or the size overflows. On error nothing is written.
///
/// # Safety
/// `limits` points to a readable `gridcheck_limits`; `size` to a writable `size_t`;
/// `align` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn gridcheck_workspace_size(
    limits: *const gridcheck_limits,
    size: *mut usize,
    align: *mut usize,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let (limits, size) = unsafe { (in_param(limits)?, out_param(size)?) };
        if !is_aligned(align) {
            return Err(xcover_status::XCOVER_MISALIGNED);
        }
        let counts = layout::counts(limits).ok_or(xcover_status::XCOVER_BAD_ARGUMENT)?;
        *size = layout::bytes(&counts).ok_or(xcover_status::XCOVER_BAD_ARGUMENT)?;
        // SAFETY: forwarded contract.
        unsafe { write_optional(align, GRIDCHECK_WORKSPACE_ALIGN) }?;
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// Creates a gridcheck workspace in the caller's buffer `buf` (`len` bytes, aligned to 8,
/// at least what `gridcheck_workspace_size(limits, ...)` says) and stores its handle in
/// `*handle`. `limits` is copied. The buffer belongs to the workspace until
/// `gridcheck_release` (do not move, copy or modify it); the handle points into it.
/// Next: `gridcheck_set_grid`.
///
/// Why a struct here and three sizes for `dlx3_init`: each API's init takes what its
/// sizing function takes. DLX3's capacities are three counts of one kind (items, nodes,
/// levels) that `dlx3_text_capacity` measures; the grid checker's limits are four numbers
/// of different kinds, two of them policies the workspace keeps for later calls (keep_ua
/// for `gridcheck_set_options`, ua_scratch for `gridcheck_generate_ua`), which named
/// fields keep from being swapped.
///
/// Returns XCOVER_OK; XCOVER_NULL_POINTER, XCOVER_MISALIGNED, XCOVER_BUFFER_TOO_SMALL,
/// XCOVER_BAD_ARGUMENT (limits out of range), or XCOVER_ALREADY_INITIALIZED if `buf`
/// holds a live workspace (release it first; a dead one may be overwritten). Nothing
/// outside `buf[0 .. size)` is written, and `*handle` only on success.
///
/// # Safety
/// `buf` points to `len` writable bytes that stay valid while the workspace is used;
/// `limits` is readable; `handle` points to a writable pointer.
#[no_mangle]
pub unsafe extern "C" fn gridcheck_init(
    buf: *mut c_void,
    len: usize,
    limits: *const gridcheck_limits,
    handle: *mut *mut gridcheck_workspace,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let (limits, out) = unsafe { (*in_param(limits)?, out_param(handle)?) };
        // SAFETY: forwarded contract (`buf` valid for `len` bytes while in use).
        *out = unsafe { handle::install(buf.cast::<u8>(), len, limits) }?;
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// Sets the solution grid to scan: a NUL-terminated line of 81 digits `1`..`9` (a
/// trailing `\n` or `\r\n` is allowed), which must be a valid Sudoku solution. Once per
/// workspace (state EMPTY -> GRID).
///
/// Returns XCOVER_OK, XCOVER_GRIDCHECK_BAD_GRID (wrong length, bad character, or not a
/// solution; the workspace stays EMPTY, and `gridcheck_get_grid_error` says why),
/// XCOVER_BAD_STATE, XCOVER_NULL_POINTER, XCOVER_MISALIGNED, XCOVER_NOT_INITIALIZED,
/// XCOVER_DEAD. At most 84 bytes are read.
///
/// # Safety
/// `handle` is NULL or a handle from `gridcheck_init` whose buffer is still valid;
/// `grid` is NULL or a NUL-terminated string (or at least 84 readable bytes).
#[no_mangle]
pub unsafe extern "C" fn gridcheck_set_grid(
    handle: *mut gridcheck_workspace,
    grid: *const c_char,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let h = unsafe { handle::handle(handle, Dead::Refuse) }?;
        // SAFETY: forwarded contract.
        let outcome = match unsafe { store_grid(h, grid) } {
            Ok(()) => GridOutcome::NONE,
            Err(outcome) => outcome,
        };
        h.last_grid = outcome;
        match outcome.status {
            xcover_status::XCOVER_OK => Ok(xcover_status::XCOVER_OK),
            refused => Err(refused),
        }
    })())
}

/// Reads and checks the grid text and stores the grid; on error, the status and what is
/// wrong with the text.
///
/// # Safety
/// As for `gridcheck_set_grid`.
unsafe fn store_grid(h: &mut handle::Record<'_>, grid: *const c_char) -> Result<(), GridOutcome> {
    let refuse = |status, problem| GridOutcome { status, problem };
    if grid.is_null() {
        return Err(refuse(xcover_status::XCOVER_NULL_POINTER, None));
    }
    h.allow(Step::SetGrid)
        .map_err(|status| refuse(status, None))?;
    let bad = xcover_status::XCOVER_GRIDCHECK_BAD_GRID;
    // SAFETY: forwarded contract (NUL-terminated or 84 readable bytes).
    let text = unsafe { bounded_text(grid, GRID_READ_LIMIT - 1) }.ok_or(refuse(
        bad,
        Some(GridcheckError::WrongLength(GRID_READ_LIMIT)),
    ))?;
    let grid = Grid::parse(text).map_err(|e| refuse(bad, Some(e)))?;
    h.session
        .set_grid(grid)
        .map_err(|e| refuse(status_of_session_error(h, e), None))
}

/// Sets what the scan looks for: puzzles of `clues` clues (forced givens included,
/// 1..=limits.max_clues), with the clue mask `mask` (NULL or a NUL-terminated text of up
/// to 81 characters: `1` the cell must be a given, `0` it must be empty, anything else
/// free; a trailing line end is ignored) and `flags` (GRIDCHECK_STOP_AT_FIRST,
/// GRIDCHECK_MINIMAL). The number of UA kept for the enumeration is limits.keep_ua.
/// Allowed after `gridcheck_set_grid`, again to change them, until `gridcheck_prepare`
/// (state GRID or OPTIONS -> OPTIONS).
///
/// Returns XCOVER_OK, XCOVER_GRIDCHECK_BAD_CLUES, XCOVER_GRIDCHECK_BAD_MASK,
/// XCOVER_GRIDCHECK_TOO_MANY_FORCED, XCOVER_BAD_ARGUMENT (unknown flag bits),
/// XCOVER_BAD_STATE, XCOVER_NULL_POINTER, XCOVER_MISALIGNED, XCOVER_NOT_INITIALIZED,
/// XCOVER_DEAD. On error nothing changes. At most 84 bytes of `mask` are read.
///
/// # Safety
/// `handle` as for `gridcheck_set_grid`; `mask` is NULL or a NUL-terminated string (or at
/// least 84 readable bytes).
#[no_mangle]
pub unsafe extern "C" fn gridcheck_set_options(
    handle: *mut gridcheck_workspace,
    clues: u32,
    mask: *const c_char,
    flags: u32,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let h = unsafe { handle::handle(handle, Dead::Refuse) }?;
        h.allow(Step::SetOptions)?;
        if flags & !(GRIDCHECK_STOP_AT_FIRST | GRIDCHECK_MINIMAL) != 0 {
            return Err(xcover_status::XCOVER_BAD_ARGUMENT);
        }
        // core's rule (1..=81 clues, no more forced givens than clues), then this
        // workspace's capacity (limits.max_clues).
        let mut options = ScanOptions::for_clues(clues).map_err(status_of_scan_error)?;
        if clues > h.limits.max_clues {
            return Err(xcover_status::XCOVER_GRIDCHECK_BAD_CLUES);
        }
        if !mask.is_null() {
            // SAFETY: forwarded contract.
            let text = unsafe { bounded_text(mask, 83) }
                .ok_or(xcover_status::XCOVER_GRIDCHECK_BAD_MASK)?;
            options.mask = ClueMask::parse(text).map_err(status_of_scan_error)?;
        }
        options.check().map_err(status_of_scan_error)?;
        options.truncation = Some(layout::truncation(h.limits.keep_ua));
        options.stop_at_first = flags & GRIDCHECK_STOP_AT_FIRST != 0;
        options.minimal_only = flags & GRIDCHECK_MINIMAL != 0;
        match h.session.set_options(options) {
            Ok(()) => Ok(xcover_status::XCOVER_OK),
            Err(e) => Err(status_of_session_error(h, e)),
        }
    })())
}

/// Adds one unavoidable set, verified against the grid: a NUL-terminated line of 81
/// characters `0`/`1` (`1` = cell in the set) or `{rc,rc,...}` (1-based row and column
/// digits), as in `xcover gridcheck --ua-file`. Allowed after `gridcheck_set_grid` until
/// `gridcheck_prepare`. A set that is not a UA of the grid is refused, so the scan never
/// misses a puzzle because of a wrong set.
///
/// Returns XCOVER_OK, XCOVER_GRIDCHECK_BAD_UA_TEXT, XCOVER_GRIDCHECK_NOT_A_UA,
/// XCOVER_GRIDCHECK_UA_LIST_FULL, XCOVER_BAD_STATE, XCOVER_NULL_POINTER,
/// XCOVER_MISALIGNED, XCOVER_NOT_INITIALIZED, XCOVER_DEAD; on error the list is
/// unchanged. At most 512 bytes are read.
///
/// # Safety
/// `handle` as for `gridcheck_set_grid`; `set` is NULL or a NUL-terminated string (or at
/// least 512 readable bytes).
#[no_mangle]
pub unsafe extern "C" fn gridcheck_add_ua(
    handle: *mut gridcheck_workspace,
    set: *const c_char,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let h = unsafe { handle::handle(handle, Dead::Refuse) }?;
        if set.is_null() {
            return Err(xcover_status::XCOVER_NULL_POINTER);
        }
        h.allow(Step::AddUa)?;
        // SAFETY: forwarded contract.
        let text =
            unsafe { bounded_text(set, 511) }.ok_or(xcover_status::XCOVER_GRIDCHECK_BAD_UA_TEXT)?;
        let mut end = text.len();
        while end > 0 && matches!(text[end - 1], b'\n' | b'\r') {
            end -= 1;
        }
        let ua = match file::parse_ua_line(&text[..end]) {
            Ok(Some(ua)) => ua,
            _ => return Err(xcover_status::XCOVER_GRIDCHECK_BAD_UA_TEXT),
        };
        match h.session.add_ua(ua) {
            Ok(()) => Ok(xcover_status::XCOVER_OK),
            Err(e) => Err(status_of_session_error(h, e)),
        }
    })())
}

/// Generates unavoidable sets and appends them to the list: the pseudo-puzzles of all
/// 4-digit subsets, then `random` pseudo-puzzles of random blank cells drawn from `seed`
/// (same seed, same list). The mask's forced givens are never blanked. Every set is a real
/// minimal UA; the new sets are sorted and de-duplicated. `gridcheck_generate_default_ua`
/// chooses the count as `xcover gridcheck` does; the puzzles found never depend on it.
/// Needs limits.ua_scratch > 0.
/// Allowed after `gridcheck_set_options`, until `gridcheck_prepare`.
///
/// Returns XCOVER_OK; XCOVER_GRIDCHECK_UA_LIST_FULL when the distinct new sets do not fit
/// in limits.max_ua (the list keeps those that fit, all real UA: the workspace stays
/// usable); XCOVER_BUFFER_TOO_SMALL if limits.ua_scratch is 0; XCOVER_BAD_STATE,
/// XCOVER_NULL_POINTER, XCOVER_MISALIGNED, XCOVER_NOT_INITIALIZED, XCOVER_DEAD.
///
/// # Safety
/// `handle` as for `gridcheck_set_grid`.
#[no_mangle]
pub unsafe extern "C" fn gridcheck_generate_ua(
    handle: *mut gridcheck_workspace,
    random: u32,
    seed: u64,
) -> xcover_status {
    // SAFETY: forwarded contract.
    unsafe { generate(handle, Some(random), seed) }
}

/// Generates unavoidable sets as `gridcheck_generate_ua` does, with the recipe
/// `xcover gridcheck` uses when given no count (seed 1 there): for a masked scan the
/// 4-digit subsets and 300 random pseudo-puzzles; for a whole grid the 4-digit subsets and
/// 1000, or, for at most 16 clues on a grid with 9 or more unavoidable rectangles (4-cell
/// UA), 400 random pseudo-puzzles alone. Allowed and returning as
/// `gridcheck_generate_ua`.
///
/// # Safety
/// `handle` as for `gridcheck_set_grid`.
#[no_mangle]
pub unsafe extern "C" fn gridcheck_generate_default_ua(
    handle: *mut gridcheck_workspace,
    seed: u64,
) -> xcover_status {
    // SAFETY: forwarded contract.
    unsafe { generate(handle, None, seed) }
}

/// `gridcheck_generate_ua` (`Some(random)`) and `gridcheck_generate_default_ua` (`None`).
///
/// # Safety
/// `handle` as for `gridcheck_set_grid`.
unsafe fn generate(
    handle: *mut gridcheck_workspace,
    random: Option<u32>,
    seed: u64,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let h = unsafe { handle::handle(handle, Dead::Refuse) }?;
        h.allow(Step::GenerateUa)?;
        if h.limits.ua_scratch == 0 {
            return Err(xcover_status::XCOVER_BUFFER_TOO_SMALL);
        }
        let generated = match random {
            Some(random) => h.session.generate_ua(random, seed),
            None => h.session.generate_default_ua(seed),
        };
        match generated {
            Ok(generated) if generated.full => Err(xcover_status::XCOVER_GRIDCHECK_UA_LIST_FULL),
            Ok(_) => Ok(xcover_status::XCOVER_OK),
            Err(e) => Err(status_of_session_error(h, e)),
        }
    })())
}

/// Gives the number of sets in the UA list.
///
/// Returns XCOVER_OK, XCOVER_NULL_POINTER, XCOVER_MISALIGNED, XCOVER_NOT_INITIALIZED.
///
/// # Safety
/// `handle` as for `gridcheck_set_grid`; `count` points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn gridcheck_ua_count(
    handle: *mut gridcheck_workspace,
    count: *mut usize,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let (h, count) = unsafe { (handle::handle(handle, Dead::Allow)?, out_param(count)?) };
        *count = h.session.ua_count();
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// Prepares the scan (forced cells, the clique of disjoint UA, cell order, the kept UA):
/// state OPTIONS -> PREPARED. The UA list may be empty (the scan is then slower, never
/// wrong). Afterwards the scan is read-only: list its chunks with `gridcheck_chunk_list`
/// and run them with `gridcheck_chunk_begin` / `gridcheck_step`. If nothing can be found
/// (see `gridcheck_stats.impossible`) the scan has no chunks.
///
/// Returns XCOVER_OK, XCOVER_BAD_STATE, XCOVER_NULL_POINTER, XCOVER_MISALIGNED,
/// XCOVER_NOT_INITIALIZED, XCOVER_DEAD, or XCOVER_INTERNAL_ERROR (the workspace is dead).
///
/// # Safety
/// `handle` as for `gridcheck_set_grid`.
#[no_mangle]
pub unsafe extern "C" fn gridcheck_prepare(handle: *mut gridcheck_workspace) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let h = unsafe { handle::handle(handle, Dead::Refuse) }?;
        match h.session.prepare() {
            Ok(()) => Ok(xcover_status::XCOVER_OK),
            // The options and capacities were checked before: any error is a bug.
            Err(e) => Err(status_of_session_error(h, e)),
        }
    })())
}

/// Gives the workspace state (a `GRIDCHECK_STATE_*`), live or dead.
///
/// Returns XCOVER_OK, XCOVER_NULL_POINTER, XCOVER_MISALIGNED or XCOVER_NOT_INITIALIZED.
///
/// # Safety
/// `handle` as for `gridcheck_set_grid`; `state` points to a writable `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn gridcheck_get_state(
    handle: *mut gridcheck_workspace,
    state: *mut u32,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let (h, state) = unsafe { (handle::handle(handle, Dead::Allow)?, out_param(state)?) };
        *state = h.state() as u32;
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// Ends the workspace (live or dead): its handle is refused from now on and its buffer may
/// be reused or freed.
///
/// Returns XCOVER_OK, XCOVER_NULL_POINTER, XCOVER_MISALIGNED or XCOVER_NOT_INITIALIZED.
///
/// # Safety
/// As for `gridcheck_get_state`.
#[no_mangle]
pub unsafe extern "C" fn gridcheck_release(handle: *mut gridcheck_workspace) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let h = unsafe { handle::handle(handle, Dead::Allow) }?;
        h.release();
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// The status for a refusal of the session; an internal error (a check the session did not
/// foresee, never seen) kills the workspace.
pub(super) fn status_of_session_error(
    h: &mut handle::Record<'_>,
    e: SessionError,
) -> xcover_status {
    match e {
        SessionError::WrongPhase { .. } => xcover_status::XCOVER_BAD_STATE,
        SessionError::NotAUa => xcover_status::XCOVER_GRIDCHECK_NOT_A_UA,
        SessionError::UaListFull { .. } => xcover_status::XCOVER_GRIDCHECK_UA_LIST_FULL,
        SessionError::NoUaScratch => xcover_status::XCOVER_BUFFER_TOO_SMALL,
        SessionError::Scan(e) => match status_of_scan_error(e) {
            xcover_status::XCOVER_INTERNAL_ERROR => h.kill(xcover_status::XCOVER_INTERNAL_ERROR),
            status => status,
        },
        _ => h.kill(xcover_status::XCOVER_INTERNAL_ERROR),
    }
}

/// The status for a scan option error: the C projection of core's rule.
fn status_of_scan_error(e: ScanError) -> xcover_status {
    match e {
        ScanError::BadClueCount { .. } => xcover_status::XCOVER_GRIDCHECK_BAD_CLUES,
        ScanError::MaskTooLong { .. } => xcover_status::XCOVER_GRIDCHECK_BAD_MASK,
        ScanError::TooManyForcedGivens { .. } => xcover_status::XCOVER_GRIDCHECK_TOO_MANY_FORCED,
        ScanError::BadChunk => xcover_status::XCOVER_GRIDCHECK_BAD_CHUNK,
        // The other errors (storage, empty UA) are checked before they can happen.
        _ => xcover_status::XCOVER_INTERNAL_ERROR,
    }
}
