//! The table a chunk run works on: the hitting masks and the probes' scratch.
use super::hits::HitTable;
use super::scratch::{ProbeScratch, PROBE_SLOTS};
#[cfg(doc)]
use crate::gridcheck::scan::{ChunkRun, Workspace, WorkspaceView};

/// A chunk run's table: the hitting masks of the sets loaded at the last switch, and the
/// scratch of the probes of a few search levels.
///
/// Opaque: a chunk run loads it; a [`WorkspaceView`] borrows one, a
/// [`Workspace`] owns one.
///
/// ```
/// use xcover_core::gridcheck::scan::BitmapTable;
///
/// static TABLE: BitmapTable = BitmapTable::new(); // const: can live in a static
/// assert!(core::mem::size_of_val(&TABLE) > 20_000);
/// ```
#[derive(Clone)]
pub struct BitmapTable {
    /// The sets and their hitting masks.
    pub(crate) hits: HitTable,
    /// The probes' scratch of the depths modulo [`PROBE_SLOTS`]: in caller storage with
    /// the table, not in the [`ChunkRun`], which the C ABI moves by value.
    pub(crate) probes: [ProbeScratch; PROBE_SLOTS],
}

impl Default for BitmapTable {
    fn default() -> Self {
        Self::new()
    }
}

impl BitmapTable {
    /// An empty table (about 40 KB; keep it in caller storage).
    pub const fn new() -> BitmapTable {
        BitmapTable {
            hits: HitTable::new(),
            probes: [const { ProbeScratch::new() }; PROBE_SLOTS],
        }
    }
}
