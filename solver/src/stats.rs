//! The counters of a search, as Knuth's program reports them.

/// Why a search ended.
///
/// ```
/// use xcover_solver::{End, Problem};
///
/// let p = Problem::parse("A\nA\nA\n")?;
/// assert_eq!(p.solver().run()?.end, End::Exhausted);
/// assert_eq!(p.solver().max_solutions(1).run()?.end, End::SolutionLimit);
/// # Ok::<(), xcover_solver::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum End {
    /// Every solution was found.
    #[default]
    Exhausted,
    /// The solution limit ([`Solver::max_solutions`](crate::Solver::max_solutions)) was
    /// reached.
    SolutionLimit,
    /// The mem limit ([`Solver::timeout_mems`](crate::Solver::timeout_mems)) was reached.
    Timeout,
    /// The caller stopped it (an iterator dropped or stopped early).
    Stopped,
}

/// The counters of a search (Knuth's closing `Altogether ...` line): the same on any
/// number of threads.
///
/// ```
/// use xcover_solver::{End, Problem};
///
/// let stats = Problem::parse("A B\nA\nB\nA B\n")?.solver().run()?;
/// assert_eq!((stats.solutions, stats.end), (2, End::Exhausted));
/// assert!(stats.mems > 0 && stats.nodes > 0);
/// # Ok::<(), xcover_solver::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Stats {
    /// Solutions found.
    pub solutions: u64,
    /// Memory accesses of the search (Knuth's cost measure).
    pub mems: u64,
    /// Memory accesses spent reading the input.
    pub input_mems: u64,
    /// Updates (removals from lists).
    pub updates: u64,
    /// Cleansings (purified color constraints).
    pub cleansings: u64,
    /// Search-tree nodes.
    pub nodes: u64,
    /// The deepest level reached.
    pub max_level: u32,
    /// Why the search ended.
    pub end: End,
}
