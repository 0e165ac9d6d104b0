//! `gridcheck_*`: the grid checker (every N-clue puzzle with a unique solution inside a
//! Sudoku solution grid) over a caller-owned workspace.
//!
//! Life cycle (`GRIDCHECK_STATE_*`): `gridcheck_init` (EMPTY) -> `gridcheck_set_grid`
//! (GRID) -> `gridcheck_set_options` (OPTIONS) -> `gridcheck_add_ua` /
//! `gridcheck_generate_ua` / `gridcheck_generate_default_ua` -> `gridcheck_prepare`
//! (PREPARED) -> for each chunk of `gridcheck_chunk_list` (or GRIDCHECK_CHUNK_WHOLE):
//! `gridcheck_chunk_begin` (RUNNING),
//! `gridcheck_step` until XCOVER_DONE or XCOVER_STOPPED (CHUNK_DONE) -> `gridcheck_release`.
//! Argument errors leave the workspace as it was; only internal errors kill it (DEAD).
//! The states are the C projection of the phases of core's `gridcheck::session::Session`,
//! which says which call is allowed when and keeps the chunks' counters; DEAD is the
//! handle's own.
//!
//! One workspace holds the grid, the options, the UA list, the prepared scan (read-only
//! once prepared) and one chunk run. To split a scan across threads, give each thread its
//! own workspace over the same inputs (preparation is deterministic, so the chunk ids agree)
//! and share out the ids.

pub mod grid_error;
pub mod grid_outcome;
pub mod handle;
pub mod layout;
pub mod run;
pub mod setup;
pub mod types;

pub use grid_error::gridcheck_get_grid_error;
pub use handle::gridcheck_workspace;
pub use run::{
    gridcheck_chunk_begin, gridcheck_chunk_list, gridcheck_get_stats, gridcheck_last_puzzle,
    gridcheck_step,
};
pub use setup::{
    gridcheck_add_ua, gridcheck_generate_default_ua, gridcheck_generate_ua, gridcheck_get_state,
    gridcheck_init, gridcheck_prepare, gridcheck_release, gridcheck_set_grid,
    gridcheck_set_options, gridcheck_ua_count, gridcheck_workspace_size,
};
pub use types::*;
