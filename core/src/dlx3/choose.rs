//! Choosing the item to branch on: minimum branching degree `len + s - bound + 1`
//! (`s = min(slack, bound)`), ties broken by smaller `s`, then larger `len`, then leftmost
//! (or uniformly at random with reservoir sampling when randomizing).
use super::active::ActiveSet;
use super::ops::{Dancer, Tallies};
use super::output::write_name;
use super::storage::{Item, Names, Node, Width};
#[cfg(target_os = "none")]
use super::word::WORD_BITS;
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
    choose_random_inline(nd, cl, active, exact_cover, g, &mut TieBuf::new())
}

/// The most ties with the best item that [`choose_random_inline`] notes; a choice with
/// more takes [`choose_random_slow`] (same choice, same draws). A power of two. Firmware
/// builds note 16: the buffer lives on the stack (64 bytes instead of 256), which a
/// microcontroller's init and search keep within 1 KiB.
const TIE_BUF: usize = if cfg!(target_os = "none") { 16 } else { 64 };

/// Where [`choose_random_inline`] notes the ties with the best item. The search loop
/// keeps one across its choices (clearing 256 bytes at each choice cost 16 instructions).
pub(super) struct TieBuf([u32; TIE_BUF]);

impl TieBuf {
    pub(super) const fn new() -> Self {
        TieBuf([0; TIE_BUF])
    }
}

/// The randomized choice when nothing is traced: the order of [`Dancer::choose_exact`]
/// (the list length) or of [`Dancer::choose_plain`] (the 128-bit key), with Knuth's
/// random tie breaks. Returns `(best_itm, score, mems)`. Inlined only into the search
/// loop's instance for randomized runs (`RAND`); the others call [`choose_random`].
///
/// Knuth's loop draws `unif(p)` at each item that ties with the best so far (`p` is 1 at
/// each new best, one more at each tie), and the item becomes the best if the draw is 0.
/// Here the scan has no data-dependent branch (they mispredict, and ties are too common
/// to predict): it keeps the best key and item with conditional moves, counts the ties
/// with best items that a later item replaced (`earlier`: their draws only use up random
/// values) and notes the ties with the final best item. Then the earlier draws are skipped
/// at once when each would take one value ([`GbFlip::skip_unifs`]), and the final ones
/// are drawn in order with `p = 2, 3, ...`: the same values in the same order as Knuth's.
/// Otherwise (too many ties, a refill of the generator due, a value that `unif` might
/// reject), the choice is made again by [`choose_random_slow`], Knuth's loop itself.
#[inline(always)]
pub(super) fn choose_random_inline<W: Width>(
    nd: &mut [Node<W>],
    cl: &mut [Item<W>],
    active: &mut ActiveSet<W>,
    exact_cover: bool,
    g: &mut GbFlip,
    ties: &mut TieBuf,
) -> (u32, i32, u64) {
    let mut tallies = Tallies::default();
    let d: Dancer<'_, W> = Dancer {
        nd: &mut *nd,
        cl: &mut *cl,
        last_itm: 0,
        second: 0,
        colored: false,
        pipelined: false,
        active: &mut *active,
        mems: 0,
        tallies: &mut tallies,
    };
    let (dn, dc) = (&*d.nd, &*d.cl);
    let found = if exact_cover {
        random_scan(&d, g, ties, INFTY, |k| super::unchecked::at(dn, k).itm)
    } else {
        random_scan(&d, g, ties, plain_key(INFTY, i32::MIN, i32::MAX), |k| {
            let it = super::unchecked::item_at(dc, k);
            let len = super::unchecked::at(dn, k).itm;
            let (s, t1) = degree_terms(&it, len);
            plain_key(t1.wrapping_add(1), s, len)
        })
        .map(|(best_itm, kk, visited, draws)| (best_itm, (kk >> 64) as i32, visited, draws))
    };
    match found {
        Some((best_itm, score, visited, draws)) => (best_itm, score, 1 + 2 * visited + 4 * draws),
        None => choose_random_slow(nd, cl, active, exact_cover, g),
    }
}

/// Knuth's randomized choice as he wrote it, drawing at each tie as the scan meets it,
/// for the choices that [`choose_random_inline`] leaves (rare: out of line).
#[cold]
#[inline(never)]
fn choose_random_slow<W: Width>(
    nd: &mut [Node<W>],
    cl: &mut [Item<W>],
    active: &mut ActiveSet<W>,
    exact_cover: bool,
    g: &mut GbFlip,
) -> (u32, i32, u64) {
    let mut tallies = Tallies::default();
    let mut d: Dancer<'_, W> = Dancer {
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

/// A key of the randomized scan that can be chosen without a branch.
trait Select: Copy + Ord {
    /// `if c { a } else { b }`, by masks: the optimizer keeps a branch on a comparison
    /// result otherwise, and the comparisons of the scan are unpredictable.
    fn select(c: bool, a: Self, b: Self) -> Self;
}

/// One mask select for every integer the scan keeps (`0` or all ones from `c`).
macro_rules! select_by_mask {
    ($($t:ty),*) => {$(
        impl Select for $t {
            #[inline(always)]
            fn select(c: bool, a: $t, b: $t) -> $t {
                let m = <$t>::from(c).wrapping_neg();
                (a & m) | (b & !m)
            }
        }
    )*};
}
select_by_mask!(i32, i128, u32, usize);

/// The scan of [`choose_random_inline`] over the active items with the key `key` (smaller
/// is better), starting from `worst`: `(best_itm, best_key, visited, draws)`, or `None`
/// (nothing drawn) when [`choose_random_slow`] has to choose.
#[inline(always)]
fn random_scan<W: Width, K: Select>(
    d: &Dancer<'_, W>,
    g: &mut GbFlip,
    ties: &mut TieBuf,
    worst: K,
    key: impl Fn(u32) -> K,
) -> Option<(u32, K, u64, u64)> {
    let ties = &mut ties.0;
    // Ties with the best item so far, and with the best items before it.
    let (mut tied_now, mut earlier) = (0usize, 0usize);
    let mut best_key = worst;
    let mut best_itm = 0u32;
    let mut visited = 0u64;
    d.active_items_while(|k| {
        visited += 1;
        let kk = key(k);
        let better = kk < best_key;
        let tied = kk == best_key;
        best_key = K::select(better, kk, best_key);
        best_itm = u32::select(better, k, best_itm);
        // Kept only if `k` ties (the index then moves on); an index past the buffer
        // wraps around, and the choice then goes to the slow path.
        ties[tied_now % TIE_BUF] = k;
        earlier += usize::select(better, tied_now, 0);
        tied_now = usize::select(better, 0, tied_now + usize::from(tied));
        true
    });
    // Every earlier draw had `p <= visited`.
    let max_p = u32::try_from(visited).unwrap_or(u32::MAX);
    if tied_now >= TIE_BUF || !g.skip_unifs(earlier, max_p) {
        return None;
    }
    for (p, &k) in (2..).zip(&ties[..tied_now]) {
        if g.unif(p) == 0 {
            best_itm = k;
        }
    }
    Some((best_itm, best_key, visited, (earlier + tied_now) as u64))
}

/// The plain choices of firmware builds ([`Dancer::choose_exact`] when `EXACT`, else
/// [`Dancer::choose_plain`]: the same order, the leftmost of equals), out of line:
/// `(best_itm, score, items visited)`. Inlined into the search loop, the scan shared the
/// loop's registers and reloaded the cursor, the node array and the item array from the
/// stack at every item (25 instructions per item on the Cortex-M4); here it has every
/// register, for one call per choice, and the bit set and the list get a loop each
/// instead of a test of which one is in use at every item (docs/PERFORMANCE.md,
/// "The chip, colored").
#[cfg(target_os = "none")]
#[inline(never)]
fn scan_out_of_line<W: Width, const EXACT: bool>(
    nd: &[Node<W>],
    cl: &[Item<W>],
    active: &ActiveSet<W>,
) -> (u32, i32, usize) {
    let mut score = INFTY;
    let (mut best_itm, mut best_s, mut best_l) = (0u32, 0i32, 0i32);
    let mut visited = 0usize;
    macro_rules! visit {
        ($k:expr) => {{
            let k = $k;
            visited += 1;
            let len = super::unchecked::at(nd, k).itm;
            if EXACT {
                if len < score {
                    (score, best_itm) = (len, k);
                }
            } else {
                let it = super::unchecked::item_at(cl, k);
                let (s, t1) = degree_terms(&it, len);
                let t = t1.wrapping_add(1);
                if t <= score && (t < score || s < best_s || (s == best_s && len > best_l)) {
                    (score, best_itm, best_s, best_l) = (t, k, s, len);
                }
            }
        }};
    }
    if active.in_use() {
        // A word at a time (32 bits on 32-bit cores).
        let mut base = 0u32;
        for &word in active.used() {
            let mut bits = word;
            while bits != 0 {
                visit!(base + bits.trailing_zeros());
                bits &= bits - 1;
            }
            base += WORD_BITS;
        }
    } else {
        let mut k = super::unchecked::item_at(cl, 0u32).next;
        while k != 0 {
            visit!(k);
            k = super::unchecked::item_at(cl, k).next;
        }
    }
    (best_itm, score, visited)
}

/// `(t, s, !len)` packed so that integer order is Knuth's preference order.
#[inline(always)]
fn plain_key(t: i32, s: i32, len: i32) -> i128 {
    (i128::from(t) << 64)
        | (i128::from(s as u32 ^ 0x8000_0000) << 32)
        | i128::from(!(len as u32 ^ 0x8000_0000))
}

impl<W: Width, const MEMS: bool> Dancer<'_, W, MEMS> {
    /// Charges Knuth's mems for walking the active list of `items` items: one for the
    /// root's `next`, then per item one for bound/slack and one for `next`.
    #[inline(always)]
    fn charge_walk(&mut self, items: u64) {
        self.charge(1 + 2 * items);
    }

    /// Plain exact cover (every primary item has bounds [1,1], so every active item has
    /// bound 1 and slack 0): the score is the list length and ties go to the leftmost.
    #[inline(always)]
    pub fn choose_exact(&mut self) -> (u32, i32) {
        #[cfg(target_os = "none")]
        {
            let (best_itm, score, visited) =
                scan_out_of_line::<W, true>(self.nd, self.cl, self.active);
            self.charge_walk(visited as u64);
            (best_itm, score)
        }
        #[cfg(not(target_os = "none"))]
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
        let mut visited = 0usize;
        let nd = &*self.nd;
        // One item (a macro: firmware builds loop here with a cursor, since a closure
        // called per item stays out of line there).
        macro_rules! visit {
            ($k:expr) => {{
                let k = $k;
                visited += 1;
                let len = super::unchecked::at(nd, k).itm;
                if len < score {
                    score = len;
                    best_itm = k;
                    tie(false);
                } else if len == score && tie(true) {
                    best_itm = k;
                }
            }};
        }
        #[cfg(target_os = "none")]
        {
            let mut c = self.active_cursor();
            while let Some(k) = self.next_active(&mut c) {
                visit!(k);
            }
        }
        #[cfg(not(target_os = "none"))]
        self.active_items_while(|k| {
            visit!(k);
            true
        });
        self.charge_walk(visited as u64);
        (best_itm, score)
    }

    /// The common case: no tracing, no randomizing. Returns `(best_itm, score)`.
    #[inline(always)]
    pub fn choose_plain(&mut self) -> (u32, i32) {
        #[cfg(target_os = "none")]
        {
            let (best_itm, score, visited) =
                scan_out_of_line::<W, false>(self.nd, self.cl, self.active);
            self.charge_walk(visited as u64);
            (best_itm, score)
        }
        #[cfg(not(target_os = "none"))]
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
            let it = super::unchecked::item_at(cl, k);
            let len = super::unchecked::at(nd, k).itm;
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
    fn choose_plain_by(&mut self, tie: impl FnMut(bool) -> bool) -> (u32, i32) {
        #[cfg(target_os = "none")]
        return self.choose_plain_branching(tie);
        #[cfg(not(target_os = "none"))]
        self.choose_plain_by_key(tie)
    }

    /// [`choose_plain_by`](Dancer::choose_plain_by) by the 128-bit key (hosted builds).
    #[cfg(not(target_os = "none"))]
    #[inline(always)]
    fn choose_plain_by_key(&mut self, mut tie: impl FnMut(bool) -> bool) -> (u32, i32) {
        let mut best_key = plain_key(INFTY, i32::MIN, i32::MAX);
        let mut best_itm = 0u32;
        let mut visited = 0u64;
        let (nd, cl) = (&*self.nd, &*self.cl);
        self.active_items_while(|k| {
            visited += 1;
            let it = super::unchecked::item_at(cl, k);
            let len = super::unchecked::at(nd, k).itm;
            let (s, t1) = degree_terms(&it, len);
            let t = t1.wrapping_add(1);
            let kk = plain_key(t, s, len);
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

    /// [`choose_plain_by`](Dancer::choose_plain_by) for firmware builds, as Knuth wrote
    /// it: most items fail the first comparison (`t <= score`), which costs a 32-bit core
    /// fewer instructions than forming and comparing a 128-bit key for every item.
    #[cfg(target_os = "none")]
    #[inline(always)]
    fn choose_plain_branching(&mut self, mut tie: impl FnMut(bool) -> bool) -> (u32, i32) {
        let mut score = INFTY;
        let (mut best_itm, mut best_s, mut best_l) = (0u32, 0i32, 0i32);
        let mut visited = 0usize;
        let (nd, cl) = (&*self.nd, &*self.cl);
        let mut c = self.active_cursor();
        while let Some(k) = self.next_active(&mut c) {
            visited += 1;
            let it = super::unchecked::item_at(cl, k);
            let len = super::unchecked::at(nd, k).itm;
            let (s, t1) = degree_terms(&it, len);
            let t = t1.wrapping_add(1);
            if t <= score {
                if t < score || s < best_s || (s == best_s && len > best_l) {
                    (score, best_itm, best_s, best_l) = (t, k, s, len);
                    tie(false);
                } else if s == best_s && len == best_l && tie(true) {
                    best_itm = k;
                }
            }
        }
        self.charge_walk(visited as u64);
        (best_itm, score)
    }

    /// The general case: optional random tie breaks and the details trace (`(err, names)`:
    /// each active item as ` NAME(LEN)` or ` NAME(X:B,T)`; compiled in only if `TRACE`).
    /// Inlined so that the `Dancer` never has its address taken (its counters then stay in
    /// registers). Random tie breaks without the trace go to [`choose_random`] (or
    /// [`choose_random_inline`]), which makes the same choices and draws.
    #[inline(always)]
    pub fn choose_traced<const TRACE: bool, const INLINE_RANDOM: bool>(
        &mut self,
        mut rng: Option<&mut GbFlip>,
        mut details: Option<&mut dyn ByteSink>,
        names: &Names<'_>,
        exact_cover: bool,
        ties: &mut TieBuf,
    ) -> (u32, i32) {
        if let (Some(g), None) = (rng.as_deref_mut(), details.as_ref()) {
            let (best_itm, score, mems) = if INLINE_RANDOM {
                choose_random_inline(self.nd, self.cl, self.active, exact_cover, g, ties)
            } else {
                choose_random(self.nd, self.cl, self.active, exact_cover, g)
            };
            self.charge(mems);
            return (best_itm, score);
        }
        let mut score = INFTY;
        let (mut best_itm, mut best_s, mut best_l) = (0u32, 0i32, 0i32);
        let (mut visited, mut ties, mut draws) = (0u64, 0u32, 0u64);
        let (nd, cl) = (&*self.nd, &*self.cl);
        self.active_items_while(|k| {
            visited += 1;
            let it = super::unchecked::item_at(cl, k);
            let len = super::unchecked::at(nd, k).itm;
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
        self.charge(4 * draws);
        self.charge_walk(visited);
        (best_itm, score)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{parse, queens, run_all, settings, Buffers, SEED};
    use std::string::String;

    /// (stdout, the last line of stderr: the counts and mems) of a whole run.
    fn outcome(text: &[u8], args: &[&str]) -> (String, String) {
        let mut b = Buffers::for_text(text);
        let mut warn = String::new();
        let mut e = parse(&mut b, text, settings(args), &mut warn).expect("parses");
        let (out, err, _) = run_all(&mut e, u64::MAX).expect("runs");
        let last = err.lines().last().unwrap_or("").into();
        (out, last)
    }

    /// The randomized choice (`choose_random`: branch-free scan, draws after it, and its
    /// slow path) makes the choices, draws and mems of Knuth's loop (the traced choice,
    /// which `v4` takes at every level), on exact covers with many ties (more than
    /// `TIE_BUF` at the root: the slow path), the 128-bit keys of bounds and colors, and
    /// seeds whose draws cross the generator's refills.
    #[test]
    fn random_choice_matches_knuths_loop() {
        let mut wide = String::new();
        (0..80).for_each(|k| wide += &std::format!("i{k} "));
        wide += "\n";
        (0..80).for_each(|k| wide += &std::format!("i{k}\n"));
        // Three pairs: 8 solutions.
        (0..3).for_each(|k| wide += &std::format!("i{} i{}\n", 2 * k, 2 * k + 1));
        let q8 = queens(8);
        let inputs: [&[u8]; 4] = [
            wide.as_bytes(),
            &q8,
            SEED,
            b"2|A 1:3|B | X\nA X:a\nA B\nB X:b\nA B X:a\nB\n",
        ];
        for text in inputs {
            for seed in [0, 1, 7, 55, 123, 314_159] {
                let s = std::format!("s{seed}");
                let fast = outcome(text, &["m1", "v1", &s]);
                let knuth = outcome(text, &["m1", "v5", &s]);
                assert_eq!(fast, knuth, "seed {seed}");
                assert!(fast.1.contains(" mems"), "{}", fast.1);
            }
        }
    }
}
