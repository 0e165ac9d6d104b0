//! One part of N of a search (`dlx3_set_part`), and adding the parts' counters up: the C
//! face of the engine's part protocol (`Dlx3::start_part`, `Dlx3::run_part`,
//! `PartRun::share`). The step that runs a part is installed by `dlx3_set_part`: a program
//! that never calls it links none of it.

use super::solve::{end_building, stats_with};
use super::types::{dlx3_state, dlx3_stats};
use super::workspace::{self, dlx3_workspace, Dead, Engine, EngineWidth, StepFn, Workspace};
use crate::raw::{in_param, out_param, status_of, Checked};
use crate::status::{status_of_error, xcover_status};
use xcover_core::dlx3::{Dlx3Error, Event, Part};

/// Ends the input of a matrix still being built (as `dlx3_solve_step` does), then requires
/// a complete matrix whose search has not started.
fn ready_to_split<const PRINTS: bool>(ws: &mut Workspace) -> Checked<()> {
    end_building::<PRINTS>(ws)?;
    ws.expect(&[dlx3_state::DLX3_STATE_READY])
}

/// Stores in `*level` the split level the engine picks for `min_units` units: the
/// shallowest level with at least `min_units` units (or, if none has that many, the
/// shallowest of those with the most), found by walking the levels above it with every unit
/// skipped. It depends only on the matrix and `min_units`, so independent processes agree
/// on it; pass it to `dlx3_set_part`. The walk leaves the workspace as it was (counters
/// included); it costs about the search of the levels above the chosen one.
///
/// Allowed only before the search starts (state READY). A matrix built with
/// `dlx3_add_item`/`dlx3_add_option` is ended first, as the first `dlx3_solve_step` ends
/// it (Knuth's input summary goes to the writers, if any). Call it before
/// `dlx3_set_part`.
///
/// Returns XCOVER_OK; XCOVER_BAD_ARGUMENT for a randomized search (`randomize` set: random
/// tie breaks make the levels above a unit depend on the units, so such a search cannot be
/// split); XCOVER_BAD_STATE once the search has started, after `dlx3_set_part`, or with no
/// items; the pointer and handle errors. The workspace stays usable after these errors.
///
/// # Safety
/// `handle` as for `dlx3_solve_step`; `level` writable.
#[no_mangle]
pub unsafe extern "C" fn dlx3_choose_split_level(
    handle: *mut dlx3_workspace,
    min_units: u64,
    level: *mut u32,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let (ws, level) = unsafe {
            (
                workspace::workspace(handle, Dead::Refuse)?,
                out_param(level)?,
            )
        };
        if ws.runs_part() {
            return Err(xcover_status::XCOVER_BAD_STATE);
        }
        ready_to_split::<true>(ws)?;
        let chosen = match &mut ws.engine {
            Engine::Wide(e) => e.get_mut().choose_split_level(min_units),
            Engine::Compact(e) => e.get_mut().choose_split_level(min_units),
        };
        *level = chosen.map_err(split_error)?;
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// The status of an engine's refusal to split (the workspace stays usable).
fn split_error(e: Dlx3Error) -> xcover_status {
    match e {
        Dlx3Error::TooManyLevels => xcover_status::XCOVER_BAD_ARGUMENT,
        other => status_of_error(other),
    }
}

/// Makes the workspace run part `part` of `parts` of its search, split at `split_level`
/// (the same for every part; `dlx3_choose_split_level` picks one). Every trial of an option
/// on that level roots a *unit*, numbered 0, 1, 2, ... in the order of the search; unit `k`
/// belongs to part `k % parts`. From now on `dlx3_solve_step` walks the levels above the
/// units (the *shared* part, the same in every part) and explores only this part's units,
/// skipping the others; it returns XCOVER_SOLUTION only for this part's solutions (those
/// inside its units, and those of the shared part in part 0), read as usual, and ends with
/// XCOVER_DONE. The parts together find exactly the solutions of one run, each once; and
/// `dlx3_stats_add` over every part's `dlx3_get_part_stats` gives one run's
/// `dlx3_get_stats` counters. The mem budget of a step counts all the mems this part's
/// engine spends, shared part included.
///
/// Parts print nothing: a workspace with writers set is refused, and `dlx3_set_writers` is
/// refused after this call. The solution limit (`max_count`) and the mem timeout
/// (`timeout`) act on this part's engine, whose counters include the shared part: with
/// them the parts need not add up to one run.
///
/// Allowed only before the search starts (state READY); a matrix built with
/// `dlx3_add_item`/`dlx3_add_option` is ended first, as the first `dlx3_solve_step` ends
/// it. It may be called again before the search starts, to change the part.
///
/// Returns XCOVER_OK; XCOVER_BAD_ARGUMENT if `parts == 0`, `part >= parts`, the level is
/// beyond the workspace's level capacity, or the search is randomized (`randomize` set:
/// random tie breaks make the shared part depend on the units); XCOVER_BAD_STATE once the
/// search has started, with writers set, or with no items; the pointer and handle errors.
/// The workspace stays usable after these errors.
///
/// # Safety
/// `handle` as for `dlx3_solve_step`.
#[no_mangle]
pub unsafe extern "C" fn dlx3_set_part(
    handle: *mut dlx3_workspace,
    part: u64,
    parts: u64,
    split_level: u32,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let ws = unsafe { workspace::workspace(handle, Dead::Refuse) }?;
        let which = Part::new(part, parts).ok_or(xcover_status::XCOVER_BAD_ARGUMENT)?;
        let w = &ws.writers;
        if w.out.is_connected() || w.err.is_connected() || w.shape.is_connected() {
            return Err(xcover_status::XCOVER_BAD_STATE);
        }
        ready_to_split::<false>(ws)?;
        let (run, step) = match &mut ws.engine {
            Engine::Wide(e) => (
                e.get_mut().start_part(which, split_level),
                part_step::<u32> as StepFn,
            ),
            Engine::Compact(e) => (
                e.get_mut().start_part(which, split_level),
                part_step::<u16> as StepFn,
            ),
        };
        ws.part = run.map_err(split_error)?;
        ws.step = step;
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// One `dlx3_solve_step` of a part (installed by `dlx3_set_part`; never prints).
fn part_step<W: EngineWidth>(ws: &mut Workspace<'_>, mem_budget: u64) -> Checked<xcover_status> {
    let engine = W::engine(&mut ws.engine).ok_or(xcover_status::XCOVER_INTERNAL_ERROR)?;
    match engine.run_part(&mut ws.part, mem_budget) {
        Ok(Event::Solution) => Ok(xcover_status::XCOVER_SOLUTION),
        Ok(Event::BudgetExhausted) => Ok(xcover_status::XCOVER_BUDGET_EXHAUSTED),
        Ok(Event::Done(_)) => Ok(xcover_status::XCOVER_DONE),
        Ok(Event::Unit(_) | Event::UnitDone(_)) => {
            Err(ws.kill(xcover_status::XCOVER_INTERNAL_ERROR))
        }
        Err(e) => Err(ws.kill(status_of_error(e))),
    }
}

/// Copies into `*stats` this part's share of the counters (after `dlx3_set_part`): part 0
/// gets all its engine counted (as `dlx3_get_stats`: the shared part and its own units);
/// every other part the counters of its own units only (`solutions`, `mems`,
/// `choice_mems`, `updates`, `cleansings`, `nodes`), `max_level` the deepest level reached
/// inside them (0 if none), `knuth_bytes` computed with that level, and `input_mems` 0. The
/// matrix fields (`options`, items, `entries`) and `level` are as `dlx3_get_stats` gives
/// them. Without `dlx3_set_part` the workspace is the one part of one: the same as
/// `dlx3_get_stats`. Works in every state, dead workspaces included.
///
/// Returns XCOVER_OK, XCOVER_NULL_POINTER, XCOVER_MISALIGNED or XCOVER_NOT_INITIALIZED.
///
/// # Safety
/// `handle` as for `dlx3_solve_step`; `stats` writable.
#[no_mangle]
pub unsafe extern "C" fn dlx3_get_part_stats(
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
        let share = match &ws.engine {
            Engine::Wide(e) => ws.part.share(e.get()),
            Engine::Compact(e) => ws.part.share(e.get()),
        };
        let share = stats_with(ws, share);
        *stats = share;
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// Adds the counters of `*part` into `*total`: `solutions`, `input_mems`, `mems`,
/// `choice_mems`, `updates`, `cleansings` and `nodes` are summed, `max_level` and
/// `knuth_bytes` are the larger of the two, and the matrix fields (`options`,
/// `primary_items`, `secondary_items`, `entries`) and `level` are copied from `*part`.
/// Starting from an all-zero `total`, adding every part's `dlx3_get_part_stats` (in any
/// order) gives exactly the counters of one run of the whole search. `total` and `part` may
/// be the same.
///
/// Returns XCOVER_OK, XCOVER_NULL_POINTER or XCOVER_MISALIGNED.
///
/// # Safety
/// `total` readable and writable; `part` readable.
#[no_mangle]
pub unsafe extern "C" fn dlx3_stats_add(
    total: *mut dlx3_stats,
    part: *const dlx3_stats,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract; `part` is copied before `total` is borrowed, so the
        // two may alias.
        let p = *unsafe { in_param(part) }?;
        // SAFETY: forwarded contract.
        let t = unsafe { out_param(total) }?;
        *t = dlx3_stats {
            solutions: t.solutions.wrapping_add(p.solutions),
            input_mems: t.input_mems.wrapping_add(p.input_mems),
            mems: t.mems.wrapping_add(p.mems),
            choice_mems: t.choice_mems.wrapping_add(p.choice_mems),
            updates: t.updates.wrapping_add(p.updates),
            cleansings: t.cleansings.wrapping_add(p.cleansings),
            nodes: t.nodes.wrapping_add(p.nodes),
            knuth_bytes: t.knuth_bytes.max(p.knuth_bytes),
            max_level: t.max_level.max(p.max_level),
            ..p
        };
        Ok(xcover_status::XCOVER_OK)
    })())
}
