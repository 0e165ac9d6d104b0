//! Inputs for the tests, benches and fuzz targets of every crate of the workspace (the
//! `testing` feature, off by default): not part of the engines' API, and free to change.
//!
//! A crate's tests turn it on as a dev-dependency feature, which never reaches its normal
//! build:
//!
//! ```toml
//! [dev-dependencies]
//! xcover-core = { path = "../core", features = ["testing"] }
//! ```

pub use crate::dlx3::queens::write_queens_dlx;
