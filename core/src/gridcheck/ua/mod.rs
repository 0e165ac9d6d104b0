//! Unavoidable sets (UA) of a grid.
//!
//! A UA of a grid is a set of cells that every puzzle of the grid with a unique solution
//! must hit: blanking exactly those cells leaves more than one solution. The scan prunes with
//! minimal UA, so every set kept here is a genuine, minimal UA.
//!
//! * [`UaList`]: a list of UA over storage the caller owns;
//! * [`budget`]: how many random pseudo-puzzles a whole grid gets (by its 4-cell UA);
//! * [`generate`]: UA from pseudo-puzzles (digit subsets, box subsets, random blanks), each
//!   reduced to its minimal sets by an [`Antichain`] in caller scratch;
//! * [`verify_ua`] / [`is_minimal_ua`]: checks with the solver;
//! * [`file`](mod@file): the UA file formats (0/1 masks, `{rc,...}` lists);
//! * [`SplitMix64`]: the seeded generator of the random pseudo-puzzles.

mod antichain;
pub mod budget;
pub mod file;
pub mod generate;
#[cfg(any(test, feature = "alloc"))]
mod heap;
mod list;
mod rng;
mod tiling;
mod verify;

pub use antichain::Antichain;
pub use generate::{GenStats, DEFAULT_RANDOM_BLANKS};
pub use list::UaList;
pub use rng::SplitMix64;
pub use verify::{is_minimal_ua, verify_ua};
