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
