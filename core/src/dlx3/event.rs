//! What the engine reports and where it writes: the public types of a run.
use crate::sink::ByteSink;

/// Where the engine writes: solutions to `out`, everything else to `err`, and the search
/// tree shape (Knuth's `S<file>`) to `shape`.
pub struct Sinks<'w> {
    /// Solutions (Knuth's stdout).
    pub out: &'w mut dyn ByteSink,
    /// Reports, traces, warnings (Knuth's stderr).
    pub err: &'w mut dyn ByteSink,
    /// Shape file, if any.
    pub shape: Option<&'w mut dyn ByteSink>,
}

/// Why the search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DoneReason {
    /// The whole tree was explored.
    Exhausted,
    /// `maxcount` solutions were found (`t<n>`).
    SolutionLimit,
    /// Mems reached the `timeout` (`T<n>`); `TIMEOUT!` was reported.
    Timeout,
}

/// What `Dlx3::run` stopped for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A solution was found (and printed if `spacing` asks for it); call `run` again.
    Solution,
    /// The search is over; call `Dlx3::finish` for the closing reports.
    Done(DoneReason),
    /// The mem budget ran out at a phase boundary; call `run` again to continue.
    BudgetExhausted,
    /// With a split level set (`Dlx3::set_split_level`): the search is at the root of
    /// unit `k`. Call `run` to explore it (it ends with [`Event::UnitDone`]) or
    /// `Dlx3::skip_unit` to go past it.
    Unit(u64),
    /// Unit `k`, explored, is finished; the search is back on the split level.
    UnitDone(u64),
}

/// One move of the current partial solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// Option number `n` (1-based, in input order of kept options) was chosen.
    Option(u32),
    /// Null move: the item (1-based item number) was left at its lower bound.
    Null(u32),
}

/// The shape of the matrix after input: enough, with the storage arrays, to preload it
/// (see [`image`](super::image)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// One more than the number of items (item 0 is the root).
    pub last_itm: u32,
    /// First secondary item (`last_itm` if there are none).
    pub second: u32,
    /// Index of the final spacer.
    pub last_node: u32,
    /// Number of options kept.
    pub options: u64,
}
