//! Per-thread storage of a chunk run: the bitmap table and the per-level bitmap states.
//! Borrowed from the caller (slices), or owned by [`WorkspaceBuffers`] whose level count is
//! a const generic (usable in a `static`).
use super::bitmap768::{BitmapTable, State, WORDS};
use super::Prepared;

/// Sizes a [`Workspace`] needs for one prepared scan.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WorkspaceSize {
    /// Bitmap states (one per level, and one for the root).
    pub states: usize,
}

impl WorkspaceSize {
    /// Sizes for `prepared`: a state per free clue, plus the root's.
    pub fn for_scan(prepared: &Prepared<'_>) -> WorkspaceSize {
        WorkspaceSize {
            states: usize::from(prepared.free_clues()) + 1,
        }
    }

    /// Bytes of caller storage this needs, the bitmap table included.
    pub fn bytes(&self) -> usize {
        self.states * WORDS * 8 + core::mem::size_of::<BitmapTable>()
    }
}

/// Borrowed per-thread storage.
pub struct Workspace<'w> {
    pub(crate) table: &'w mut BitmapTable,
    pub(crate) states: &'w mut [State],
}

impl<'w> Workspace<'w> {
    /// Wraps caller buffers; sizes are checked when a run starts.
    pub fn new(table: &'w mut BitmapTable, states: &'w mut [State]) -> Self {
        Workspace { table, states }
    }
}

/// Owned storage with a const-generic size: `LEVELS` states (free clues + 1).
pub struct WorkspaceBuffers<const LEVELS: usize> {
    table: BitmapTable,
    states: [State; LEVELS],
}

impl<const LEVELS: usize> Default for WorkspaceBuffers<LEVELS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const LEVELS: usize> WorkspaceBuffers<LEVELS> {
    /// Zeroed buffers.
    pub const fn new() -> Self {
        WorkspaceBuffers {
            table: BitmapTable::new(),
            states: [[0; WORDS]; LEVELS],
        }
    }

    /// Borrows the buffers as a [`Workspace`].
    pub fn workspace(&mut self) -> Workspace<'_> {
        Workspace::new(&mut self.table, &mut self.states)
    }
}
