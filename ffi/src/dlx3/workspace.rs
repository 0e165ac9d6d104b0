//! The workspace that lives at the start of the caller's buffer: a magic number and a
//! live/dead mark in front of the engine, so that every call can tell a live workspace from garbage,
//! a dead one, or a call made out of order.

use super::types::dlx3_writers;
use super::types::{dlx3_state, DLX3_WORKSPACE_ALIGN};
use crate::carve::{round_up, Carver, Plain, Sizer, Slot, WeakMut, WeakSliceMut};
pub use crate::handle::Dead;
use crate::handle::{self, Header, Record};
use crate::raw::Checked;
use crate::sink::{xcover_writer, CallbackSink};
use crate::status::xcover_status;
use core::marker::{PhantomData, PhantomPinned};
use core::mem::{align_of, size_of};
use xcover_core::dlx3::{Dlx3, Move, Name, PartRun, Sinks, Stage, Stats};

use xcover_core::dlx3::image::{Item, Layout, Level, Node, Width};

/// The workspace header and engine in front of the arrays of a 32-bit workspace
/// (`dlx3_init`, `dlx3_init_preloaded`) take at most
/// `DLX3_HEADER_FIXED_BYTES + DLX3_HEADER_POINTERS * sizeof(void *)` bytes, rounded up to 8
/// (the C size macros use this formula; it holds on 32- and 64-bit targets alike).
/// Measured: 872 bytes on thumbv7em (4-byte pointers), 968 on x86_64; 16 bytes to spare.
pub const DLX3_HEADER_FIXED_BYTES: usize = 792;
/// Pointer-sized words of the 32-bit header (see `DLX3_HEADER_FIXED_BYTES`).
pub const DLX3_HEADER_POINTERS: usize = 24;
/// As `DLX3_HEADER_FIXED_BYTES`, for a compact workspace (`dlx3_init_compact`), whose
/// engine has no random generator, no input-line buffer and a smaller active-item set.
/// Measured: 448 bytes on thumbv7em, 544 on x86_64; 8 bytes to spare on both.
pub const DLX3_COMPACT_HEADER_FIXED_BYTES: usize = 360;
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

/// The carver of a DLX3 workspace: every region on an 8-byte boundary.
type Dlx3Carver<'buf> = Carver<'buf, DLX3_WORKSPACE_ALIGN>;

/// `fixed + pointers * sizeof(void *)` rounded up to 8: the C formula.
const fn reserved(fixed: usize, pointers: usize) -> usize {
    match round_up(fixed + pointers * size_of::<usize>(), DLX3_WORKSPACE_ALIGN) {
        Some(n) => n,
        None => panic!("header size overflows"),
    }
}

/// Where the engine starts: right after the workspace record.
const ENGINE_OFFSET: usize = match round_up(size_of::<Workspace>(), DLX3_WORKSPACE_ALIGN) {
    Some(n) => n,
    None => panic!("header size overflows"),
};

/// Bytes the workspace record and an engine of width `W` take.
const fn header_with_engine<W: Width>() -> usize {
    ENGINE_OFFSET + size_of::<Dlx3<W>>()
}

const _: () = {
    assert!(
        header_with_engine::<u32>() <= <u32 as EngineWidth>::HEADER_BYTES
            && header_with_engine::<u16>() <= <u16 as EngineWidth>::HEADER_BYTES,
        "the workspace grew: raise DLX3_(COMPACT_)HEADER_FIXED_BYTES/POINTERS, then XCOVER_BLESS=1 cargo test -p xcover-ffi --test header"
    );
    assert!(align_of::<Workspace>() <= DLX3_WORKSPACE_ALIGN);
    assert!(align_of::<Dlx3<u32>>() <= DLX3_WORKSPACE_ALIGN);
    assert!(align_of::<Dlx3<u16>>() <= DLX3_WORKSPACE_ALIGN);
    assert!(size_of::<Item>() == DLX3_ITEM_BYTES);
    assert!(size_of::<Item<u16>>() == DLX3_COMPACT_ITEM_BYTES);
    assert!(size_of::<Name>() == DLX3_NAME_BYTES);
    assert!(size_of::<Node>() == DLX3_NODE_BYTES);
    assert!(size_of::<Node<u16>>() == DLX3_COMPACT_NODE_BYTES);
    assert!(size_of::<Level>() == DLX3_LEVEL_BYTES);
    assert!(size_of::<OptionEntry>() == DLX3_SCRATCH_BYTES);
};

// SAFETY: the engine's records are repr(C) structs of integers: all-zero is a valid value
// (they even define ZERO constants).
unsafe impl<W: Width> Plain for Item<W> {}
// SAFETY: as above.
unsafe impl<W: Width> Plain for Node<W> {}
// SAFETY: as above.
unsafe impl Plain for Level {}

/// One entry of an option being assembled by `dlx3_add_option`: item number (1-based) and
/// color character (0 for none), as the engine's `add_option` takes them.
pub type OptionEntry = (u32, u8);

// SAFETY: a u32 and a u8 (plus padding): all-zero is a valid value.
unsafe impl Plain for (u32, u8) {}

/// The streams of a workspace until `dlx3_set_writers`: all discarded.
const NO_WRITERS: dlx3_writers = dlx3_writers {
    out: xcover_writer::DISCARD,
    err: xcover_writer::DISCARD,
    shape: xcover_writer::DISCARD,
};

/// The engine of a workspace, in the link width its init function chose. It lives in the
/// caller's buffer right after the workspace record, with its own size, so that a
/// compact workspace does not pay for the larger 32-bit engine.
pub enum Engine<'buf> {
    /// 32-bit links (`dlx3_init`, `dlx3_init_preloaded`): any matrix.
    Wide(WeakMut<'buf, Dlx3<'buf, u32>>),
    /// 16-bit links (`dlx3_init_compact`): a preloaded matrix of at most 65,535 nodes.
    Compact(WeakMut<'buf, Dlx3<'buf, u16>>),
}

/// Evaluates `$body` with `$e` bound to the engine, whatever its width.
macro_rules! on_engine {
    ($engine:expr, |$e:ident| $body:expr) => {
        match $engine {
            Engine::Wide(view) => {
                let $e = view.get();
                $body
            }
            Engine::Compact(view) => {
                let $e = view.get();
                $body
            }
        }
    };
}

impl<'buf> Engine<'buf> {
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
    /// Where the engine is in its life.
    pub fn stage(&self) -> Stage {
        on_engine!(self, |e| e.stage())
    }
    /// The split level set by `dlx3_set_part`.
    pub fn split_level(&self) -> Option<u32> {
        on_engine!(self, |e| e.split_level())
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
    pub fn text_engine(&mut self) -> Checked<&mut Dlx3<'buf>> {
        match self {
            Engine::Wide(e) => Ok(e.get_mut()),
            Engine::Compact(_) => Err(xcover_status::XCOVER_BAD_STATE),
        }
    }
}

/// The link widths a workspace engine can have.
pub trait EngineWidth: Width {
    /// Bytes in front of the arrays (the C formula for this width).
    const HEADER_BYTES: usize;
    /// The engine if it has this width.
    fn engine<'e, 'buf>(e: &'e mut Engine<'buf>) -> Option<&'e mut Dlx3<'buf, Self>>;
    /// The `Engine` variant of this width.
    fn wrap<'buf>(e: WeakMut<'buf, Dlx3<'buf, Self>>) -> Engine<'buf>;
}

impl EngineWidth for u32 {
    const HEADER_BYTES: usize = reserved(DLX3_HEADER_FIXED_BYTES, DLX3_HEADER_POINTERS);
    fn engine<'e, 'buf>(e: &'e mut Engine<'buf>) -> Option<&'e mut Dlx3<'buf, u32>> {
        match e {
            Engine::Wide(d) => Some(d.get_mut()),
            Engine::Compact(_) => None,
        }
    }
    fn wrap<'buf>(e: WeakMut<'buf, Dlx3<'buf, u32>>) -> Engine<'buf> {
        Engine::Wide(e)
    }
}

impl EngineWidth for u16 {
    const HEADER_BYTES: usize = reserved(
        DLX3_COMPACT_HEADER_FIXED_BYTES,
        DLX3_COMPACT_HEADER_POINTERS,
    );
    fn engine<'e, 'buf>(e: &'e mut Engine<'buf>) -> Option<&'e mut Dlx3<'buf, u16>> {
        match e {
            Engine::Compact(d) => Some(d.get_mut()),
            Engine::Wide(_) => None,
        }
    }
    fn wrap<'buf>(e: WeakMut<'buf, Dlx3<'buf, u16>>) -> Engine<'buf> {
        Engine::Compact(e)
    }
}

/// How `dlx3_solve_step` advances a workspace. The init function and `dlx3_set_writers`
/// choose it, so a program links only the steps it can reach: one that never sets writers
/// links no printing code, one that only uses compact workspaces no 32-bit search.
pub type StepFn = fn(&mut Workspace<'_>, u64) -> Checked<xcover_status>;

/// The opaque handle type: C (and Rust callers of this crate) only hold `dlx3_workspace *`,
/// declared by the header's `after_includes` in cbindgen.toml. It points to the start of
/// the caller's buffer, where the [`Workspace`] record lies; each call checks it and
/// borrows the record for that call only ([`workspace`]).
/// cbindgen:ignore
#[allow(non_camel_case_types)]
pub struct dlx3_workspace {
    _opaque: [u8; 0],
    /// Neither `Send`, `Sync` nor `Unpin`: it stands for the record in the C buffer.
    _buffer: PhantomData<(*mut u8, PhantomPinned)>,
}

/// The workspace record at the start of the caller's buffer. `repr(C)` keeps the header
/// (magic number, live or dead) first, which every call reads before trusting anything else.
/// `'buf` is the span during which the C caller keeps the buffer: each call borrows the
/// record for itself (see [`workspace`]).
#[repr(C)]
pub struct Workspace<'buf> {
    /// Magic number, live or dead (`LIVE` or DLX3_STATE_DEAD), why it died.
    pub header: Header,
    /// The output streams (`dlx3_set_writers`).
    pub writers: dlx3_writers,
    /// What `dlx3_solve_step` runs.
    pub step: StepFn,
    /// Where `dlx3_add_option` assembles an option (empty for a preloaded workspace).
    pub scratch: WeakSliceMut<'buf, OptionEntry>,
    /// The engine; it and its slices lie in the same caller buffer, after this record.
    pub engine: Engine<'buf>,
    /// The part of a split search this workspace runs and its units' counters (part 0 of
    /// 1, the whole search, until `dlx3_set_part`).
    pub part: PartRun,
}

// SAFETY: repr(C), the header first, written by `install` with Header::new::<Self>.
unsafe impl Record for Workspace<'_> {
    /// "XCOVDLX3": marks a buffer that holds a live (or dead, but initialized) workspace.
    const MAGIC: u64 = u64::from_le_bytes(*b"XCOVDLX3");
    /// Written over the magic number by `dlx3_release`.
    const RELEASED: u64 = u64::from_le_bytes(*b"xcovfree");
    const FIRST_STATE: u32 = LIVE;
    const DEAD: u32 = dlx3_state::DLX3_STATE_DEAD as u32;
}

/// The header's state of a live workspace. The life cycle is the engine's
/// ([`Workspace::state`] projects it); the header only tells live from dead.
const LIVE: u32 = dlx3_state::DLX3_STATE_ITEMS as u32;

/// Item slots the engine needs for `items` items (Knuth's `max_cols + 2`).
pub fn item_slots(items: usize) -> Option<usize> {
    items.checked_add(2)
}

/// Bytes needed for a workspace that reads text (names in RAM).
pub fn size_for_text(items: usize, nodes: usize, levels: usize) -> Option<usize> {
    let slots = item_slots(items)?;
    Sizer::<DLX3_WORKSPACE_ALIGN>::new(<u32 as EngineWidth>::HEADER_BYTES)
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
    Sizer::<DLX3_WORKSPACE_ALIGN>::new(W::HEADER_BYTES)
        .array::<Item<W>>(item_slots)
        .array::<Node<W>>(node_slots)
        .array::<Level>(levels)
        .total()
}

/// The engine's room and the arrays carved from a buffer.
pub struct Regions<'buf, W: Width> {
    /// Where the engine goes (in the header, right after the record).
    pub engine: Slot<'buf, Dlx3<'buf, W>>,
    /// Item records.
    pub items: WeakSliceMut<'buf, Item<W>>,
    /// Names (None for a preloaded workspace).
    pub names: Option<WeakSliceMut<'buf, Name>>,
    /// Option scratch (empty for a preloaded workspace).
    pub scratch: WeakSliceMut<'buf, OptionEntry>,
    /// Node records.
    pub nodes: WeakSliceMut<'buf, Node<W>>,
    /// Level records.
    pub levels: WeakSliceMut<'buf, Level>,
}

/// Checks a buffer handed to an init function and carves its arrays.
///
/// # Safety
/// `buf` is NULL or valid for reads and writes of `len` bytes, and stays so (untouched by
/// the caller) during `'buf`, while the workspace is in use.
pub unsafe fn claim_buffer<'buf, W: EngineWidth>(
    buf: *mut u8,
    len: usize,
    needed: Option<usize>,
    item_slots: usize,
    names: bool,
    node_slots: usize,
    levels: usize,
) -> Checked<Regions<'buf, W>> {
    // SAFETY: forwarded contract.
    let base = unsafe { handle::claim::<Workspace>(buf, len, needed, DLX3_WORKSPACE_ALIGN) }?;
    let needed = needed.ok_or(xcover_status::XCOVER_INTERNAL_ERROR)?;
    // Two carvers that never overlap: the header (the record, written by `install`, then
    // the engine) in the first W::HEADER_BYTES, the arrays from there to `needed`.
    // SAFETY: W::HEADER_BYTES <= `needed` <= len bytes writable during 'buf (this
    // function's contract).
    let mut header: Dlx3Carver<'buf> =
        unsafe { Carver::new(base, size_of::<Workspace>(), W::HEADER_BYTES) };
    // SAFETY: as above, from W::HEADER_BYTES on.
    let mut carver: Dlx3Carver<'buf> = unsafe { Carver::new(base, W::HEADER_BYTES, needed) };
    let regions = (|| {
        Some(Regions {
            engine: header.slot::<Dlx3<'buf, W>>()?,
            items: carver.zeroed::<Item<W>>(item_slots)?,
            names: if names {
                Some(carver.zeroed::<Name>(item_slots)?)
            } else {
                None
            },
            scratch: if names {
                carver.zeroed::<OptionEntry>(item_slots)?
            } else {
                WeakSliceMut::empty()
            },
            nodes: carver.zeroed::<Node<W>>(node_slots)?,
            levels: carver.zeroed::<Level>(levels)?,
        })
    })();
    debug_assert!(regions.is_none() || carver.used() == needed);
    regions.ok_or(xcover_status::XCOVER_INTERNAL_ERROR)
}

/// Writes the workspace record at the start of `buf`, with the engine (already in its
/// slot) and the scratch view, and returns the handle.
///
/// # Safety
/// `buf` was accepted by [`claim_buffer`] (aligned, long enough) and stays valid during
/// `'buf`, while the workspace is used.
pub unsafe fn install<'buf, W: EngineWidth>(
    buf: *mut u8,
    engine: WeakMut<'buf, Dlx3<'buf, W>>,
    step: StepFn,
    scratch: WeakSliceMut<'buf, OptionEntry>,
) -> *mut dlx3_workspace {
    let record = buf.cast::<Workspace<'buf>>();
    // SAFETY: `buf` is 8-aligned (>= align of the record, asserted) and its first
    // ENGINE_OFFSET bytes hold the record; `write` does not drop what was there.
    unsafe {
        record.write(Workspace {
            header: Header::new::<Workspace>(LIVE),
            writers: NO_WRITERS,
            step,
            scratch,
            engine: W::wrap(engine),
            part: PartRun::default(),
        })
    };
    record.cast()
}

/// Validates a handle (see [`handle::open`]) and gives its record for the call.
///
/// # Safety
/// As for [`handle::open`]: `handle` is NULL or points to at least 16 readable bytes; if
/// they hold the magic number, to a workspace created by an init function whose buffer
/// stays valid during `'a`, used by no other thread then.
pub unsafe fn workspace<'a>(
    handle: *mut dlx3_workspace,
    dead: Dead,
) -> Checked<&'a mut Workspace<'a>> {
    // SAFETY: forwarded contract.
    unsafe { handle::open::<Workspace<'a>>(handle.cast(), dead) }
}

impl<'buf> Workspace<'buf> {
    /// The current state: DEAD once killed, otherwise the engine's stage as C sees it.
    pub fn state(&self) -> dlx3_state {
        if self.header.state() == <Self as Record>::DEAD {
            dlx3_state::DLX3_STATE_DEAD
        } else {
            self.engine.stage().into()
        }
    }

    /// Whether `dlx3_set_part` made this workspace run a part (it alone sets a split
    /// level; `dlx3_choose_split_level` leaves none).
    pub fn runs_part(&self) -> bool {
        self.engine.split_level().is_some()
    }

    /// Marks the workspace dead because of `why`, and returns `why`.
    pub fn kill(&mut self, why: xcover_status) -> xcover_status {
        self.header.kill::<Self>(why)
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
        self.header.release::<Self>();
    }

    /// Runs `f` with the text-reading engine, the first `n` scratch entries and the sinks.
    pub fn with_sinks_and_scratch<R>(
        &mut self,
        n: usize,
        f: impl FnOnce(&mut Dlx3<'buf>, &[OptionEntry], &mut Sinks<'_>) -> R,
    ) -> Checked<R> {
        let mut out = CallbackSink::new(self.writers.out);
        let mut err = CallbackSink::new(self.writers.err);
        let mut sinks = Sinks {
            out: &mut out,
            err: &mut err,
            shape: None,
        };
        let entries = self.scratch.as_slice();
        let entries = &entries[..n.min(entries.len())];
        Ok(f(self.engine.text_engine()?, entries, &mut sinks))
    }

    /// Runs `f` with the engine of width `W` and sinks over the registered callbacks.
    pub fn with_sinks<W: EngineWidth, R>(
        &mut self,
        f: impl FnOnce(&mut Dlx3<'buf, W>, &mut Sinks<'_>) -> R,
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
