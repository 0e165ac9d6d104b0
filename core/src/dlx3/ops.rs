//! The dancing steps: cover/uncover, purify/unpurify, tweak/untweak, and covering the rest
//! of a chosen option — each charging exactly Knuth's mems.
//!
//! The list walks are free functions over the node slice that return their mems (and add
//! updates and cleansings to [`Tallies`]); `Dancer` (the state of one `run`) adds them up.
//! Returning the mems instead of adding to `Dancer` fields keeps `Dancer` out of memory,
//! so the optimizer holds every hot value in registers.
use super::active::ActiveSet;
use super::storage::{Item, Node, Width};
use super::unchecked::{at, at_mut, item_at, item_at_mut, Idx};
#[cfg(target_os = "none")]
use super::word::{Word, WORD_BITS};

/// Adds `delta` to the list length held in header node `c`.
#[inline(always)]
fn add_len<W: Width>(nd: &mut [Node<W>], c: impl Into<Idx>, delta: i32) {
    let h = at_mut(nd, c);
    h.set_itm(W::get_signed(h.itm).wrapping_add(delta));
}

/// Updates and cleansings so far. They are added to in memory by the out-of-line steps,
/// while mems are returned: that keeps the search loop from carrying (and spilling) the
/// counters as a pair.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Tallies {
    pub updates: u64,
    pub cleansings: u64,
}

/// Hides (`HIDE`) or restores the rest of the option of node `rr`, walking rightward from
/// `rr + 1` to the spacer and then from the option's first node back to `rr` (two loops,
/// so neither tests for both the spacer and the end; spacers always have color >= 0, so
/// testing `itm` first is equivalent to Knuth's order). Cleansed nodes (color < 0) are
/// skipped; `COLORED == false` promises there are none. Returns (nodes changed, nodes
/// skipped), or with `ACROSS` (nodes visited, `skipped` plus the nodes skipped): see
/// [`ONE_SKIP_COUNT`].
///
/// With `PIPE`, the rightward loop reads each node before the previous node's stores and
/// takes two nodes per pass (no register copies between passes). The next node is never
/// one those stores change (they go to other items' nodes and to headers; an option has
/// each item once), so the moves are the same. On the pentomino input in input order it
/// took 20% off the time although it runs 7% more instructions: consecutive options of a
/// list are neighbours in memory and in other lists, and loads issued after the stores
/// wait for them (see docs/PERFORMANCE.md). On short options the extra instructions cost
/// more than that saves, so the search uses it only when options are long
/// (`Dancer::pipelined`).
#[inline(always)]
fn walk_rest<
    W: Width,
    const HIDE: bool,
    const COLORED: bool,
    const PIPE: bool,
    const ACROSS: bool,
>(
    nd: &mut [Node<W>],
    rr: u32,
    skipped_before: usize,
) -> (usize, usize) {
    // Hides or restores node `nn` (a copy in `n`) unless it is cleansed; returns 1 if it
    // was skipped. Only the skipped nodes are counted in the loops (and only when
    // `COLORED`): the changed ones are the rest of the option.
    #[inline(always)]
    fn visit<W: Width, const HIDE: bool, const COLORED: bool>(
        nd: &mut [Node<W>],
        nn: u32,
        n: Node,
    ) -> usize {
        if COLORED && n.color < 0 {
            return 1;
        }
        if HIDE {
            at_mut(nd, n.up).set_down(n.down);
            at_mut(nd, n.down).set_up(n.up);
            add_len(nd, n.itm, -1);
        } else {
            at_mut(nd, n.up).set_down(nn);
            at_mut(nd, n.down).set_up(nn);
            add_len(nd, n.itm, 1);
        }
        0
    }
    // Firmware builds count a skipped node from the sign of its color, before and without
    // a branch, as an arithmetic shift (all ones if it was skipped, else 0) that the
    // count's subtraction takes in: one instruction per node on a 32-bit core. A 0-or-1
    // result that the two paths join in, or the sign as a logical shift, cost one to
    // three instructions more per node (docs/PERFORMANCE.md, "The chip, colored").
    const fn negated(colored: bool) -> bool {
        colored && cfg!(target_os = "none")
    }
    let visit = |nd: &mut [Node<W>], nn: u32, n: Node| -> usize {
        if negated(COLORED) {
            let skip = (n.color >> 31) as usize;
            if n.color >= 0 {
                visit::<W, HIDE, false>(nd, nn, n);
            }
            skip
        } else {
            visit::<W, HIDE, COLORED>(nd, nn, n)
        }
    };
    // Adds what `visit` returned to the count.
    let tally = |count: usize, v: usize| {
        if negated(COLORED) {
            count.wrapping_sub(v)
        } else {
            count + v
        }
    };
    let mut skipped = if ACROSS { skipped_before } else { 0 };
    // A `usize` index here: with a `u32` one the optimizer keeps `nn + 1` and `nn + 2`
    // in separate registers and zero-extends each index it uses. (The loop below, whose
    // end is known, is compiled better with the `u32`; see docs/PERFORMANCE.md.)
    let mut nn = rr as usize + 1;
    let spacer = if PIPE {
        let mut a = at(nd, nn);
        loop {
            if a.itm <= 0 {
                break nn as u32;
            }
            let b = at(nd, nn + 1);
            skipped = tally(skipped, visit(nd, nn as u32, a));
            nn += 1;
            if b.itm <= 0 {
                break nn as u32;
            }
            a = at(nd, nn + 1);
            skipped = tally(skipped, visit(nd, nn as u32, b));
            nn += 1;
        }
    } else {
        loop {
            let n = at(nd, nn);
            if n.itm <= 0 {
                break nn as u32;
            }
            skipped = tally(skipped, visit(nd, nn as u32, n));
            nn += 1;
        }
    };
    let first = at(nd, spacer).up;
    let mut nn = first;
    while nn != rr {
        let n = at(nd, nn);
        skipped = tally(skipped, visit(nd, nn, n));
        nn += 1;
    }
    // The option is `first..spacer`; every node but `rr` was visited.
    let visited = (spacer - first - 1) as usize;
    if ACROSS {
        (visited, skipped)
    } else {
        (visited - skipped, skipped)
    }
}

/// Whether the callers of [`walk_rest`] keep one count of skipped nodes across their walks
/// (`ACROSS`; firmware builds): on a 32-bit core a count per walk, added up after it,
/// spilled registers at every option. Hosted builds count per walk and add up (with one
/// count, queens 12 ran 0.4 % more instructions on x86_64 and edges2x4 0.1 % more in
/// another arrangement: the search loop that inlines the walks was allocated worse).
const ONE_SKIP_COUNT: bool = cfg!(target_os = "none");

/// The list part of Knuth's `cover(c)` (`HIDE`) or `uncover(c)`: for each node `rr` of
/// item `c`'s list, top to bottom, hide or restore the rest of its option.
///
/// Mems: 1 for the first `down` and 1 per further step; per option walk 2 for its spacer,
/// 6 per node changed and 1 per cleansed node skipped. Updates: 1 per node hidden (the
/// caller adds 1 for the call of `cover`).
#[inline(always)]
fn walk_list<W: Width, const HIDE: bool, const COLORED: bool, const PIPE: bool>(
    nd: &mut [Node<W>],
    last_itm: u32,
    c: u32,
    t: &mut Tallies,
) -> u64 {
    // Counts of nodes, so `usize` (one register on 32-bit targets, no 64-bit adds).
    let (mut steps, mut changed, mut skipped) = (0usize, 0usize, 0usize);
    let mut visited = 0usize;
    let mut rr = at(nd, c).down;
    while rr >= last_itm {
        steps += 1;
        // With `PIPE`, the next option's node is read before the walk's stores (which
        // never change it: they go to other items' lists and to headers), so the chase
        // down the list does not wait behind them: 3-5% less time on the pentominoes.
        // Short options lose more to carrying `next` across the walk than they gain
        // (see docs/PERFORMANCE.md, sixth pass).
        let next = if PIPE { at(nd, rr).down } else { 0 };
        if ONE_SKIP_COUNT {
            let (v, sk) = walk_rest::<W, HIDE, COLORED, PIPE, true>(nd, rr, skipped);
            (visited, skipped) = (visited + v, sk);
        } else {
            let (ch, sk) = walk_rest::<W, HIDE, COLORED, PIPE, false>(nd, rr, 0);
            changed += ch;
            skipped += sk;
        }
        rr = if PIPE { next } else { at(nd, rr).down };
    }
    // Summed in `usize` and widened once (no 64-bit multiplies on 32-bit cores). It cannot
    // wrap: each node is walked at most once per call, and 9 mems per node of a workspace
    // fit a 32-bit `usize` (nodes take 8 bytes or more of a 4 GB address space).
    if ONE_SKIP_COUNT {
        changed = visited - skipped;
    }
    if HIDE {
        t.updates += (1 + changed) as u64;
    }
    (1 + 3 * steps + 6 * changed + skipped) as u64
}

/// Whether `cover` and `uncover` call their list walks out of line
/// ([`walk_list_out_of_line`]): in firmware builds. Inlined at each of the search loop's
/// call sites, the walks were several copies of the same code in a 16 KiB budget, and the
/// loop's register pressure spilled the walks' pointers (reloaded at every node); one copy
/// each, called, has every register to itself.
const OUT_OF_LINE_WALKS: bool = cfg!(target_os = "none");

/// The list part of `cover(c)` (`HIDE`) or `uncover(c)`, out of line (see
/// [`OUT_OF_LINE_WALKS`]): one copy each.
#[inline(never)]
fn walk_list_out_of_line<W: Width, const HIDE: bool>(
    nd: &mut [Node<W>],
    last_itm: u32,
    colored: bool,
    c: u32,
    t: &mut Tallies,
) -> u64 {
    if colored {
        walk_list::<W, HIDE, true, false>(nd, last_itm, c, t)
    } else {
        walk_list::<W, HIDE, false, false>(nd, last_itm, c, t)
    }
}

/// Knuth's `purify(p)`: node `p` has color `x > 0` in secondary item `c`; hide the
/// options of `c` with other colors and mark those with color `x` as cleansed.
///
/// Mems: 2, then per option of `c` 2, 1 per cleansing, 2 per node of a walked option
/// (the spacer counts for `rr`) and 4 per node hidden. The walk counts are taken from the
/// spacer (`spacer - first` nodes per walk) and the sum is formed at the end, so the
/// loops carry counts instead of adding to `mems` on every path.
#[inline(never)]
fn purify<W: Width>(nd: &mut [Node<W>], last_itm: u32, p: u32, k: &mut Tallies) -> u64 {
    let Node {
        itm: c, color: x, ..
    } = at(nd, p);
    at_mut(nd, c).set_color(x); // for printing only, so no mem
                                // Counts of nodes, so they fit a `usize` (one register on 32-bit targets too).
    let (mut steps, mut walked, mut hidden, mut cleansed) = (0usize, 0usize, 0usize, 0usize);
    let mut rr = at(nd, c).down;
    while rr >= last_itm {
        steps += 1;
        if at(nd, rr).color != x {
            // The walk goes through a raw pointer to the array: one pointer moved by a node
            // per step instead of an index scaled at every node (fewer instructions on the
            // colored inputs; docs/PERFORMANCE.md has the counts).
            let base = nd.as_mut_ptr();
            // SAFETY: the nodes read are the option's (`rr + 1` up to its spacer, then from
            // its first node, the spacer's `up`, to `rr`: kinds (b) and (a) of the argument
            // in `unchecked.rs`), the nodes written are named by `up`, `down` or `itm` of its
            // nodes (kind (a)): all inside `nd`. `nd` is not used while `base` is.
            #[allow(unsafe_code)]
            unsafe {
                let end = base.add(rr as usize);
                let mut q = end.add(1);
                loop {
                    let n = (*q).wide();
                    if n.itm <= 0 {
                        // The spacer after the option; `n.up` is its first node.
                        walked += q.offset_from(base) as usize - n.up as usize;
                        q = base.add(n.up as usize);
                    } else {
                        if n.color >= 0 {
                            hidden += 1;
                            (*base.add(n.up as usize)).set_down(n.down);
                            (*base.add(n.down as usize)).set_up(n.up);
                            let h = &mut *base.add(Idx::from(n.itm).0);
                            h.set_itm(W::get_signed(h.itm).wrapping_sub(1));
                        }
                        q = q.add(1);
                    }
                    if q == end {
                        break;
                    }
                }
            }
        } else if rr != p {
            cleansed += 1;
            at_mut(nd, rr).set_color(-1);
        }
        rr = at(nd, rr).down;
    }
    let (steps, walked, hidden, cleansed) =
        (steps as u64, walked as u64, hidden as u64, cleansed as u64);
    k.updates += hidden;
    k.cleansings += 1 + cleansed;
    2 + 2 * steps + 2 * walked + 4 * hidden + cleansed
}

/// Knuth's `unpurify(p)`: undoes `purify`, bottom to top and leftward (mems as there,
/// counted the same way).
#[inline(never)]
fn unpurify<W: Width>(nd: &mut [Node<W>], last_itm: u32, p: u32) -> u64 {
    let Node {
        itm: c, color: x, ..
    } = at(nd, p);
    let (mut steps, mut walked, mut shown, mut restored) = (0usize, 0usize, 0usize, 0usize);
    let mut rr = at(nd, c).up;
    while rr >= last_itm {
        steps += 1;
        if at(nd, rr).color < 0 {
            restored += 1;
            at_mut(nd, rr).set_color(x);
        } else if rr != p {
            // As in `purify`; the index of a node restored is taken from the pointer (with
            // an index kept beside the pointer the optimizer copied it twice per node).
            let base = nd.as_mut_ptr();
            // SAFETY: as in `purify` (the nodes read are the option's, `rr - 1` down to its
            // spacer, then from its last node, the spacer's `down`, down to `rr`).
            #[allow(unsafe_code)]
            unsafe {
                let end = base.add(rr as usize);
                let mut q = end.sub(1);
                loop {
                    let n = (*q).wide();
                    if n.itm <= 0 {
                        // The spacer before the option; `n.down` is its last node.
                        walked += n.down as usize - q.offset_from(base) as usize;
                        q = base.add(n.down as usize);
                    } else {
                        if n.color >= 0 {
                            shown += 1;
                            let nn = q.offset_from(base) as u32;
                            (*base.add(n.up as usize)).set_down(nn);
                            (*base.add(n.down as usize)).set_up(nn);
                            let h = &mut *base.add(Idx::from(n.itm).0);
                            h.set_itm(W::get_signed(h.itm).wrapping_add(1));
                        }
                        q = q.sub(1);
                    }
                    if q == end {
                        break;
                    }
                }
            }
        }
        rr = at(nd, rr).up;
    }
    let (steps, walked, shown, restored) =
        (steps as u64, walked as u64, shown as u64, restored as u64);
    2 + 2 * steps + 2 * walked + 4 * shown + restored
}

/// Knuth's `tweak(n, block)`: removes the top node `n` from its item's list, and if
/// `block`, hides the rest of its option too.
#[inline(never)]
fn tweak<W: Width>(nd: &mut [Node<W>], n: u32, block: bool, k: &mut Tallies) -> u64 {
    let mut mems = 0;
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
            at_mut(nd, x.up).set_down(x.down);
            at_mut(nd, x.down).set_up(x.up);
            add_len(nd, x.itm, -1);
            k.updates += 1;
        }
        if nn == n {
            break;
        }
        nn += 1;
    }
    mems
}

/// Knuth's `untweak(c, x, unblock)`: `x` is the node that was on top of item `c` when the
/// level was entered; the removed nodes still point down to each other, so following
/// `down` from `x` to the current top node `z` finds them in their original order.
///
/// The common case on the colored input (919,301 of 1,080,375 calls on edges2x4) is an
/// item whose list was empty when the level was entered (`x == c`, so nothing was
/// tweaked away and nothing is uncovered): it is handled here without the walks, so this
/// part needs no saved registers; the rest is [`untweak_walks`].
#[inline(never)]
fn untweak<W: Width>(
    nd: &mut [Node<W>],
    last_itm: u32,
    colored: bool,
    c: u32,
    x: u32,
    unblock: bool,
    t: &mut Tallies,
) -> u64 {
    if x == c {
        // The list was empty when the level was entered, and still is (`z == c`): *advance*
        // tweaks only when the current node is not the header, and deeper levels undo
        // their changes. (With `z != c` the walk below would not end.) So Knuth's program
        // only stores `c` as `up` of the header and adds 0 to its length (5 mems), and
        // `uncover(c)` (unless `unblock`) finds the list empty (1 mem).
        at_mut(nd, c).set_up(c);
        return if unblock { 5 } else { 6 };
    }
    untweak_walks(nd, last_itm, colored, c, x, unblock, t)
}

/// [`untweak`] when `x` is an option node.
#[inline(never)]
fn untweak_walks<W: Width>(
    nd: &mut [Node<W>],
    last_itm: u32,
    colored: bool,
    c: u32,
    x: u32,
    unblock: bool,
    t: &mut Tallies,
) -> u64 {
    let z = at(nd, c).down;
    at_mut(nd, c).set_down(x);
    let (mut shown, mut skipped) = (0usize, 0usize);
    let mut visited = 0usize;
    let mut rr = x;
    let mut qq = c;
    let mut k: i32 = 0;
    while rr != z {
        at_mut(nd, rr).set_up(qq);
        k += 1;
        if unblock {
            if ONE_SKIP_COUNT {
                let (v, sk) = walk_rest::<W, false, true, false, true>(nd, rr, skipped);
                (visited, skipped) = (visited + v, sk);
            } else {
                let (sh, sk) = walk_rest::<W, false, true, false, false>(nd, rr, 0);
                shown += sh;
                skipped += sk;
            }
        }
        qq = rr;
        rr = at(nd, rr).down;
    }
    at_mut(nd, rr).set_up(qq);
    add_len(nd, c, k);
    // 2 + 2 per step + 1 + 2, and per restored option 2 (spacer) + 6/1 per node.
    if ONE_SKIP_COUNT {
        shown = visited - skipped;
    }
    let restored = if unblock { k as u64 } else { 0 };
    let mut mems = 5 + 2 * k as u64 + 2 * restored + 6 * shown as u64 + skipped as u64;
    if !unblock {
        mems += if OUT_OF_LINE_WALKS {
            walk_list_out_of_line::<W, false>(nd, last_itm, colored, c, t)
        } else if colored {
            walk_list::<W, false, true, false>(nd, last_itm, c, t)
        } else {
            walk_list::<W, false, false, false>(nd, last_itm, c, t)
        };
    }
    mems
}

/// Where [`Dancer::next_active`] is in the active items (firmware builds).
#[cfg(target_os = "none")]
pub(super) struct ActiveCursor<'a> {
    /// Whether the bit set is used (else the list).
    in_use: bool,
    /// The bit set's words.
    words: &'a [Word],
    /// The bits left of the current word.
    bits: Word,
    /// The item number of bit 0 of `bits`, and the next word's index.
    base: u32,
    w: usize,
    /// The list's next item (0 at the end).
    next: u32,
}

/// What a caller of [`Dancer::cover_kind`] knows of the item: it is primary (below
/// `second`, so in the bit set of active items when that is in use) or secondary.
pub(super) const PRIMARY_ITEM: u8 = 1;
pub(super) const SECONDARY_ITEM: u8 = 2;

/// The arrays and counters of one `run`. With `MEMS == false` (a search that does not
/// count, [`Dlx3::run_uncounted`](super::Dlx3::run_uncounted)) the steps make the same
/// moves but charge no mems, updates or cleansings: `mems` and `tallies` stay as they were.
pub(super) struct Dancer<'x, W: Width, const MEMS: bool = true> {
    pub nd: &'x mut [Node<W>],
    pub cl: &'x mut [Item<W>],
    /// Nodes below this index are item headers.
    pub last_itm: u32,
    /// Items from this index on are secondary.
    pub second: u32,
    /// Whether any node has a color (otherwise no node is ever cleansed).
    pub colored: bool,
    /// Whether `cover`/`uncover` of an uncolored matrix use the pipelined walk
    /// (`walk_rest`'s `PIPE`): options are long (`Dlx3::prepare_search`).
    pub pipelined: bool,
    /// Active primary items as a bit set (see `active`).
    pub active: &'x mut ActiveSet<W>,
    pub mems: u64,
    /// Updates and cleansings (kept in memory, see `Tallies`).
    pub tallies: &'x mut Tallies,
}

impl<W: Width, const MEMS: bool> Dancer<'_, W, MEMS> {
    /// Charges `m` mems (nothing when not counting: `m`'s sums then compile out).
    #[inline(always)]
    pub fn charge(&mut self, m: u64) {
        if MEMS {
            self.mems += m;
        }
    }

    /// Node `i` (a copy).
    #[inline(always)]
    pub fn node(&self, i: impl Into<Idx>) -> Node {
        at(self.nd, i)
    }

    /// Item `i` (a copy).
    #[inline(always)]
    pub fn item(&self, i: impl Into<Idx>) -> Item {
        item_at(self.cl, i)
    }

    /// Item `i`, writable.
    #[inline(always)]
    pub fn item_mut(&mut self, i: impl Into<Idx>) -> &mut Item<W> {
        item_at_mut(self.cl, i)
    }

    /// Adds `delta` to the bound of item `i`.
    #[inline(always)]
    pub fn add_bound(&mut self, i: impl Into<Idx>, delta: i32) {
        let it = self.item_mut(i);
        it.set_bound(W::get_signed(it.bound).wrapping_add(delta));
    }

    /// Removes item `c` from the active list (3 mems). While the bit set is in use it
    /// stands for the list, and the `prev`/`next` links are left alone (a complete search
    /// restores them anyway).
    #[inline(always)]
    pub fn deactivate(&mut self, c: u32) {
        self.charge(3);
        if self.active.in_use() {
            self.active.remove(c);
        } else {
            let Item { prev, next, .. } = self.item(c);
            self.item_mut(prev).set_next(next);
            self.item_mut(next).set_prev(prev);
        }
    }

    /// Puts item `c` back into the active list (3 mems).
    #[inline(always)]
    pub fn reactivate(&mut self, c: u32) {
        self.charge(3);
        if self.active.in_use() {
            self.active.insert(c);
        } else {
            let Item { prev, next, .. } = self.item(c);
            self.item_mut(prev).set_next(c);
            self.item_mut(next).set_prev(c);
        }
    }

    /// Calls `f(k)` for the active primary items in list order until `f` returns false.
    #[cfg(not(target_os = "none"))]
    #[inline(always)]
    pub fn active_items_while(&self, mut f: impl FnMut(u32) -> bool) {
        if self.active.in_use() {
            self.active.for_each_while(f);
        } else {
            let mut k = self.item(0u32).next;
            while k != 0 && f(k) {
                k = self.item(k).next;
            }
        }
    }

    /// A cursor over the active primary items in list order, for firmware builds:
    /// [`next_active`](Dancer::next_active) gives them one by one. The choice loops use
    /// it instead of a closure, which the size-optimized build kept out of line and
    /// called per item (19 instructions per item on the Cortex-M4).
    #[cfg(target_os = "none")]
    #[inline(always)]
    pub fn active_cursor(&self) -> ActiveCursor<'_> {
        let in_use = self.active.in_use();
        ActiveCursor {
            in_use,
            words: self.active.used(),
            bits: 0,
            base: 0,
            w: 0,
            next: if in_use { 0 } else { self.item(0u32).next },
        }
    }

    /// The next active item of `c`, or `None` at the end.
    #[cfg(target_os = "none")]
    #[inline(always)]
    pub fn next_active(&self, c: &mut ActiveCursor<'_>) -> Option<u32> {
        if c.in_use {
            while c.bits == 0 {
                c.bits = *c.words.get(c.w)?;
                c.base = c.w as u32 * WORD_BITS;
                c.w += 1;
            }
            let k = c.base + c.bits.trailing_zeros();
            c.bits &= c.bits - 1;
            Some(k)
        } else if c.next == 0 {
            None
        } else {
            let k = c.next;
            c.next = self.item(k).next;
            Some(k)
        }
    }

    /// Calls `f(k)` for the active primary items in list order until `f` returns false.
    #[cfg(target_os = "none")]
    #[inline(always)]
    pub fn active_items_while(&self, mut f: impl FnMut(u32) -> bool) {
        let mut c = self.active_cursor();
        while let Some(k) = self.next_active(&mut c) {
            if !f(k) {
                return;
            }
        }
    }

    /// `pipelined`, never in firmware builds (the pipelined walks would be a second copy
    /// of the uncolored cover and uncover).
    #[inline(always)]
    fn pipelined(&self) -> bool {
        cfg!(not(target_os = "none")) && self.pipelined
    }

    /// Puts item `c`, of the kind `KIND` (see [`PRIMARY_ITEM`]), back into the active list
    /// (`ON`) or removes it: [`reactivate`](Dancer::reactivate) or
    /// [`deactivate`](Dancer::deactivate) without the test of which kind it is.
    #[inline(always)]
    fn set_active_kind<const KIND: u8, const ON: bool>(&mut self, c: u32) {
        match KIND {
            PRIMARY_ITEM if self.active.in_use() => {
                self.charge(3);
                if ON {
                    self.active.insert_below_limit(c);
                } else {
                    self.active.remove_below_limit(c);
                }
            }
            // Secondary items are never in the bit set.
            SECONDARY_ITEM if self.active.in_use() => self.charge(3),
            _ if ON => self.reactivate(c),
            _ => self.deactivate(c),
        }
    }

    /// `cover(c, true)` for an item of the kind `KIND` ([`PRIMARY_ITEM`] or
    /// [`SECONDARY_ITEM`]) when not counting; otherwise (the counting instances keep their
    /// code) `cover` itself.
    #[inline(always)]
    pub fn cover_kind<const KIND: u8>(&mut self, c: u32) {
        if MEMS || cfg!(target_os = "none") {
            return self.cover(c, true);
        }
        self.set_active_kind::<KIND, false>(c);
        self.cover(c, false);
    }

    /// `uncover(c, true)` for an item of the kind `KIND`, as [`cover_kind`](Dancer::cover_kind).
    #[inline(always)]
    pub fn uncover_kind<const KIND: u8>(&mut self, c: u32) {
        if MEMS || cfg!(target_os = "none") {
            return self.uncover(c, true);
        }
        self.uncover(c, false);
        self.set_active_kind::<KIND, true>(c);
    }

    /// Knuth's `cover(c, deact)`: hides every option of item `c` from the other items.
    #[inline(always)]
    pub fn cover(&mut self, c: u32, deact: bool) {
        if deact {
            self.deactivate(c);
        }
        if !MEMS {
            // The walks add their updates to a local that is never read (so the sums
            // compile out).
            let t = &mut Tallies::default();
            if self.colored {
                walk_list::<W, true, true, false>(self.nd, self.last_itm, c, t);
            } else if self.pipelined() {
                walk_list::<W, true, false, true>(self.nd, self.last_itm, c, t);
            } else {
                walk_list::<W, true, false, false>(self.nd, self.last_itm, c, t);
            }
            return;
        }
        self.mems += if OUT_OF_LINE_WALKS {
            walk_list_out_of_line::<W, true>(self.nd, self.last_itm, self.colored, c, self.tallies)
        } else if self.colored {
            walk_list::<W, true, true, false>(self.nd, self.last_itm, c, self.tallies)
        } else if self.pipelined() {
            walk_list::<W, true, false, true>(self.nd, self.last_itm, c, self.tallies)
        } else {
            walk_list::<W, true, false, false>(self.nd, self.last_itm, c, self.tallies)
        };
    }

    /// Knuth's `uncover(c, react)`: undoes `cover`, also top to bottom.
    #[inline(always)]
    pub fn uncover(&mut self, c: u32, react: bool) {
        let mems = if OUT_OF_LINE_WALKS {
            walk_list_out_of_line::<W, false>(self.nd, self.last_itm, self.colored, c, self.tallies)
        } else if self.colored {
            walk_list::<W, false, true, false>(self.nd, self.last_itm, c, self.tallies)
        } else if self.pipelined() {
            walk_list::<W, false, false, true>(self.nd, self.last_itm, c, self.tallies)
        } else {
            walk_list::<W, false, false, false>(self.nd, self.last_itm, c, self.tallies)
        };
        self.charge(mems);
        if react {
            self.reactivate(c);
        }
    }

    /// Knuth's `tweak(n, block)`.
    #[inline(always)]
    pub fn tweak(&mut self, n: u32, block: bool) {
        let mems = tweak(self.nd, n, block, self.tallies);
        self.charge(mems);
    }

    /// Knuth's `untweak(c, x, unblock)`.
    #[inline(always)]
    pub fn untweak(&mut self, c: u32, x: u32, unblock: bool) {
        let mems = untweak(
            self.nd,
            self.last_itm,
            self.colored,
            c,
            x,
            unblock,
            self.tallies,
        );
        self.charge(mems);
    }

    /// Covers or partially covers the other items of the option of `cur` (rightward).
    /// (Hosted builds; firmware builds sum the mems first, see the other `cover_rest`.)
    /// `EXACT` promises that every primary item has bounds [1,1]: an active one then
    /// always reaches bound 0 here and is covered, without the test.
    #[cfg(not(target_os = "none"))]
    #[inline(always)]
    pub fn cover_rest<const EXACT: bool>(&mut self, cur: u32) {
        let mut pp = cur + 1;
        while pp != cur {
            self.charge(1);
            let n = self.node(pp);
            let cc = n.itm;
            if cc <= 0 {
                self.charge(1);
                pp = n.up;
                continue;
            }
            if (cc as u32) < self.second {
                self.charge(2);
                let b = self.item(cc).bound - 1;
                self.item_mut(cc).set_bound(b);
                if EXACT || b == 0 {
                    self.cover_kind::<PRIMARY_ITEM>(cc as u32);
                }
            } else if n.color == 0 {
                self.cover_kind::<SECONDARY_ITEM>(cc as u32);
            } else if n.color > 0 {
                let mems = purify(self.nd, self.last_itm, pp, self.tallies);
                self.charge(mems);
            }
            pp += 1;
        }
    }

    /// Undoes `cover_rest`, leftward from the node left of `cur` (`EXACT` as there: the
    /// primary items met were covered).
    #[cfg(not(target_os = "none"))]
    #[inline(always)]
    pub fn uncover_rest<const EXACT: bool>(&mut self, cur: u32) {
        let mut pp = cur - 1;
        while pp != cur {
            self.charge(1);
            let n = self.node(pp);
            let cc = n.itm;
            if cc <= 0 {
                self.charge(1);
                pp = n.down;
                continue;
            }
            if (cc as u32) < self.second {
                self.charge(1);
                if EXACT || self.item(cc).bound == 0 {
                    self.uncover_kind::<PRIMARY_ITEM>(cc as u32);
                }
                self.charge(1);
                self.add_bound(cc, 1);
            } else if n.color == 0 {
                self.uncover_kind::<SECONDARY_ITEM>(cc as u32);
            } else if n.color > 0 {
                let mems = unpurify(self.nd, self.last_itm, pp);
                self.charge(mems);
            }
            pp -= 1;
        }
    }

    /// `cover(c, true)` that returns its mems instead of adding them (for the sums of
    /// `cover_rest`).
    #[cfg(target_os = "none")]
    #[inline(always)]
    fn cover_counted(&mut self, c: u32) -> u64 {
        let before = self.mems;
        self.cover(c, true);
        let mems = self.mems.wrapping_sub(before);
        self.mems = before;
        mems
    }

    /// Covers or partially covers the other items of the option of `cur` (rightward).
    ///
    /// Firmware builds: the mems of the option are summed in a `usize` and widened once
    /// at the end (`MemSum`): on a 32-bit core each 64-bit add is two instructions, and the
    /// small colored searches spend a third of their instructions here
    /// (docs/PERFORMANCE.md, "The chip, colored"). It cannot wrap: the mems of one
    /// option's walks are at most 9 per node of the workspace for each of its items. (On
    /// x86_64 the same sums took 1 % more instructions: hosted builds add as they go.)
    /// (`EXACT` is for hosted builds' uncounted search; firmware builds never set it.)
    #[cfg(target_os = "none")]
    #[inline(always)]
    pub fn cover_rest<const EXACT: bool>(&mut self, cur: u32) {
        let mut mems = MemSum::default();
        let mut pp = cur + 1;
        while pp != cur {
            mems.add(1);
            let n = self.node(pp);
            let cc = n.itm;
            if cc <= 0 {
                mems.add(1);
                pp = n.up;
                continue;
            }
            if (cc as u32) < self.second {
                mems.add(2);
                let b = self.item(cc).bound - 1;
                self.item_mut(cc).set_bound(b);
                if b == 0 {
                    mems.add_wide(self.cover_counted(cc as u32));
                }
            } else if n.color == 0 {
                mems.add_wide(self.cover_counted(cc as u32));
            } else if n.color > 0 {
                mems.add_wide(purify(self.nd, self.last_itm, pp, self.tallies));
            }
            pp += 1;
        }
        self.charge(mems.wide());
    }

    /// `uncover(c, true)` that returns its mems instead of adding them.
    #[cfg(target_os = "none")]
    #[inline(always)]
    fn uncover_counted(&mut self, c: u32) -> u64 {
        let before = self.mems;
        self.uncover(c, true);
        let mems = self.mems.wrapping_sub(before);
        self.mems = before;
        mems
    }

    /// Undoes `cover_rest`, leftward from the node left of `cur` (mems summed as there).
    #[cfg(target_os = "none")]
    #[inline(always)]
    pub fn uncover_rest<const EXACT: bool>(&mut self, cur: u32) {
        let mut mems = MemSum::default();
        let mut pp = cur - 1;
        while pp != cur {
            mems.add(1);
            let n = self.node(pp);
            let cc = n.itm;
            if cc <= 0 {
                mems.add(1);
                pp = n.down;
                continue;
            }
            if (cc as u32) < self.second {
                mems.add(1);
                if self.item(cc).bound == 0 {
                    mems.add_wide(self.uncover_counted(cc as u32));
                }
                mems.add(1);
                self.add_bound(cc, 1);
            } else if n.color == 0 {
                mems.add_wide(self.uncover_counted(cc as u32));
            } else if n.color > 0 {
                mems.add_wide(unpurify(self.nd, self.last_itm, pp));
            }
            pp -= 1;
        }
        self.charge(mems.wide());
    }
}

/// The mems of `cover_rest` or `uncover_rest`: a `usize` (one register and one add on a
/// 32-bit core; see `cover_rest`).
#[cfg(target_os = "none")]
#[derive(Default)]
struct MemSum(usize);

#[cfg(target_os = "none")]
impl MemSum {
    #[inline(always)]
    fn add(&mut self, m: usize) {
        self.0 += m;
    }

    /// Adds mems counted in 64 bits (within the sum's range: see `cover_rest`).
    #[inline(always)]
    fn add_wide(&mut self, m: u64) {
        self.0 = self.0.wrapping_add(m as usize);
    }

    #[inline(always)]
    fn wide(self) -> u64 {
        self.0 as u64
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{parse, Buffers, SEED};
    use super::super::Settings;
    use super::*;
    use std::string::String;
    use std::vec::Vec;

    /// A Dancer over the engine's arrays (the engine's state is untouched otherwise).
    fn with_dancer<R>(text: &[u8], f: impl FnOnce(&mut Dancer<'_, u32>) -> R) -> R {
        let mut b = Buffers::for_text(text);
        let mut warn = String::new();
        let mut e = parse(&mut b, text, Settings::DEFAULT, &mut warn).expect("parses");
        let mut tallies = Tallies::default();
        let mut d = Dancer {
            nd: &mut *e.nodes,
            cl: &mut *e.items,
            last_itm: e.layout.last_itm,
            second: e.layout.second,
            colored: e.colored,
            pipelined: e.long_options,
            active: &mut e.active,
            mems: 0,
            tallies: &mut tallies,
        };
        f(&mut d)
    }

    fn snapshot(d: &Dancer<'_, u32>) -> (Vec<Node>, Vec<Item>) {
        (d.nd.to_vec(), d.cl.to_vec())
    }

    #[test]
    fn cover_then_uncover_restores_everything() {
        with_dancer(SEED, |d| {
            let before = snapshot(d);
            for c in 1..d.last_itm {
                d.cover(c, c < d.second);
                assert_ne!(snapshot(d).0, before.0, "cover({c}) changed nothing");
                d.uncover(c, c < d.second);
                assert_eq!(snapshot(d).0, before.0, "uncover({c})");
            }
            // Nested, undone in reverse order.
            d.cover(1, true);
            d.cover(2, true);
            d.uncover(2, true);
            d.uncover(1, true);
            assert_eq!(snapshot(d).0, before.0);
        });
    }

    #[test]
    fn cover_charges_knuths_mems() {
        with_dancer(SEED, |d| {
            // Item A: options "A B X:0 Y:0" and "A C X:1 Y:1"; 3 mems for deactivation,
            // 1 + 2 per option step, 2 per spacer, 6 per hidden node (3 each).
            d.cover(1, true);
            assert_eq!(d.mems, 3 + 1 + 2 * (1 + 2 + 3 * 6));
            assert_eq!(d.tallies.updates, 1 + 6);
        });
    }

    #[test]
    fn purify_then_unpurify_restores_everything() {
        with_dancer(SEED, |d| {
            let before = snapshot(d);
            // Every colored node of item X (4) and Y (5).
            let colored: Vec<u32> = (d.last_itm..d.nd.len() as u32)
                .filter(|&p| {
                    let n = d.node(p);
                    n.itm > 0 && n.color > 0
                })
                .collect();
            assert!(!colored.is_empty());
            for p in colored {
                d.mems += purify(d.nd, d.last_itm, p, d.tallies);
                d.mems += unpurify(d.nd, d.last_itm, p);
                let after = snapshot(d);
                // The header's aux (the purifying color) is for printing only.
                let strip = |v: &[Node]| {
                    v.iter()
                        .skip(d.last_itm as usize)
                        .copied()
                        .collect::<Vec<_>>()
                };
                assert_eq!(strip(&after.0), strip(&before.0), "purify/unpurify({p})");
            }
            assert!(d.tallies.cleansings > 0);
        });
    }

    #[test]
    fn tweak_then_untweak_restores_everything() {
        with_dancer(SEED, |d| {
            let before = snapshot(d);
            // Item C (3) has bounds 2:3 and options "A C X:1 Y:1", "C X:0", "C Y:1".
            let c = 3u32;
            let first = d.node(c).down;
            for block in [true, false] {
                let x = d.node(c).down;
                d.tweak(x, block);
                let y = d.node(c).down;
                d.tweak(y, block);
                assert_eq!(d.node(c).itm, 1);
                d.untweak(c, first, block);
                if !block {
                    // Non-blocking untweak ends with uncover(c), which assumes c was covered.
                    break;
                }
                assert_eq!(snapshot(d).0, before.0, "block={block}");
            }
        });
    }
}
