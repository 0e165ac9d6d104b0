//! `dlx3_add_item` / `dlx3_add_option`: building a matrix from code instead of text.
//! Argument errors are found before the engine is touched, so they leave the workspace
//! usable; an error reported by the engine itself marks it dead.

use super::types::dlx3_state;
use super::workspace::{self, dlx3_workspace, Dead, Workspace};
use crate::raw::{in_slice, status_of, Checked};
use crate::status::status_of_error;
use crate::status::xcover_status;
use core::ffi::c_char;
use xcover_core::dlx3::Name;

/// C `isspace` in the "C" locale.
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Reads an item name: a NUL-terminated string of 1 to 8 non-space bytes.
///
/// # Safety
/// `name` is NULL or points to a NUL-terminated string (only up to 9 bytes are read).
unsafe fn read_name(name: *const c_char) -> Checked<(Name, usize)> {
    if name.is_null() {
        return Err(xcover_status::XCOVER_NULL_POINTER);
    }
    let mut bytes: Name = [0; 8];
    for i in 0..=8 {
        // SAFETY: the string is NUL-terminated and we stop at its NUL, so every byte read
        // (at most 9) is inside it.
        let byte = unsafe { name.add(i).cast::<u8>().read() };
        if byte == 0 {
            return if i == 0 {
                Err(xcover_status::XCOVER_BAD_ARGUMENT)
            } else {
                Ok((bytes, i))
            };
        }
        if i == 8 || is_space(byte) {
            return Err(xcover_status::XCOVER_BAD_ARGUMENT);
        }
        bytes[i] = byte;
    }
    Err(xcover_status::XCOVER_BAD_ARGUMENT)
}

/// The number of the item called `name`, if there is one.
fn find_item(ws: &Workspace, name: &Name) -> Option<u32> {
    (1..=ws.engine.item_count()).find(|&k| ws.engine.item_name(k) == *name)
}

/// Adds an item (before any option), like one name on Knuth's item line: `name` is a
/// NUL-terminated string of 1..8 non-space characters; a primary item (`secondary` 0) must
/// be covered between `lo` and `hi` times (Knuth's `lo:hi|name`; plain items are 1, 1);
/// a secondary item (`secondary` nonzero; `lo` and `hi` are ignored) at most once, or by
/// options that agree on its color. All primary items come first.
///
/// Returns XCOVER_OK; XCOVER_BAD_ARGUMENT (bad name, bounds not 0 <= lo <= hi, 1 <= hi,
/// a primary after a secondary, or a secondary first); XCOVER_PARSE_DUPLICATE_ITEM_NAME;
/// XCOVER_TOO_MANY_ITEMS (capacity given at init); XCOVER_TOO_MANY_NODES (the node
/// capacity cannot hold one more item header and the first spacer) — all these leave the
/// workspace as it was; XCOVER_BAD_STATE after the first option; the pointer and handle
/// errors.
///
/// # Safety
/// `handle` is NULL or a live handle; `name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn dlx3_add_item(
    handle: *mut dlx3_workspace,
    name: *const c_char,
    lo: u32,
    hi: u32,
    secondary: u32,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let ws = unsafe { workspace::workspace(handle, Dead::Refuse) }?;
        ws.expect(&[dlx3_state::DLX3_STATE_ITEMS])?;
        // SAFETY: forwarded contract.
        let (name, len) = unsafe { read_name(name) }?;
        let secondary = secondary != 0;
        let (lo, hi) = if secondary { (0, 1) } else { (lo, hi) };
        if hi == 0 || lo > hi || hi > i32::MAX as u32 {
            return Err(xcover_status::XCOVER_BAD_ARGUMENT);
        }
        if (!secondary && ws.seen_secondary) || (secondary && ws.engine.item_count() == 0) {
            return Err(xcover_status::XCOVER_BAD_ARGUMENT);
        }
        if find_item(ws, &name).is_some() {
            return Err(xcover_status::XCOVER_PARSE_DUPLICATE_ITEM_NAME);
        }
        if ws.engine.item_count() >= ws.item_capacity {
            return Err(xcover_status::XCOVER_TOO_MANY_ITEMS);
        }
        // Item headers live in the node array too (node k for item k), and the first
        // spacer follows them: refuse here what the engine would find only half-way.
        if ws.engine.item_count() as usize + 2 >= ws.node_capacity {
            return Err(xcover_status::XCOVER_TOO_MANY_NODES);
        }
        let result =
            ws.engine
                .text_engine()?
                .add_item(&name[..len], lo as i32, hi as i32, secondary);
        match result {
            Ok(_) => {
                ws.seen_secondary |= secondary;
                Ok(xcover_status::XCOVER_OK)
            }
            Err(e) => Err(ws.kill(status_of_error(e))),
        }
    })())
}

/// Adds an option: the `n` items named `names[0..n-1]` (NUL-terminated), with the colors
/// `colors[0..n-1]` (a color is one non-space character; 0 for none; `colors` may be NULL
/// for no colors; only secondary items may be colored). As in Knuth's program, an option
/// without primary items is ignored (with a warning on `err` when `verbosity & 1024`).
///
/// Returns XCOVER_OK; XCOVER_PARSE_UNKNOWN_ITEM_NAME, XCOVER_PARSE_DUPLICATE_IN_OPTION,
/// XCOVER_PARSE_PRIMARY_COLORED, XCOVER_BAD_ARGUMENT (n = 0, bad name or color),
/// XCOVER_TOO_MANY_NODES (capacity given at init) — all these leave the workspace as it
/// was; XCOVER_BAD_STATE if there are no items yet or the matrix is complete; the pointer
/// and handle errors.
///
/// # Safety
/// `handle` is NULL or a live handle; `names` points to `n` NUL-terminated strings;
/// `colors` is NULL or points to `n` bytes.
#[no_mangle]
pub unsafe extern "C" fn dlx3_add_option(
    handle: *mut dlx3_workspace,
    names: *const *const c_char,
    colors: *const c_char,
    n: usize,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let ws = unsafe { workspace::workspace(handle, Dead::Refuse) }?;
        ws.expect(&[dlx3_state::DLX3_STATE_ITEMS, dlx3_state::DLX3_STATE_OPTIONS])?;
        if ws.engine.item_count() == 0 {
            return Err(xcover_status::XCOVER_BAD_STATE);
        }
        // SAFETY: forwarded contract.
        let names = unsafe { in_slice(names, n) }?;
        let colors: &[c_char] = if colors.is_null() {
            &[]
        } else {
            // SAFETY: forwarded contract.
            unsafe { in_slice(colors, n) }?
        };
        if n == 0 || n > ws.scratch.len() {
            return Err(if n == 0 {
                xcover_status::XCOVER_BAD_ARGUMENT
            } else {
                xcover_status::XCOVER_PARSE_DUPLICATE_IN_OPTION
            });
        }
        // Before the first option the spacer after the item headers is not placed yet; the
        // engine puts it at node last_itm, so the option's nodes start after it.
        let layout = ws.engine.layout();
        let last_node = if ws.state() == dlx3_state::DLX3_STATE_ITEMS {
            layout.last_itm.max(layout.last_node) as usize
        } else {
            layout.last_node as usize
        };
        if last_node.saturating_add(n + 1) >= ws.node_capacity {
            return Err(xcover_status::XCOVER_TOO_MANY_NODES);
        }
        for (i, &name) in names.iter().enumerate() {
            // SAFETY: forwarded contract: each name is a NUL-terminated string.
            let (name, _) = unsafe { read_name(name) }?;
            let item = find_item(ws, &name).ok_or(xcover_status::XCOVER_PARSE_UNKNOWN_ITEM_NAME)?;
            let color = colors.get(i).map_or(0, |&c| c as u8);
            if color != 0 && is_space(color) {
                return Err(xcover_status::XCOVER_BAD_ARGUMENT);
            }
            if color != 0 && !ws.engine.is_secondary(item) {
                return Err(xcover_status::XCOVER_PARSE_PRIMARY_COLORED);
            }
            let scratch = ws.scratch.as_mut_slice();
            if scratch[..i].iter().any(|&(k, _)| k == item) {
                return Err(xcover_status::XCOVER_PARSE_DUPLICATE_IN_OPTION);
            }
            scratch[i] = (item, color);
        }
        let result = ws.with_sinks_and_scratch(n, |engine, entries, sinks| {
            engine.add_option(entries, sinks.err)
        })?;
        match result {
            Ok(()) => Ok(xcover_status::XCOVER_OK),
            Err(e) => Err(ws.kill(status_of_error(e))),
        }
    })())
}
