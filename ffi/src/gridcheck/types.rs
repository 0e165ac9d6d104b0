//! The C-visible data types and constants of the `gridcheck_*` API.
#![allow(non_camel_case_types)]

use crate::status::xcover_status;
use core::ffi::{c_char, c_void};

/// Alignment (bytes) required of a gridcheck workspace buffer (the library aligns its
/// 16-byte data inside; `gridcheck_workspace_size` counts the 8 bytes this may cost).
pub const GRIDCHECK_WORKSPACE_ALIGN: usize = 8;

/// Bytes reserved in every workspace for the handle and the scan objects (the grid, the
/// options, the prepared scan and the chunk run); the Rust side asserts that they fit.
pub const GRIDCHECK_HEADER_BYTES: usize = 16384;
/// Bytes of the 768-set bitmap table every workspace holds, with the scratch of the
/// probes of a few search levels (rounded up to 16).
pub const GRIDCHECK_TABLE_BYTES: usize = 39216;
/// Bytes per unavoidable set (a 128-bit cell set).
pub const GRIDCHECK_SET_BYTES: usize = 16;
/// Bytes per search level (a 768-set bitmap state).
pub const GRIDCHECK_STATE_BYTES: usize = 96;

/// `gridcheck_set_options` flag: stop at the first puzzle found (the step returns
/// XCOVER_STOPPED).
pub const GRIDCHECK_STOP_AT_FIRST: u32 = 1;
/// `gridcheck_set_options` flag: report only minimal puzzles (no clue can be removed
/// keeping a unique solution).
pub const GRIDCHECK_MINIMAL: u32 = 2;

/// The chunk id of the whole scan (`gridcheck_chunk_begin(h, GRIDCHECK_CHUNK_WHOLE)` runs
/// every chunk in one go).
pub const GRIDCHECK_CHUNK_WHOLE: u32 = 0xff_ffff;
/// Most chunks a scan can have (one per set of the first three free clues placed: at
/// most 81 * 80 * 79 / 6), so a `uint32_t ids[GRIDCHECK_MAX_CHUNKS]` always suffices;
/// `gridcheck_chunk_list` also tells the exact count of a prepared scan.
pub const GRIDCHECK_MAX_CHUNKS: usize = 85320;
/// Bytes of a puzzle text: 81 characters (`1`..`9` given, `0` empty) and a NUL.
pub const GRIDCHECK_PUZZLE_BYTES: usize = 82;

/// Life cycle of a gridcheck workspace, as reported by `gridcheck_get_state()` (as
/// `dlx3_state` for DLX3): the phases of core's grid-checker session, and DEAD.
#[repr(u32)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum gridcheck_state {
    /// After `gridcheck_init`; next `gridcheck_set_grid`.
    GRIDCHECK_STATE_EMPTY = 1,
    /// The grid is set; next `gridcheck_set_options` (and `gridcheck_add_ua` if wanted).
    GRIDCHECK_STATE_GRID = 2,
    /// Options set; UA may be added or generated; next `gridcheck_prepare`.
    GRIDCHECK_STATE_OPTIONS = 3,
    /// The scan is prepared; chunks can be listed and begun.
    GRIDCHECK_STATE_PREPARED = 4,
    /// A chunk is running (`gridcheck_step`).
    GRIDCHECK_STATE_RUNNING = 5,
    /// The current chunk is over (finished or stopped); begin another one or release.
    GRIDCHECK_STATE_CHUNK_DONE = 6,
    /// An internal error made the workspace unusable (only stats, state and release work).
    GRIDCHECK_STATE_DEAD = 7,
}

/// `gridcheck_stats.impossible`: the scan can find something (or was not prepared yet).
pub const GRIDCHECK_POSSIBLE: u32 = 0;
/// `impossible`: the forced givens (mask and UA of one free cell) exceed the clue count.
pub const GRIDCHECK_IMPOSSIBLE_FORCED_EXCEED_CLUES: u32 = 1;
/// `impossible`: an unavoidable set lies entirely in forced empty cells.
pub const GRIDCHECK_IMPOSSIBLE_UA_IN_FORCED_EMPTIES: u32 = 2;
/// `impossible`: more free clues are needed than there are free cells.
pub const GRIDCHECK_IMPOSSIBLE_NOT_ENOUGH_FREE_CELLS: u32 = 3;
/// `impossible`: more disjoint UA than free clues to hit them.
pub const GRIDCHECK_IMPOSSIBLE_CLIQUE_EXCEEDS_CLUES: u32 = 4;

/// `gridcheck_grid_error.kind`: no problem to report (the grid was accepted, the call
/// failed before reading it, or `gridcheck_set_grid` was not called yet).
pub const GRIDCHECK_GRID_NONE: u32 = 0;
/// `kind`: the text is not 81 characters long (a trailing line end not counted).
pub const GRIDCHECK_GRID_WRONG_LENGTH: u32 = 1;
/// `kind`: a character other than the digits `1`..`9`.
pub const GRIDCHECK_GRID_BAD_CHAR: u32 = 2;
/// `kind`: not a solution: a digit appears twice in a row, column or box.
pub const GRIDCHECK_GRID_REPEATED_DIGIT: u32 = 3;

/// `gridcheck_grid_error.house`: a row (numbered 1..9 from the top).
pub const GRIDCHECK_HOUSE_ROW: u32 = 1;
/// `house`: a column (numbered 1..9 from the left).
pub const GRIDCHECK_HOUSE_COLUMN: u32 = 2;
/// `house`: a box (numbered 1..9 row by row from the top left).
pub const GRIDCHECK_HOUSE_BOX: u32 = 3;

/// Bytes of `gridcheck_grid_error.message`, its NUL included.
pub const GRIDCHECK_GRID_MESSAGE_BYTES: usize = 64;

/// Why the last `gridcheck_set_grid` refused the grid, see `gridcheck_get_grid_error()`.
/// The fields that do not apply to `kind` are 0.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct gridcheck_grid_error {
    /// What that `gridcheck_set_grid` call returned (XCOVER_OK if it was not called yet).
    pub status: xcover_status,
    /// `GRIDCHECK_GRID_NONE` or what is wrong: `GRIDCHECK_GRID_WRONG_LENGTH`,
    /// `GRIDCHECK_GRID_BAD_CHAR`, `GRIDCHECK_GRID_REPEATED_DIGIT`.
    pub kind: u32,
    /// WRONG_LENGTH: the characters found, a line end not counted (84: 84 or more, as no
    /// more is read).
    pub length: u32,
    /// BAD_CHAR: the 0-based index of the character (row `position / 9 + 1`, column
    /// `position % 9 + 1`).
    pub position: u32,
    /// BAD_CHAR: the byte found there.
    pub byte: u32,
    /// REPEATED_DIGIT: the digit (1..9).
    pub digit: u32,
    /// REPEATED_DIGIT: where it repeats: `GRIDCHECK_HOUSE_ROW`, `_COLUMN` or `_BOX`.
    pub house: u32,
    /// REPEATED_DIGIT: the number of that row, column or box (1..9).
    pub house_number: u32,
    /// The problem in the words of `xcover gridcheck` (e.g. "not a valid solution: digit 9
    /// appears twice in column 1"), NUL-terminated; empty for `GRIDCHECK_GRID_NONE`.
    pub message: [c_char; GRIDCHECK_GRID_MESSAGE_BYTES],
}

/// Byte size of `gridcheck_grid_error` (checked by a static assert in the header).
pub const GRIDCHECK_GRID_ERROR_SIZE: usize = 96;
const _: () = assert!(core::mem::size_of::<gridcheck_grid_error>() == GRIDCHECK_GRID_ERROR_SIZE);

/// Capacities of a gridcheck workspace (they fix its size; see `gridcheck_workspace_size`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct gridcheck_limits {
    /// Unavoidable sets the list can hold (added and generated together; at least 1). A
    /// masked scan typically has a few hundred, a whole grid 10,000 to 30,000.
    pub max_ua: u32,
    /// Sets kept after preparation (at least 1): the keep_ua smallest. The enumeration
    /// loads at most 768 of them (the `xcover gridcheck` default is 768). The puzzles
    /// found never depend on it; the time does.
    pub keep_ua: u32,
    /// Sets of scratch per pseudo-puzzle for `gridcheck_generate_ua` and
    /// `gridcheck_generate_default_ua` (0: no generation).
    /// A pseudo-puzzle with more minimal UA is skipped (fewer UA, same puzzles). The CLI
    /// uses 65536; a masked scan needs far fewer.
    pub ua_scratch: u32,
    /// Largest clue count N the workspace can scan (1..=81).
    pub max_clues: u32,
}

/// Byte size of `gridcheck_limits` (checked by a static assert in the header).
pub const GRIDCHECK_LIMITS_SIZE: usize = 16;
const _: () = assert!(core::mem::size_of::<gridcheck_limits>() == GRIDCHECK_LIMITS_SIZE);

/// Counters of a gridcheck workspace, see `gridcheck_get_stats()`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct gridcheck_stats {
    /// Unavoidable sets in the list (added and generated).
    pub ua_count: u64,
    /// Sets left after the forced cells (after `gridcheck_prepare`).
    pub ua_after_forced: u64,
    /// Sets kept for the enumeration (after `gridcheck_prepare`).
    pub ua_kept: u64,
    /// Forced givens: the mask's and those the UA force (after `gridcheck_prepare`).
    pub forced_givens: u32,
    /// Disjoint UA in the clique that bounds the search (after `gridcheck_prepare`).
    pub clique_size: u32,
    /// Clues still to place in free cells (after `gridcheck_prepare`).
    pub free_clues: u32,
    /// `GRIDCHECK_POSSIBLE` or one of the `GRIDCHECK_IMPOSSIBLE_*` reasons (nothing to find).
    pub impossible: u32,
    /// Chunks run to their end (finished or stopped).
    pub chunks_done: u64,
    /// Placements tried, over all chunks (the unit of the step budget).
    pub steps: u64,
    /// Candidates that hit every kept UA and went to the solver.
    pub candidates: u64,
    /// Solver calls (candidates plus minimality checks).
    pub solver_calls: u64,
    /// Puzzles found.
    pub found: u64,
}

/// Byte size of `gridcheck_stats` (checked by a static assert in the header).
pub const GRIDCHECK_STATS_SIZE: usize = 80;
const _: () = assert!(core::mem::size_of::<gridcheck_stats>() == GRIDCHECK_STATS_SIZE);

/// `int (*)(void *ctx, const char *puzzle)`: receives each puzzle found by
/// `gridcheck_step`, as 81 characters (`1`..`9` given, `0` empty, row by row) and a NUL;
/// the text is valid during the call only. Return 0 to go on, nonzero to stop the chunk
/// (the step then returns XCOVER_STOPPED). It must not call into the same workspace.
pub type gridcheck_found_fn =
    Option<unsafe extern "C" fn(ctx: *mut c_void, puzzle: *const c_char) -> i32>;
