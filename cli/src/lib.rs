//! The `xcover` command line: subcommands as library modules so tests can drive them.
#![deny(missing_docs)]

pub mod dlx3;
pub(crate) mod durable;
pub mod error;
pub mod export;
pub mod gridcheck;
pub mod memory;
pub mod print;
pub mod shared_args;
pub mod signals;
pub mod sudoku;
