//! Sizing, creating, inspecting and releasing workspaces.

use super::settings::dlx3_settings;
use super::types::{
    dlx3_image, dlx3_item, dlx3_node, dlx3_state, DLX3_IMAGE_VERSION, DLX3_WORKSPACE_ALIGN,
};
pub use super::workspace::dlx3_workspace;
use super::workspace::{self, claim_buffer, install, item_slots, Dead, Writers};
use crate::raw::{in_param, in_slice, is_aligned, out_param, status_of, write_optional, Checked};
use crate::status::xcover_status;
use core::ffi::c_void;
use xcover_core::dlx3::{Dlx3, Dlx3Error, Item, Layout, Name, Node, Settings, Storage};

/// Engine settings from the C settings.
pub fn engine_settings(c: &dlx3_settings) -> Settings {
    Settings {
        vbose: c.verbosity as i32,
        spacing: c.spacing,
        random_seed: c.random_seed,
        randomizing: c.randomize != 0,
        delta: c.delta,
        thresh: c.delta,
        show_choices_max: c.show_choices_max,
        show_levels_max: c.show_levels_max,
        show_choices_gap: c.show_choices_gap,
        maxcount: c.max_count,
        timeout: c.timeout,
    }
}

fn writers(c: &dlx3_settings) -> Writers {
    Writers {
        out: c.out,
        err: c.err,
        shape: c.shape,
    }
}

/// Reads the settings argument (NULL means Knuth's defaults with output discarded).
///
/// # Safety
/// `settings` is NULL or points to a readable `dlx3_settings`.
unsafe fn settings_or_default(settings: *const dlx3_settings) -> Checked<dlx3_settings> {
    if settings.is_null() {
        return Ok(dlx3_settings::DEFAULT);
    }
    // SAFETY: forwarded contract.
    let s = *unsafe { in_param(settings) }?;
    if s.reserved != 0 {
        return Err(xcover_status::XCOVER_BAD_ARGUMENT);
    }
    Ok(s)
}

fn engine_status(e: Dlx3Error) -> xcover_status {
    super::build::status_of_error(e)
}

/// Computes the buffer size and alignment for a workspace that can read (or build) a matrix of up to
/// `items` items and `nodes` node slots (Knuth's count: item headers + option nodes +
/// spacers, i.e. items + 1 + entries + 1 suffice) and search `levels` levels deep
/// (Knuth: 500). The same number is `XCOVER_DLX3_WORKSPACE_SIZE(items, nodes, levels)`.
///
/// Returns XCOVER_OK; XCOVER_NULL_POINTER / XCOVER_MISALIGNED for bad output pointers;
/// XCOVER_BAD_ARGUMENT if the size overflows or a capacity is zero.
///
/// # Safety
/// `size` and `align` point to writable `size_t`s (`align` may be NULL).
#[no_mangle]
pub unsafe extern "C" fn dlx3_workspace_size(
    items: usize,
    nodes: usize,
    levels: usize,
    size: *mut usize,
    align: *mut usize,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let size = unsafe { out_param(size) }?;
        // Both outputs are checked before either is written: an error leaves them untouched.
        if !is_aligned(align) {
            return Err(xcover_status::XCOVER_MISALIGNED);
        }
        if items == 0 || nodes < 2 || levels == 0 {
            return Err(xcover_status::XCOVER_BAD_ARGUMENT);
        }
        *size = workspace::size_for_text(items, nodes, levels)
            .ok_or(xcover_status::XCOVER_BAD_ARGUMENT)?;
        // SAFETY: forwarded contract.
        unsafe { write_optional(align, DLX3_WORKSPACE_ALIGN) }?;
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// Upper bounds of the capacities needed to read `text` (`len` bytes): pass them to
/// `dlx3_workspace_size` / `dlx3_init`. They are clamped to Knuth's limits (10000 items,
/// 100000000 nodes), so an input too big for Knuth gets his error at the same place.
///
/// Returns XCOVER_OK, XCOVER_NULL_POINTER or XCOVER_MISALIGNED.
///
/// # Safety
/// `text` points to `len` readable bytes (may be NULL if `len` is 0); `items` and `nodes`
/// point to writable `size_t`s.
#[no_mangle]
pub unsafe extern "C" fn dlx3_text_capacity(
    text: *const u8,
    len: usize,
    items: *mut usize,
    nodes: *mut usize,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let (text, items, nodes) =
            unsafe { (in_slice(text, len)?, out_param(items)?, out_param(nodes)?) };
        let capacity = xcover_core::dlx3::measure(text);
        *items = capacity.item_slots - 2;
        *nodes = capacity.node_slots;
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// Creates a workspace in the caller's buffer `buf` (`len` bytes, aligned to 8, at least
/// what `dlx3_workspace_size(items, nodes, levels, ...)` says) and stores its handle in
/// `*handle`. `settings` may be NULL for Knuth's defaults with all output discarded; it is
/// copied. The buffer belongs to the workspace until `dlx3_release` (do not move, copy or
/// modify it); the handle points into it. Next: `dlx3_parse`, or `dlx3_add_item`s then
/// `dlx3_add_option`s; then `dlx3_solve_step`.
///
/// Returns XCOVER_OK; XCOVER_NULL_POINTER, XCOVER_MISALIGNED, XCOVER_BUFFER_TOO_SMALL,
/// XCOVER_BAD_ARGUMENT (zero capacity, reserved field set), or XCOVER_ALREADY_INITIALIZED
/// if `buf` holds a live workspace (release it first; a dead one may be overwritten).
/// Nothing outside `buf[0 .. size)` is written, and `*handle` only on success.
///
/// # Safety
/// `buf` points to `len` writable bytes that stay valid while the workspace is used;
/// `settings` is NULL or readable; `handle` points to a writable pointer. The write
/// callbacks in `settings` must stay callable with their `ctx` while the workspace is used.
#[no_mangle]
pub unsafe extern "C" fn dlx3_init(
    buf: *mut c_void,
    len: usize,
    items: usize,
    nodes: usize,
    levels: usize,
    settings: *const dlx3_settings,
    handle: *mut *mut dlx3_workspace,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract (checked for NULL/alignment before use).
        let handle = unsafe { out_param(handle) }?;
        // SAFETY: forwarded contract.
        let settings = unsafe { settings_or_default(settings) }?;
        if items == 0 || nodes < 2 || levels == 0 {
            return Err(xcover_status::XCOVER_BAD_ARGUMENT);
        }
        let slots = item_slots(items).ok_or(xcover_status::XCOVER_BAD_ARGUMENT)?;
        let needed = workspace::size_for_text(items, nodes, levels);
        let buf = buf.cast::<u8>();
        // SAFETY: forwarded contract: `buf` is valid for `len` bytes for the workspace's life.
        let regions = unsafe { claim_buffer(buf, len, needed, slots, true, nodes, levels) }?;
        let names = regions.names.ok_or(xcover_status::XCOVER_INTERNAL_ERROR)?;
        let storage = Storage::new(regions.items, names, regions.nodes, regions.levels);
        let engine = Dlx3::new(storage, engine_settings(&settings)).map_err(engine_status)?;
        let capacity = (items, nodes);
        // SAFETY: `buf` was accepted by claim_buffer.
        *handle = unsafe {
            install(
                buf,
                engine,
                writers(&settings),
                regions.scratch,
                capacity,
                dlx3_state::DLX3_STATE_ITEMS,
            )
        };
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// Checks an image and returns (item slots, node slots) it needs.
fn image_slots(image: &dlx3_image) -> Checked<(usize, usize)> {
    let ok = image.version == DLX3_IMAGE_VERSION
        && image.last_itm >= 2
        && image.second >= 2
        && image.second <= image.last_itm
        && image.last_node >= image.last_itm
        && image.last_node < i32::MAX as u32
        && !image.names.is_null()
        && !image.items.is_null()
        && !image.nodes.is_null();
    if !ok {
        return Err(xcover_status::XCOVER_BAD_IMAGE);
    }
    Ok((image.last_itm as usize + 1, image.last_node as usize + 1))
}

/// Computes the buffer size and alignment for solving the preloaded `image` with `levels`
/// levels. Only the item and node records and the levels take RAM (names stay in the
/// image). The same number is `XCOVER_DLX3_PRELOADED_SIZE(last_itm, last_node, levels)`.
///
/// Returns XCOVER_OK, XCOVER_NULL_POINTER, XCOVER_MISALIGNED, XCOVER_BAD_IMAGE or
/// XCOVER_BAD_ARGUMENT (levels 0).
///
/// # Safety
/// `image` is readable; `size` writable; `align` writable or NULL.
#[no_mangle]
pub unsafe extern "C" fn dlx3_preloaded_workspace_size(
    image: *const dlx3_image,
    levels: usize,
    size: *mut usize,
    align: *mut usize,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let (image, size) = unsafe { (in_param(image)?, out_param(size)?) };
        if !is_aligned(align) {
            return Err(xcover_status::XCOVER_MISALIGNED);
        }
        let (item_slots, node_slots) = image_slots(image)?;
        if levels == 0 {
            return Err(xcover_status::XCOVER_BAD_ARGUMENT);
        }
        *size = workspace::size_for_preloaded(item_slots, node_slots, levels)
            .ok_or(xcover_status::XCOVER_BAD_ARGUMENT)?;
        // SAFETY: forwarded contract.
        unsafe { write_optional(align, DLX3_WORKSPACE_ALIGN) }?;
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// Creates a workspace over the preloaded `image` (see `dlx3_image`), ready for
/// `dlx3_solve_step` without parsing: the item and node records are copied into `buf`, the
/// names are used where they are. The image must outlive the workspace. Input mems are 0.
///
/// Returns as `dlx3_init`, plus XCOVER_BAD_IMAGE if the image is inconsistent.
///
/// # Safety
/// As `dlx3_init`; `image` and the arrays it points to are readable (sizes as documented
/// in `dlx3_image`) and stay valid and unchanged while the workspace is used.
#[no_mangle]
pub unsafe extern "C" fn dlx3_init_preloaded(
    buf: *mut c_void,
    len: usize,
    image: *const dlx3_image,
    levels: usize,
    settings: *const dlx3_settings,
    handle: *mut *mut dlx3_workspace,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let handle = unsafe { out_param(handle) }?;
        // SAFETY: forwarded contract.
        let image = unsafe { in_param(image) }?;
        // SAFETY: forwarded contract.
        let settings = unsafe { settings_or_default(settings) }?;
        let (item_slots, node_slots) = image_slots(image)?;
        if levels == 0 {
            return Err(xcover_status::XCOVER_BAD_ARGUMENT);
        }
        // SAFETY: the image contract: `names` holds item_slots names of 8 bytes, `items`
        // item_slots records and `nodes` node_slots records, valid while the workspace
        // lives ('static as far as the engine is concerned).
        let (names, items, nodes): (&'static [Name], &[dlx3_item], &[dlx3_node]) = unsafe {
            (
                in_slice(image.names.cast::<Name>(), item_slots)?,
                in_slice(image.items, item_slots)?,
                in_slice(image.nodes, node_slots)?,
            )
        };
        let needed = workspace::size_for_preloaded(item_slots, node_slots, levels);
        let buf = buf.cast::<u8>();
        // SAFETY: forwarded contract.
        let regions =
            unsafe { claim_buffer(buf, len, needed, item_slots, false, node_slots, levels) }?;
        for (ram, rom) in regions.items.iter_mut().zip(items) {
            *ram = Item {
                prev: rom.prev,
                next: rom.next,
                bound: rom.bound,
                slack: rom.slack,
            };
        }
        for (ram, rom) in regions.nodes.iter_mut().zip(nodes) {
            *ram = Node {
                up: rom.up,
                down: rom.down,
                itm: rom.itm,
                color: rom.color,
            };
        }
        let layout = Layout {
            last_itm: image.last_itm,
            second: image.second,
            last_node: image.last_node,
            options: image.options,
        };
        let storage =
            Storage::with_shared_names(regions.items, names, regions.nodes, regions.levels);
        let engine =
            Dlx3::preloaded(storage, engine_settings(&settings), layout).map_err(engine_status)?;
        let capacity = (item_slots - 2, node_slots);
        // SAFETY: `buf` was accepted by claim_buffer.
        *handle = unsafe {
            install(
                buf,
                engine,
                writers(&settings),
                &mut [],
                capacity,
                dlx3_state::DLX3_STATE_READY,
            )
        };
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// Stores the workspace's state (a `dlx3_state` value) in `*state`. Works on dead
/// workspaces too.
///
/// Returns XCOVER_OK, XCOVER_NULL_POINTER, XCOVER_MISALIGNED or XCOVER_NOT_INITIALIZED.
///
/// # Safety
/// `handle` is NULL or a handle from an init function whose buffer is still valid;
/// `state` is writable.
#[no_mangle]
pub unsafe extern "C" fn dlx3_get_state(
    handle: *mut dlx3_workspace,
    state: *mut u32,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let (ws, state) = unsafe {
            (
                workspace::workspace(handle, Dead::Allow)?,
                out_param(state)?,
            )
        };
        *state = ws.state() as u32;
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// Ends the workspace (live or dead): its handle is refused from now on and its buffer
/// may be reused or freed. Never calls the write callbacks.
///
/// Returns XCOVER_OK, XCOVER_NULL_POINTER, XCOVER_MISALIGNED or XCOVER_NOT_INITIALIZED.
///
/// # Safety
/// As for `dlx3_get_state`.
#[no_mangle]
pub unsafe extern "C" fn dlx3_release(handle: *mut dlx3_workspace) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let ws = unsafe { workspace::workspace(handle, Dead::Allow) }?;
        ws.release();
        Ok(xcover_status::XCOVER_OK)
    })())
}
