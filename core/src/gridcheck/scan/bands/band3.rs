//! Band 3 under one surviving pair: every set of z cells of band 3 hitting the band-3
//! parts of the UA the pair leaves unhit, as a resumable search over an explicit stack.
//!
//! A node's pass over its level (the parts its parent left unhit) finds a greedy packing
//! of the parts still unhit, disjoint on open cells (a lower bound on the cells still
//! needed), and the part with the fewest open cells (the branch). Only a node that
//! branches copies the parts still unhit, as its children's level: most nodes end in the
//! pass. When every part is hit, the first UA beyond the vectors (the pair's `overflow`)
//! that the node leaves unhit becomes a level of its own; when there is none, every
//! choice of the cells still open is a candidate.
use super::geometry::{band_part, BAND};
use super::sets::next_combination;

/// Frames the stack holds: a branching node takes a clue, and at most one overflow level
/// comes before each (z ≤ 27).
const FRAMES: usize = 64;

/// Parts the stack holds: the root's (at most [`super::sizes::VECTOR_UAS`]), a level per
/// branching node at most as long as its parent's, and the overflow levels of one part.
pub(super) const PARTS: usize = super::sizes::VECTOR_UAS * 29;

/// What a frame is doing.
#[derive(Copy, Clone, Debug)]
enum Kind {
    /// Trying the cells `branch` of its branch part in turn.
    Branch { branch: u32 },
    /// Holds an overflow level until the node under it is done.
    Overflow,
    /// Listing the `left`-subsets of `open` (as bit patterns over its cells): the next.
    Subsets { open: u32, pattern: Option<u32> },
}

#[derive(Copy, Clone, Debug)]
struct Frame {
    kind: Kind,
    chosen: u32,
    forbidden: u32,
    left: u32,
    /// The children's level: `parts[start..end]`.
    start: u32,
    end: u32,
    /// What popping the frame gives back: the parts in use and the first overflow UA not
    /// known to be hit.
    parts_len: u32,
    overflow_from: u32,
}

const IDLE: Frame = Frame {
    kind: Kind::Overflow,
    chosen: 0,
    forbidden: 0,
    left: 0,
    start: 0,
    end: 0,
    parts_len: 0,
    overflow_from: 0,
};

/// The pair the search runs under: its cells, band 3, and the UA meeting band 3 beyond the
/// vectors (smallest first).
pub(super) struct Pair<'a> {
    pub xy: u128,
    pub t: usize,
    pub overflow: &'a [u128],
}

/// The search's state; `parts` (caller storage, [`PARTS`] words) holds its levels.
pub(super) struct Band3 {
    frames: [Frame; FRAMES],
    depth: usize,
    parts_len: usize,
    overflow_from: usize,
}

impl Band3 {
    pub const fn new() -> Band3 {
        Band3 {
            frames: [IDLE; FRAMES],
            depth: 0,
            parts_len: 0,
            overflow_from: 0,
        }
    }

    /// Whether a search is under way.
    pub fn is_active(&self) -> bool {
        self.depth > 0
    }

    /// Starts the search for `left` cells hitting `parts[..root]`.
    pub fn start(
        &mut self,
        parts: &mut [u64],
        root: usize,
        left: u32,
        pair: &Pair<'_>,
        nodes: &mut u64,
    ) {
        self.depth = 0;
        self.parts_len = root;
        self.overflow_from = 0;
        self.enter(parts, pair, (0, root), 0, 0, left, nodes);
    }

    /// One step: a child entered, a frame left, or a candidate (band 3's cells) returned.
    pub fn step(&mut self, parts: &mut [u64], pair: &Pair<'_>, nodes: &mut u64) -> Option<u32> {
        let top = self.depth.checked_sub(1)?;
        let frame = &mut self.frames[top];
        match frame.kind {
            Kind::Branch { branch } if branch != 0 => {
                let cell = branch & branch.wrapping_neg();
                frame.kind = Kind::Branch {
                    branch: branch & (branch - 1),
                };
                let child = (frame.chosen | cell, frame.forbidden, frame.left - 1);
                let level = (frame.start as usize, frame.end as usize);
                frame.forbidden |= cell;
                self.enter(parts, pair, level, child.0, child.1, child.2, nodes);
                None
            }
            Kind::Subsets {
                open,
                pattern: Some(pattern),
            } => {
                let mut set = frame.chosen;
                let (mut bits, mut cells) = (pattern, open);
                while cells != 0 {
                    if bits & 1 != 0 {
                        set |= cells & cells.wrapping_neg();
                    }
                    bits >>= 1;
                    cells &= cells - 1;
                }
                let next = next_combination(pattern).filter(|&p| p >> open.count_ones() == 0);
                frame.kind = Kind::Subsets {
                    open,
                    pattern: next,
                };
                Some(set)
            }
            _ => {
                self.parts_len = frame.parts_len as usize;
                self.overflow_from = frame.overflow_from as usize;
                self.depth = top;
                None
            }
        }
    }

    fn push(
        &mut self,
        kind: Kind,
        node: (u32, u32, u32),
        level: (usize, usize),
        restore: (usize, usize),
    ) {
        self.frames[self.depth] = Frame {
            kind,
            chosen: node.0,
            forbidden: node.1,
            left: node.2,
            start: level.0 as u32,
            end: level.1 as u32,
            parts_len: restore.0 as u32,
            overflow_from: restore.1 as u32,
        };
        self.depth += 1;
    }

    /// Visits the node (`chosen`, `forbidden`, `left`) over the level `parts[start..end]`:
    /// pruned, a branching frame pushed, or a leaf (a candidate list, or an overflow
    /// level and the same node over it).
    #[allow(clippy::too_many_arguments)]
    fn enter(
        &mut self,
        parts: &mut [u64],
        pair: &Pair<'_>,
        level: (usize, usize),
        chosen: u32,
        forbidden: u32,
        left: u32,
        nodes: &mut u64,
    ) {
        let mut level = level;
        loop {
            *nodes += 1;
            let (mut used, mut packed) = (0u32, 0u32);
            let (mut branch, mut branch_cells) = (0u32, u32::MAX);
            for &part in &parts[level.0..level.1] {
                let part = part as u32;
                if part & chosen != 0 {
                    continue;
                }
                let open = part & !forbidden;
                if open == 0 {
                    return;
                }
                if open & used == 0 {
                    used |= open;
                    packed += 1;
                    if packed > left {
                        return;
                    }
                }
                let cells = open.count_ones();
                if cells < branch_cells {
                    (branch, branch_cells) = (open, cells);
                }
            }
            let restore = (self.parts_len, self.overflow_from);
            if branch_cells != u32::MAX {
                let next = self.parts_len;
                let mut len = next;
                for i in level.0..level.1 {
                    let part = parts[i];
                    if part as u32 & chosen == 0 {
                        parts[len] = part;
                        len += 1;
                    }
                }
                self.parts_len = len;
                self.push(
                    Kind::Branch { branch },
                    (chosen, forbidden, left),
                    (next, len),
                    (next, restore.1),
                );
                return;
            }
            let whole = pair.xy | u128::from(chosen) << (27 * pair.t);
            let from = self.overflow_from;
            match pair.overflow[from..].iter().position(|&ua| ua & whole == 0) {
                None => {
                    let open = BAND & !(chosen | forbidden);
                    let first = (1u32 << left) - 1;
                    let pattern = (first >> open.count_ones() == 0).then_some(first);
                    self.push(
                        Kind::Subsets { open, pattern },
                        (chosen, forbidden, left),
                        (0, 0),
                        restore,
                    );
                    return;
                }
                Some(i) => {
                    let part = band_part(pair.overflow[from + i], pair.t);
                    if part & !forbidden == 0 || left == 0 {
                        return;
                    }
                    let at = self.parts_len;
                    parts[at] = u64::from(part);
                    self.parts_len = at + 1;
                    self.push(
                        Kind::Overflow,
                        (chosen, forbidden, left),
                        (0, 0),
                        (at, from),
                    );
                    self.overflow_from = from + i + 1;
                    level = (at, at + 1);
                }
            }
        }
    }
}
