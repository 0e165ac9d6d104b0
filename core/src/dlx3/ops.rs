//! The dancing steps: cover/uncover, purify/unpurify, tweak/untweak, and covering the rest
//! of a chosen option — each charging exactly Knuth's mems.
//!
//! `Dancer` borrows the node and item arrays for one `run` and keeps the hot counters in
//! locals, so the optimizer can hold them in registers.
use super::storage::{Item, Node};

/// An array index taken from a link field (`u32`, or a non-negative `i32` item number).
#[derive(Clone, Copy)]
pub(super) struct Idx(usize);

impl From<u32> for Idx {
    #[inline(always)]
    fn from(i: u32) -> Idx {
        Idx(i as usize)
    }
}

impl From<i32> for Idx {
    /// Item numbers in option nodes are positive; the cast keeps the low bits.
    #[inline(always)]
    fn from(i: i32) -> Idx {
        Idx(i as u32 as usize)
    }
}

/// Node `i` of `nd` (a copy); see the soundness note in `impl Dancer`.
#[inline(always)]
fn at(nd: &[Node], i: impl Into<Idx>) -> Node {
    let i = i.into().0;
    debug_assert!(i < nd.len());
    // SAFETY: `i` is a valid node index by the structure invariant (see `impl Dancer`).
    #[allow(unsafe_code)]
    unsafe {
        *nd.get_unchecked(i)
    }
}

/// Node `i` of `nd`, writable; see the soundness note in `impl Dancer`.
#[inline(always)]
fn at_mut(nd: &mut [Node], i: impl Into<Idx>) -> &mut Node {
    let i = i.into().0;
    debug_assert!(i < nd.len());
    // SAFETY: as for `at`.
    #[allow(unsafe_code)]
    unsafe {
        nd.get_unchecked_mut(i)
    }
}

/// Walks the rest of the option of node `rr` rightward (from `rr + 1` to the spacer, then
/// from the option's first node back to `rr`), applying `visit` to every node other than
/// the spacer. The walk is split in two loops so that neither needs to test for both the
/// spacer and the end: the first stops at the spacer (`itm <= 0`), the second at `rr`.
/// (Spacers always have color >= 0, so testing `itm` before `color` is equivalent to
/// Knuth's order.)
#[inline(always)]
fn walk_rest(nd: &mut [Node], rr: u32, mut visit: impl FnMut(&mut [Node], u32, Node)) {
    let mut nn = rr + 1;
    loop {
        let n = at(nd, nn);
        if n.itm <= 0 {
            nn = n.up;
            break;
        }
        visit(nd, nn, n);
        nn += 1;
    }
    while nn != rr {
        let n = at(nd, nn);
        visit(nd, nn, n);
        nn += 1;
    }
}

/// Hides the rest of the option of `rr` (Knuth's inner loop of `cover`). Counts hidden and
/// cleansed (skipped) nodes; `COLORED == false` means no node can be cleansed.
#[inline(always)]
fn hide_rest<const COLORED: bool>(nd: &mut [Node], rr: u32, hidden: &mut u64, cleansed: &mut u64) {
    walk_rest(nd, rr, |nd, _nn, n| {
        if COLORED && n.color < 0 {
            *cleansed += 1;
            return;
        }
        at_mut(nd, n.up).down = n.down;
        at_mut(nd, n.down).up = n.up;
        at_mut(nd, n.itm).itm -= 1;
        *hidden += 1;
    });
}

/// Restores the rest of the option of `rr` (Knuth's inner loop of `uncover`).
#[inline(always)]
fn unhide_rest<const COLORED: bool>(nd: &mut [Node], rr: u32, shown: &mut u64, cleansed: &mut u64) {
    walk_rest(nd, rr, |nd, nn, n| {
        if COLORED && n.color < 0 {
            *cleansed += 1;
            return;
        }
        at_mut(nd, n.up).down = nn;
        at_mut(nd, n.down).up = nn;
        at_mut(nd, n.itm).itm += 1;
        *shown += 1;
    });
}

/// The arrays and counters the dancing steps work on.
pub(super) struct Dancer<'x> {
    pub nd: &'x mut [Node],
    pub cl: &'x mut [Item],
    /// Nodes below this index are item headers.
    pub last_itm: u32,
    /// Items from this index on are secondary.
    pub second: u32,
    /// Whether any node has a color (otherwise no node is ever cleansed).
    pub colored: bool,
    pub mems: u64,
    pub updates: u64,
    pub cleansings: u64,
}

impl Dancer<'_> {
    // Soundness of the unchecked accesses below. Every index used here is either
    // (a) a link field (`up`, `down`, item `prev`/`next`) or an option node's `itm`, read
    //     from the structure, or (b) `p + 1` / `p - 1` for a node `p` met while walking an
    //     option, which stays inside that option or reaches its spacer.
    // The structure is established either by the parser (which links only indices it has
    // bounds-checked: headers `< last_itm`, option nodes and spacers `<= last_node <
    // nodes.len()`, items `< last_itm < items.len()`) or by `Dlx3::preloaded`, which checks
    // an image against exactly those rules before accepting it. The dancing steps only ever
    // store values of kind (a) or the index of a node being walked, so every link keeps
    // pointing inside `0..=last_node` (nodes) or `0..last_itm` (items); `itm` of option
    // nodes is never written. Walks start at nodes of item lists, which hold option nodes
    // only (never a spacer), so `p + 1 <= last_node` and `p - 1 >= last_itm`.

    /// Node `i` (a copy).
    #[inline(always)]
    pub fn node(&self, i: impl Into<Idx>) -> Node {
        let i = i.into().0;
        debug_assert!(i < self.nd.len());
        // SAFETY: `i` is a valid node index by the invariant explained above.
        #[allow(unsafe_code)]
        unsafe {
            *self.nd.get_unchecked(i)
        }
    }

    /// Node `i`, writable.
    #[inline(always)]
    pub fn node_mut(&mut self, i: impl Into<Idx>) -> &mut Node {
        let i = i.into().0;
        debug_assert!(i < self.nd.len());
        // SAFETY: as for `node`.
        #[allow(unsafe_code)]
        unsafe {
            self.nd.get_unchecked_mut(i)
        }
    }

    /// Item `i` (a copy).
    #[inline(always)]
    pub fn item(&self, i: impl Into<Idx>) -> Item {
        let i = i.into().0;
        debug_assert!(i < self.cl.len());
        // SAFETY: item indices come from `prev`/`next` links or option nodes' `itm`, all
        // below `last_itm` by the invariant explained above.
        #[allow(unsafe_code)]
        unsafe {
            *self.cl.get_unchecked(i)
        }
    }

    /// Item `i`, writable.
    #[inline(always)]
    pub fn item_mut(&mut self, i: impl Into<Idx>) -> &mut Item {
        let i = i.into().0;
        debug_assert!(i < self.cl.len());
        // SAFETY: as for `item`.
        #[allow(unsafe_code)]
        unsafe {
            self.cl.get_unchecked_mut(i)
        }
    }

    /// Removes item `c` from the active list (3 mems).
    #[inline(always)]
    pub fn deactivate(&mut self, c: u32) {
        self.mems += 3;
        let Item { prev, next, .. } = self.item(c);
        self.item_mut(prev).next = next;
        self.item_mut(next).prev = prev;
    }

    /// Puts item `c` back into the active list (3 mems).
    #[inline(always)]
    pub fn reactivate(&mut self, c: u32) {
        self.mems += 3;
        let Item { prev, next, .. } = self.item(c);
        self.item_mut(prev).next = c;
        self.item_mut(next).prev = c;
    }

    /// Knuth's `cover(c, deact)`: hides every option of item `c` from the other items.
    ///
    /// For each node `rr` of `c`'s list the rest of its option is walked rightward; the
    /// walk meets exactly one spacer, so its mems are 2 + 6 per hidden node + 1 per
    /// cleansed node, plus 1 per `down` step along `c`'s list (and 1 for the first).
    #[inline(always)]
    pub fn cover(&mut self, c: u32, deact: bool) {
        if deact {
            self.deactivate(c);
        }
        if self.colored {
            self.cover_list::<true>(c);
        } else {
            self.cover_list::<false>(c);
        }
    }

    #[inline(never)]
    fn cover_list<const COLORED: bool>(&mut self, c: u32) {
        let last_itm = self.last_itm;
        let nd = &mut *self.nd;
        let (mut steps, mut hidden, mut cleansed) = (0u64, 0u64, 0u64);
        let mut rr = at(nd, c).down;
        while rr >= last_itm {
            steps += 1;
            hide_rest::<COLORED>(nd, rr, &mut hidden, &mut cleansed);
            rr = at(nd, rr).down;
        }
        self.mems += 1 + 3 * steps + 6 * hidden + cleansed;
        self.updates += 1 + hidden;
    }

    /// Knuth's `uncover(c, react)`: undoes `cover`, also top to bottom (same mems).
    #[inline(always)]
    pub fn uncover(&mut self, c: u32, react: bool) {
        if self.colored {
            self.uncover_list::<true>(c);
        } else {
            self.uncover_list::<false>(c);
        }
        if react {
            self.reactivate(c);
        }
    }

    #[inline(never)]
    fn uncover_list<const COLORED: bool>(&mut self, c: u32) {
        let last_itm = self.last_itm;
        let nd = &mut *self.nd;
        let (mut steps, mut shown, mut cleansed) = (0u64, 0u64, 0u64);
        let mut rr = at(nd, c).down;
        while rr >= last_itm {
            steps += 1;
            unhide_rest::<COLORED>(nd, rr, &mut shown, &mut cleansed);
            rr = at(nd, rr).down;
        }
        self.mems += 1 + 3 * steps + 6 * shown + cleansed;
    }

    /// Knuth's `purify(p)`: node `p` has color `x > 0` in secondary item `c`; hide the
    /// options of `c` with other colors and mark those with color `x` as cleansed.
    pub fn purify(&mut self, p: u32) {
        self.mems += 1;
        let Node { itm: c, color: x, .. } = self.node(p);
        self.node_mut(c).color = x; // for printing only, so no mem
        self.cleansings += 1;
        self.mems += 1;
        let mut rr = self.node(c).down;
        while rr >= self.last_itm {
            self.mems += 1;
            if self.node(rr).color != x {
                let mut nn = rr + 1;
                while nn != rr {
                    self.mems += 2;
                    let n = self.node(nn);
                    if n.itm <= 0 {
                        nn = n.up;
                        continue;
                    }
                    if n.color >= 0 {
                        self.mems += 4;
                        self.node_mut(n.up).down = n.down;
                        self.node_mut(n.down).up = n.up;
                        self.updates += 1;
                        self.node_mut(n.itm).itm -= 1;
                    }
                    nn += 1;
                }
            } else if rr != p {
                self.cleansings += 1;
                self.mems += 1;
                self.node_mut(rr).color = -1;
            }
            self.mems += 1;
            rr = self.node(rr).down;
        }
    }

    /// Knuth's `unpurify(p)`: undoes `purify`, bottom to top and leftward.
    pub fn unpurify(&mut self, p: u32) {
        self.mems += 1;
        let Node { itm: c, color: x, .. } = self.node(p);
        self.mems += 1;
        let mut rr = self.node(c).up;
        while rr >= self.last_itm {
            self.mems += 1;
            if self.node(rr).color < 0 {
                self.mems += 1;
                self.node_mut(rr).color = x;
            } else if rr != p {
                let mut nn = rr - 1;
                while nn != rr {
                    self.mems += 2;
                    let n = self.node(nn);
                    if n.itm <= 0 {
                        nn = n.down;
                        continue;
                    }
                    if n.color >= 0 {
                        self.mems += 4;
                        self.node_mut(n.up).down = nn;
                        self.node_mut(n.down).up = nn;
                        self.node_mut(n.itm).itm += 1;
                    }
                    nn -= 1;
                }
            }
            self.mems += 1;
            rr = self.node(rr).up;
        }
    }

    /// Knuth's `tweak(n, block)`: removes the top node `n` from its item's list, and if
    /// `block`, hides the rest of its option too.
    #[inline(never)]
    pub fn tweak(&mut self, n: u32, block: bool) {
        let nd = &mut *self.nd;
        let (mut mems, mut hidden) = (0u64, 0u64);
        let mut nn = if block { n + 1 } else { n };
        loop {
            let x = at(nd, nn);
            mems += 1;
            if x.color >= 0 {
                mems += 1;
                if x.itm <= 0 {
                    nn = x.up;
                    continue;
                }
                mems += 4;
                at_mut(nd, x.up).down = x.down;
                at_mut(nd, x.down).up = x.up;
                at_mut(nd, x.itm).itm -= 1;
                hidden += 1;
            }
            if nn == n {
                break;
            }
            nn += 1;
        }
        self.mems += mems;
        self.updates += hidden;
    }

    /// Knuth's `untweak(c, x, unblock)`: `x` is the node that was on top of item `c` when
    /// the level was entered; the removed nodes still point down to each other.
    #[inline(never)]
    pub fn untweak(&mut self, c: u32, x: u32, unblock: bool) {
        let nd = &mut *self.nd;
        let z = at(nd, c).down;
        at_mut(nd, c).down = x;
        let (mut shown, mut cleansed) = (0u64, 0u64);
        let mut rr = x;
        let mut qq = c;
        let mut k: i32 = 0;
        while rr != z {
            at_mut(nd, rr).up = qq;
            k += 1;
            if unblock {
                unhide_rest::<true>(nd, rr, &mut shown, &mut cleansed);
            }
            qq = rr;
            rr = at(nd, rr).down;
        }
        at_mut(nd, rr).up = qq;
        at_mut(nd, c).itm += k;
        // 2 + 2 per step + 1 + 2, and per unblocked option 2 (spacer) + 6/1 per node.
        let spacers = if unblock { k as u64 } else { 0 };
        self.mems += 5 + 2 * k as u64 + 2 * spacers + 6 * shown + cleansed;
        if !unblock {
            self.uncover(c, false);
        }
    }

    /// Covers or partially covers the other items of the option of `cur` (rightward).
    #[inline(always)]
    pub fn cover_rest(&mut self, cur: u32) {
        let mut pp = cur + 1;
        while pp != cur {
            self.mems += 1;
            let n = self.node(pp);
            let cc = n.itm;
            if cc <= 0 {
                self.mems += 1;
                pp = n.up;
                continue;
            }
            if (cc as u32) < self.second {
                self.mems += 2;
                let b = self.item(cc).bound - 1;
                self.item_mut(cc).bound = b;
                if b == 0 {
                    self.cover(cc as u32, true);
                }
            } else if n.color == 0 {
                self.cover(cc as u32, true);
            } else if n.color > 0 {
                self.purify(pp);
            }
            pp += 1;
        }
    }

    /// Undoes `cover_rest`, leftward from the node left of `cur`.
    #[inline(always)]
    pub fn uncover_rest(&mut self, cur: u32) {
        let mut pp = cur - 1;
        while pp != cur {
            self.mems += 1;
            let n = self.node(pp);
            let cc = n.itm;
            if cc <= 0 {
                self.mems += 1;
                pp = n.down;
                continue;
            }
            if (cc as u32) < self.second {
                self.mems += 1;
                if self.item(cc).bound == 0 {
                    self.uncover(cc as u32, true);
                }
                self.mems += 1;
                self.item_mut(cc).bound += 1;
            } else if n.color == 0 {
                self.uncover(cc as u32, true);
            } else if n.color > 0 {
                self.unpurify(pp);
            }
            pp -= 1;
        }
    }
}
