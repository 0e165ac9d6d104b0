//! The search: a resumable state machine over the levels of a [`WorkspaceView`].
use super::layout::{BitError, Layout, Matrix, WorkspaceView, COUNTS, WORD_BITS};
use super::tables::{fill, set};

/// The count of a covered primary item: above every live count, so never the least.
const COVERED: i16 = i16::MAX;

/// Why [`BitCover::run`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// At a solution ([`BitCover::solution`]); only when asked to stop at each.
    Solution,
    /// The budget of nodes is spent; call again to go on.
    Paused,
    /// The search is over.
    Done,
}

/// Where the search goes on from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    /// A node of the search tree at `level`: choose its item.
    Node,
    /// Try the next option of the item of `level`.
    Next,
    /// Back up from `level`.
    Back,
    /// Nothing is left.
    Done,
}

/// A search of a small plain exact cover over bit sets (see the [module](crate::bitcover)).
#[derive(Debug)]
pub struct BitCover<'a, const W: usize> {
    ws: WorkspaceView<'a, W>,
    primary: usize,
    stride: usize,
    level: usize,
    at: At,
    at_solution: bool,
    nodes: u64,
    solutions: u64,
    max_level: usize,
}

impl<'a, const W: usize> BitCover<'a, W> {
    /// A search of `m` in `ws`, ready to run.
    pub fn new(mut ws: WorkspaceView<'a, W>, m: &Matrix<'_>) -> Result<Self, BitError> {
        let l = Layout::of::<W>(m)?;
        let fits = ws.conflicts.len() >= l.options
            && ws.item_options.len() >= l.primary
            && ws.prims.len() >= l.options * l.stride
            && ws.live.len() >= l.levels
            && ws.candidates.len() >= l.levels
            && ws.counts.len() >= l.levels * COUNTS
            && ws.chosen.len() >= l.levels;
        if !fits {
            return Err(BitError::SmallWorkspace);
        }
        fill(&mut ws, m, l.stride);
        let mut live = [0; W];
        for j in 0..l.options {
            set(&mut live, j);
        }
        ws.live[0] = live;
        for (count, options) in ws.counts.iter_mut().zip(&ws.item_options[..l.primary]) {
            *count = options.iter().map(|w| w.count_ones() as i16).sum();
        }
        Ok(BitCover {
            ws,
            primary: l.primary,
            stride: l.stride,
            level: 0,
            at: At::Node,
            at_solution: false,
            nodes: 0,
            solutions: 0,
            max_level: 0,
        })
    }

    /// Searches on for at most `budget` nodes of the search tree (at least one), to the
    /// next solution if `every_solution`, else to the end.
    pub fn run(&mut self, budget: u64, every_solution: bool) -> Step {
        // The counts' copy and the loop over each removed option's primary items, made
        // for the usual numbers of items.
        match self.stride {
            1 => self.run_with::<1>(budget, every_solution),
            2 => self.run_with::<2>(budget, every_solution),
            3 => self.run_with::<3>(budget, every_solution),
            4 => self.run_with::<4>(budget, every_solution),
            _ => self.run_with::<0>(budget, every_solution),
        }
    }

    /// [`run`](BitCover::run) for options of `K` primary items at most (0: any number).
    fn run_with<const K: usize>(&mut self, budget: u64, every_solution: bool) -> Step {
        let (p, stride) = (self.primary, self.stride);
        let ws = &mut self.ws;
        let mut level = self.level;
        let mut at = self.at;
        let mut nodes = self.nodes;
        let mut solutions = self.solutions;
        let mut max_level = self.max_level;
        let limit = nodes.saturating_add(budget.max(1));
        self.at_solution = false;
        let step = loop {
            match at {
                At::Node => {
                    if nodes >= limit {
                        break Step::Paused;
                    }
                    nodes += 1;
                    let (item, least) = first_least(&ws.counts[level * COUNTS..][..p]);
                    if least == COVERED {
                        solutions += 1;
                        at = At::Back;
                        if every_solution {
                            self.at_solution = true;
                            break Step::Solution;
                        }
                    } else if least == 0 {
                        at = At::Back;
                    } else {
                        let (options, live) = (&ws.item_options[item], &ws.live[level]);
                        let c = &mut ws.candidates[level];
                        for w in 0..W {
                            c[w] = options[w] & live[w];
                        }
                        at = At::Next;
                    }
                }
                At::Next => {
                    let Some(o) = take_first(&mut ws.candidates[level]) else {
                        at = At::Back;
                        continue;
                    };
                    ws.chosen[level] = o as u16;
                    descend::<W, K>(ws, p, stride, level, o);
                    level += 1;
                    max_level = max_level.max(level);
                    at = At::Node;
                }
                At::Back => {
                    if level == 0 {
                        at = At::Done;
                        break Step::Done;
                    }
                    level -= 1;
                    at = At::Next;
                }
                At::Done => break Step::Done,
            }
        };
        self.level = level;
        self.at = at;
        self.nodes = nodes;
        self.solutions = solutions;
        self.max_level = max_level;
        step
    }

    /// Whether the last [`run`](BitCover::run) stopped at a solution.
    pub fn at_solution(&self) -> bool {
        self.at_solution
    }

    /// The options of the solution the search stopped at, level by level (empty when it
    /// did not stop at one).
    pub fn solution(&self) -> &[u16] {
        if self.at_solution {
            &self.ws.chosen[..self.level]
        } else {
            &[]
        }
    }

    /// Solutions found so far.
    pub fn solutions(&self) -> u64 {
        self.solutions
    }

    /// Nodes of the search tree visited so far (as DLX3 counts them).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The deepest level reached so far.
    pub fn max_level(&self) -> usize {
        self.max_level
    }
}

/// The first of the least counts: `(item, count)` (`COVERED` when every item is).
#[inline(always)]
fn first_least(counts: &[i16]) -> (usize, i16) {
    let least = counts.iter().fold(COVERED, |m, &c| m.min(c));
    let item = counts.iter().position(|&c| c == least).unwrap_or(0);
    (item, least)
}

/// Takes the lowest set bit out of `bits`.
#[inline(always)]
fn take_first<const W: usize>(bits: &mut [u64; W]) -> Option<usize> {
    for (w, word) in bits.iter_mut().enumerate() {
        if *word != 0 {
            let b = word.trailing_zeros() as usize;
            *word &= *word - 1;
            return Some(w * WORD_BITS + b);
        }
    }
    None
}

/// Sets up level `level + 1` after choosing option `o` at `level`: its live options, and
/// its counts (each option removed takes one off each of its primary items, `K` of them
/// or, for `K == 0`, `stride`; `o`'s own items are covered).
#[inline(always)]
fn descend<const W: usize, const K: usize>(
    ws: &mut WorkspaceView<'_, W>,
    p: usize,
    stride: usize,
    level: usize,
    o: usize,
) {
    let live = ws.live[level];
    let conflicts = &ws.conflicts[o];
    let mut next = [0; W];
    let mut removed = [0; W];
    for w in 0..W {
        next[w] = live[w] & !conflicts[w];
        removed[w] = live[w] & conflicts[w];
    }
    ws.live[level + 1] = next;
    let (now, after) = ws.counts.split_at_mut((level + 1) * COUNTS);
    // A whole array, so that a byte indexes it without a bounds test.
    let counts: &mut [i16; COUNTS] = (&mut after[..COUNTS]).try_into().expect("COUNTS a level");
    counts[..p].copy_from_slice(&now[level * COUNTS..][..p]);
    let prims = &*ws.prims;
    let row = |q: usize| &prims[q * stride..][..stride];
    for (w, &word) in removed.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let q = w * WORD_BITS + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if K == 0 {
                for &k in row(q) {
                    let c = &mut counts[usize::from(k)];
                    *c = c.wrapping_sub(1);
                }
            } else {
                let r: &[u8; K] = prims[q * K..][..K].try_into().expect("K a row");
                for &k in r {
                    let c = &mut counts[usize::from(k)];
                    *c = c.wrapping_sub(1);
                }
            }
        }
    }
    for &k in row(o) {
        counts[usize::from(k)] = COVERED;
    }
}
