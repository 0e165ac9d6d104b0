//! Dancing with bit sets: the search of a small plain exact cover (every primary item
//! covered exactly once, secondary items with or without colors) over bit sets of
//! options instead of linked lists.
//!
//! It makes the tree of [`Dlx3::run_uncounted`](crate::dlx3::Dlx3::run_uncounted) on such
//! a problem, node for node: at each node the primary item with the fewest live options,
//! the first in item order among equals; its options in option order; so the same
//! solutions in the same order, and the same node count and deepest level. A live
//! option is one that conflicts with no chosen option: it shares no primary item with
//! one, and no secondary item unless both give it the same color (what DLX3's `cover`
//! and `purify` remove). Choosing option `o` keeps `live & !conflicts[o]`; each removed
//! option takes one off the count of each of its primary items, and each level keeps
//! its own copy of the counts, so backing up is going back a level.
//!
//! Options are at most `64 * W` for a const generic `W` of at most [`MAX_WORDS`]. All
//! storage is the caller's: a [`WorkspaceView`] of slices whose lengths [`Layout`] gives.
//! The search is a resumable state machine ([`BitCover::run`]) with a budget in
//! search-tree nodes.
//!
//! ```
//! use xcover_core::bitcover::{BitCover, Layout, Matrix, Step, WorkspaceView, COUNTS};
//!
//! // Primary items 0 1 2 3, secondary item 4: which options cover each primary once,
//! // agreeing on the color of item 4?
//! let entries = [
//!     (0, 0), (1, 0), (4, 1), // option 0: 0 1 4:1
//!     (2, 0), (3, 0), (4, 2), // option 1: 2 3 4:2
//!     (0, 0), (2, 0),         // option 2: 0 2
//!     (1, 0), (3, 0), (4, 1), // option 3: 1 3 4:1
//!     (2, 0), (3, 0), (4, 1), // option 4: 2 3 4:1
//! ];
//! let starts = [0, 3, 6, 8, 11, 14];
//! let m = Matrix { primary: 4, items: 5, starts: &starts, entries: &entries };
//! let l = Layout::of::<1>(&m)?;
//! let (mut conflicts, mut item_options) = (vec![[0u64; 1]; l.options], vec![[0u64; 1]; l.primary]);
//! let mut prims = vec![0u8; l.options * l.stride];
//! let (mut live, mut candidates) = (vec![[0u64; 1]; l.levels], vec![[0u64; 1]; l.levels]);
//! let (mut counts, mut chosen) = (vec![0i16; l.levels * COUNTS], vec![0u16; l.levels]);
//! let ws = WorkspaceView {
//!     conflicts: &mut conflicts, item_options: &mut item_options, prims: &mut prims,
//!     live: &mut live, candidates: &mut candidates, counts: &mut counts, chosen: &mut chosen,
//! };
//! let mut search = BitCover::new(ws, &m)?;
//! let mut found = Vec::new();
//! while let Step::Solution | Step::Paused = search.run(u64::MAX, true) {
//!     if search.at_solution() {
//!         found.push(search.solution().to_vec());
//!     }
//! }
//! // Options 0 and 1 disagree on item 4's color.
//! assert_eq!(found, [vec![0, 4], vec![2, 3]]);
//! assert_eq!(search.solutions(), 2);
//! # Ok::<(), xcover_core::bitcover::BitError>(())
//! ```
mod layout;
mod search;
mod tables;

pub use layout::{
    BitError, Layout, Matrix, WorkspaceView, COUNTS, MAX_PRIMARY, MAX_WORDS, WORD_BITS,
};
pub use search::{BitCover, Step};

#[cfg(test)]
mod tests;
