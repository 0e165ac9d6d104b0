//! The search that counts nothing, on a copy of the matrix with 16-bit links when they
//! hold it: nodes of 8 bytes instead of 16, which the dancing steps index without a
//! shift, and half the memory. 12-16 % fewer instructions on queens 13, the 6x6 tiles
//! and Langford 12 (docs/PERFORMANCE.md); the same moves, solutions, nodes and stops
//! (core's tests of preloaded images with 16-bit links, and this crate's conformance
//! test, which runs every case of the corpus uncounted).
use xcover_core::dlx3::image::{Item, Level, Node};
use xcover_core::dlx3::{Dlx3, Dlx3Error, Name, WorkspaceView};

/// A loaded engine's matrix with 16-bit links, and levels for its search.
pub(super) struct Narrow {
    items: Vec<Item<u16>>,
    nodes: Vec<Node<u16>>,
    names: Vec<Name>,
    levels: Vec<Level>,
}

impl Narrow {
    /// The matrix of `e` (loaded, not searched yet) and `levels` levels, or `None` if
    /// some link, length or bound does not fit 16 bits.
    pub(super) fn of(e: &Dlx3<'_>, levels: usize) -> Option<Self> {
        let mut items: Vec<Item<u16>> = e
            .items()
            .iter()
            .map(|&i| Item::narrow(i))
            .collect::<Option<_>>()?;
        let mut nodes: Vec<Node<u16>> = e
            .nodes()
            .iter()
            .map(|&n| Node::narrow(n))
            .collect::<Option<_>>()?;
        // A spare record each, as the engine's own storage has past its last item and
        // node (`Dlx3::preloaded` checks for it).
        items.push(Item::ZERO);
        nodes.push(Node::ZERO);
        let names = (0..items.len() as u32).map(|k| e.item_name(k)).collect();
        Some(Narrow {
            items,
            nodes,
            names,
            levels: vec![Level::ZERO; levels],
        })
    }

    /// An engine over the copy, with the settings and layout of `e`, ready to search.
    pub(super) fn engine(&mut self, e: &Dlx3<'_>) -> Result<Dlx3<'_, u16>, Dlx3Error> {
        let view = WorkspaceView::with_shared_names(
            &mut self.items,
            &self.names,
            &mut self.nodes,
            &mut self.levels,
        );
        Dlx3::preloaded(view, *e.settings(), e.layout())
    }
}
