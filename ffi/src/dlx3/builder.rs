//! `dlx3_add_item` / `dlx3_add_option`: building a matrix from code instead of text.
//! The engine checks every item and option whole before it changes anything, so every
//! error leaves the workspace as it was; this file reads the C arguments (names, colors)
//! and maps the engine's errors to statuses.

use super::types::dlx3_state;
use super::workspace::{self, dlx3_workspace, Dead, Workspace};
use crate::raw::{in_slice, status_of, Checked};
use crate::status::status_of_error;
use crate::status::xcover_status;
use core::ffi::c_char;
use xcover_core::dlx3::{Dlx3Error, InputError, Name};

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
        // A secondary item's bounds are ignored.
        let (lo, hi) = if secondary { (0, 0) } else { (lo, hi) };
        let (Ok(lo), Ok(hi)) = (i32::try_from(lo), i32::try_from(hi)) else {
            return Err(xcover_status::XCOVER_BAD_ARGUMENT);
        };
        // The engine checks everything before it changes anything: its errors leave the
        // workspace as it was, and are only mapped to statuses here.
        match ws
            .engine
            .text_engine()?
            .add_item(&name[..len], lo, hi, secondary)
        {
            Ok(_) => Ok(xcover_status::XCOVER_OK),
            Err(e) => Err(add_item_status(e)),
        }
    })())
}

/// The status of an error of core's `add_item` (all leave the workspace as it was): the
/// order rules (a secondary item first, a primary after a secondary), a bad name and bad
/// bounds are bad arguments of the call; a duplicate name and the capacities have their
/// own statuses.
fn add_item_status(e: Dlx3Error) -> xcover_status {
    match e {
        Dlx3Error::OutOfOrder => xcover_status::XCOVER_BAD_ARGUMENT,
        Dlx3Error::Input { kind, .. } => match kind {
            InputError::DuplicateItemName => xcover_status::XCOVER_PARSE_DUPLICATE_ITEM_NAME,
            InputError::TooManyItems => xcover_status::XCOVER_TOO_MANY_ITEMS,
            InputError::TooManyNodes => xcover_status::XCOVER_TOO_MANY_NODES,
            _ => xcover_status::XCOVER_BAD_ARGUMENT,
        },
        e => status_of_error(e),
    }
}

/// The status of an error of core's `add_option` (all leave the workspace as it was).
fn add_option_status(e: Dlx3Error) -> xcover_status {
    match e {
        Dlx3Error::Input { kind, .. } => match kind {
            InputError::NoItems => xcover_status::XCOVER_BAD_STATE,
            InputError::ColorNotSingle => xcover_status::XCOVER_BAD_ARGUMENT,
            InputError::TooManyNodes => xcover_status::XCOVER_TOO_MANY_NODES,
            _ => status_of_error(e),
        },
        e => status_of_error(e),
    }
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
        for (i, &name) in names.iter().enumerate() {
            // SAFETY: forwarded contract: each name is a NUL-terminated string.
            let (name, _) = unsafe { read_name(name) }?;
            // An unknown name becomes item 0, which the engine reports as unknown (after
            // its own check that there are items at all).
            let item = find_item(ws, &name).unwrap_or(0);
            let color = colors.get(i).map_or(0, |&c| c as u8);
            ws.scratch.as_mut_slice()[i] = (item, color);
        }
        // The engine checks the option whole before it changes anything.
        let result = ws.with_sinks_and_scratch(n, |engine, entries, sinks| {
            engine.add_option(entries, sinks.err)
        })?;
        match result {
            Ok(()) => Ok(xcover_status::XCOVER_OK),
            Err(e) => Err(add_option_status(e)),
        }
    })())
}
