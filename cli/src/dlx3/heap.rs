//! Engine storage on the heap, sized from an input: as much as `measure` says the input
//! needs, clamped to Knuth's limits (the command's `--max-memory` check comes first).
use xcover_core::dlx3::{measure, Item, Level, Name, Node, WorkspaceView, MAX_LEVEL};

/// The engine's arrays for one input.
pub(crate) struct HeapStorage {
    items: Vec<Item>,
    names: Vec<Name>,
    nodes: Vec<Node>,
    levels: Vec<Level>,
}

impl HeapStorage {
    /// Storage for reading `input`.
    pub fn for_input(input: &[u8]) -> HeapStorage {
        let cap = measure(input);
        HeapStorage {
            items: vec![Item::ZERO; cap.item_slots],
            names: vec![[0u8; 8]; cap.item_slots],
            nodes: vec![Node::ZERO; cap.node_slots],
            levels: vec![Level::ZERO; MAX_LEVEL],
        }
    }

    /// The storage as an engine's workspace.
    pub fn view(&mut self) -> WorkspaceView<'_> {
        WorkspaceView::new(
            &mut self.items,
            &mut self.names,
            &mut self.nodes,
            &mut self.levels,
        )
    }
}
