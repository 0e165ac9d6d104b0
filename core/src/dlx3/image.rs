//! Checking a preloaded matrix image: it must look exactly like what the parser builds,
//! because the dancing steps rely on that structure (see the soundness note in `ops`).
use super::event::Layout;
use super::storage::{Item, Node, Width};

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
