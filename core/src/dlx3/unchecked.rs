//! The unchecked record accesses of the dancing steps (`at`, `at_mut`, `item_at`,
//! `item_at_mut`). Every index used is either
//! (a) a link field (`up`, `down`, item `prev`/`next`) or an option node's `itm`, read
//!     from the structure, or (b) `p + 1` / `p - 1` for a node `p` met while walking an
//!     option, which stays inside that option or reaches its spacer.
//! The structure is established either by the parser (which links only indices it has
//! bounds-checked: headers `< last_itm`, option nodes and spacers `<= last_node <
//! nodes.len()`, items `< last_itm < items.len()`) or by `Dlx3::preloaded`, which checks
//! an image against exactly those rules before accepting it (`image::is_valid_image`). The
//! dancing steps only ever store values of kind (a) or the index of a node being walked, so
//! every link keeps pointing inside `0..=last_node` (nodes) or `0..last_itm` (items); `itm`
//! of option nodes is never written. Walks start at nodes of item lists, which hold option
//! nodes only (never a spacer), so `p + 1 <= last_node` and `p - 1 >= last_itm`.
//!
//! Every `unsafe` block in `ops.rs` and `choose.rs` rests on this argument; `ops.rs`'s raw
//! pointer walks cite its kinds (a) and (b).
use super::storage::{Item, Node, Width};

/// An array index taken from a link field (`u32`, or a non-negative `i32` item number).
#[derive(Clone, Copy)]
pub(super) struct Idx(pub(super) usize);

impl From<u32> for Idx {
    #[inline(always)]
    fn from(i: u32) -> Idx {
        Idx(i as usize)
    }
}

impl From<usize> for Idx {
    #[inline(always)]
    fn from(i: usize) -> Idx {
        Idx(i)
    }
}

impl From<i32> for Idx {
    /// Item numbers in option nodes are positive; the cast keeps the low bits.
    #[inline(always)]
    fn from(i: i32) -> Idx {
        Idx(i as u32 as usize)
    }
}

/// Node `i` of `nd` (a copy with `u32` links).
#[inline(always)]
pub(super) fn at<W: Width>(nd: &[Node<W>], i: impl Into<Idx>) -> Node {
    let i = i.into().0;
    debug_assert!(i < nd.len());
    // SAFETY: `i` is a valid node index by the structure invariant (module comment).
    #[allow(unsafe_code)]
    unsafe {
        nd.get_unchecked(i).wide()
    }
}

/// Node `i` of `nd`, writable.
#[inline(always)]
pub(super) fn at_mut<W: Width>(nd: &mut [Node<W>], i: impl Into<Idx>) -> &mut Node<W> {
    let i = i.into().0;
    debug_assert!(i < nd.len());
    // SAFETY: as for `at`.
    #[allow(unsafe_code)]
    unsafe {
        nd.get_unchecked_mut(i)
    }
}

/// Item `i` of `cl` (a copy with `u32` links).
#[inline(always)]
pub(super) fn item_at<W: Width>(cl: &[Item<W>], i: impl Into<Idx>) -> Item {
    let i = i.into().0;
    debug_assert!(i < cl.len());
    // SAFETY: item indices are below `last_itm` by the structure invariant.
    #[allow(unsafe_code)]
    unsafe {
        cl.get_unchecked(i).wide()
    }
}

/// Item `i` of `cl`, writable.
#[inline(always)]
pub(super) fn item_at_mut<W: Width>(cl: &mut [Item<W>], i: impl Into<Idx>) -> &mut Item<W> {
    let i = i.into().0;
    debug_assert!(i < cl.len());
    // SAFETY: as for `item_at`.
    #[allow(unsafe_code)]
    unsafe {
        cl.get_unchecked_mut(i)
    }
}
