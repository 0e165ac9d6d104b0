//! `dlx3_*`: Knuth's DLX3 over a caller-owned workspace.
//!
//! Life cycle (`dlx3_state`): init (ITEMS) -> `dlx3_parse` (READY), or `dlx3_add_item`s
//! (ITEMS) and `dlx3_add_option`s (OPTIONS) -> `dlx3_solve_step` until XCOVER_DONE
//! (SEARCHING / SOLUTION / DONE); `dlx3_set_part` before the first step runs one part of N of
//! the search (`parts`). Any error that leaves the engine half-updated marks the
//! workspace DEAD; argument errors detected before anything changes leave it usable.
//!
//! The state is not stored here: it is the engine's `Stage` (`xcover_core::dlx3`) seen
//! through one conversion (`types`), except DEAD, which the workspace header records.
//!
//! Files: `types` (C data types), `settings`, `workspace` (the record in the caller's
//! buffer and its checks), `init`, `build` and `builder` (the matrix), `solve` (steps,
//! solutions, counters), `writers`, `parts` (split searches).

pub mod build;
pub mod builder;
pub mod init;
pub mod parts;
pub mod settings;
pub mod solve;
pub mod types;
pub mod workspace;
pub mod writers;

pub use build::dlx3_parse;
pub use builder::{dlx3_add_item, dlx3_add_option};
pub use init::{
    dlx3_compact_workspace_size, dlx3_get_state, dlx3_init, dlx3_init_compact, dlx3_init_preloaded,
    dlx3_preloaded_workspace_size, dlx3_release, dlx3_text_capacity, dlx3_workspace_size,
};
pub use parts::{dlx3_choose_split_level, dlx3_get_part_stats, dlx3_set_part, dlx3_stats_add};
pub use settings::dlx3_settings;
pub use settings::dlx3_settings_default;
pub use solve::{
    dlx3_get_stats, dlx3_item_name, dlx3_option_item, dlx3_option_len, dlx3_solution_len,
    dlx3_solution_option, dlx3_solve_step,
};
pub use types::*;
pub use workspace::dlx3_workspace;
pub use writers::dlx3_set_writers;
