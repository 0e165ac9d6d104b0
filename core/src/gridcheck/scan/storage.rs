//! Per-thread storage of a chunk run: list-mode levels, the bitmap table and the per-level
//! bitmap states. Borrowed from the caller (slices), or owned by [`WorkspaceBuffers`] whose
//! sizes are const generics (usable in a `static`).
use super::bitmap768::{BitmapTable, State, CAPACITY, WORDS};
use super::wide::{WideState, WIDE_CAPACITY, WIDE_WORDS};
use super::Prepared;

/// Sizes a [`Workspace`] needs for one prepared scan.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WorkspaceSize {
    /// Entries of the list-mode buffer (`u128` each).
    pub list_entries: usize,
    /// Bitmap states (one per level).
    pub states: usize,
    /// Wide states (one per level when the kept list uses the wide mode, else 0).
    pub wide_states: usize,
}

impl WorkspaceSize {
    /// Sizes for `prepared`: each list-mode level can hold up to the whole kept list (list
    /// mode is only used above [`WIDE_CAPACITY`] kept sets); the wide mode needs one state
    /// per level when more than [`CAPACITY`] sets are kept.
    pub fn for_scan(prepared: &Prepared<'_>) -> WorkspaceSize {
        let kept = prepared.kept_len();
        let levels = usize::from(prepared.free_clues());
        let list_entries = if kept > WIDE_CAPACITY {
            kept * levels.saturating_sub(1)
        } else {
            0
        };
        let wide_states = if kept > CAPACITY && kept <= WIDE_CAPACITY {
            levels + 1
        } else {
            0
        };
        WorkspaceSize {
            list_entries,
            states: levels + 1,
            wide_states,
        }
    }

    /// Bytes of caller storage this needs, the bitmap table included.
    pub fn bytes(&self) -> usize {
        self.list_entries * 16
            + self.states * WORDS * 8
            + self.wide_states * WIDE_WORDS * 16
            + core::mem::size_of::<BitmapTable>()
    }
}

/// Borrowed per-thread storage.
pub struct Workspace<'w> {
    pub(crate) lists: &'w mut [u128],
    pub(crate) table: &'w mut BitmapTable,
    pub(crate) states: &'w mut [State],
    pub(crate) wide_states: &'w mut [WideState],
}

impl<'w> Workspace<'w> {
    /// Wraps caller buffers; sizes are checked when a run starts.
    pub fn new(
        lists: &'w mut [u128],
        table: &'w mut BitmapTable,
        states: &'w mut [State],
        wide_states: &'w mut [WideState],
    ) -> Self {
        Workspace {
            lists,
            table,
            states,
            wide_states,
        }
    }
}

/// Owned storage with const-generic sizes: `LIST` list entries, `LEVELS` states and wide
/// states.
pub struct WorkspaceBuffers<const LIST: usize, const LEVELS: usize> {
    lists: [u128; LIST],
    table: BitmapTable,
    states: [State; LEVELS],
    wide_states: [WideState; LEVELS],
}

impl<const LIST: usize, const LEVELS: usize> Default for WorkspaceBuffers<LIST, LEVELS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const LIST: usize, const LEVELS: usize> WorkspaceBuffers<LIST, LEVELS> {
    /// Zeroed buffers.
    pub const fn new() -> Self {
        WorkspaceBuffers {
            lists: [0; LIST],
            table: BitmapTable::new(),
            states: [[0; WORDS]; LEVELS],
            wide_states: [[0; WIDE_WORDS]; LEVELS],
        }
    }

    /// Borrows the buffers as a [`Workspace`].
    pub fn workspace(&mut self) -> Workspace<'_> {
        Workspace::new(
            &mut self.lists,
            &mut self.table,
            &mut self.states,
            &mut self.wide_states,
        )
    }
}
