//! The workspace that lives at the start of the caller's buffer: a magic number and a state
//! field in front of the engine, so that every call can tell a live workspace from garbage,
//! a dead one, or a call made out of order.

use super::arena::{round_up, Carver, Sizer};
use super::types::{dlx3_state, DLX3_WORKSPACE_ALIGN};
use super::writers::dlx3_writers;
use crate::raw::{is_aligned, Checked};
use crate::sink::{xcover_writer, CallbackSink};
use crate::status::xcover_status;
use xcover_core::dlx3::{Dlx3, Item, Layout, Level, Move, Name, Node, Sinks, Stats, Width};

/// "XCOVDLX3": marks a buffer that holds a live (or dead, but initialized) workspace.
const MAGIC: u64 = u64::from_le_bytes(*b"XCOVDLX3");
/// Written over the magic number by `dlx3_release`, so a released buffer is not "live".
const RELEASED: u64 = u64::from_le_bytes(*b"xcovfree");

/// The workspace header and engine in front of the arrays of a 32-bit workspace
/// (`dlx3_init`, `dlx3_init_preloaded`) take at most
/// `DLX3_HEADER_FIXED_BYTES + DLX3_HEADER_POINTERS * sizeof(void *)` bytes, rounded up to 8
/// (the C size macros use this formula; it holds on 32- and 64-bit targets alike).
/// Measured: 792 bytes on thumbv7em (4-byte pointers), 888 on x86_64; 16 bytes to spare.
pub const DLX3_HEADER_FIXED_BYTES: usize = 712;
/// Pointer-sized words of the 32-bit header (see `DLX3_HEADER_FIXED_BYTES`).
pub const DLX3_HEADER_POINTERS: usize = 24;
/// As `DLX3_HEADER_FIXED_BYTES`, for a compact workspace (`dlx3_init_compact`), whose
/// engine has no random generator, no input-line buffer and a smaller active-item set.
/// Measured: 368 bytes on thumbv7em, 464 on x86_64; 16 bytes to spare.
pub const DLX3_COMPACT_HEADER_FIXED_BYTES: usize = 288;
/// Pointer-sized words of the compact header.
pub const DLX3_COMPACT_HEADER_POINTERS: usize = 24;
/// Bytes per item slot with names in RAM (16-byte item record + 8-byte name).
pub const DLX3_ITEM_BYTES: usize = 16;
/// Bytes per item record of a compact (16-bit) workspace.
pub const DLX3_COMPACT_ITEM_BYTES: usize = 8;
/// Bytes per item name.
pub const DLX3_NAME_BYTES: usize = 8;
/// Bytes per item slot of the scratch array that `dlx3_add_option` assembles options in.
pub const DLX3_SCRATCH_BYTES: usize = 8;
/// Bytes per node slot.
pub const DLX3_NODE_BYTES: usize = 16;
/// Bytes per node slot of a compact (16-bit) workspace.
pub const DLX3_COMPACT_NODE_BYTES: usize = 8;
/// Bytes per level.
pub const DLX3_LEVEL_BYTES: usize = 24;

/// `fixed + pointers * sizeof(void *)` rounded up to 8: the C formula.
const fn reserved(fixed: usize, pointers: usize) -> usize {
    match round_up(fixed + pointers * core::mem::size_of::<usize>()) {
        Some(n) => n,
        None => panic!("header size overflows"),
    }
}

/// Where the engine starts: right after the `dlx3_workspace` record.
const ENGINE_OFFSET: usize = match round_up(core::mem::size_of::<dlx3_workspace>()) {
    Some(n) => n,
    None => panic!("header size overflows"),
};

/// Bytes the workspace record and an engine of width `W` take.
const fn header_with_engine<W: Width>() -> usize {
    ENGINE_OFFSET + core::mem::size_of::<Dlx3<'static, W>>()
}

const _: () = {
    assert!(
        header_with_engine::<u32>() <= <u32 as EngineWidth>::HEADER_BYTES
            && header_with_engine::<u16>() <= <u16 as EngineWidth>::HEADER_BYTES,
        "the workspace grew: raise DLX3_(COMPACT_)HEADER_FIXED_BYTES/POINTERS, then XCOVER_BLESS=1 cargo test -p xcover-ffi --test header"
    );
    assert!(core::mem::align_of::<dlx3_workspace>() <= DLX3_WORKSPACE_ALIGN);
    assert!(core::mem::align_of::<Dlx3<'static, u32>>() <= DLX3_WORKSPACE_ALIGN);
    assert!(core::mem::align_of::<Dlx3<'static, u16>>() <= DLX3_WORKSPACE_ALIGN);
    assert!(core::mem::size_of::<Item>() == DLX3_ITEM_BYTES);
    assert!(core::mem::size_of::<Item<u16>>() == DLX3_COMPACT_ITEM_BYTES);
    assert!(core::mem::size_of::<Name>() == DLX3_NAME_BYTES);
    assert!(core::mem::size_of::<Node>() == DLX3_NODE_BYTES);
    assert!(core::mem::size_of::<Node<u16>>() == DLX3_COMPACT_NODE_BYTES);
    assert!(core::mem::size_of::<Level>() == DLX3_LEVEL_BYTES);
    assert!(core::mem::size_of::<OptionEntry>() == DLX3_SCRATCH_BYTES);
};

// SAFETY: the engine's records are repr(C) structs of integers: all-zero is a valid value
// (they even define ZERO constants) and their alignment is at most 8 (asserted above via
// the sizes and by `Carver::take`'s own assertion).
unsafe impl<W: Width> super::arena::Plain for Item<W> {}
// SAFETY: as above.
unsafe impl<W: Width> super::arena::Plain for Node<W> {}
// SAFETY: as above.
unsafe impl super::arena::Plain for Level {}

/// One entry of an option being assembled by `dlx3_add_option`: item number (1-based) and
/// color character (0 for none), as the engine's `add_option` takes them.
pub type OptionEntry = (u32, u8);

// SAFETY: a u32 and a u8 (plus padding): all-zero is a valid value; alignment 4 <= 8.
unsafe impl super::arena::Plain for (u32, u8) {}

/// The streams of a workspace until `dlx3_set_writers`: all discarded.
const NO_WRITERS: dlx3_writers = dlx3_writers {
    out: xcover_writer::DISCARD,
    err: xcover_writer::DISCARD,
    shape: xcover_writer::DISCARD,
};

/// The engine of a workspace, in the link width its init function chose. It lives in the
/// caller's buffer right after the `dlx3_workspace` record, with its own size, so that a
/// compact workspace does not pay for the larger 32-bit engine.
pub enum Engine {
    /// 32-bit links (`dlx3_init`, `dlx3_init_preloaded`): any matrix.
    Wide(&'static mut Dlx3<'static, u32>),
    /// 16-bit links (`dlx3_init_compact`): a preloaded matrix of at most 65,535 nodes.
    Compact(&'static mut Dlx3<'static, u16>),
}

/// Evaluates `$body` with `$e` bound to the engine, whatever its width.
macro_rules! on_engine {
    ($engine:expr, |$e:ident| $body:expr) => {
        match $engine {
            Engine::Wide($e) => $body,
            Engine::Compact($e) => $body,
        }
    };
}

impl Engine {
    /// Items, not counting the root.
    pub fn item_count(&self) -> u32 {
        on_engine!(self, |e| e.item_count())
    }
    /// The matrix shape.
    pub fn layout(&self) -> Layout {
        on_engine!(self, |e| e.layout())
    }
    /// Current search depth.
    pub fn depth(&self) -> u32 {
        on_engine!(self, |e| e.depth())
    }
    /// The counters.
    pub fn stats(&self) -> Stats {
        on_engine!(self, |e| e.stats())
    }
    /// Name of item `k`.
    pub fn item_name(&self, k: u32) -> Name {
        on_engine!(self, |e| e.item_name(k))
    }
    /// Whether item `k` is secondary.
    pub fn is_secondary(&self, k: u32) -> bool {
        on_engine!(self, |e| e.is_secondary(k))
    }
    /// Move `l` of the current solution.
    pub fn solution_move(&self, l: u32) -> Option<Move> {
        on_engine!(self, |e| e.solution_move(l))
    }
    /// Node `i` with 32-bit fields, if it is inside the matrix.
    pub fn node(&self, i: usize) -> Option<Node> {
        on_engine!(self, |e| e.nodes().get(i).map(Node::wide))
    }
    /// The engine that reads text (only 32-bit workspaces do).
    pub fn text_engine(&mut self) -> Checked<&mut Dlx3<'static>> {
        match self {
            Engine::Wide(e) => Ok(e),
            Engine::Compact(_) => Err(xcover_status::XCOVER_BAD_STATE),
        }
    }
}

/// The link widths a workspace engine can have.
pub trait EngineWidth: Width {
    /// Bytes in front of the arrays (the C formula for this width).
    const HEADER_BYTES: usize;
    /// The engine if it has this width.
    fn engine(e: &mut Engine) -> Option<&mut Dlx3<'static, Self>>;
    /// The `Engine` variant of this width.
    fn wrap(e: &'static mut Dlx3<'static, Self>) -> Engine;
}

impl EngineWidth for u32 {
    const HEADER_BYTES: usize = reserved(DLX3_HEADER_FIXED_BYTES, DLX3_HEADER_POINTERS);
    fn engine(e: &mut Engine) -> Option<&mut Dlx3<'static, u32>> {
        match e {
            Engine::Wide(d) => Some(d),
            Engine::Compact(_) => None,
        }
    }
    fn wrap(e: &'static mut Dlx3<'static, u32>) -> Engine {
        Engine::Wide(e)
    }
}

impl EngineWidth for u16 {
    const HEADER_BYTES: usize = reserved(
        DLX3_COMPACT_HEADER_FIXED_BYTES,
        DLX3_COMPACT_HEADER_POINTERS,
    );
    fn engine(e: &mut Engine) -> Option<&mut Dlx3<'static, u16>> {
        match e {
            Engine::Compact(d) => Some(d),
            Engine::Wide(_) => None,
        }
    }
    fn wrap(e: &'static mut Dlx3<'static, u16>) -> Engine {
        Engine::Compact(e)
    }
}

/// How `dlx3_solve_step` advances a workspace. The init function and `dlx3_set_writers`
/// choose it, so a program links only the steps it can reach: one that never sets writers
/// links no printing code, one that only uses compact workspaces no 32-bit search.
pub type StepFn = fn(&mut dlx3_workspace, u64) -> Checked<xcover_status>;

/// The opaque workspace object (C sees only `dlx3_workspace *`, declared by the header's
/// `after_includes` in cbindgen.toml). `repr(C)` keeps the magic number and the state at
/// fixed offsets, which every call reads before trusting anything else.
/// cbindgen:ignore
#[repr(C)]
#[allow(non_camel_case_types)]
pub struct dlx3_workspace {
    magic: u64,
    state: u32,
    /// Why the workspace died (XCOVER_OK while alive).
    pub failure: xcover_status,
    /// The output streams (`dlx3_set_writers`).
    pub writers: dlx3_writers,
    /// What `dlx3_solve_step` runs.
    pub step: StepFn,
    /// Items the workspace can hold (Knuth's max_cols).
    pub item_capacity: u32,
    /// Node slots of the workspace (Knuth's max_nodes).
    pub node_capacity: usize,
    /// Set once a secondary item was added with `dlx3_add_item`.
    pub seen_secondary: bool,
    /// Where `dlx3_add_option` assembles an option (empty for a preloaded workspace).
    pub scratch: &'static mut [OptionEntry],
    /// The engine; its slices point into the same caller buffer, after this header.
    pub engine: Engine,
}

/// Item slots the engine needs for `items` items (Knuth's `max_cols + 2`).
pub fn item_slots(items: usize) -> Option<usize> {
    items.checked_add(2)
}

/// Bytes needed for a workspace that reads text (names in RAM).
pub fn size_for_text(items: usize, nodes: usize, levels: usize) -> Option<usize> {
    let slots = item_slots(items)?;
    Sizer::new(<u32 as EngineWidth>::HEADER_BYTES)
        .array::<Item>(slots)
        .array::<Name>(slots)
        .array::<OptionEntry>(slots)
        .array::<Node>(nodes)
        .array::<Level>(levels)
        .total()
}

/// Bytes needed for a preloaded workspace of width `W` (names stay in the image).
pub fn size_for_preloaded<W: EngineWidth>(
    item_slots: usize,
    node_slots: usize,
    levels: usize,
) -> Option<usize> {
    Sizer::new(W::HEADER_BYTES)
        .array::<Item<W>>(item_slots)
        .array::<Node<W>>(node_slots)
        .array::<Level>(levels)
        .total()
}

/// The arrays carved from a buffer.
pub struct Regions<W: Width> {
    /// Item records.
    pub items: &'static mut [Item<W>],
    /// Names (None for a preloaded workspace).
    pub names: Option<&'static mut [Name]>,
    /// Option scratch (empty for a preloaded workspace).
    pub scratch: &'static mut [OptionEntry],
    /// Node records.
    pub nodes: &'static mut [Node<W>],
    /// Level records.
    pub levels: &'static mut [Level],
}

/// Checks a buffer handed to an init function and carves its arrays.
///
/// # Safety
/// `buf` is NULL or valid for reads and writes of `len` bytes, and stays so (untouched by
/// the caller) while the workspace is in use.
pub unsafe fn claim_buffer<W: EngineWidth>(
    buf: *mut u8,
    len: usize,
    needed: Option<usize>,
    item_slots: usize,
    names: bool,
    node_slots: usize,
    levels: usize,
) -> Checked<Regions<W>> {
    if buf.is_null() {
        return Err(xcover_status::XCOVER_NULL_POINTER);
    }
    if (buf as usize) % DLX3_WORKSPACE_ALIGN != 0 {
        return Err(xcover_status::XCOVER_MISALIGNED);
    }
    let needed = needed.ok_or(xcover_status::XCOVER_BAD_ARGUMENT)?;
    if len < needed {
        return Err(xcover_status::XCOVER_BUFFER_TOO_SMALL);
    }
    // SAFETY: the buffer is at least W::HEADER_BYTES (<= needed <= len) long and 8-aligned,
    // so its first 8 bytes can be read as a u64; the caller's memory counts as initialized
    // bytes (it comes from C, where every object representation of uint64_t is a value).
    // A volatile read keeps the compiler from assuming anything about fresh memory.
    let current = unsafe { buf.cast::<u64>().read_volatile() };
    if current == MAGIC {
        // SAFETY: a buffer starting with our magic number was initialized by us and holds a
        // dlx3_workspace header (the state field is a plain u32).
        let state = unsafe { (*buf.cast::<dlx3_workspace>()).state };
        if state != dlx3_state::DLX3_STATE_DEAD as u32 {
            return Err(xcover_status::XCOVER_ALREADY_INITIALIZED);
        }
    }
    // SAFETY: 8-aligned, `needed` <= len bytes writable for the workspace's lifetime
    // (this function's contract).
    let mut carver = unsafe { Carver::new(buf, W::HEADER_BYTES, needed) };
    let regions = (|| {
        Some(Regions {
            items: carver.take::<Item<W>>(item_slots)?,
            names: if names {
                Some(carver.take::<Name>(item_slots)?)
            } else {
                None
            },
            scratch: if names {
                carver.take::<OptionEntry>(item_slots)?
            } else {
                &mut []
            },
            nodes: carver.take::<Node<W>>(node_slots)?,
            levels: carver.take::<Level>(levels)?,
        })
    })();
    debug_assert!(regions.is_none() || carver.used() == needed);
    regions.ok_or(xcover_status::XCOVER_INTERNAL_ERROR)
}

/// Writes the workspace header and `engine` at the start of `buf` and returns the handle.
///
/// # Safety
/// `buf` was accepted by [`claim_buffer::<W>`] (aligned, at least `W::HEADER_BYTES` long)
/// and stays valid while the workspace is used.
pub unsafe fn install<W: EngineWidth>(
    buf: *mut u8,
    engine: Dlx3<'static, W>,
    step: StepFn,
    scratch: &'static mut [OptionEntry],
    capacity: (usize, usize),
    state: dlx3_state,
) -> *mut dlx3_workspace {
    let item_capacity = u32::try_from(capacity.0).unwrap_or(u32::MAX);
    // SAFETY: ENGINE_OFFSET is a multiple of 8 (>= the engine's alignment, asserted) and
    // ENGINE_OFFSET + size_of::<Dlx3<W>>() <= W::HEADER_BYTES (asserted), so the slot lies
    // in the header area of the buffer, after the record and before the arrays; `write`
    // does not drop the garbage that was there, and the buffer outlives every use of the
    // reference (contract).
    let engine = unsafe {
        let slot = buf.add(ENGINE_OFFSET).cast::<Dlx3<'static, W>>();
        slot.write(engine);
        &mut *slot
    };
    let handle = buf.cast::<dlx3_workspace>();
    // SAFETY: `buf` is 8-aligned (>= align of dlx3_workspace, asserted) and its first
    // ENGINE_OFFSET bytes hold the record; `write` does not drop what was there.
    unsafe {
        handle.write(dlx3_workspace {
            magic: MAGIC,
            state: state as u32,
            failure: xcover_status::XCOVER_OK,
            writers: NO_WRITERS,
            step,
            item_capacity,
            node_capacity: capacity.1,
            seen_secondary: false,
            scratch,
            engine: W::wrap(engine),
        })
    };
    handle
}

/// What a call accepts of a dead workspace.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Dead {
    /// Return XCOVER_DEAD.
    Refuse,
    /// Go ahead (stats, state, release).
    Allow,
}

/// Validates a handle: NULL, alignment, magic number, and (unless allowed) dead state.
///
/// # Safety
/// `handle` is NULL or points to at least 8 readable bytes; if those hold the magic number,
/// to a workspace created by an init function whose buffer is still valid, used by no other
/// thread during the call.
pub unsafe fn workspace<'a>(
    handle: *mut dlx3_workspace,
    dead: Dead,
) -> Checked<&'a mut dlx3_workspace> {
    if handle.is_null() {
        return Err(xcover_status::XCOVER_NULL_POINTER);
    }
    if !is_aligned(handle) {
        return Err(xcover_status::XCOVER_MISALIGNED);
    }
    // SAFETY: non-null and aligned; the first 8 bytes are readable per this contract
    // (volatile: the bytes may be anything the C caller left there).
    if unsafe { handle.cast::<u64>().read_volatile() } != MAGIC {
        return Err(xcover_status::XCOVER_NOT_INITIALIZED);
    }
    // SAFETY: the magic number says an init function wrote a dlx3_workspace here, and the caller
    // guarantees exclusive access for the call.
    let ws = unsafe { &mut *handle };
    if dlx3_state::from_u32(ws.state).is_none() {
        return Err(xcover_status::XCOVER_NOT_INITIALIZED);
    }
    if dead == Dead::Refuse && ws.state() == dlx3_state::DLX3_STATE_DEAD {
        return Err(xcover_status::XCOVER_DEAD);
    }
    Ok(ws)
}

impl dlx3_workspace {
    /// The current state.
    pub fn state(&self) -> dlx3_state {
        dlx3_state::from_u32(self.state).unwrap_or(dlx3_state::DLX3_STATE_DEAD)
    }

    /// Moves to `state`.
    pub fn set_state(&mut self, state: dlx3_state) {
        self.state = state as u32;
    }

    /// Marks the workspace dead because of `why`, and returns `why`.
    pub fn kill(&mut self, why: xcover_status) -> xcover_status {
        self.state = dlx3_state::DLX3_STATE_DEAD as u32;
        self.failure = why;
        why
    }

    /// Returns BAD_STATE unless the workspace is in one of `allowed`.
    pub fn expect(&self, allowed: &[dlx3_state]) -> Checked<()> {
        if allowed.contains(&self.state()) {
            Ok(())
        } else {
            Err(xcover_status::XCOVER_BAD_STATE)
        }
    }

    /// Forgets the workspace: the magic number is overwritten, so the handle is refused
    /// from now on and the buffer may be initialized again.
    pub fn release(&mut self) {
        self.magic = RELEASED;
    }

    /// Runs `f` with the text-reading engine, the first `n` scratch entries and the sinks.
    pub fn with_sinks_and_scratch<R>(
        &mut self,
        n: usize,
        f: impl FnOnce(&mut Dlx3<'static>, &[OptionEntry], &mut Sinks<'_>) -> R,
    ) -> Checked<R> {
        let mut out = CallbackSink::new(self.writers.out);
        let mut err = CallbackSink::new(self.writers.err);
        let mut sinks = Sinks {
            out: &mut out,
            err: &mut err,
            shape: None,
        };
        let entries = &self.scratch[..n.min(self.scratch.len())];
        Ok(f(self.engine.text_engine()?, entries, &mut sinks))
    }

    /// Runs `f` with the engine of width `W` and sinks over the registered callbacks.
    pub fn with_sinks<W: EngineWidth, R>(
        &mut self,
        f: impl FnOnce(&mut Dlx3<'static, W>, &mut Sinks<'_>) -> R,
    ) -> Checked<R> {
        let mut out = CallbackSink::new(self.writers.out);
        let mut err = CallbackSink::new(self.writers.err);
        let mut shape = CallbackSink::new(self.writers.shape);
        let shape_open = self.writers.shape.is_connected();
        let mut sinks = Sinks {
            out: &mut out,
            err: &mut err,
            shape: if shape_open { Some(&mut shape) } else { None },
        };
        let engine = W::engine(&mut self.engine).ok_or(xcover_status::XCOVER_INTERNAL_ERROR)?;
        Ok(f(engine, &mut sinks))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_fits_and_formulas_match_the_c_macros() {
        let (wide, compact) = (header_with_engine::<u32>(), header_with_engine::<u16>());
        let (wide_max, compact_max) = (
            <u32 as EngineWidth>::HEADER_BYTES,
            <u16 as EngineWidth>::HEADER_BYTES,
        );
        std::println!("header: {wide} of {wide_max} bytes, compact {compact} of {compact_max}");
        assert!(wide <= wide_max && compact <= compact_max);
        const HEADER_BYTES: usize = <u32 as EngineWidth>::HEADER_BYTES;
        // XCOVER_DLX3_WORKSPACE_SIZE(items, nodes, levels) in xcover_static_asserts.h:
        let r8 = |n: usize| n.div_ceil(8) * 8;
        for (items, nodes, levels) in [(1, 2, 1), (3, 17, 5), (10000, 100_000, 500)] {
            let c_macro = r8(HEADER_BYTES)
                + r8(16 * (items + 2))
                + r8(8 * (items + 2))
                + r8(8 * (items + 2))
                + r8(16 * nodes)
                + r8(24 * levels);
            assert_eq!(size_for_text(items, nodes, levels), Some(c_macro));
            let c_preloaded =
                r8(HEADER_BYTES) + r8(16 * (items + 1)) + r8(16 * (nodes + 1)) + r8(24 * levels);
            assert_eq!(
                size_for_preloaded::<u32>(items + 1, nodes + 1, levels),
                Some(c_preloaded)
            );
            let c_compact =
                r8(compact_max) + r8(8 * (items + 1)) + r8(8 * (nodes + 1)) + r8(24 * levels);
            assert_eq!(
                size_for_preloaded::<u16>(items + 1, nodes + 1, levels),
                Some(c_compact)
            );
        }
    }
}
