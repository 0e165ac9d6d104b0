//! The C-visible data types of the `dlx3_*` API (besides `dlx3_settings`).
#![allow(non_camel_case_types)]

use crate::sink::xcover_writer;
use crate::status::xcover_status;
use core::ffi::c_char;
use xcover_core::dlx3::Stage;

use xcover_core::dlx3::image::{Item, Node};

/// Alignment (bytes) required of every workspace buffer.
pub const DLX3_WORKSPACE_ALIGN: usize = 8;

/// Knuth's level limit (his `max_level`); `dlx3` uses it as the `levels` capacity.
pub const DLX3_KNUTH_MAX_LEVELS: usize = 500;
/// Knuth's item limit (his `max_cols`).
pub const DLX3_KNUTH_MAX_ITEMS: usize = 10000;
/// Knuth's node limit (his `max_nodes`).
pub const DLX3_KNUTH_MAX_NODES: usize = 100000000;

/// `dlx3_solution_option()` gives this for a level whose move is a null move (an item with
/// multiplicity slack that was left at its lower bound).
pub const DLX3_NULL_MOVE: u32 = 0xffff_ffff;

/// Version stamp a `dlx3_image` must carry in its `version` field.
pub const DLX3_IMAGE_VERSION: u32 = 0x4458_0002;

/// Life cycle of a workspace, as reported by `dlx3_get_state()`.
#[repr(u32)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum dlx3_state {
    /// After `dlx3_init`: items may be added (or `dlx3_parse` called once).
    DLX3_STATE_ITEMS = 1,
    /// After the first option: options may be added; solving may start.
    DLX3_STATE_OPTIONS = 2,
    /// The matrix is complete (after `dlx3_parse` or `dlx3_init_preloaded`).
    DLX3_STATE_READY = 3,
    /// Solving started (`dlx3_solve_step` returned XCOVER_BUDGET_EXHAUSTED).
    DLX3_STATE_SEARCHING = 4,
    /// `dlx3_solve_step` returned XCOVER_SOLUTION: the solution can be read.
    DLX3_STATE_SOLUTION = 5,
    /// The search is over; `dlx3_get_stats` has the final totals.
    DLX3_STATE_DONE = 6,
    /// An error made the workspace unusable; see `dlx3_get_stats` for what was counted.
    DLX3_STATE_DEAD = 7,
}

impl dlx3_state {
    /// The state with this number (as `dlx3_get_state` stores it), if valid.
    pub fn from_u32(raw: u32) -> Option<dlx3_state> {
        use dlx3_state::*;
        [
            DLX3_STATE_ITEMS,
            DLX3_STATE_OPTIONS,
            DLX3_STATE_READY,
            DLX3_STATE_SEARCHING,
            DLX3_STATE_SOLUTION,
            DLX3_STATE_DONE,
            DLX3_STATE_DEAD,
        ]
        .into_iter()
        .find(|s| *s as u32 == raw)
    }
}

impl From<Stage> for dlx3_state {
    /// The C state of an engine's stage: the one place where the two meet.
    fn from(stage: Stage) -> dlx3_state {
        match stage {
            Stage::Items => dlx3_state::DLX3_STATE_ITEMS,
            Stage::Options => dlx3_state::DLX3_STATE_OPTIONS,
            Stage::Ready => dlx3_state::DLX3_STATE_READY,
            Stage::Searching => dlx3_state::DLX3_STATE_SEARCHING,
            Stage::Solution => dlx3_state::DLX3_STATE_SOLUTION,
            Stage::Done => dlx3_state::DLX3_STATE_DONE,
            Stage::Failed => dlx3_state::DLX3_STATE_DEAD,
            // A stage this API does not know is not one it can go on from.
            _ => dlx3_state::DLX3_STATE_DEAD,
        }
    }
}

/// Where and why `dlx3_parse` stopped (filled on every call; all zero on success).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dlx3_parse_error {
    /// Same as the return value (an `XCOVER_PARSE_*` code, or XCOVER_OK).
    pub status: xcover_status,
    /// 1-based number of the offending line in the text.
    pub line: u32,
    /// Knuth's scan position P inside the line (0-based byte index), as he prints it.
    pub position: i32,
    /// Reserved (0).
    pub reserved: u32,
    /// Byte offset of the offending line's first byte in the text.
    pub line_offset: usize,
    /// Length of the offending line in bytes, newline included if present.
    pub line_length: usize,
    /// `xcover_status_message(status)`: static, NUL-terminated, Knuth's words.
    pub message: *const c_char,
}

/// Byte size of `dlx3_parse_error` (checked by a `_Static_assert` in the header).
pub(crate) const DLX3_PARSE_ERROR_SIZE: usize = 16 + 3 * core::mem::size_of::<usize>();
const _: () = assert!(core::mem::size_of::<dlx3_parse_error>() == DLX3_PARSE_ERROR_SIZE);

impl dlx3_parse_error {
    /// The "no error" value.
    pub const NONE: dlx3_parse_error = dlx3_parse_error {
        status: xcover_status::XCOVER_OK,
        line: 0,
        position: 0,
        reserved: 0,
        line_offset: 0,
        line_length: 0,
        message: core::ptr::null(),
    };
}

/// Counters of a workspace (Knuth's final statistics and more), see `dlx3_get_stats()`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct dlx3_stats {
    /// Solutions found so far (Knuth's `count`).
    pub solutions: u64,
    /// Mems spent reading the input (Knuth's `imems`).
    pub input_mems: u64,
    /// Mems spent searching (Knuth's `mems`).
    pub mems: u64,
    /// Mems spent choosing items (Knuth's `cmems`).
    pub choice_mems: u64,
    /// Knuth's `updates`.
    pub updates: u64,
    /// Knuth's `cleansings`.
    pub cleansings: u64,
    /// Search-tree nodes entered (Knuth's `nodes`).
    pub nodes: u64,
    /// Knuth's "bytes" figure: 24 * items + 16 * nodes + 4 * max level.
    pub knuth_bytes: u64,
    /// Deepest level reached (Knuth's `maxl`).
    pub max_level: u32,
    /// Current level of the search.
    pub level: u32,
    /// Options kept (Knuth's first number in the input summary).
    pub options: u32,
    /// Primary items.
    pub primary_items: u32,
    /// Secondary items.
    pub secondary_items: u32,
    /// Knuth's "entries": option nodes + spacers.
    pub entries: u32,
}

/// Byte size of `dlx3_stats` (checked by a `_Static_assert` in the header).
pub const DLX3_STATS_SIZE: usize = 88;
const _: () = assert!(core::mem::size_of::<dlx3_stats>() == DLX3_STATS_SIZE);

/// One item record of a preloaded image (same layout as the engine's `Item`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct dlx3_item {
    /// Left neighbor in the list of active primary items.
    pub prev: u32,
    /// Right neighbor in the list of active primary items.
    pub next: u32,
    /// How many more options may cover this item (its upper bound, initially).
    pub bound: i32,
    /// Upper bound minus lower bound.
    pub slack: i32,
}

/// One node record of a preloaded image (same layout as the engine's `Node`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct dlx3_node {
    /// Predecessor in the item's vertical list.
    pub up: u32,
    /// Successor in the item's vertical list.
    pub down: u32,
    /// Item of this node; list length in a header; minus the option number in a spacer.
    pub itm: i32,
    /// Color (0 = none); auxiliary value in a header.
    pub color: i32,
}

/// One item record of a preloaded image with 16-bit fields (half the flash of
/// `dlx3_item`; the layout of a compact workspace's records).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct dlx3_item16 {
    /// Left neighbor in the list of active primary items.
    pub prev: u16,
    /// Right neighbor in the list of active primary items.
    pub next: u16,
    /// How many more options may cover this item (its upper bound, initially).
    pub bound: i16,
    /// Upper bound minus lower bound.
    pub slack: i16,
}

/// One node record of a preloaded image with 16-bit fields.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct dlx3_node16 {
    /// Predecessor in the item's vertical list.
    pub up: u16,
    /// Successor in the item's vertical list.
    pub down: u16,
    /// Item of this node; list length in a header; minus the option number in a spacer.
    pub itm: i16,
    /// Color (0 = none); auxiliary value in a header.
    pub color: i16,
}

/// A matrix compiled into the program (`xcover dlx3 --export-c`): the engine's data
/// structures exactly as reading the text would leave them, so `dlx3_init_preloaded` and
/// `dlx3_init_compact` start the search without parsing. All arrays are read-only and may
/// live in flash: the names stay there; the item and node records are copied into the
/// workspace because the search modifies them. The records come in 32-bit form (`items`,
/// `nodes`) or, for a matrix small enough, 16-bit form (`items16`, `nodes16`): exactly one
/// of the two pairs is set, the other is NULL. Either form works with either init
/// function.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dlx3_image {
    /// Must be DLX3_IMAGE_VERSION.
    pub version: u32,
    /// One more than the number of items (item 0 is the root).
    pub last_itm: u32,
    /// The first secondary item (`last_itm` if there are none).
    pub second: u32,
    /// Index of the final spacer node.
    pub last_node: u32,
    /// Number of options.
    pub options: u64,
    /// `8 * (last_itm + 1)` bytes: item i's name is bytes 8*i .. 8*i+7, NUL-padded
    /// (entry 0, the root, and entry last_itm are all NUL).
    pub names: *const u8,
    /// `last_itm + 1` item records (the last one all zero), or NULL.
    pub items: *const dlx3_item,
    /// `last_node + 1` node records, or NULL.
    pub nodes: *const dlx3_node,
    /// `last_itm + 1` 16-bit item records, or NULL.
    pub items16: *const dlx3_item16,
    /// `last_node + 1` 16-bit node records, or NULL.
    pub nodes16: *const dlx3_node16,
}

/// The engine's record with the same fields as a C record of an image.
macro_rules! same_fields {
    ($c:ty => $engine:ty { $($field:ident),* }) => {
        impl From<$c> for $engine {
            fn from(r: $c) -> Self {
                Self { $($field: r.$field),* }
            }
        }
    };
}
same_fields!(dlx3_item => Item { prev, next, bound, slack });
same_fields!(dlx3_item16 => Item<u16> { prev, next, bound, slack });
same_fields!(dlx3_node => Node { up, down, itm, color });
same_fields!(dlx3_node16 => Node<u16> { up, down, itm, color });

/// Byte size of `dlx3_image` on this target: its fields, rounded up to its alignment (that
/// of `u64`, 8 on ARM EABI and LP64 targets).
pub(crate) const DLX3_IMAGE_SIZE: usize =
    (24 + 5 * core::mem::size_of::<usize>()).next_multiple_of(core::mem::align_of::<dlx3_image>());
const _: () = assert!(core::mem::size_of::<dlx3_image>() == DLX3_IMAGE_SIZE);
const _: () =
    assert!(core::mem::size_of::<dlx3_item>() == 16 && core::mem::size_of::<dlx3_node>() == 16);
const _: () =
    assert!(core::mem::size_of::<dlx3_item16>() == 8 && core::mem::size_of::<dlx3_node16>() == 8);

/// The three output streams of Knuth's program. A NULL `write` discards that stream.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dlx3_writers {
    /// Standard output of Knuth's program: the solutions (as `spacing` asks).
    pub out: xcover_writer,
    /// Standard error of Knuth's program: statistics, traces, progress reports, warnings,
    /// error reports.
    pub err: xcover_writer,
    /// Knuth's shape file (`S`): written only if `shape.write` is not NULL.
    pub shape: xcover_writer,
}

/// `dlx3_writers` is this many pointers long (checked by a `_Static_assert` in the header).
pub const DLX3_WRITERS_POINTERS: usize = 6;
const _: () = assert!(
    core::mem::size_of::<dlx3_writers>() == DLX3_WRITERS_POINTERS * core::mem::size_of::<usize>()
);
