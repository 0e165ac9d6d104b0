//! Solving in slices, and reading solutions, options, names and counters.

use super::types::{dlx3_state, dlx3_stats, DLX3_NULL_MOVE};
use super::workspace::{self, dlx3_workspace, Dead, EngineWidth, Workspace};
use crate::raw::{is_aligned, out_param, status_of, write_optional, Checked};
use crate::status::{status_of_error, xcover_status};
use core::ffi::c_char;
use xcover_core::dlx3::{Event, Move, Stage, Stats};
use xcover_core::sink::Discard;

/// Runs the search until the next solution, the end, or until about `mem_budget` more
/// mems are spent (the check is made between steps of the search, so a call may overrun by
/// the cost of one step; UINT64_MAX means no budget). Pausing never changes the results:
/// the same solutions, output and counters as an uninterrupted run. After
/// `dlx3_set_writers`, Knuth's output flows through the writers as the search goes
/// (solutions to `out` as `spacing` asks, traces and progress reports to `err`, shape lines
/// to `shape`); when the search ends, the closing reports (item totals, profile,
/// "Altogether ..." statistics) go to `err`. Without writers nothing is printed.
///
/// The first call ends the input of a matrix built with `dlx3_add_item`/`dlx3_add_option`
/// (printing Knuth's input summary as `verbosity` asks). After `dlx3_set_part` it explores
/// only that part of the search and returns only that part's solutions.
///
/// Returns XCOVER_SOLUTION (read it with `dlx3_solution_len`/`dlx3_solution_option`, then
/// call again), XCOVER_DONE (also on every later call), XCOVER_BUDGET_EXHAUSTED (call again
/// to resume), or an error: XCOVER_TOO_MANY_LEVELS (Knuth's "Too many levels!" is written to
/// `err`; the workspace is dead), XCOVER_BAD_STATE (no items yet), XCOVER_NULL_POINTER,
/// XCOVER_MISALIGNED, XCOVER_NOT_INITIALIZED, XCOVER_DEAD.
///
/// # Safety
/// `handle` is NULL or a handle from an init function whose buffer is still valid.
#[no_mangle]
pub unsafe extern "C" fn dlx3_solve_step(
    handle: *mut dlx3_workspace,
    mem_budget: u64,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let ws = unsafe { workspace::workspace(handle, Dead::Refuse) }?;
        (ws.step)(ws, mem_budget)
    })())
}

/// One `dlx3_solve_step` of a workspace whose engine has width `W`: with `PRINTS`, through
/// the writers (the closing reports and error reports included); with `TEXT`, a matrix
/// still being built is closed first.
pub fn step<W: EngineWidth, const PRINTS: bool, const TEXT: bool>(
    ws: &mut Workspace,
    mem_budget: u64,
) -> Checked<xcover_status> {
    if TEXT {
        end_building::<PRINTS>(ws)?;
    }
    // A search that is over stays over: the engine says Done again, and its closing
    // reports were printed once, when it ended. (A silent step needs no test: the engine
    // answers Done at once.)
    if PRINTS
        && W::engine(&mut ws.engine)
            .ok_or(xcover_status::XCOVER_INTERNAL_ERROR)?
            .stage()
            == Stage::Done
    {
        return Ok(xcover_status::XCOVER_DONE);
    }
    let event = if PRINTS {
        ws.with_sinks::<W, _>(|engine, sinks| engine.run(mem_budget, sinks))?
    } else {
        W::engine(&mut ws.engine)
            .ok_or(xcover_status::XCOVER_INTERNAL_ERROR)?
            .run_silent(mem_budget)
    };
    match event {
        Ok(Event::Solution) => Ok(xcover_status::XCOVER_SOLUTION),
        Ok(Event::BudgetExhausted) => Ok(xcover_status::XCOVER_BUDGET_EXHAUSTED),
        // This step never runs a split search: `dlx3_set_part` installs its own.
        Ok(Event::Unit(_) | Event::UnitDone(_)) => {
            Err(ws.kill(xcover_status::XCOVER_INTERNAL_ERROR))
        }
        Ok(Event::Done(_)) => {
            if PRINTS {
                ws.with_sinks::<W, _>(|engine, sinks| engine.finish(sinks.err))?;
            }
            Ok(xcover_status::XCOVER_DONE)
        }
        Err(e) => {
            if PRINTS {
                ws.with_sinks::<W, _>(|engine, sinks| engine.write_error_report(&e, sinks.err))?;
            }
            Err(ws.kill(status_of_error(e)))
        }
    }
}

/// Ends the input of a matrix still being built with `dlx3_add_item`/`dlx3_add_option`, as
/// the first `dlx3_solve_step` does (BAD_STATE with no items yet); nothing otherwise.
pub(crate) fn end_building<const PRINTS: bool>(ws: &mut Workspace) -> Checked<()> {
    if matches!(
        ws.state(),
        dlx3_state::DLX3_STATE_ITEMS | dlx3_state::DLX3_STATE_OPTIONS
    ) {
        if ws.engine.item_count() == 0 {
            return Err(xcover_status::XCOVER_BAD_STATE);
        }
        end_input::<PRINTS>(ws)?;
    }
    Ok(())
}

/// Closes a matrix built with `dlx3_add_item`/`dlx3_add_option` (Knuth's input summary
/// goes to the writers when `PRINTS`).
fn end_input<const PRINTS: bool>(ws: &mut Workspace) -> Checked<()> {
    let result = if PRINTS {
        ws.with_sinks::<u32, _>(|engine, sinks| engine.end_input(sinks.err))?
    } else {
        ws.engine.text_engine()?.end_input(&mut Discard)
    };
    match result {
        Ok(()) => Ok(()),
        Err(e) => Err(ws.kill(status_of_error(e))),
    }
}

/// Stores in `*len` the number of moves (levels) of the solution just found: the levels
/// 0 .. len-1 are read with `dlx3_solution_option`.
///
/// Returns XCOVER_OK; XCOVER_BAD_STATE unless the last `dlx3_solve_step` returned
/// XCOVER_SOLUTION; XCOVER_NULL_POINTER, XCOVER_MISALIGNED, XCOVER_NOT_INITIALIZED,
/// XCOVER_DEAD.
///
/// # Safety
/// `handle` as for `dlx3_solve_step`; `len` writable.
#[no_mangle]
pub unsafe extern "C" fn dlx3_solution_len(
    handle: *mut dlx3_workspace,
    len: *mut usize,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let (ws, len) = unsafe { (workspace::workspace(handle, Dead::Refuse)?, out_param(len)?) };
        ws.expect(&[dlx3_state::DLX3_STATE_SOLUTION])?;
        *len = ws.engine.depth() as usize;
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// Stores in `*option` the option chosen on level `level` of the solution just found:
/// options are numbered 1, 2, ... in input order (options Knuth ignored for having no
/// primary item are not counted); DLX3_NULL_MOVE for a null move (an item with slack left
/// below its upper bound), in which case `*null_item` (if not NULL) gets that item's
/// number.
///
/// Returns XCOVER_OK; XCOVER_BAD_ARGUMENT if `level >= dlx3_solution_len`; XCOVER_BAD_STATE
/// unless a solution was just found; the pointer and handle errors.
///
/// # Safety
/// `handle` as for `dlx3_solve_step`; `option` writable; `null_item` writable or NULL.
#[no_mangle]
pub unsafe extern "C" fn dlx3_solution_option(
    handle: *mut dlx3_workspace,
    level: usize,
    option: *mut u32,
    null_item: *mut u32,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let (ws, option) = unsafe {
            (
                workspace::workspace(handle, Dead::Refuse)?,
                out_param(option)?,
            )
        };
        ws.expect(&[dlx3_state::DLX3_STATE_SOLUTION])?;
        // Checked before `*option` is written: an error leaves both outputs untouched.
        if !is_aligned(null_item) {
            return Err(xcover_status::XCOVER_MISALIGNED);
        }
        let level = u32::try_from(level).map_err(|_| xcover_status::XCOVER_BAD_ARGUMENT)?;
        let (number, item) = match ws.engine.solution_move(level) {
            Some(Move::Option(n)) => (n, 0),
            Some(Move::Null(item)) => (DLX3_NULL_MOVE, item),
            None => return Err(xcover_status::XCOVER_BAD_ARGUMENT),
        };
        *option = number;
        // SAFETY: forwarded contract.
        unsafe { write_optional(null_item, item) }?;
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// The node index of the first node of option `option` (1-based) and its item count.
fn option_nodes(ws: &Workspace, option: u32) -> Checked<(usize, usize)> {
    let layout = ws.engine.layout();
    if option == 0 || u64::from(option) > layout.options {
        return Err(xcover_status::XCOVER_BAD_ARGUMENT);
    }
    // The spacer after option j has itm == -j and up == the option's first node.
    let wanted = -(i64::from(option));
    let spacer = (layout.last_itm as usize..=layout.last_node as usize)
        .filter_map(|p| ws.engine.node(p))
        .find(|n| i64::from(n.itm) == wanted)
        .ok_or(xcover_status::XCOVER_INTERNAL_ERROR)?;
    let first = spacer.up as usize;
    let count = (first..)
        .map_while(|p| ws.engine.node(p))
        .take_while(|n| n.itm > 0)
        .count();
    Ok((first, count))
}

/// Stores in `*len` how many items option number `option` (1-based) has.
///
/// Returns XCOVER_OK; XCOVER_BAD_ARGUMENT if there is no such option; XCOVER_BAD_STATE
/// before the matrix is complete; the pointer and handle errors.
///
/// # Safety
/// `handle` as for `dlx3_solve_step`; `len` writable.
#[no_mangle]
pub unsafe extern "C" fn dlx3_option_len(
    handle: *mut dlx3_workspace,
    option: u32,
    len: *mut usize,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let (ws, len) = unsafe { (workspace::workspace(handle, Dead::Refuse)?, out_param(len)?) };
        ensure_complete(ws)?;
        *len = option_nodes(ws, option)?.1;
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// Stores in `*item` the item number (1-based, in the order of the item line) of the
/// `index`-th (0-based) item of option `option`, and in `*color` its color character
/// (0 if none) — both pointers may be NULL if not wanted.
///
/// Returns XCOVER_OK; XCOVER_BAD_ARGUMENT for a bad option or index; XCOVER_BAD_STATE
/// before the matrix is complete; the pointer and handle errors.
///
/// # Safety
/// `handle` as for `dlx3_solve_step`; `item` and `color` writable or NULL.
#[no_mangle]
pub unsafe extern "C" fn dlx3_option_item(
    handle: *mut dlx3_workspace,
    option: u32,
    index: usize,
    item: *mut u32,
    color: *mut u8,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let ws = unsafe { workspace::workspace(handle, Dead::Refuse) }?;
        ensure_complete(ws)?;
        let (first, count) = option_nodes(ws, option)?;
        if index >= count {
            return Err(xcover_status::XCOVER_BAD_ARGUMENT);
        }
        let node = ws
            .engine
            .node(first + index)
            .ok_or(xcover_status::XCOVER_INTERNAL_ERROR)?;
        let number = node.itm as u32;
        // A cleansed node (color -1) shows the color that purified its item, kept in the
        // item header's aux field, as Knuth prints it.
        let colour = if node.color < 0 {
            ws.engine
                .node(number as usize)
                .ok_or(xcover_status::XCOVER_INTERNAL_ERROR)?
                .color
        } else {
            node.color
        };
        // SAFETY: forwarded contract.
        unsafe {
            write_optional(item, number)?;
            write_optional(color, colour as u8)?;
        }
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// Copies the name of item `item` (1-based) into `name` as a NUL-terminated string of at
/// most 8 characters; `capacity` is the size of `name` in bytes (9 always suffices).
///
/// Returns XCOVER_OK; XCOVER_BUFFER_TOO_SMALL if the name and its NUL do not fit (nothing
/// is written then); XCOVER_BAD_ARGUMENT for a bad item number; the pointer and handle
/// errors.
///
/// # Safety
/// `handle` as for `dlx3_solve_step`; `name` points to `capacity` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn dlx3_item_name(
    handle: *mut dlx3_workspace,
    item: u32,
    name: *mut c_char,
    capacity: usize,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let ws = unsafe { workspace::workspace(handle, Dead::Refuse) }?;
        if item == 0 || item > ws.engine.item_count() {
            return Err(xcover_status::XCOVER_BAD_ARGUMENT);
        }
        if name.is_null() {
            return Err(xcover_status::XCOVER_NULL_POINTER);
        }
        let raw = ws.engine.item_name(item);
        let len = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
        if capacity < len + 1 {
            return Err(xcover_status::XCOVER_BUFFER_TOO_SMALL);
        }
        // SAFETY: `name` is non-null and has `capacity` >= len + 1 writable bytes (contract);
        // byte pointers need no alignment.
        let target = unsafe { core::slice::from_raw_parts_mut(name.cast::<u8>(), len + 1) };
        target[..len].copy_from_slice(&raw[..len]);
        target[len] = 0;
        Ok(xcover_status::XCOVER_OK)
    })())
}

fn ensure_complete(ws: &Workspace) -> Checked<()> {
    ws.expect(&[
        dlx3_state::DLX3_STATE_READY,
        dlx3_state::DLX3_STATE_SEARCHING,
        dlx3_state::DLX3_STATE_SOLUTION,
        dlx3_state::DLX3_STATE_DONE,
    ])
}

/// Copies the counters into `*stats`: Knuth's final statistics (solutions, mems, updates,
/// cleansings, nodes, bytes, max level) and the matrix size. Works in every state, dead
/// workspaces included (the counters then show how far it got). After `dlx3_set_part` these
/// are all the part's engine counted, the levels above the units included;
/// `dlx3_get_part_stats` gives the part's share.
///
/// Returns XCOVER_OK, XCOVER_NULL_POINTER, XCOVER_MISALIGNED or XCOVER_NOT_INITIALIZED.
///
/// # Safety
/// `handle` as for `dlx3_solve_step`; `stats` writable.
#[no_mangle]
pub unsafe extern "C" fn dlx3_get_stats(
    handle: *mut dlx3_workspace,
    stats: *mut dlx3_stats,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let (ws, stats) = unsafe {
            (
                workspace::workspace(handle, Dead::Allow)?,
                out_param(stats)?,
            )
        };
        *stats = stats_of(ws);
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// The counters of the whole engine, as `dlx3_get_stats` gives them.
// Inlined: `dlx3_get_stats` stays one function in the firmware.
#[inline(always)]
pub(crate) fn stats_of(ws: &Workspace) -> dlx3_stats {
    stats_with(ws, ws.engine.stats())
}

/// The C counters: `s` (the engine's or a part's share), with the level and the matrix
/// size of the workspace.
#[inline(always)]
pub(crate) fn stats_with(ws: &Workspace, s: Stats) -> dlx3_stats {
    let layout = ws.engine.layout();
    let primary = layout.second.saturating_sub(1);
    dlx3_stats {
        solutions: s.count,
        input_mems: s.imems,
        mems: s.mems,
        choice_mems: s.cmems,
        updates: s.updates,
        cleansings: s.cleansings,
        nodes: s.nodes,
        knuth_bytes: s.bytes,
        max_level: s.maxl,
        level: ws.engine.depth(),
        options: u32::try_from(layout.options).unwrap_or(u32::MAX),
        primary_items: if layout.last_itm == 0 {
            0
        } else {
            primary.min(layout.last_itm - 1)
        },
        secondary_items: layout.last_itm.saturating_sub(layout.second.max(1)),
        entries: layout.last_node.saturating_sub(layout.last_itm),
    }
}
