//! Storage for the DLX3 data structures: node, item and level records, and the two ways
//! to provide them (borrowed slices, or an owned const-constructible [`Workspace`]).
//!
//! The slice lengths are the capacities: `items.len()` plays the role of Knuth's
//! `max_cols+2`, `nodes.len()` of `max_nodes` and `levels.len()` of `max_level`, so a full
//! store gives exactly the reference's "Too many items" / "Too many nodes" /
//! "Too many levels!" errors.

/// An item name: up to 8 bytes, padded with zero bytes.
pub type Name = [u8; 8];

/// One node of the matrix (16 bytes). For an item header (index below `last_itm`), `itm`
/// holds the list length (`len`) and `color` an auxiliary value (`aux`). For a spacer,
/// `itm <= 0` (minus the option number of the option before it), `up` points to the first
/// node of the option before it and `down` to the last node of the option after it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Node {
    /// Predecessor in the item's vertical list.
    pub up: u32,
    /// Successor in the item's vertical list.
    pub down: u32,
    /// The item containing this node (`len` in a header, `<= 0` in a spacer).
    pub itm: i32,
    /// Color (0 = none, -1 = cleansed); `aux` in a header.
    pub color: i32,
}

impl Node {
    /// An all-zero node.
    pub const ZERO: Node = Node {
        up: 0,
        down: 0,
        itm: 0,
        color: 0,
    };
}

/// One item record (16 bytes); the name lives in a separate [`Name`] array.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Item {
    /// Left neighbor in the list of active primary items.
    pub prev: u32,
    /// Right neighbor in the list of active primary items.
    pub next: u32,
    /// How many more options may still cover this item.
    pub bound: i32,
    /// Upper bound minus lower bound, as given in the input.
    pub slack: i32,
}

impl Item {
    /// An all-zero item.
    pub const ZERO: Item = Item {
        prev: 0,
        next: 0,
        bound: 0,
        slack: 0,
    };
}

/// The search state kept for one level of the search tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Level {
    /// The node chosen on this level (or the item's header for a null move).
    pub choice: u32,
    /// Top node of the item when the level was entered in tweak mode; 0 in cover mode.
    pub first_tweak: u32,
    /// Branching degree of this level.
    pub score: i32,
    /// Search-tree nodes seen on this level (maintained when profiling).
    pub profile: u64,
}

impl Level {
    /// An all-zero level.
    pub const ZERO: Level = Level {
        choice: 0,
        first_tweak: 0,
        score: 0,
        profile: 0,
    };
}

/// Item names: writable while parsing, or shared (e.g. a `const` image in flash).
#[derive(Debug)]
pub enum Names<'a> {
    /// Writable names (needed to read an item line).
    Mutable(&'a mut [Name]),
    /// Read-only names of a preloaded matrix.
    Shared(&'a [Name]),
}

impl Names<'_> {
    /// Number of name slots.
    pub fn len(&self) -> usize {
        match self {
            Names::Mutable(n) => n.len(),
            Names::Shared(n) => n.len(),
        }
    }

    /// True if there are no name slots.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The name in slot `i` (all zero if out of range).
    #[inline]
    pub fn get(&self, i: usize) -> Name {
        let slice: &[Name] = match self {
            Names::Mutable(n) => n,
            Names::Shared(n) => n,
        };
        slice.get(i).copied().unwrap_or([0; 8])
    }

    /// The names as a writable slice, if they are writable.
    pub(super) fn as_mut(&mut self) -> Option<&mut [Name]> {
        match self {
            Names::Mutable(n) => Some(n),
            Names::Shared(_) => None,
        }
    }
}

/// A borrowed view of the storage an engine works in.
#[derive(Debug)]
pub struct Storage<'a> {
    pub(super) items: &'a mut [Item],
    pub(super) names: Names<'a>,
    pub(super) nodes: &'a mut [Node],
    pub(super) levels: &'a mut [Level],
}

impl<'a> Storage<'a> {
    /// Storage over caller slices, with writable names (for reading text input).
    /// Item capacity is `min(items.len(), names.len()) - 2` items.
    pub fn new(
        items: &'a mut [Item],
        names: &'a mut [Name],
        nodes: &'a mut [Node],
        levels: &'a mut [Level],
    ) -> Self {
        Storage {
            items,
            names: Names::Mutable(names),
            nodes,
            levels,
        }
    }

    /// Storage for a preloaded matrix whose names are read-only (e.g. in flash).
    pub fn with_shared_names(
        items: &'a mut [Item],
        names: &'a [Name],
        nodes: &'a mut [Node],
        levels: &'a mut [Level],
    ) -> Self {
        Storage {
            items,
            names: Names::Shared(names),
            nodes,
            levels,
        }
    }

    /// Number of item slots usable (Knuth's `max_cols + 2`).
    pub fn item_slots(&self) -> usize {
        self.items.len().min(self.names.len())
    }

    /// Number of node slots (Knuth's `max_nodes`).
    pub fn node_slots(&self) -> usize {
        self.nodes.len()
    }

    /// Number of levels (Knuth's `max_level`).
    pub fn level_slots(&self) -> usize {
        self.levels.len()
    }
}

/// Owned storage with compile-time capacities, constructible in a `static`.
///
/// `ITEMS` is the number of item slots (items + 2), `NODES` the number of node slots and
/// `LEVELS` the maximum search depth.
#[derive(Debug)]
pub struct Workspace<const ITEMS: usize, const NODES: usize, const LEVELS: usize> {
    items: [Item; ITEMS],
    names: [Name; ITEMS],
    nodes: [Node; NODES],
    levels: [Level; LEVELS],
}

impl<const ITEMS: usize, const NODES: usize, const LEVELS: usize> Default
    for Workspace<ITEMS, NODES, LEVELS>
{
    fn default() -> Self {
        Self::new()
    }
}

impl<const ITEMS: usize, const NODES: usize, const LEVELS: usize> Workspace<ITEMS, NODES, LEVELS> {
    /// Zeroed storage.
    pub const fn new() -> Self {
        Workspace {
            items: [Item::ZERO; ITEMS],
            names: [[0; 8]; ITEMS],
            nodes: [Node::ZERO; NODES],
            levels: [Level::ZERO; LEVELS],
        }
    }

    /// Lends the storage to an engine.
    pub fn storage(&mut self) -> Storage<'_> {
        Storage::new(
            &mut self.items,
            &mut self.names,
            &mut self.nodes,
            &mut self.levels,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The owned workspace can live in a `static` (const constructor, `Sync` data).
    static SMALL: Workspace<8, 64, 16> = Workspace::new();

    #[test]
    fn workspace_capacities_are_the_slice_lengths() {
        let _ = &SMALL;
        let mut ws: Workspace<12, 100, 7> = Workspace::new();
        let s = ws.storage();
        assert_eq!(
            (s.item_slots(), s.node_slots(), s.level_slots()),
            (12, 100, 7)
        );
        assert_eq!(core::mem::size_of::<Node>(), 16);
        assert_eq!(core::mem::size_of::<Item>(), 16);
    }
}
