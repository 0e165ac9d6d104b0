//! The matrix image format: the records an engine's matrix is made of, for code that lays
//! out the storage itself — a matrix kept in flash and handed to [`Dlx3::preloaded`], the
//! Rust source `xcover dlx3 --export-rust` writes, the C ABI's record sizes.
//!
//! A matrix is an array of [`Item`] records (with a parallel array of
//! [`Name`](super::Name)s), an array of [`Node`] records and its [`Layout`] (how many of
//! each are in use); the search keeps one [`Level`] per level of its tree. The links are
//! integers of a [`Width`]: `u32` for any matrix, `u16` for one of at most 65,535 nodes in
//! half the RAM. An engine shows its matrix with [`Dlx3::layout`], [`Dlx3::items`] and
//! [`Dlx3::nodes`]; [`Dlx3::preloaded`] checks that an image looks exactly like what the
//! parser builds (the dancing steps rely on that structure, see the soundness note in
//! `ops`) and refuses any other with `Dlx3Error::BadImage`.
//!
//! The records follow the engine's data structure (Knuth's DLX3), so an image is tied to
//! the version of this crate that wrote it: regenerate images when upgrading.
//!
//! ```
//! use xcover_core::dlx3::image::{Item, Layout, Level, Node};
//! use xcover_core::dlx3::{Dlx3, Event, Settings, WorkspaceView};
//!
//! // Items A and B, options "A" and "B": the image the parser builds of "A B\nA\nB\n".
//! let layout = Layout { last_itm: 3, second: 3, last_node: 7, options: 2 };
//! let mut items = [
//!     Item { prev: 2, next: 1, bound: 0, slack: 0 },
//!     Item { prev: 0, next: 2, bound: 1, slack: 0 },
//!     Item { prev: 1, next: 0, bound: 1, slack: 0 },
//!     Item::ZERO,
//! ];
//! let names = [*b"\0\0\0\0\0\0\0\0", *b"A\0\0\0\0\0\0\0", *b"B\0\0\0\0\0\0\0", [0; 8]];
//! let mut nodes = [
//!     Node { up: 0, down: 0, itm: 0, color: 0 },
//!     Node { up: 4, down: 4, itm: 1, color: 4 },
//!     Node { up: 6, down: 6, itm: 1, color: 6 },
//!     Node { up: 0, down: 4, itm: 0, color: 0 },
//!     Node { up: 1, down: 1, itm: 1, color: 0 },
//!     Node { up: 4, down: 6, itm: -1, color: 0 },
//!     Node { up: 2, down: 2, itm: 2, color: 0 },
//!     Node { up: 6, down: 0, itm: -2, color: 0 },
//! ];
//! let mut levels = [Level::ZERO; 4];
//! let view = WorkspaceView::with_shared_names(&mut items, &names, &mut nodes, &mut levels);
//! let mut e = Dlx3::<u32>::preloaded(view, Settings::new(), layout)?;
//! assert_eq!(e.run_silent(u64::MAX)?, Event::Solution);
//! # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
//! ```
#[cfg(doc)]
use super::Dlx3;

pub use super::event::Layout;
pub use super::storage::{Item, Level, Node, Width};

/// True if `items`/`nodes` with `layout` form the structure the parser would have built:
/// primary items linked in order through the root, secondary items linked to themselves,
/// options as runs of nodes between spacers with correct spacer links, every option node
/// in the list of its item exactly once, list lengths right, no item twice in an option,
/// colors only on secondary items, bounds with `0 <= slack < bound` ... as Knuth parses them.
pub(super) fn is_valid_image<W: Width>(items: &[Item<W>], nodes: &[Node<W>], l: &Layout) -> bool {
    let (li, sec, ln) = (l.last_itm as usize, l.second as usize, l.last_node as usize);
    if !(2..=li).contains(&sec) || li >= items.len() || ln >= nodes.len() || ln < li {
        return false;
    }
    // Items: the active list is 0 -> 1 -> ... -> sec-1 -> 0; secondaries point to themselves.
    for (k, it) in items[..li].iter().map(Item::wide).enumerate() {
        let ok = if k == 0 {
            it.prev as usize == sec - 1 && it.next == 1
        } else if k < sec {
            it.prev as usize == k - 1
                && it.next as usize == if k + 1 == sec { 0 } else { k + 1 }
                && it.bound >= 1
                && it.slack >= 0
                && it.slack <= it.bound
        } else {
            it.prev as usize == k && it.next as usize == k
        };
        if !ok {
            return false;
        }
    }
    // Options: runs of item nodes, each followed by a spacer.
    if nodes[li].wide().itm > 0 || nodes[li].wide().color < 0 {
        return false;
    }
    let mut p = li + 1;
    let mut options: u64 = 0;
    while p <= ln {
        let start = p;
        while p <= ln && nodes[p].wide().itm > 0 {
            let n = nodes[p].wide();
            let k = n.itm as usize;
            if k >= li || n.color < 0 || (k < sec && n.color != 0) || n.color > 255 {
                return false;
            }
            if nodes[start..p].iter().any(|m| m.wide().itm == n.itm) {
                return false;
            }
            p += 1;
        }
        if p > ln || p == start {
            return false;
        }
        options += 1;
        let s = nodes[p].wide();
        if s.color < 0 || s.up as usize != start || nodes[start - 1].wide().down as usize != p - 1 {
            return false;
        }
        p += 1;
    }
    if options != l.options || nodes[ln].wide().itm > 0 {
        return false;
    }
    // Item lists: doubly linked cycles through the header over that item's nodes only.
    let option_nodes = ln - li - options as usize;
    let mut total = 0usize;
    for k in 1..li {
        let mut q = k;
        let mut count = 0usize;
        loop {
            let d = nodes[q].wide().down as usize;
            if d > ln || nodes[d].wide().up as usize != q {
                return false;
            }
            if d == k {
                break;
            }
            if d <= li || nodes[d].wide().itm as usize != k || count >= option_nodes {
                return false;
            }
            count += 1;
            q = d;
        }
        if nodes[k].wide().itm < 0 || nodes[k].wide().itm as usize != count {
            return false;
        }
        total += count;
    }
    total == option_nodes
}
