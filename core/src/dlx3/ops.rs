//! The dancing steps: cover/uncover, purify/unpurify, tweak/untweak, and covering the rest
//! of a chosen option — each charging exactly Knuth's mems.
//!
//! `Dancer` borrows the node and item arrays for one `run` and keeps the hot counters in
//! locals, so the optimizer can hold them in registers.
use super::storage::{Item, Node};

/// The arrays and counters the dancing steps work on.
pub(super) struct Dancer<'x> {
    pub nd: &'x mut [Node],
    pub cl: &'x mut [Item],
    /// Nodes below this index are item headers.
    pub last_itm: u32,
    /// Items from this index on are secondary.
    pub second: u32,
    pub mems: u64,
    pub updates: u64,
    pub cleansings: u64,
}

impl Dancer<'_> {
    /// Removes item `c` from the active list (3 mems).
    #[inline(always)]
    pub fn deactivate(&mut self, c: u32) {
        self.mems += 3;
        let Item { prev, next, .. } = self.cl[c as usize];
        self.cl[prev as usize].next = next;
        self.cl[next as usize].prev = prev;
    }

    /// Puts item `c` back into the active list (3 mems).
    #[inline(always)]
    pub fn reactivate(&mut self, c: u32) {
        self.mems += 3;
        let Item { prev, next, .. } = self.cl[c as usize];
        self.cl[prev as usize].next = c;
        self.cl[next as usize].prev = c;
    }

    /// Hides the rest of the option of `rr` (walking right from `rr+1`), skipping cleansed
    /// nodes; the shared inner loop of `cover` and blocking `tweak`.
    #[inline(always)]
    fn hide_rest(&mut self, rr: u32) {
        let mut nn = rr + 1;
        while nn != rr {
            let n = self.nd[nn as usize];
            if n.color >= 0 {
                if n.itm <= 0 {
                    self.mems += 2;
                    nn = n.up;
                    continue;
                }
                self.mems += 6;
                self.nd[n.up as usize].down = n.down;
                self.nd[n.down as usize].up = n.up;
                self.updates += 1;
                self.nd[n.itm as usize].itm -= 1;
            } else {
                self.mems += 1;
            }
            nn += 1;
        }
    }

    /// Restores the rest of the option of `rr`, walking right like `hide_rest`.
    #[inline(always)]
    fn unhide_rest(&mut self, rr: u32) {
        let mut nn = rr + 1;
        while nn != rr {
            let n = self.nd[nn as usize];
            if n.color >= 0 {
                if n.itm <= 0 {
                    self.mems += 2;
                    nn = n.up;
                    continue;
                }
                self.mems += 6;
                self.nd[n.up as usize].down = nn;
                self.nd[n.down as usize].up = nn;
                self.nd[n.itm as usize].itm += 1;
            } else {
                self.mems += 1;
            }
            nn += 1;
        }
    }

    /// Knuth's `cover(c, deact)`: hides every option of item `c` from the other items.
    #[inline(always)]
    pub fn cover(&mut self, c: u32, deact: bool) {
        if deact {
            self.deactivate(c);
        }
        self.updates += 1;
        self.mems += 1;
        let mut rr = self.nd[c as usize].down;
        while rr >= self.last_itm {
            self.hide_rest(rr);
            self.mems += 1;
            rr = self.nd[rr as usize].down;
        }
    }

    /// Knuth's `uncover(c, react)`: undoes `cover`, also top to bottom.
    #[inline(always)]
    pub fn uncover(&mut self, c: u32, react: bool) {
        self.mems += 1;
        let mut rr = self.nd[c as usize].down;
        while rr >= self.last_itm {
            self.unhide_rest(rr);
            self.mems += 1;
            rr = self.nd[rr as usize].down;
        }
        if react {
            self.reactivate(c);
        }
    }

    /// Knuth's `purify(p)`: node `p` has color `x > 0` in secondary item `c`; hide the
    /// options of `c` with other colors and mark those with color `x` as cleansed.
    pub fn purify(&mut self, p: u32) {
        self.mems += 1;
        let Node { itm: c, color: x, .. } = self.nd[p as usize];
        self.nd[c as usize].color = x; // for printing only, so no mem
        self.cleansings += 1;
        self.mems += 1;
        let mut rr = self.nd[c as usize].down;
        while rr >= self.last_itm {
            self.mems += 1;
            if self.nd[rr as usize].color != x {
                let mut nn = rr + 1;
                while nn != rr {
                    self.mems += 2;
                    let n = self.nd[nn as usize];
                    if n.itm <= 0 {
                        nn = n.up;
                        continue;
                    }
                    if n.color >= 0 {
                        self.mems += 4;
                        self.nd[n.up as usize].down = n.down;
                        self.nd[n.down as usize].up = n.up;
                        self.updates += 1;
                        self.nd[n.itm as usize].itm -= 1;
                    }
                    nn += 1;
                }
            } else if rr != p {
                self.cleansings += 1;
                self.mems += 1;
                self.nd[rr as usize].color = -1;
            }
            self.mems += 1;
            rr = self.nd[rr as usize].down;
        }
    }

    /// Knuth's `unpurify(p)`: undoes `purify`, bottom to top and leftward.
    pub fn unpurify(&mut self, p: u32) {
        self.mems += 1;
        let Node { itm: c, color: x, .. } = self.nd[p as usize];
        self.mems += 1;
        let mut rr = self.nd[c as usize].up;
        while rr >= self.last_itm {
            self.mems += 1;
            if self.nd[rr as usize].color < 0 {
                self.mems += 1;
                self.nd[rr as usize].color = x;
            } else if rr != p {
                let mut nn = rr - 1;
                while nn != rr {
                    self.mems += 2;
                    let n = self.nd[nn as usize];
                    if n.itm <= 0 {
                        nn = n.down;
                        continue;
                    }
                    if n.color >= 0 {
                        self.mems += 4;
                        self.nd[n.up as usize].down = nn;
                        self.nd[n.down as usize].up = nn;
                        self.nd[n.itm as usize].itm += 1;
                    }
                    nn -= 1;
                }
            }
            self.mems += 1;
            rr = self.nd[rr as usize].up;
        }
    }

    /// Knuth's `tweak(n, block)`: removes the top node `n` from its item's list, and if
    /// `block`, hides the rest of its option too.
    #[inline(always)]
    pub fn tweak(&mut self, n: u32, block: bool) {
        let mut nn = if block { n + 1 } else { n };
        loop {
            let x = self.nd[nn as usize];
            self.mems += 1;
            if x.color >= 0 {
                self.mems += 1;
                if x.itm <= 0 {
                    nn = x.up;
                    continue;
                }
                self.mems += 4;
                self.nd[x.up as usize].down = x.down;
                self.nd[x.down as usize].up = x.up;
                self.updates += 1;
                self.nd[x.itm as usize].itm -= 1;
            }
            if nn == n {
                break;
            }
            nn += 1;
        }
    }

    /// Knuth's `untweak(c, x, unblock)`: `x` is the node that was on top of item `c` when
    /// the level was entered; the removed nodes still point down to each other.
    #[inline(always)]
    pub fn untweak(&mut self, c: u32, x: u32, unblock: bool) {
        self.mems += 2;
        let z = self.nd[c as usize].down;
        self.nd[c as usize].down = x;
        let mut rr = x;
        let mut qq = c;
        let mut k: i32 = 0;
        while rr != z {
            self.mems += 1;
            self.nd[rr as usize].up = qq;
            k += 1;
            if unblock {
                self.unhide_rest(rr);
            }
            self.mems += 1;
            qq = rr;
            rr = self.nd[rr as usize].down;
        }
        self.mems += 1;
        self.nd[rr as usize].up = qq;
        self.mems += 2;
        self.nd[c as usize].itm += k;
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
            let n = self.nd[pp as usize];
            let cc = n.itm;
            if cc <= 0 {
                self.mems += 1;
                pp = n.up;
                continue;
            }
            if (cc as u32) < self.second {
                self.mems += 2;
                let b = self.cl[cc as usize].bound - 1;
                self.cl[cc as usize].bound = b;
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
            let n = self.nd[pp as usize];
            let cc = n.itm;
            if cc <= 0 {
                self.mems += 1;
                pp = n.down;
                continue;
            }
            if (cc as u32) < self.second {
                self.mems += 1;
                if self.cl[cc as usize].bound == 0 {
                    self.uncover(cc as u32, true);
                }
                self.mems += 1;
                self.cl[cc as usize].bound += 1;
            } else if n.color == 0 {
                self.uncover(cc as u32, true);
            } else if n.color > 0 {
                self.unpurify(pp);
            }
            pp -= 1;
        }
    }
}
