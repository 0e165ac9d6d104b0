//! Sizing, creating, inspecting and releasing workspaces.

use super::settings::dlx3_settings;
use super::solve::step;
use super::types::{
    dlx3_image, dlx3_item, dlx3_item16, dlx3_node, dlx3_node16, DLX3_IMAGE_VERSION,
    DLX3_WORKSPACE_ALIGN,
};
use super::workspace::{
    self, claim_buffer, dlx3_workspace, install, item_slots, Dead, EngineWidth, StepFn,
};
use crate::carve::WeakSliceMut;
use crate::raw::{in_param, in_slice, is_aligned, out_param, status_of, write_optional, Checked};
use crate::status::{status_of_error, xcover_status};
use core::ffi::c_void;
use xcover_core::dlx3::{Dlx3, Name, WorkspaceView};

use xcover_core::dlx3::image::{Item, Layout, Node};

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
/// `settings` is NULL or readable; `handle` points to a writable pointer. (Output goes to
/// the writers of `dlx3_set_writers`, whose contract says how long they must stay valid.)
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
        let storage = WorkspaceView::new(
            regions.items.into_mut(),
            names.into_mut(),
            regions.nodes.into_mut(),
            regions.levels.into_mut(),
        );
        // Built in its slot, not on the stack and copied (see Dlx3::new_in).
        let mut slot = regions.engine;
        Dlx3::new_in(slot.uninit(), storage, settings.engine()).map_err(status_of_error)?;
        // SAFETY: `buf` was accepted by claim_buffer; new_in wrote the engine in its slot.
        *handle = unsafe {
            install(
                buf,
                slot.assume_init(),
                step::<u32, false, true>,
                regions.scratch,
            )
        };
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// Checks an image and returns (item slots, node slots) it needs.
fn image_slots(image: &dlx3_image) -> Checked<(usize, usize)> {
    let wide = !image.items.is_null() && !image.nodes.is_null();
    let narrow = !image.items16.is_null() && !image.nodes16.is_null();
    let none = |p: bool, q: bool| !p && !q;
    let one_form = (wide && none(!image.items16.is_null(), !image.nodes16.is_null()))
        || (narrow && none(!image.items.is_null(), !image.nodes.is_null()));
    let ok = image.version == DLX3_IMAGE_VERSION
        && image.last_itm >= 2
        && image.second >= 2
        && image.second <= image.last_itm
        && image.last_node >= image.last_itm
        && image.last_node < i32::MAX as u32
        && !image.names.is_null()
        && one_form;
    if !ok {
        return Err(xcover_status::XCOVER_BAD_IMAGE);
    }
    Ok((image.last_itm as usize + 1, image.last_node as usize + 1))
}

/// Computes the buffer size and alignment for solving the preloaded `image` with `levels`
/// levels in a workspace made by `dlx3_init_preloaded`. Only the item and node records and
/// the levels take RAM (names stay in the image). The same number is
/// `XCOVER_DLX3_PRELOADED_SIZE(last_itm, last_node, levels)`.
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
    // SAFETY: forwarded contract.
    unsafe { preloaded_size::<u32>(image, levels, size, align) }
}

/// As `dlx3_preloaded_workspace_size`, for a workspace made by `dlx3_init_compact` (16-bit
/// links: about half the RAM). The same number is
/// `XCOVER_DLX3_COMPACT_SIZE(last_itm, last_node, levels)`.
///
/// Returns as `dlx3_preloaded_workspace_size`, plus XCOVER_BAD_ARGUMENT if the image has
/// more than 65,535 nodes (use `dlx3_init_preloaded` for it).
///
/// # Safety
/// As for `dlx3_preloaded_workspace_size`.
#[no_mangle]
pub unsafe extern "C" fn dlx3_compact_workspace_size(
    image: *const dlx3_image,
    levels: usize,
    size: *mut usize,
    align: *mut usize,
) -> xcover_status {
    // SAFETY: forwarded contract.
    unsafe { preloaded_size::<u16>(image, levels, size, align) }
}

/// The size functions of both widths.
///
/// # Safety
/// As for `dlx3_preloaded_workspace_size`.
unsafe fn preloaded_size<W: EngineWidth>(
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
        if levels == 0 || node_slots > W::MAX_SLOTS {
            return Err(xcover_status::XCOVER_BAD_ARGUMENT);
        }
        *size = workspace::size_for_preloaded::<W>(item_slots, node_slots, levels)
            .ok_or(xcover_status::XCOVER_BAD_ARGUMENT)?;
        // SAFETY: forwarded contract.
        unsafe { write_optional(align, DLX3_WORKSPACE_ALIGN) }?;
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// Creates a workspace over the preloaded `image` (see `dlx3_image`), ready for
/// `dlx3_solve_step` without parsing: the item and node records are copied into `buf`, the
/// names are used where they are. The image must outlive the workspace. Input mems are 0.
/// Size `buf` with `dlx3_preloaded_workspace_size` or `XCOVER_DLX3_PRELOADED_SIZE`.
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
    // SAFETY: forwarded contract.
    unsafe {
        init_preloaded::<u32>(
            buf,
            len,
            image,
            levels,
            settings,
            handle,
            step::<u32, false, false>,
        )
    }
}

/// As `dlx3_init_preloaded`, with 16-bit links: the workspace takes about half the RAM
/// (`dlx3_compact_workspace_size`, `XCOVER_DLX3_COMPACT_SIZE`) and makes exactly the same
/// moves. For images of at most 65,535 nodes whose item and option numbers, bounds and
/// list lengths fit in 16 bits (what `xcover dlx3 --export-c` marks as compact).
///
/// Returns as `dlx3_init_preloaded`, plus XCOVER_BAD_ARGUMENT for an image too large for
/// 16-bit links.
///
/// # Safety
/// As for `dlx3_init_preloaded`.
#[no_mangle]
pub unsafe extern "C" fn dlx3_init_compact(
    buf: *mut c_void,
    len: usize,
    image: *const dlx3_image,
    levels: usize,
    settings: *const dlx3_settings,
    handle: *mut *mut dlx3_workspace,
) -> xcover_status {
    // SAFETY: forwarded contract.
    unsafe {
        init_preloaded::<u16>(
            buf,
            len,
            image,
            levels,
            settings,
            handle,
            step::<u16, false, false>,
        )
    }
}

/// The preloaded init of both widths; `step` is the silent step of that width.
///
/// # Safety
/// As for `dlx3_init_preloaded`.
#[allow(clippy::too_many_arguments)]
unsafe fn init_preloaded<W: EngineWidth>(
    buf: *mut c_void,
    len: usize,
    image: *const dlx3_image,
    levels: usize,
    settings: *const dlx3_settings,
    handle: *mut *mut dlx3_workspace,
    step: StepFn,
) -> xcover_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let handle = unsafe { out_param(handle) }?;
        // SAFETY: forwarded contract.
        let image = unsafe { in_param(image) }?;
        // SAFETY: forwarded contract.
        let settings = unsafe { settings_or_default(settings) }?;
        let (item_slots, node_slots) = image_slots(image)?;
        if levels == 0 || node_slots > W::MAX_SLOTS || item_slots > W::MAX_SLOTS {
            return Err(xcover_status::XCOVER_BAD_ARGUMENT);
        }
        // SAFETY: the image contract: `names` holds item_slots names of 8 bytes, and the
        // record arrays that are set item_slots and node_slots records, valid and unchanged
        // while the workspace is used (the engine keeps the names).
        let (names, records) = unsafe {
            let names: &[Name] = in_slice(image.names.cast::<Name>(), item_slots)?;
            let records = if image.items.is_null() {
                Records::Narrow(
                    in_slice(image.items16, item_slots)?,
                    in_slice(image.nodes16, node_slots)?,
                )
            } else {
                Records::Wide(
                    in_slice(image.items, item_slots)?,
                    in_slice(image.nodes, node_slots)?,
                )
            };
            (names, records)
        };
        let needed = workspace::size_for_preloaded::<W>(item_slots, node_slots, levels);
        let buf = buf.cast::<u8>();
        // SAFETY: forwarded contract.
        let regions =
            unsafe { claim_buffer::<W>(buf, len, needed, item_slots, false, node_slots, levels) }?;
        let (items, nodes) = (regions.items.into_mut(), regions.nodes.into_mut());
        // A value that does not fit the width is an image this workspace cannot hold.
        for (k, ram) in items.iter_mut().enumerate() {
            *ram = Item::narrow(records.item(k)).ok_or(xcover_status::XCOVER_BAD_ARGUMENT)?;
        }
        for (p, ram) in nodes.iter_mut().enumerate() {
            *ram = Node::narrow(records.node(p)).ok_or(xcover_status::XCOVER_BAD_ARGUMENT)?;
        }
        let layout = Layout {
            last_itm: image.last_itm,
            second: image.second,
            last_node: image.last_node,
            options: image.options,
        };
        let storage =
            WorkspaceView::with_shared_names(items, names, nodes, regions.levels.into_mut());
        // Built in its slot, not on the stack and copied (see Dlx3::new_in).
        let mut slot = regions.engine;
        Dlx3::preloaded_in(slot.uninit(), storage, settings.engine(), layout)
            .map_err(status_of_error)?;
        // SAFETY: `buf` was accepted by claim_buffer; preloaded_in wrote the engine in its
        // slot.
        *handle = unsafe { install(buf, slot.assume_init(), step, WeakSliceMut::empty()) };
        Ok(xcover_status::XCOVER_OK)
    })())
}

/// The item and node records of an image, in the form it has.
enum Records<'i> {
    /// 32-bit records.
    Wide(&'i [dlx3_item], &'i [dlx3_node]),
    /// 16-bit records.
    Narrow(&'i [dlx3_item16], &'i [dlx3_node16]),
}

impl Records<'_> {
    /// Item record `k` (in range: the slices have the item slots) with 32-bit fields.
    fn item(&self, k: usize) -> Item {
        match self {
            Records::Wide(items, _) => items[k].into(),
            Records::Narrow(items, _) => Item::<u16>::from(items[k]).wide(),
        }
    }

    /// Node record `p` (in range) with 32-bit fields.
    fn node(&self, p: usize) -> Node {
        match self {
            Records::Wide(_, nodes) => nodes[p].into(),
            Records::Narrow(_, nodes) => Node::<u16>::from(nodes[p]).wide(),
        }
    }
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
