//! Choosing the item to branch on: minimum branching degree `len + s - bound + 1`
//! (`s = min(slack, bound)`), ties broken by smaller `s`, then larger `len`, then leftmost
//! (or uniformly at random with reservoir sampling when randomizing).
use super::ops::Dancer;
use super::output::write_name;
use super::storage::{Item, Names};
use crate::gb_flip::GbFlip;
use core::fmt::Write;

/// Knuth's `infty`: the score when no active primary item is left.
pub(super) const INFTY: i32 = 100_000_000;

impl Dancer<'_> {
    /// Plain exact cover (every primary item has bounds [1,1], so every active item has
    /// bound 1 and slack 0): the score is the list length and ties go to the leftmost.
    #[inline(always)]
    pub fn choose_exact(&mut self) -> (u32, i32) {
        let mut score = INFTY;
        let mut best_itm = 0u32;
        let mut steps: u64 = 0;
        if self.active.in_use() {
            let nd = &*self.nd;
            self.active.for_each(|k| {
                steps += 1;
                let len = super::ops::at(nd, k).itm;
                if len < score {
                    score = len;
                    best_itm = k;
                }
            });
        } else {
            let mut k = self.item(0u32).next;
            while k != 0 {
                steps += 1;
                let len = self.node(k).itm;
                if len < score {
                    score = len;
                    best_itm = k;
                }
                k = self.item(k).next;
            }
        }
        self.mems += 1 + 2 * steps;
        (best_itm, score)
    }

    /// The common case: no tracing, no randomizing. Returns `(best_itm, score)`.
    #[inline(always)]
    pub fn choose_plain(&mut self) -> (u32, i32) {
        let mut score = INFTY;
        let (mut best_itm, mut best_s, mut best_l) = (0u32, 0i32, 0i32);
        let mut steps: u64 = 0;
        let mut consider = |k: u32, it: Item, len: i32| {
            steps += 1;
            let s = if it.slack > it.bound { it.bound } else { it.slack };
            let t = len.wrapping_add(s).wrapping_sub(it.bound).wrapping_add(1);
            if t <= score && (t < score || s < best_s || (s == best_s && len > best_l)) {
                score = t;
                best_itm = k;
                best_s = s;
                best_l = len;
            }
        };
        if self.active.in_use() {
            let (nd, cl) = (&*self.nd, &*self.cl);
            self.active.for_each(|k| consider(k, super::ops::item_at(cl, k), super::ops::at(nd, k).itm));
        } else {
            let mut k = self.item(0u32).next;
            while k != 0 {
                let it = self.item(k);
                consider(k, it, self.node(k).itm);
                k = it.next;
            }
        }
        // One mem for the root's `next`, then per item one for bound/slack and one for `next`.
        self.mems += 1 + 2 * steps;
        (best_itm, score)
    }

    /// The general case: optional random tie breaks and the details trace (`(err, names)`:
    /// each active item as ` NAME(LEN)` or ` NAME(X:B,T)`). Inlined so that the `Dancer`
    /// never has its address taken (its counters then stay in registers).
    #[inline(always)]
    pub fn choose_traced(
        &mut self,
        mut rng: Option<&mut GbFlip>,
        mut details: Option<&mut dyn Write>,
        names: &Names<'_>,
    ) -> (u32, i32) {
        let mut score = INFTY;
        let (mut best_itm, mut best_s, mut best_l) = (0u32, 0i32, 0i32);
        let mut ties: u32 = 0;
        self.mems += 1;
        let mut k = self.item(0u32).next;
        while k != 0 {
            let it = self.item(k);
            self.mems += 1;
            let s = if it.slack > it.bound { it.bound } else { it.slack };
            let len = self.node(k).itm;
            let t = len.wrapping_add(s).wrapping_sub(it.bound).wrapping_add(1);
            if let Some(w) = details.as_mut() {
                let _ = w.write_str(" ");
                write_name(&mut **w, &names.get(k as usize));
                if it.bound != 1 || s != 0 {
                    let _ = write!(w, "({}:{},{})", it.bound.wrapping_sub(s), it.bound, t);
                } else {
                    let _ = write!(w, "({len})");
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
                    if let Some(g) = rng.as_mut() {
                        self.mems += 4;
                        if g.unif(ties) == 0 {
                            best_itm = k;
                        }
                    }
                }
            }
            self.mems += 1;
            k = it.next;
        }
        (best_itm, score)
    }
}
