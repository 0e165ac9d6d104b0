//! The counters DLX3 reports.

/// Counters of one run (Knuth's `count`, `mems`, `imems`, ... ).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Solutions found.
    pub count: u64,
    /// Mems of the search (after input: the input mems are moved to `imems`).
    pub mems: u64,
    /// Mems spent reading the input.
    pub imems: u64,
    /// Mems spent choosing items.
    pub cmems: u64,
    /// Updates (list removals).
    pub updates: u64,
    /// Cleansings (purified color constraints).
    pub cleansings: u64,
    /// Search-tree nodes entered.
    pub nodes: u64,
    /// Deepest level reached.
    pub maxl: u32,
    /// Knuth's `bytes` figure for the main data structures.
    pub bytes: u64,
}

impl Stats {
    /// Knuth's `ccost`: `100*cmems/mems` rounded half up (0 when no mems were spent).
    pub fn ccost_percent(&self) -> u64 {
        let num = self.cmems.wrapping_mul(200).wrapping_add(self.mems);
        num.checked_div(self.mems.wrapping_mul(2)).unwrap_or(0)
    }
}

impl Stats {
    /// The counters spent since `earlier` (a snapshot of the same engine): differences
    /// (0 where `earlier` is larger), except `maxl`, which stays this snapshot's.
    ///
    /// ```
    /// use xcover_core::dlx3::Stats;
    ///
    /// let before = Stats { mems: 10, nodes: 2, maxl: 3, ..Stats::default() };
    /// let after = Stats { mems: 25, nodes: 5, maxl: 4, ..Stats::default() };
    /// let spent = after.since(&before);
    /// assert_eq!((spent.mems, spent.nodes, spent.maxl), (15, 3, 4));
    /// ```
    pub fn since(&self, earlier: &Stats) -> Stats {
        Stats {
            count: self.count.saturating_sub(earlier.count),
            mems: self.mems.saturating_sub(earlier.mems),
            imems: self.imems.saturating_sub(earlier.imems),
            cmems: self.cmems.saturating_sub(earlier.cmems),
            updates: self.updates.saturating_sub(earlier.updates),
            cleansings: self.cleansings.saturating_sub(earlier.cleansings),
            nodes: self.nodes.saturating_sub(earlier.nodes),
            maxl: self.maxl,
            bytes: self.bytes,
        }
    }
}

/// The counters that add up over the units of a split search (see `split`): the
/// sequential run's are the shared part's plus every unit's. Two explorations of one unit
/// agree on exactly these (`maxl` depends on what the engine did before the unit).
///
/// ```
/// use xcover_core::dlx3::{Stats, UnitCounters};
///
/// let s = Stats { count: 2, mems: 40, maxl: 7, ..Stats::default() };
/// let twice = UnitCounters::of(&s).wrapping_add(&UnitCounters::of(&s));
/// assert_eq!((twice.count, twice.mems), (4, 80));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UnitCounters {
    /// Solutions.
    pub count: u64,
    /// Search mems.
    pub mems: u64,
    /// Choice mems.
    pub cmems: u64,
    /// Updates.
    pub updates: u64,
    /// Cleansings.
    pub cleansings: u64,
    /// Search-tree nodes.
    pub nodes: u64,
}

impl UnitCounters {
    /// All zero.
    pub const ZERO: UnitCounters = UnitCounters {
        count: 0,
        mems: 0,
        cmems: 0,
        updates: 0,
        cleansings: 0,
        nodes: 0,
    };

    /// The additive counters of `s`.
    pub const fn of(s: &Stats) -> UnitCounters {
        UnitCounters {
            count: s.count,
            mems: s.mems,
            cmems: s.cmems,
            updates: s.updates,
            cleansings: s.cleansings,
            nodes: s.nodes,
        }
    }

    /// The six counters in the order of the fields (for messages).
    pub const fn to_array(&self) -> [u64; 6] {
        [
            self.count,
            self.mems,
            self.cmems,
            self.updates,
            self.cleansings,
            self.nodes,
        ]
    }

    /// The sum, wrapping: a running total may hold a difference for a while.
    #[must_use]
    pub const fn wrapping_add(&self, o: &UnitCounters) -> UnitCounters {
        UnitCounters {
            count: self.count.wrapping_add(o.count),
            mems: self.mems.wrapping_add(o.mems),
            cmems: self.cmems.wrapping_add(o.cmems),
            updates: self.updates.wrapping_add(o.updates),
            cleansings: self.cleansings.wrapping_add(o.cleansings),
            nodes: self.nodes.wrapping_add(o.nodes),
        }
    }

    /// The difference, wrapping (see [`wrapping_add`](UnitCounters::wrapping_add)).
    #[must_use]
    pub const fn wrapping_sub(&self, o: &UnitCounters) -> UnitCounters {
        UnitCounters {
            count: self.count.wrapping_sub(o.count),
            mems: self.mems.wrapping_sub(o.mems),
            cmems: self.cmems.wrapping_sub(o.cmems),
            updates: self.updates.wrapping_sub(o.updates),
            cleansings: self.cleansings.wrapping_sub(o.cleansings),
            nodes: self.nodes.wrapping_sub(o.nodes),
        }
    }

    /// `s` with these counters in place of its own.
    pub const fn into_stats(self, s: Stats) -> Stats {
        Stats {
            count: self.count,
            mems: self.mems,
            cmems: self.cmems,
            updates: self.updates,
            cleansings: self.cleansings,
            nodes: self.nodes,
            ..s
        }
    }
}
