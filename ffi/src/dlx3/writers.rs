//! `dlx3_set_writers`: printing is for the caller who asks for it.
//!
//! A workspace prints nothing until this is called; calling it switches the workspace to
//! the step that writes Knuth's text. A program that never calls it links none of the
//! printing code (number and float formatting included), which is what keeps a counting
//! firmware image small.
#![allow(non_camel_case_types)]

use super::solve::step;
use super::types::dlx3_writers;
use super::workspace::{self, dlx3_workspace, Dead, Engine, StepFn};
use crate::raw::{in_param, status_of};
use crate::status::xcover_status;

/// Makes the workspace print Knuth's text through `*writers` (copied) from now on:
/// warnings and reports of `dlx3_parse`, the input summary, solutions, traces, progress
/// reports and the closing statistics of `dlx3_solve_step`. Call it right after init to
/// get everything Knuth's program prints; call it again to change the streams.
///
/// Without this call a workspace prints nothing, whatever `verbosity` and `spacing` say;
/// solutions are still read with `dlx3_solution_option` and counters with
/// `dlx3_get_stats`.
///
/// Returns XCOVER_OK; XCOVER_NULL_POINTER / XCOVER_MISALIGNED for a bad `writers`;
/// XCOVER_BAD_STATE after `dlx3_set_part` (parts print nothing); the handle errors (a dead
/// workspace is refused).
///
/// # Safety
/// `handle` is NULL or a handle from an init function whose buffer is still valid;
/// `writers` is NULL or readable. Each non-NULL `write` must stay callable with its `ctx`
/// while the workspace is used.
#[no_mangle]
pub unsafe extern "C" fn dlx3_set_writers(
    handle: *mut dlx3_workspace,
    writers: *const dlx3_writers,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let (ws, writers) = unsafe {
            (
                workspace::workspace(handle, Dead::Refuse)?,
                *in_param(writers)?,
            )
        };
        // Parts print nothing (`dlx3_set_part`).
        if ws.runs_part() {
            return Err(xcover_status::XCOVER_BAD_STATE);
        }
        ws.writers = writers;
        ws.step = match ws.engine {
            Engine::Wide(_) => step::<u32, true, true> as StepFn,
            Engine::Compact(_) => step::<u16, true, false>,
        };
        Ok(xcover_status::XCOVER_OK)
    })())
}
