//! `dlx3_*`: Knuth's DLX3 over a caller-owned workspace.
//!
//! Life cycle (`dlx3_state`): init (ITEMS) -> `dlx3_parse` (READY), or `dlx3_add_item`s
//! (ITEMS) and `dlx3_add_option`s (OPTIONS) -> `dlx3_solve_step` until XCOVER_DONE
//! (SEARCHING / SOLUTION / DONE). Any error that leaves the engine half-updated marks the
//! workspace DEAD; argument errors detected before anything changes leave it usable.

pub mod arena;
pub mod build;
pub mod init;
pub mod settings;
pub mod solve;
pub mod types;
pub mod workspace;

pub use init::dlx3_workspace;
pub use settings::dlx3_settings;
pub use types::*;
