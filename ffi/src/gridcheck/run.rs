//! Listing and running the chunks of a prepared scan, in budgeted steps; the last puzzle
//! and the counters.

use super::handle::{self, gridcheck_workspace, Dead};
use super::setup::status_of_session_error;
use super::types::{
    gridcheck_found_fn, gridcheck_stats, GRIDCHECK_IMPOSSIBLE_CLIQUE_EXCEEDS_CLUES,
    GRIDCHECK_IMPOSSIBLE_FORCED_EXCEED_CLUES, GRIDCHECK_IMPOSSIBLE_NOT_ENOUGH_FREE_CELLS,
    GRIDCHECK_IMPOSSIBLE_UA_IN_FORCED_EMPTIES, GRIDCHECK_POSSIBLE, GRIDCHECK_PUZZLE_BYTES,
};
use crate::raw::{out_param, status_of};
use crate::status::xcover_status;
use core::ffi::{c_char, c_void};
use core::ops::ControlFlow;
use xcover_core::gridcheck::scan::{ChunkId, Impossible, RunStatus};
use xcover_core::gridcheck::session::Step;
use xcover_core::gridcheck::{Cells, Puzzle};

/// Lists the chunks of the prepared scan: independent pieces whose results together are
/// the scan's (no puzzle belongs to two), for other threads (each with its own workspace
/// over the same grid, options and UA list: preparing is deterministic) or other
/// machines. Writes up to `capacity` ids to `ids` and the number of chunks to `*count`
/// (at most GRIDCHECK_MAX_CHUNKS; 0 when nothing can be found). Call with `ids` NULL and
/// `capacity` 0 to learn the count. The ids are small numbers, stable for the same inputs.
///
/// Returns XCOVER_OK; XCOVER_BUFFER_TOO_SMALL if `capacity` < the count (the first
/// `capacity` ids and the count are written); XCOVER_BAD_STATE before `gridcheck_prepare`;
/// XCOVER_NULL_POINTER (`count`, or `ids` with a nonzero capacity), XCOVER_MISALIGNED,
/// XCOVER_NOT_INITIALIZED, XCOVER_DEAD.
///
/// # Safety
/// `handle` is NULL or a handle from `gridcheck_init` whose buffer is still valid; `ids`
/// points to `capacity` writable `uint32_t`s (may be NULL if `capacity` is 0); `count`
/// points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn gridcheck_chunk_list(
    handle: *mut gridcheck_workspace,
    ids: *mut u32,
    capacity: usize,
    count: *mut usize,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let (h, count) = unsafe { (handle::handle(handle, Dead::Refuse)?, out_param(count)?) };
        h.allow(Step::ListChunks)?;
        let ids: &mut [u32] = if capacity == 0 {
            &mut []
        } else {
            // SAFETY: forwarded contract (checked non-NULL and aligned first).
            unsafe {
                out_param(ids)?;
                core::slice::from_raw_parts_mut(ids, capacity)
            }
        };
        let mut total = 0;
        let prepared = h
            .session
            .prepared()
            .ok_or(xcover_status::XCOVER_BAD_STATE)?;
        for chunk in prepared.chunks() {
            if let Some(slot) = ids.get_mut(total) {
                *slot = chunk.to_u32();
            }
            total += 1;
        }
        *count = total;
        if total > capacity {
            return Err(xcover_status::XCOVER_BUFFER_TOO_SMALL);
        }
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// Begins the chunk `id` (from `gridcheck_chunk_list`, or GRIDCHECK_CHUNK_WHOLE for the
/// whole scan): state PREPARED, RUNNING or CHUNK_DONE -> RUNNING. A chunk still running is
/// abandoned (its counters stay in the stats). Then call `gridcheck_step`.
///
/// Returns XCOVER_OK, XCOVER_GRIDCHECK_BAD_CHUNK (nothing changes), XCOVER_BAD_STATE,
/// XCOVER_NULL_POINTER, XCOVER_MISALIGNED, XCOVER_NOT_INITIALIZED, XCOVER_DEAD, or
/// XCOVER_INTERNAL_ERROR (the workspace is dead).
///
/// # Safety
/// `handle` as for `gridcheck_chunk_list`.
#[no_mangle]
pub unsafe extern "C" fn gridcheck_chunk_begin(
    handle: *mut gridcheck_workspace,
    id: u32,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let h = unsafe { handle::handle(handle, Dead::Refuse) }?;
        h.allow(Step::BeginChunk)?;
        let chunk = ChunkId::from_u32(id).ok_or(xcover_status::XCOVER_GRIDCHECK_BAD_CHUNK)?;
        match h.session.begin_chunk(chunk) {
            Ok(()) => Ok(xcover_status::XCOVER_OK),
            Err(e) => Err(status_of_session_error(h, e)),
        }
    })())
}

/// Runs the current chunk for about `budget` steps (placements tried; the check is made
/// between placements, and the last two clues of a branch are tried together, so a call
/// may overrun by up to 81 * 81 steps). Every puzzle found is passed to `on_found(ctx,
/// puzzle)` (NULL: not reported, only counted and kept for `gridcheck_last_puzzle`); the
/// puzzles come in no particular order, each exactly once per scan. Pausing never changes
/// the results.
///
/// Returns XCOVER_BUDGET_EXHAUSTED (call again to resume), XCOVER_DONE (the chunk is
/// finished; also on every later call), XCOVER_STOPPED (stop-at-first, or `on_found`
/// returned nonzero: the chunk is over; also on every later call), or an error:
/// XCOVER_BAD_STATE (no chunk begun), XCOVER_NULL_POINTER, XCOVER_MISALIGNED,
/// XCOVER_NOT_INITIALIZED, XCOVER_DEAD.
///
/// # Safety
/// `handle` as for `gridcheck_chunk_list`; `on_found`, if not NULL, must be callable with
/// `ctx` during the call and must not call into the same workspace.
#[no_mangle]
pub unsafe extern "C" fn gridcheck_step(
    handle: *mut gridcheck_workspace,
    budget: u64,
    on_found: gridcheck_found_fn,
    ctx: *mut c_void,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let h = unsafe { handle::handle(handle, Dead::Refuse) }?;
        h.allow(Step::Run)?;
        let grid = h.session.grid().ok_or(xcover_status::XCOVER_BAD_STATE)?;
        let mut last = h.last_puzzle;
        let mut found_any = h.found_any;
        let status = h.session.run(budget, &mut |givens: Cells| {
            let puzzle = Puzzle::from_grid(grid, givens);
            for (text, &digit) in last.iter_mut().zip(puzzle.digits()) {
                *text = b'0' + digit;
            }
            last[GRIDCHECK_PUZZLE_BYTES - 1] = 0;
            found_any = true;
            match on_found {
                // SAFETY: the caller vouches for `on_found` with `ctx`; the text is
                // NUL-terminated and lives across the call.
                Some(f) if unsafe { f(ctx, last.as_ptr().cast::<c_char>()) } != 0 => {
                    ControlFlow::Break(())
                }
                _ => ControlFlow::Continue(()),
            }
        });
        h.last_puzzle = last;
        h.found_any = found_any;
        match status {
            Ok(RunStatus::BudgetExhausted) => Ok(xcover_status::XCOVER_BUDGET_EXHAUSTED),
            Ok(RunStatus::Done) => Ok(xcover_status::XCOVER_DONE),
            Ok(RunStatus::Stopped) => Ok(xcover_status::XCOVER_STOPPED),
            Err(e) => Err(status_of_session_error(h, e)),
        }
    })())
}

/// Copies the last puzzle found (by any chunk of this workspace) to `out`: 81 characters
/// (`1`..`9` given, `0` empty) and a NUL, so `len` must be at least
/// GRIDCHECK_PUZZLE_BYTES (82). Useful with GRIDCHECK_STOP_AT_FIRST and no callback.
///
/// Returns XCOVER_OK, XCOVER_GRIDCHECK_NO_PUZZLE (none found yet; `out` untouched),
/// XCOVER_BUFFER_TOO_SMALL, XCOVER_NULL_POINTER, XCOVER_MISALIGNED,
/// XCOVER_NOT_INITIALIZED.
///
/// # Safety
/// `handle` as for `gridcheck_chunk_list`; `out` points to `len` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn gridcheck_last_puzzle(
    handle: *mut gridcheck_workspace,
    out: *mut c_char,
    len: usize,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let h = unsafe { handle::handle(handle, Dead::Allow) }?;
        if out.is_null() {
            return Err(xcover_status::XCOVER_NULL_POINTER);
        }
        if len < GRIDCHECK_PUZZLE_BYTES {
            return Err(xcover_status::XCOVER_BUFFER_TOO_SMALL);
        }
        if !h.found_any {
            return Err(xcover_status::XCOVER_GRIDCHECK_NO_PUZZLE);
        }
        // SAFETY: `out` is non-NULL with at least 82 writable bytes (contract, len checked).
        unsafe {
            core::ptr::copy_nonoverlapping(
                h.last_puzzle.as_ptr(),
                out.cast::<u8>(),
                GRIDCHECK_PUZZLE_BYTES,
            )
        };
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// Fills `*stats` with the counters: the UA list, the preparation (zero before
/// `gridcheck_prepare`), and the steps, candidates and puzzles of every chunk run so far
/// (the current one included). Works on a dead workspace too.
///
/// Returns XCOVER_OK, XCOVER_NULL_POINTER, XCOVER_MISALIGNED or XCOVER_NOT_INITIALIZED.
///
/// # Safety
/// `handle` as for `gridcheck_chunk_list`; `stats` points to a writable `gridcheck_stats`.
#[no_mangle]
pub unsafe extern "C" fn gridcheck_get_stats(
    handle: *mut gridcheck_workspace,
    stats: *mut gridcheck_stats,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let (h, out) = unsafe { (handle::handle(handle, Dead::Allow)?, out_param(stats)?) };
        let mut s = gridcheck_stats {
            ua_count: h.session.ua_count() as u64,
            chunks_done: h.session.chunks_done(),
            ..gridcheck_stats::default()
        };
        if let Some(prepared) = h.session.prepared() {
            let figures = prepared.stats();
            s.ua_after_forced = figures.ua_after_forced as u64;
            s.ua_kept = figures.ua_kept as u64;
            s.forced_givens = prepared.forced_givens().len();
            s.clique_size = prepared.clique_members().len() as u32;
            s.free_clues = u32::from(prepared.free_clues());
            s.impossible = match prepared.impossible() {
                None => GRIDCHECK_POSSIBLE,
                Some(Impossible::ForcedExceedClues) => GRIDCHECK_IMPOSSIBLE_FORCED_EXCEED_CLUES,
                Some(Impossible::UaInForcedEmpties) => GRIDCHECK_IMPOSSIBLE_UA_IN_FORCED_EMPTIES,
                Some(Impossible::NotEnoughFreeCells) => GRIDCHECK_IMPOSSIBLE_NOT_ENOUGH_FREE_CELLS,
                Some(Impossible::CliqueExceedsClues) => GRIDCHECK_IMPOSSIBLE_CLIQUE_EXCEEDS_CLUES,
            };
        }
        let run = h.session.totals();
        s.steps = run.steps;
        s.candidates = run.candidates;
        s.solver_calls = run.solver_calls;
        s.found = run.found;
        *out = s;
        Ok(xcover_status::XCOVER_OK)
    })())
}
