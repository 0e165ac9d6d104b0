//! Where the kernel is between two blocks: which bucket of X meets which bucket of Y, and
//! which X set meets which run of Y sets next. A unit of work is one X set against at most
//! [`Y_RUN`] Y sets (a run stays in the first-level cache while the X sets pass over it).
use super::side::{Starts, BUCKETS};

/// Y sets one X set meets in a unit.
pub(super) const Y_RUN: usize = 1024;

/// The kernel's position: X bucket `a`, Y bucket `b` (a subset of the keys `a` leaves
/// hit, taken from the largest down to the empty one), the run of Y sets from `y`, and the
/// next X set `x`.
#[derive(Copy, Clone, Debug)]
pub(super) struct Cursor {
    a: usize,
    b: usize,
    y: u16,
    x: u16,
}

/// The keys bucket `a` leaves hit (a Y bucket must be inside them).
const fn open(a: usize) -> usize {
    !a & (BUCKETS - 1)
}

impl Cursor {
    /// At the first X bucket.
    pub fn start(xs: &Starts, ys: &Starts) -> Cursor {
        let mut cursor = Cursor {
            a: 0,
            b: 0,
            y: 0,
            x: 0,
        };
        cursor.enter(0, xs, ys);
        cursor
    }

    fn enter(&mut self, a: usize, xs: &Starts, ys: &Starts) {
        self.a = a;
        if a < BUCKETS {
            self.b = open(a);
            self.y = ys[self.b];
            self.x = xs[a];
        }
    }

    /// The next unit: an X set and a range of Y sets; `None` when the blocks are done.
    pub fn next(&mut self, xs: &Starts, ys: &Starts) -> Option<(usize, core::ops::Range<usize>)> {
        loop {
            let a = self.a;
            if a >= BUCKETS {
                return None;
            }
            let (x_start, x_end) = (xs[a], xs[a + 1]);
            if x_start == x_end {
                self.enter(a + 1, xs, ys);
                continue;
            }
            let y_end = ys[self.b + 1];
            if self.y < y_end {
                if self.x < x_end {
                    let run_end = (usize::from(self.y) + Y_RUN).min(usize::from(y_end));
                    let unit = (usize::from(self.x), usize::from(self.y)..run_end);
                    self.x += 1;
                    return Some(unit);
                }
                self.y = (self.y as usize + Y_RUN).min(usize::from(y_end)) as u16;
                self.x = x_start;
                continue;
            }
            if self.b == 0 {
                self.enter(a + 1, xs, ys);
                continue;
            }
            self.b = (self.b - 1) & open(a);
            self.y = ys[self.b];
            self.x = x_start;
        }
    }
}
