//! Choosing the item to branch on: minimum branching degree `len + s - bound + 1`
//! (`s = min(slack, bound)`), ties broken by smaller `s`, then larger `len`, then leftmost
//! (or uniformly at random with reservoir sampling when randomizing).
use super::active::ActiveSet;
use super::ops::{Dancer, Tallies};
use super::output::write_name;
use super::storage::{Item, Names, Node, Width};
use crate::gb_flip::GbFlip;
use crate::sink::{ByteSink, Fmt};
use core::fmt::Write;

/// Knuth's `infty`: the score when no active primary item is left.
pub(super) const INFTY: i32 = 100_000_000;

/// `s = min(slack, bound)` and the branching degree less one, `len + s - bound`, of an
/// item whose list holds `len` options (Knuth's `t - 1`; wrapping as his `int`s would).
#[inline(always)]
fn degree_terms(it: &Item, len: i32) -> (i32, i32) {
    let s = if it.slack > it.bound {
        it.bound
    } else {
        it.slack
    };
    (s, len.wrapping_add(s).wrapping_sub(it.bound))
}

/// Bits of `LEN_MASK - len` and of `s` in the key of [`Dancer::choose_small`].
const SMALL_LEN_BITS: u32 = 26;
const SMALL_S_BITS: u32 = 10;

/// Whether [`Dancer::choose_small`] may choose for this matrix: every list length
/// fits in `SMALL_LEN_BITS` (fewer nodes than that), and every primary item has
/// `0 <= slack` and `1 <= bound < 2^SMALL_S_BITS`. An active item's bound only goes down
/// from there (it is covered when it reaches 0) and comes back up to it, so at every
/// choice `0 <= s < 2^SMALL_S_BITS` and `-2^SMALL_S_BITS < t - 1 <= len < INFTY - 1`,
/// so `t - 1`, `s` and `LEN_MASK - len` fit their fields of the key, `t - 1` in the top
/// 28 bits (`INFTY < 2^27`).
pub(super) fn small_keys<W: Width>(items: &[Item<W>], last_node: u32) -> bool {
    last_node < 1 << SMALL_LEN_BITS
        && items
            .iter()
            .map(Item::wide)
            .all(|it| it.slack >= 0 && it.bound >= 1 && it.bound < 1 << SMALL_S_BITS)
}

/// Knuth's random tie break: `ties` items now share the best key, the last one seen
/// becomes the best if `unif(ties)` draws 0 (4 mems, counted in `draws`). Each tied item
/// thus ends up chosen with equal probability, from Knuth's random stream.
#[inline(always)]
fn draw(g: &mut GbFlip, ties: u32, draws: &mut u64) -> bool {
    *draws += 1;
    g.unif(ties) == 0
}

/// [`choose_random_inline`] out of line, so that the search loops that rarely or never
/// randomize do not grow (inlined into every instance, it cost edges2x4 1.6% more
/// instructions and time).
#[inline(never)]
pub(super) fn choose_random<W: Width>(
    nd: &mut [Node<W>],
    cl: &mut [Item<W>],
    active: &mut ActiveSet<W>,
    exact_cover: bool,
    g: &mut GbFlip,
) -> (u32, i32, u64) {
    choose_random_inline(nd, cl, active, exact_cover, g)
}

/// The randomized choice when nothing is traced: the loop of [`Dancer::choose_exact`] or
/// [`Dancer::choose_plain`] with [`draw`] at each tie, over a `Dancer` of its own.
/// Returns `(best_itm, score, mems)`. Inlined only into the search loop's instance for
/// randomized runs (`RAND`); the others call [`choose_random`].
#[inline(always)]
pub(super) fn choose_random_inline<W: Width>(
    nd: &mut [Node<W>],
    cl: &mut [Item<W>],
    active: &mut ActiveSet<W>,
    exact_cover: bool,
    g: &mut GbFlip,
) -> (u32, i32, u64) {
    let mut tallies = Tallies::default();
    let mut d = Dancer {
        nd,
        cl,
        last_itm: 0,
        second: 0,
        colored: false,
        pipelined: false,
        active,
        mems: 0,
        tallies: &mut tallies,
    };
    let (mut ties, mut draws) = (0u32, 0u64);
    let tie = |tied: bool| {
        if !tied {
            ties = 1;
            return false;
        }
        ties += 1;
        draw(g, ties, &mut draws)
    };
    let (best_itm, score) = if exact_cover {
        d.choose_exact_by(tie)
    } else {
        d.choose_plain_by(tie)
    };
    (best_itm, score, d.mems + 4 * draws)
}

impl<W: Width> Dancer<'_, W> {
    /// Charges Knuth's mems for walking the active list of `items` items: one for the
    /// root's `next`, then per item one for bound/slack and one for `next`.
    #[inline(always)]
    fn charge_walk(&mut self, items: u64) {
        self.mems += 1 + 2 * items;
    }

    /// Plain exact cover (every primary item has bounds [1,1], so every active item has
    /// bound 1 and slack 0): the score is the list length and ties go to the leftmost.
    #[inline(always)]
    pub fn choose_exact(&mut self) -> (u32, i32) {
        self.choose_exact_by(|_| false)
    }

    /// [`choose_exact`](Dancer::choose_exact), telling `tie` about each new best item
    /// (`tie(false)`) and each item that ties with the best so far (`tie(true)`, which
    /// says whether that item becomes the best). With a closure that does nothing, the
    /// calls fold away.
    #[inline(always)]
    fn choose_exact_by(&mut self, mut tie: impl FnMut(bool) -> bool) -> (u32, i32) {
        let mut score = INFTY;
        let mut best_itm = 0u32;
        let mut visited = 0u64;
        let nd = &*self.nd;
        self.active_items_while(|k| {
            visited += 1;
            let len = super::ops::at(nd, k).itm;
            if len < score {
                score = len;
                best_itm = k;
                tie(false);
            } else if len == score && tie(true) {
                best_itm = k;
            }
            true
        });
        self.charge_walk(visited);
        (best_itm, score)
    }

    /// The common case: no tracing, no randomizing. Returns `(best_itm, score)`.
    #[inline(always)]
    pub fn choose_plain(&mut self) -> (u32, i32) {
        self.choose_plain_by(|_| false)
    }

    /// [`choose_plain`](Dancer::choose_plain) for a matrix with small numbers
    /// ([`small_keys`]): the same key in 64 bits, `t - 1` above `s` above
    /// `LEN_MASK - len` (each field non-negative except the top one), so the loop
    /// compares and moves one word instead of two. The key is formed minus the constant
    /// `LEN_MASK` (and `t` minus 1), which keeps its order and saves two instructions per
    /// item. The same items tie, and the leftmost wins.
    #[inline(always)]
    pub fn choose_small(&mut self) -> (u32, i32) {
        const T_SHIFT: u32 = SMALL_LEN_BITS + SMALL_S_BITS;
        const LEN_MASK: i64 = (1 << SMALL_LEN_BITS) - 1;
        // No item: the score is INFTY.
        let mut best_key = (i64::from(INFTY - 1) << T_SHIFT) - LEN_MASK;
        let mut best_itm = 0u32;
        let mut visited = 0u64;
        let (nd, cl) = (&*self.nd, &*self.cl);
        self.active_items_while(|k| {
            visited += 1;
            let it = super::ops::item_at(cl, k);
            let len = super::ops::at(nd, k).itm;
            let (s, t1) = degree_terms(&it, len);
            let kk = (i64::from(t1) << T_SHIFT) + (i64::from(s) << SMALL_LEN_BITS) - i64::from(len);
            if kk < best_key {
                best_key = kk;
                best_itm = k;
            }
            true
        });
        self.charge_walk(visited);
        (best_itm, ((best_key + LEN_MASK) >> T_SHIFT) as i32 + 1)
    }

    /// Knuth's order (smaller `t`, then smaller `s`, then larger `len`, then leftmost) is
    /// the order of the key `(t, s, -len)`, compared as one 128-bit integer so that the
    /// loop has no data-dependent branches (they mispredict). Items tie exactly when
    /// their keys are equal; then `tie` decides as in
    /// [`choose_exact_by`](Dancer::choose_exact_by).
    #[inline(always)]
    fn choose_plain_by(&mut self, mut tie: impl FnMut(bool) -> bool) -> (u32, i32) {
        /// `(t, s, !len)` packed so that integer order is Knuth's preference order.
        #[inline(always)]
        fn key(t: i32, s: i32, len: i32) -> i128 {
            (i128::from(t) << 64)
                | (i128::from(s as u32 ^ 0x8000_0000) << 32)
                | i128::from(!(len as u32 ^ 0x8000_0000))
        }
        let mut best_key = key(INFTY, i32::MIN, i32::MAX);
        let mut best_itm = 0u32;
        let mut visited = 0u64;
        let (nd, cl) = (&*self.nd, &*self.cl);
        self.active_items_while(|k| {
            visited += 1;
            let it = super::ops::item_at(cl, k);
            let len = super::ops::at(nd, k).itm;
            let (s, t1) = degree_terms(&it, len);
            let t = t1.wrapping_add(1);
            let kk = key(t, s, len);
            if kk < best_key {
                best_key = kk;
                best_itm = k;
                tie(false);
            } else if kk == best_key && tie(true) {
                best_itm = k;
            }
            true
        });
        self.charge_walk(visited);
        (best_itm, (best_key >> 64) as i32)
    }

    /// The general case: optional random tie breaks and the details trace (`(err, names)`:
    /// each active item as ` NAME(LEN)` or ` NAME(X:B,T)`; compiled in only if `TRACE`).
    /// Inlined so that the `Dancer` never has its address taken (its counters then stay in
    /// registers). Random tie breaks without the trace go to [`choose_random`], which
    /// makes the same choices and draws in the plain loops.
    #[inline(always)]
    pub fn choose_traced<const TRACE: bool, const INLINE_RANDOM: bool>(
        &mut self,
        mut rng: Option<&mut GbFlip>,
        mut details: Option<&mut dyn ByteSink>,
        names: &Names<'_>,
        exact_cover: bool,
    ) -> (u32, i32) {
        if let (Some(g), None) = (rng.as_deref_mut(), details.as_ref()) {
            let (best_itm, score, mems) = if INLINE_RANDOM {
                choose_random_inline(self.nd, self.cl, self.active, exact_cover, g)
            } else {
                choose_random(self.nd, self.cl, self.active, exact_cover, g)
            };
            self.mems += mems;
            return (best_itm, score);
        }
        let mut score = INFTY;
        let (mut best_itm, mut best_s, mut best_l) = (0u32, 0i32, 0i32);
        let (mut visited, mut ties, mut draws) = (0u64, 0u32, 0u64);
        let (nd, cl) = (&*self.nd, &*self.cl);
        self.active_items_while(|k| {
            visited += 1;
            let it = super::ops::item_at(cl, k);
            let len = super::ops::at(nd, k).itm;
            let (s, t1) = degree_terms(&it, len);
            let t = t1.wrapping_add(1);
            if let Some(w) = details.as_mut().filter(|_| TRACE) {
                w.write_bytes(b" ");
                write_name(&mut **w, &names.get(k as usize));
                if it.bound != 1 || s != 0 {
                    let _ = write!(Fmt(w), "({}:{},{})", it.bound.wrapping_sub(s), it.bound, t);
                } else {
                    let _ = write!(Fmt(w), "({len})");
                }
            }
            if t <= score {
                if t < score || s < best_s || (s == best_s && len > best_l) {
                    score = t;
                    best_itm = k;
                    best_s = s;
                    best_l = len;
                    ties = 1;
                } else if s == best_s && len == best_l {
                    ties += 1;
                    if rng.as_mut().is_some_and(|g| draw(g, ties, &mut draws)) {
                        best_itm = k;
                    }
                }
            }
            true
        });
        self.mems += 4 * draws;
        self.charge_walk(visited);
        (best_itm, score)
    }
}
