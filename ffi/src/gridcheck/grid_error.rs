//! Why `gridcheck_set_grid` refused a grid: `gridcheck_get_grid_error` gives C the outcome
//! the workspace kept (grid_outcome.rs), with the CLI's words.

use super::handle::{self, gridcheck_workspace, Dead};
use super::types::gridcheck_grid_error;
use crate::raw::{out_param, status_of};
use crate::status::xcover_status;

/// Says why the last `gridcheck_set_grid` call on this workspace refused the grid, in
/// `*info`: its status, what is wrong (`kind`: wrong length, bad character, or a digit
/// repeated in a row, column or box, with where), and the same words `xcover gridcheck`
/// prints (`message`). After a call that accepted the grid, failed before reading it, or
/// before any call, `kind` is GRIDCHECK_GRID_NONE and `message` is empty. Nothing is
/// allocated; works on dead workspaces too.
///
/// Returns XCOVER_OK, XCOVER_NULL_POINTER, XCOVER_MISALIGNED or XCOVER_NOT_INITIALIZED.
///
/// # Safety
/// `handle` is NULL or a handle from `gridcheck_init` whose buffer is still valid; `info`
/// is NULL or points to a writable `gridcheck_grid_error`.
#[no_mangle]
pub unsafe extern "C" fn gridcheck_get_grid_error(
    handle: *mut gridcheck_workspace,
    info: *mut gridcheck_grid_error,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let (h, info) = unsafe { (handle::handle(handle, Dead::Allow)?, out_param(info)?) };
        *info = h.last_grid.describe();
        Ok(xcover_status::XCOVER_OK)
    })())
}
