//! The engine's record: the borrowed matrix and the state of a resumable search. Its
//! methods are grouped by purpose in the sibling files (`create`, `query`, `parse`,
//! `builder`, `search`, `split`, `parts`, `output`).
use super::active::ActiveSet;
use super::event::Layout;
use super::ops::Tallies;
use super::phase::Phase;
use super::settings::Settings;
use super::stats::Stats;
use super::storage::{Item, Level, Names, Node, Width};

/// The DLX3 engine over borrowed storage, with links of width `W` (see [`Width`]).
///
/// See the [module example](super) for a run that prints Knuth's output, and the
/// [crate example](crate) for reading solutions.
pub struct Dlx3<'a, W: Width = u32> {
    pub(super) items: &'a mut [Item<W>],
    pub(super) names: Names<'a>,
    pub(super) nodes: &'a mut [Node<W>],
    pub(super) levels: &'a mut [Level],
    pub(super) settings: Settings,
    pub(super) rng: W::Rng,
    /// Knuth's `max_cols`: item slots minus 2.
    pub(super) max_cols: u32,
    /// Whether the item line's `|` has been seen (Knuth: `second != max_cols`).
    pub(super) separator_seen: bool,
    pub(super) layout: Layout,
    /// Whether some option node has a color (so purify/cleansing can happen).
    pub(super) colored: bool,
    /// Whether the matrix is uncolored and its options have at least
    /// `LONG_OPTION` nodes on average (then `cover` and `uncover` use the pipelined
    /// walk, see `ops::walk_rest`). Always false in firmware builds.
    pub(super) long_options: bool,
    /// Whether every primary item has bounds [1,1] (then scores are list lengths).
    pub(super) exact_cover: bool,
    /// Whether the choice's key fits 64 bits (`choose::small_keys`).
    pub(super) small_keys: bool,
    /// Whether the last run stopped at a solution (the `Stage::Solution` of
    /// `Dlx3::stage`; set by `search`, cleared where a run's solution is not the
    /// caller's, as in `parts`).
    pub(super) at_solution: bool,
    /// Active primary items as bits (see `active::ActiveSet`).
    pub(super) active: ActiveSet<W>,
    pub(super) stats: Stats,
    /// Updates and cleansings as the search adds to them (copied into `stats`).
    pub(super) tallies: Tallies,
    pub(super) thresh: u64,
    pub(super) phase: Phase,
    pub(super) level: u32,
    pub(super) cur_node: u32,
    pub(super) best_itm: u32,
    pub(super) score: i32,
    /// Trials on this level are units (`u32::MAX`: no splitting; see `split`).
    pub(super) split_level: u32,
    /// Units met so far (the next unit's number).
    pub(super) units_seen: u64,
    /// Scan position of the last line read (for "No items").
    pub(super) last_pos: i32,
    /// First 99 bytes of the current input line (for error reports).
    pub(super) line_head: W::LineHead,
}
