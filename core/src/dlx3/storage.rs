//! Storage for the DLX3 data structures: node, item and level records, and the forms an
//! engine's storage takes, named as in `heapless` (`Vec` / `VecView`): a [`WorkspaceView`]
//! of caller slices (what an engine works in), an owned const-constructible [`Workspace`]
//! with compile-time capacities, and, with the `alloc` feature, a `HeapWorkspace` sized at
//! run time (`heap.rs`). Each owned form lends a view of itself with `as_mut_view()`.
//!
//! The slice lengths are the capacities: `items.len()` plays the role of Knuth's
//! `max_cols+2`, `nodes.len()` of `max_nodes` and `levels.len()` of `max_level`, so a full
//! store gives exactly the reference's "Too many items" / "Too many nodes" /
//! "Too many levels!" errors.

/// An item name: up to 8 bytes, padded with zero bytes.
pub type Name = [u8; 8];

/// What an engine of each width keeps beside its records: the engine's own business, out
/// of the public [`Width`] (a trait nobody outside this crate can name or implement, so
/// `u32` and `u16` stay the only widths).
pub(crate) mod sealed {
    use super::super::word::{Word, WORD_BITS};
    use crate::gb_flip::GbFlip;

    /// The engine's per-width parts (see [`Width`](super::Width)).
    pub trait Sealed {
        /// The words of the engine's bit set of active primary items.
        type ActiveWords: AsRef<[Word]> + AsMut<[Word]> + Copy + core::fmt::Debug + 'static;
        /// An empty bit set.
        const ACTIVE_ZERO: Self::ActiveWords;
        /// Where the engine keeps the head of the input line just read, for error reports:
        /// the first 99 bytes for `u32` (engines that read text), nothing for `u16`.
        type LineHead: AsRef<[u8]> + Copy + core::fmt::Debug + 'static;
        /// An empty line head.
        const LINE_HEAD_EMPTY: Self::LineHead;
        /// The engine's random generator: GB_FLIP (224 bytes of state) for `u32`; `u16`
        /// engines, kept small for RAM, do not randomize.
        type Rng: core::fmt::Debug + 'static;
        /// The generator seeded with `seed`, if this width randomizes.
        fn seeded_rng(seed: i32) -> Option<Self::Rng>;
        /// The generator that does not randomize.
        const NO_RNG: Self::Rng;
        /// Whether engines of this width can randomize (so that the search of one that
        /// cannot compiles without the random tie breaks).
        const RANDOMIZES: bool;
        /// The GB_FLIP state inside `rng`, if any.
        fn gb_flip(rng: &mut Self::Rng) -> Option<&mut GbFlip>;
    }

    impl Sealed for u32 {
        /// 1,024 items.
        type ActiveWords = [Word; 1024 / WORD_BITS as usize];
        const ACTIVE_ZERO: Self::ActiveWords = [0; 1024 / WORD_BITS as usize];
        type LineHead = super::LineHead;
        const LINE_HEAD_EMPTY: super::LineHead = super::LineHead {
            bytes: [0; 99],
            len: 0,
        };
        type Rng = GbFlip;
        fn seeded_rng(seed: i32) -> Option<GbFlip> {
            Some(GbFlip::new(seed))
        }
        const NO_RNG: GbFlip = GbFlip::new(0);
        const RANDOMIZES: bool = true;
        #[inline(always)]
        fn gb_flip(rng: &mut GbFlip) -> Option<&mut GbFlip> {
            Some(rng)
        }
    }

    impl Sealed for u16 {
        /// 256 items.
        type ActiveWords = [Word; 256 / WORD_BITS as usize];
        const ACTIVE_ZERO: Self::ActiveWords = [0; 256 / WORD_BITS as usize];
        type LineHead = [u8; 0];
        const LINE_HEAD_EMPTY: [u8; 0] = [];
        type Rng = ();
        fn seeded_rng(_: i32) -> Option<()> {
            None
        }
        const NO_RNG: () = ();
        const RANDOMIZES: bool = false;
        #[inline(always)]
        fn gb_flip(_: &mut ()) -> Option<&mut GbFlip> {
            None
        }
    }
}

/// The integer width of the links in [`Node`] and [`Item`] records: `u32` takes any
/// matrix up to Knuth's limits; `u16` halves the RAM of a matrix of at most 65,535 nodes
/// whose item numbers, option numbers, bounds and list lengths fit in an `i16` (a
/// preloaded matrix on a microcontroller, say). The search works on `u32` copies of the
/// records, so both widths make exactly the same moves and mems.
pub trait Width: sealed::Sealed + Copy + Default + Eq + core::fmt::Debug + 'static {
    /// The signed integer of the same width (item numbers, lengths, bounds, colors).
    type Signed: Copy + Default + Eq + core::fmt::Debug + 'static;
    /// Zero.
    const ZERO: Self;
    /// Signed zero.
    const SIGNED_ZERO: Self::Signed;
    /// The largest number of node or item slots a store of this width can have.
    const MAX_SLOTS: usize;
    /// The largest signed value (item and option numbers, bounds, lengths).
    const MAX_SIGNED: i32;
    /// The value as a `u32`.
    fn get(self) -> u32;
    /// `v` truncated to this width (the caller has checked that it fits).
    fn new(v: u32) -> Self;
    /// A signed value as an `i32`.
    fn get_signed(s: Self::Signed) -> i32;
    /// `v` truncated to the signed width (the caller has checked that it fits).
    fn new_signed(v: i32) -> Self::Signed;
    /// `v` if it fits.
    fn checked(v: u32) -> Option<Self>;
    /// `v` if it fits the signed width.
    fn checked_signed(v: i32) -> Option<Self::Signed>;
}

impl Width for u32 {
    type Signed = i32;
    const ZERO: u32 = 0;
    const SIGNED_ZERO: i32 = 0;
    const MAX_SLOTS: usize = i32::MAX as usize;
    const MAX_SIGNED: i32 = i32::MAX;
    #[inline(always)]
    fn get(self) -> u32 {
        self
    }
    #[inline(always)]
    fn new(v: u32) -> u32 {
        v
    }
    #[inline(always)]
    fn get_signed(s: i32) -> i32 {
        s
    }
    #[inline(always)]
    fn new_signed(v: i32) -> i32 {
        v
    }
    fn checked(v: u32) -> Option<u32> {
        Some(v)
    }
    fn checked_signed(v: i32) -> Option<i32> {
        Some(v)
    }
}

impl Width for u16 {
    type Signed = i16;
    const ZERO: u16 = 0;
    const SIGNED_ZERO: i16 = 0;
    const MAX_SLOTS: usize = u16::MAX as usize;
    const MAX_SIGNED: i32 = i16::MAX as i32;
    #[inline(always)]
    fn get(self) -> u32 {
        u32::from(self)
    }
    #[inline(always)]
    fn new(v: u32) -> u16 {
        v as u16
    }
    #[inline(always)]
    fn get_signed(s: i16) -> i32 {
        i32::from(s)
    }
    #[inline(always)]
    fn new_signed(v: i32) -> i16 {
        v as i16
    }
    fn checked(v: u32) -> Option<u16> {
        u16::try_from(v).ok()
    }
    fn checked_signed(v: i32) -> Option<i16> {
        i16::try_from(v).ok()
    }
}

/// The first 99 bytes of the input line just read (Knuth prints them in error reports).
#[derive(Clone, Copy, Debug)]
pub struct LineHead {
    pub(super) bytes: [u8; 99],
    pub(super) len: u8,
}

impl AsRef<[u8]> for LineHead {
    fn as_ref(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

/// One node of the matrix (16 bytes with `u32` links, 8 with `u16`). For an item header
/// (index below `last_itm`), `itm` holds the list length (`len`) and `color` an auxiliary
/// value (`aux`). For a spacer, `itm <= 0` (minus the option number of the option before
/// it), `up` points to the first node of the option before it and `down` to the last node
/// of the option after it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Node<W: Width = u32> {
    /// Predecessor in the item's vertical list.
    pub up: W,
    /// Successor in the item's vertical list.
    pub down: W,
    /// The item containing this node (`len` in a header, `<= 0` in a spacer).
    pub itm: W::Signed,
    /// Color (0 = none, -1 = cleansed); `aux` in a header.
    pub color: W::Signed,
}

impl<W: Width> Node<W> {
    /// An all-zero node.
    pub const ZERO: Node<W> = Node {
        up: W::ZERO,
        down: W::ZERO,
        itm: W::SIGNED_ZERO,
        color: W::SIGNED_ZERO,
    };

    /// The node with `u32` links.
    #[inline(always)]
    pub fn wide(&self) -> Node {
        Node {
            up: self.up.get(),
            down: self.down.get(),
            itm: W::get_signed(self.itm),
            color: W::get_signed(self.color),
        }
    }

    /// `wide` in this width, if every field fits.
    pub fn narrow(wide: Node) -> Option<Node<W>> {
        Some(Node {
            up: W::checked(wide.up)?,
            down: W::checked(wide.down)?,
            itm: W::checked_signed(wide.itm)?,
            color: W::checked_signed(wide.color)?,
        })
    }

    #[inline(always)]
    pub(super) fn set_up(&mut self, v: u32) {
        self.up = W::new(v);
    }

    #[inline(always)]
    pub(super) fn set_down(&mut self, v: u32) {
        self.down = W::new(v);
    }

    #[inline(always)]
    pub(super) fn set_itm(&mut self, v: i32) {
        self.itm = W::new_signed(v);
    }

    #[inline(always)]
    pub(super) fn set_color(&mut self, v: i32) {
        self.color = W::new_signed(v);
    }
}

/// One item record (16 bytes with `u32` links, 8 with `u16`); the name lives in a separate
/// [`Name`] array.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Item<W: Width = u32> {
    /// Left neighbor in the list of active primary items.
    pub prev: W,
    /// Right neighbor in the list of active primary items.
    pub next: W,
    /// How many more options may still cover this item.
    pub bound: W::Signed,
    /// Upper bound minus lower bound, as given in the input.
    pub slack: W::Signed,
}

impl<W: Width> Item<W> {
    /// An all-zero item.
    pub const ZERO: Item<W> = Item {
        prev: W::ZERO,
        next: W::ZERO,
        bound: W::SIGNED_ZERO,
        slack: W::SIGNED_ZERO,
    };

    /// The item with `u32` links.
    #[inline(always)]
    pub fn wide(&self) -> Item {
        Item {
            prev: self.prev.get(),
            next: self.next.get(),
            bound: W::get_signed(self.bound),
            slack: W::get_signed(self.slack),
        }
    }

    /// `wide` in this width, if every field fits.
    pub fn narrow(wide: Item) -> Option<Item<W>> {
        Some(Item {
            prev: W::checked(wide.prev)?,
            next: W::checked(wide.next)?,
            bound: W::checked_signed(wide.bound)?,
            slack: W::checked_signed(wide.slack)?,
        })
    }

    #[inline(always)]
    pub(super) fn set_prev(&mut self, v: u32) {
        self.prev = W::new(v);
    }

    #[inline(always)]
    pub(super) fn set_next(&mut self, v: u32) {
        self.next = W::new(v);
    }

    #[inline(always)]
    pub(super) fn set_bound(&mut self, v: i32) {
        self.bound = W::new_signed(v);
    }
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
pub(crate) enum Names<'a> {
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

/// The storage an engine works in, borrowed from the caller: item, name, node and level
/// slices whose lengths are the capacities.
///
/// ```
/// use xcover_core::dlx3::WorkspaceView;
/// use xcover_core::dlx3::image::{Item, Level, Node};
///
/// let (mut items, mut names) = (vec![Item::ZERO; 10], vec![[0u8; 8]; 10]);
/// let (mut nodes, mut levels) = (vec![Node::ZERO; 100], vec![Level::ZERO; 8]);
/// let view = WorkspaceView::new(&mut items, &mut names, &mut nodes, &mut levels);
/// assert_eq!((view.item_slots(), view.node_slots(), view.level_slots()), (10, 100, 8));
/// ```
#[derive(Debug)]
pub struct WorkspaceView<'a, W: Width = u32> {
    pub(super) items: &'a mut [Item<W>],
    pub(super) names: Names<'a>,
    pub(super) nodes: &'a mut [Node<W>],
    pub(super) levels: &'a mut [Level],
}

impl<'a> WorkspaceView<'a> {
    /// A view of caller slices, with writable names (for reading text input).
    /// Item capacity is `min(items.len(), names.len()) - 2` items.
    pub fn new(
        items: &'a mut [Item],
        names: &'a mut [Name],
        nodes: &'a mut [Node],
        levels: &'a mut [Level],
    ) -> Self {
        WorkspaceView {
            items,
            names: Names::Mutable(names),
            nodes,
            levels,
        }
    }
}

impl<'a, W: Width> WorkspaceView<'a, W> {
    /// A view for a preloaded matrix whose names are read-only (e.g. in flash).
    pub fn with_shared_names(
        items: &'a mut [Item<W>],
        names: &'a [Name],
        nodes: &'a mut [Node<W>],
        levels: &'a mut [Level],
    ) -> Self {
        WorkspaceView {
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

/// Storage owned, with compile-time capacities, constructible in a `static`; it lends a
/// [`WorkspaceView`] of itself to an engine.
///
/// `ITEMS` is the number of item slots (items + 2), `NODES` the number of node slots and
/// `LEVELS` the maximum search depth.
///
/// ```
/// use xcover_core::dlx3::{Dlx3, Settings, Workspace};
///
/// // Room for 6 items, 62 nodes and 16 levels; `const`, so it can be a `static`.
/// static _SPARE: Workspace<8, 64, 16> = Workspace::new();
/// let mut ws: Workspace<8, 64, 16> = Workspace::new();
/// let engine = Dlx3::new(ws.as_mut_view(), Settings::DEFAULT)?;
/// assert_eq!(engine.item_count(), 0);
/// # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
/// ```
#[derive(Debug)]
pub struct Workspace<const ITEMS: usize, const NODES: usize, const LEVELS: usize> {
    arrays: OwnedArrays<[Item; ITEMS], [Name; ITEMS], [Node; NODES], [Level; LEVELS]>,
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
            arrays: OwnedArrays {
                items: [Item::ZERO; ITEMS],
                names: [[0; 8]; ITEMS],
                nodes: [Node::ZERO; NODES],
                levels: [Level::ZERO; LEVELS],
            },
        }
    }

    /// Lends the storage to an engine.
    pub fn as_mut_view(&mut self) -> WorkspaceView<'_> {
        self.arrays.view()
    }
}

/// The four arrays of an owned workspace, in containers that lend slices: fixed arrays in
/// a [`Workspace`], vectors in a `HeapWorkspace`.
#[derive(Debug)]
pub(super) struct OwnedArrays<I, M, N, L> {
    pub(super) items: I,
    pub(super) names: M,
    pub(super) nodes: N,
    pub(super) levels: L,
}

impl<I, M, N, L> OwnedArrays<I, M, N, L>
where
    I: AsMut<[Item]>,
    M: AsMut<[Name]>,
    N: AsMut<[Node]>,
    L: AsMut<[Level]>,
{
    /// The arrays as an engine's storage.
    pub(super) fn view(&mut self) -> WorkspaceView<'_> {
        WorkspaceView::new(
            self.items.as_mut(),
            self.names.as_mut(),
            self.nodes.as_mut(),
            self.levels.as_mut(),
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
        let s = ws.as_mut_view();
        assert_eq!(
            (s.item_slots(), s.node_slots(), s.level_slots()),
            (12, 100, 7)
        );
        assert_eq!(core::mem::size_of::<Node>(), 16);
        assert_eq!(core::mem::size_of::<Item>(), 16);
        assert_eq!(core::mem::size_of::<Node<u16>>(), 8);
        assert_eq!(core::mem::size_of::<Item<u16>>(), 8);
    }

    #[test]
    fn narrowing_checks_every_field() {
        let n = Node {
            up: 7,
            down: 65_535,
            itm: -3,
            color: 255,
        };
        assert_eq!(Node::<u16>::narrow(Node { down: 65_536, ..n }), None);
        let n = Node { down: 300, ..n };
        let small = Node::<u16>::narrow(n).unwrap();
        assert_eq!(small.wide(), n);
        assert_eq!(Node::<u16>::narrow(Node { itm: -40_000, ..n }), None);
        let it = Item {
            prev: 1,
            next: 2,
            bound: 40_000,
            slack: 0,
        };
        assert_eq!(Item::<u16>::narrow(it), None);
        let it = Item { bound: 3, ..it };
        assert_eq!(Item::<u16>::narrow(it).map(|i| i.wide()), Some(it));
    }
}
