//! The third form of an engine's storage, with the `alloc` feature: [`HeapWorkspace`],
//! owned on the heap with capacities chosen at run time (for an input, by [`measure`]).
//! Firmware and the C library never enable the feature; programs with an allocator (the
//! command, tests, benches, fuzz targets) use it instead of building the arrays by hand.

extern crate alloc;

use alloc::vec;
use alloc::vec::Vec;

use super::capacity::{measure, Capacity};
use super::settings::MAX_LEVEL;
use super::storage::{Item, Level, Name, Node, OwnedArrays, WorkspaceView};

/// The four arrays of a [`HeapWorkspace`].
pub(super) type HeapArrays = OwnedArrays<Vec<Item>, Vec<Name>, Vec<Node>, Vec<Level>>;

/// Storage owned on the heap, its capacities chosen at run time; it lends a
/// [`WorkspaceView`] of itself to an engine, as a [`Workspace`](super::Workspace) does.
///
/// [`HeapWorkspace::for_input`] sizes it for one input as `xcover dlx3` does: the engine
/// then behaves exactly as with Knuth's full-size arrays (see [`measure`]).
///
/// ```
/// use xcover_core::dlx3::{Dlx3, HeapWorkspace, Settings};
/// use xcover_core::sink::Discard;
///
/// let text = b"A B C\nA B\nC\nA C\n";
/// let mut ws = HeapWorkspace::for_input(text);
/// let mut engine = Dlx3::new(ws.as_mut_view(), Settings::DEFAULT)?;
/// engine.read_input(text, &mut Discard)?; // always fits
/// assert_eq!((engine.item_count(), engine.option_count()), (3, 3));
/// # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
/// ```
#[derive(Debug)]
pub struct HeapWorkspace {
    pub(super) arrays: HeapArrays,
}

impl HeapWorkspace {
    /// Zeroed storage with the item and node slots of `capacity` and `levels` levels.
    ///
    /// ```
    /// use xcover_core::dlx3::{Capacity, HeapWorkspace};
    ///
    /// let capacity = Capacity { item_slots: 24, node_slots: 200 };
    /// let mut ws = HeapWorkspace::new(capacity, 4);
    /// let view = ws.as_mut_view();
    /// assert_eq!((view.item_slots(), view.node_slots(), view.level_slots()), (24, 200, 4));
    /// ```
    pub fn new(capacity: Capacity, levels: usize) -> Self {
        HeapWorkspace {
            arrays: OwnedArrays {
                items: vec![Item::ZERO; capacity.item_slots],
                names: vec![[0; 8]; capacity.item_slots],
                nodes: vec![Node::ZERO; capacity.node_slots],
                levels: vec![Level::ZERO; levels],
            },
        }
    }

    /// Storage for reading `input`: the capacity [`measure`] gives (within Knuth's limits)
    /// and Knuth's [`MAX_LEVEL`] levels.
    ///
    /// ```
    /// use xcover_core::dlx3::{measure, HeapWorkspace, MAX_LEVEL};
    ///
    /// let text = b"A B\nA\nB\n";
    /// let mut ws = HeapWorkspace::for_input(text);
    /// let view = ws.as_mut_view();
    /// assert_eq!(view.item_slots(), measure(text).item_slots);
    /// assert_eq!(view.node_slots(), measure(text).node_slots);
    /// assert_eq!(view.level_slots(), MAX_LEVEL);
    /// ```
    pub fn for_input(input: &[u8]) -> Self {
        Self::new(measure(input), MAX_LEVEL)
    }

    /// Lends the storage to an engine.
    ///
    /// ```
    /// use xcover_core::dlx3::{Dlx3, HeapWorkspace, Settings};
    ///
    /// let mut ws = HeapWorkspace::for_input(b"A\nA\n");
    /// let engine = Dlx3::new(ws.as_mut_view(), Settings::DEFAULT)?;
    /// assert_eq!(engine.item_count(), 0);
    /// # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
    /// ```
    pub fn as_mut_view(&mut self) -> WorkspaceView<'_> {
        self.arrays.view()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dlx3::{Dlx3, Dlx3Error, InputError, Settings};
    use crate::sink::Discard;

    /// An input at the capacity `measure` gives reads without a capacity error, and one
    /// slot fewer of either kind gives Knuth's error for it.
    #[test]
    fn for_input_is_exactly_large_enough() {
        let text = b"A B C | x\nA B x:1\nC\nA C x:2\nB\n";
        let mut ws = HeapWorkspace::for_input(text);
        let mut e = Dlx3::new(ws.as_mut_view(), Settings::DEFAULT).unwrap();
        assert_eq!(e.read_input(text, &mut Discard), Ok(()));
        assert_eq!(e.option_count(), 4);

        let cap = measure(text);
        let need = e.layout();
        assert!((need.last_itm as usize) < cap.item_slots);
        assert!((need.last_node as usize) < cap.node_slots);
        let tight = Capacity {
            item_slots: need.last_itm as usize + 1,
            node_slots: need.last_node as usize,
        };
        let mut small = HeapWorkspace::new(tight, MAX_LEVEL);
        let mut e = Dlx3::new(small.as_mut_view(), Settings::DEFAULT).unwrap();
        assert!(matches!(
            e.read_input(text, &mut Discard),
            Err(Dlx3Error::Input {
                kind: InputError::TooManyNodes,
                ..
            })
        ));
    }

    /// Zero levels is refused as any too-small storage is.
    #[test]
    fn empty_storage_is_refused() {
        let cap = Capacity {
            item_slots: 8,
            node_slots: 8,
        };
        let mut ws = HeapWorkspace::new(cap, 0);
        assert!(matches!(
            Dlx3::new(ws.as_mut_view(), Settings::DEFAULT),
            Err(Dlx3Error::StorageTooSmall)
        ));
    }
}
