//! Building the matrix: `dlx3_parse` (Knuth's text format) or `dlx3_add_item` /
//! `dlx3_add_option` (from code).

use super::types::{dlx3_parse_error, dlx3_state};
use super::workspace::{self, dlx3_workspace, Dead, Workspace};
use crate::raw::{in_slice, status_of, Checked};
use crate::status::{status_of_error, xcover_status};
use xcover_core::dlx3::{Dlx3Error, FgetsLines};

/// Reads a whole matrix in Knuth's text format (`len` bytes of `text`; the last line must
/// end with a newline, as in Knuth's program) into a freshly initialized workspace, and
/// prints what Knuth prints while reading to the `err` stream (ignored-option warnings,
/// the input summary with `v1`, item totals with `v512`). On an input error Knuth's report
/// (`MESSAGE!` and `P: LINE`) goes to `err` too, `*err_info` tells where (it may be NULL),
/// and the workspace is dead. On success the workspace is ready for `dlx3_solve_step`.
///
/// Returns XCOVER_OK or one `XCOVER_PARSE_*` code per Knuth message (XCOVER_PARSE_TOO_MANY_
/// ITEMS / _NODES when the capacities given at init are exceeded); XCOVER_NULL_POINTER,
/// XCOVER_MISALIGNED, XCOVER_NOT_INITIALIZED, XCOVER_DEAD; XCOVER_BAD_STATE if items or
/// options were already added or the matrix is complete.
///
/// # Safety
/// `handle` is a live handle (or NULL); `text` points to `len` readable bytes (NULL allowed
/// if `len` is 0); `err_info` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn dlx3_parse(
    handle: *mut dlx3_workspace,
    text: *const u8,
    len: usize,
    err_info: *mut dlx3_parse_error,
) -> xcover_status {
    // A misaligned `err_info` is refused like every other bad pointer: before anything is
    // parsed (the workspace is unchanged) and without writing it.
    if !crate::raw::is_aligned(err_info) {
        return xcover_status::XCOVER_MISALIGNED;
    }
    // The error info is written even when the call fails early, if it can be.
    let mut info = dlx3_parse_error::NONE;
    let status = status_of((|| {
        // SAFETY: forwarded contract.
        let (ws, text) = unsafe {
            (
                workspace::workspace(handle, Dead::Refuse)?,
                in_slice(text, len)?,
            )
        };
        ws.expect(&[dlx3_state::DLX3_STATE_ITEMS])?;
        if ws.engine.item_count() != 0 {
            return Err(xcover_status::XCOVER_BAD_STATE);
        }
        let result = parse_lines(ws, text, &mut info)?;
        if let Err(e) = result {
            ws.with_sinks::<u32, _>(|engine, sinks| engine.write_error_report(&e, sinks.err))?;
            return Err(ws.kill(status_of_error(e)));
        }
        Ok(xcover_status::XCOVER_OK)
    })());
    info.status = status;
    info.message = crate::status::xcover_status_message(status as u32);
    if !err_info.is_null() {
        // SAFETY: err_info is writable per contract (alignment checked here).
        if let Ok(out) = unsafe { crate::raw::out_param(err_info) } {
            *out = info;
        }
    }
    status
}

/// Feeds `text` line by line, recording in `info` where an error happened (the outer
/// error: not a workspace that reads text).
fn parse_lines(
    ws: &mut Workspace,
    text: &[u8],
    info: &mut dlx3_parse_error,
) -> Checked<Result<(), Dlx3Error>> {
    let mut offset = 0usize;
    let mut line_no = 0u32;
    for chunk in FgetsLines::new(text) {
        line_no = line_no.saturating_add(1);
        info.line = line_no;
        info.line_offset = offset;
        info.line_length = chunk.len();
        let result = ws.with_sinks::<u32, _>(|engine, sinks| engine.read_line(chunk, sinks.err))?;
        if let Err(e) = result {
            note_position(info, e);
            return Ok(Err(e));
        }
        offset += chunk.len();
    }
    let result = ws.with_sinks::<u32, _>(|engine, sinks| engine.end_input(sinks.err))?;
    if let Err(e) = result {
        note_position(info, e);
        return Ok(Err(e));
    }
    *info = dlx3_parse_error::NONE;
    Ok(Ok(()))
}

fn note_position(info: &mut dlx3_parse_error, e: Dlx3Error) {
    if let Dlx3Error::Input { pos, .. } = e {
        info.position = pos;
    }
}
