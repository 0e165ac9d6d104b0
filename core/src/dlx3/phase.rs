//! The engine's life cycle: the private phase the engine runs on, and the public
//! [`Stage`] every front end (the C API, the command) reads it through.
use super::error::Dlx3Error;
use super::event::DoneReason;

/// Where the engine is in its life cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    /// Waiting for the item-name line.
    ItemLine,
    /// Reading option lines.
    Options,
    /// Searching; the label to continue at.
    Search(Label),
    /// The search has ended.
    Done(DoneReason),
    /// A fatal error happened.
    Failed(Dlx3Error),
}

/// Knuth's labels in the search routine, where a resumed search continues.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Label {
    Forward,
    Advance,
    Backup,
    Backdown,
    /// The end of *advance*: go down into the option (the root of a unit when splitting).
    Enter,
}

/// Where an engine is in its life, as a caller sees it (`Dlx3::stage`).
///
/// An engine reads its items, then its options, is then ready to search, searches in
/// slices (stopping at solutions), and ends done or failed:
///
/// ```text
/// Items -> Options -> Ready -> Searching <-> Solution -> Done
///   (any of them) -> Failed
/// ```
///
/// A preloaded engine (`Dlx3::preloaded`) starts `Ready`.
///
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Waiting for the item line (or `Dlx3::add_item` calls).
    Items,
    /// The items are known; reading options.
    Options,
    /// The matrix is complete and the search has not moved yet: splitting
    /// (`Dlx3::set_split_level`) is set up now.
    Ready,
    /// The search has moved and stopped (a budget, a unit) before its end.
    Searching,
    /// The last run stopped at a solution: its moves can be read
    /// (`Dlx3::solution_move`).
    Solution,
    /// The search is over.
    Done,
    /// A fatal error happened; the engine refuses to go on.
    Failed,
}
