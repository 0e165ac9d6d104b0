//! Phase 3: the hitting-set enumeration with dead clues (McGuire, Tugemann and Civario,
//! "There is no 16-clue Sudoku", 2012) as a resumable state machine (explicit stack, no
//! recursion).
//!
//! The smallest kept UA (up to 768) are loaded into the bitmap table
//! ([`super::table`]), smallest first. Each level takes a set still unhit and
//! branches on its *live* cells, one clue each (every completion hits every unhit set, so
//! any would do). The first level takes the smallest set; the [chunk](super::Chunks)
//! levels, of the first [`BRANCH_CANDIDATES`](super::table::BRANCH_CANDIDATES) unhit
//! sets in table order, the one with the fewest live cells (the fewest children); the
//! levels below them, of the first [`BRANCH_SCORED`](super::table::BRANCH_SCORED) with
//! at most two live cells more than the fewest, the one whose cells lie in the most
//! other small unhit sets
//! ([`HitTable::branch_set`](super::table::HitTable::branch_set)): dead for the
//! later siblings, those cells leave the sets that prune with fewer live cells. A cell
//! tried at a level is *dead* for
//! that level's later siblings and all their subtrees: so every clue set is generated
//! once, and a set whose cells are all dead can no longer be hit (prune). The children
//! are tried in position order, except those of the probed levels below the chunk
//! levels: there the cell that the most sets of the probes' family hold goes first
//! ([`ProbeScratch::next_child`]); on a grid whose clique has at most
//! [`UPPER_ORDER_CLIQUE`] members, so do the levels above them (below the chunk levels):
//! there the cell in the most unhit table sets goes first ([`upper_order`]). Before
//! a child with at most [`PACKING_LEVELS`] clues left is visited, a greedy packing of unhit
//! sets pairwise disjoint on live cells must not need more clues than are left; when it
//! needs exactly as many or one fewer, each packed set takes one clue (plus at most one
//! clue anywhere), and a small exact search ([`super::region_fit`]) must find such clues
//! that hit the sets around them. A probe's proof also prunes the later siblings that lie
//! in none of the sets it rests on, without probes of their own
//! ([`HitTable::probe_with_siblings`](super::table::HitTable::probe_with_siblings)).
//! The last clue must hit every set still unhit. When every loaded set is hit before all clues are
//! placed, the remaining clues go on any live cells without pruning (this yields the
//! non-minimal puzzles). Every surviving candidate is checked with the grid-aware
//! uniqueness solver, so a UA missing from the table costs time, never a result.
use super::candidate::check_candidate;
use super::chunk_id::{ChunkId, CHUNK_LEVELS};
use super::error::ScanError;
use super::levels::{CHUNK_PACKING_LEVELS, MAX_FRAMES, PACKING_LEVELS};
use super::prepare::Prepared;
#[cfg(feature = "scan-profile")]
use super::stats::ScanProfile;
use super::stats::{RunStats, RunStatus};
#[cfg(doc)]
use super::table::ProbeScratch;
use super::table::{BitmapTable, Probe, PROBE_SLOTS};
use super::workspace::{WorkspaceSize, WorkspaceView};
use crate::gridcheck::cells::Cells;
use core::ops::ControlFlow;

/// Counts into the run's `ScanProfile` (nothing without the `scan-profile` feature).
macro_rules! profile {
    ($profile:expr, $count:expr) => {
        #[cfg(feature = "scan-profile")]
        {
            let count: &dyn Fn(&mut ScanProfile) = &$count;
            count(&mut $profile);
        }
    };
}

/// One level of the search.
#[derive(Copy, Clone, Debug)]
struct Frame {
    /// Positions still to try for this level's clue.
    branch: u128,
    /// Positions no clue of this level or below may take: the clues above, the cells
    /// tried before at this level and at the levels above.
    dead: u128,
    /// Positions of the clues above this level.
    placed: u128,
    /// True while `states[depth]` holds the sets still unhit; false once all are hit.
    unhit: bool,
    /// First word of `states[depth]` that can be non-zero.
    from: u8,
    /// Positions of `branch` a sibling's probe proved hopeless (tried without a probe).
    doomed: u128,
}

const EMPTY_FRAME: Frame = Frame {
    branch: 0,
    dead: 0,
    placed: 0,
    unhit: false,
    from: 0,
    doomed: 0,
};

/// The enumeration's run over one chunk (or the whole scan with [`ChunkId::WHOLE`]); the
/// public face is [`super::ChunkRun`].
pub(super) struct Enumeration<'p, 'w> {
    prepared: &'p Prepared<'p>,
    workspace: WorkspaceView<'w>,
    chunk: ChunkId,
    frames: [Frame; MAX_FRAMES],
    /// Per slot of the table's probe scratches (depth `d` in slot `d % PROBE_SLOTS`), one
    /// more than the depth whose state its scratch was prepared for; 0 for none. Every
    /// push of a frame forgets it for that depth ([`Enumeration::forget_probes`]): a frame's
    /// state is written only before the frame is pushed, so a prepared scratch stays
    /// valid for all the children of the frame it was prepared for.
    probes_for: [usize; PROBE_SLOTS],
    /// Per slot, true when its frame pushed a child since the scratch's live-size classes
    /// were last brought up to date (the child's cell and the siblings before it are dead
    /// now). Only then are they updated, on the way back: a run resumed after a budget
    /// orders its packings as one that ran through.
    child_visited: [bool; PROBE_SLOTS],
    depth: usize,
    /// True when the children above the probed levels are tried most-unhit first
    /// ([`upper_order`]); a function of the preparation only, so every chunk, slice and
    /// resumption of a grid orders them alike.
    upper_order: bool,
    /// False until the first `run` call set the root up.
    started: bool,
    finished: Option<RunStatus>,
    stats: RunStats,
    #[cfg(feature = "scan-profile")]
    profile: ScanProfile,
}

impl<'p, 'w> Enumeration<'p, 'w> {
    /// A run of `chunk` with `workspace` (checked against [`WorkspaceSize::for_scan`]).
    pub(super) fn new(
        prepared: &'p Prepared<'p>,
        workspace: WorkspaceView<'w>,
        chunk: ChunkId,
    ) -> Result<Enumeration<'p, 'w>, ScanError> {
        let need = WorkspaceSize::for_scan(prepared);
        if workspace.states.len() < need.states {
            return Err(ScanError::StorageTooSmall {
                what: "workspace states",
                needed: need.states,
                given: workspace.states.len(),
            });
        }
        if !prepared.chunk_fits(chunk) {
            return Err(ScanError::BadChunk);
        }
        Ok(Enumeration {
            prepared,
            workspace,
            chunk,
            frames: [EMPTY_FRAME; MAX_FRAMES],
            probes_for: [0; PROBE_SLOTS],
            child_visited: [false; PROBE_SLOTS],
            depth: 0,
            upper_order: upper_order(prepared),
            started: false,
            finished: None,
            stats: RunStats::default(),
            #[cfg(feature = "scan-profile")]
            profile: ScanProfile::ZERO,
        })
    }

    /// Counters so far.
    pub(super) fn stats(&self) -> RunStats {
        self.stats
    }

    /// Where the placements so far went.
    #[cfg(feature = "scan-profile")]
    pub(super) fn profile(&self) -> ScanProfile {
        self.profile
    }

    /// Gives the workspace view back (for the next chunk).
    pub(super) fn into_view(self) -> WorkspaceView<'w> {
        self.workspace
    }

    /// Runs for about `budget` steps; every puzzle found is passed to `on_found` (cells of
    /// the grid that are givens). Returning `Break` stops the run ([`RunStatus::Stopped`]).
    pub(super) fn run<F>(&mut self, budget: u64, on_found: &mut F) -> RunStatus
    where
        F: FnMut(Cells) -> ControlFlow<()>,
    {
        if let Some(status) = self.finished {
            return status;
        }
        let status = self.search(budget, on_found);
        if status != RunStatus::BudgetExhausted {
            self.finished = Some(status);
        }
        status
    }

    /// Sets up the root frame; false when there is nothing to enumerate.
    fn start(&mut self) -> bool {
        let prepared = self.prepared;
        let loaded = prepared.table_sets();
        let unhit = match self.workspace.table.hits.load(loaded) {
            Some(state) if !loaded.is_empty() => {
                self.workspace.states[0] = state;
                true
            }
            _ => false,
        };
        let branch = loaded.first().copied().unwrap_or(prepared.free_positions());
        let (branch, dead) = self.chunk.restrict(0, branch, 0);
        self.forget_probes(0);
        self.frames[0] = Frame {
            branch,
            dead,
            placed: 0,
            unhit,
            from: 0,
            doomed: 0,
        };
        self.depth = 0;
        branch != 0
    }

    fn search<F>(&mut self, budget: u64, on_found: &mut F) -> RunStatus
    where
        F: FnMut(Cells) -> ControlFlow<()>,
    {
        let prepared = self.prepared;
        if prepared.impossible().is_some() {
            return RunStatus::Done;
        }
        let clues = usize::from(prepared.free_clues());
        if clues == 0 {
            // Fully forced: the forced givens are the only candidate.
            return match self.check(0, on_found) {
                ControlFlow::Break(()) => RunStatus::Stopped,
                ControlFlow::Continue(()) => RunStatus::Done,
            };
        }
        if !self.started {
            self.started = true;
            if !self.start() {
                return RunStatus::Done;
            }
        }
        let stop_steps = self.stats.steps.saturating_add(budget);
        let free = prepared.free_positions();
        loop {
            let depth = self.depth;
            let frame = self.frames[depth];
            if frame.branch == 0 {
                if depth == 0 {
                    return RunStatus::Done;
                }
                self.depth -= 1;
                continue;
            }
            if self.stats.steps >= stop_steps {
                return RunStatus::BudgetExhausted;
            }
            let left = clues - depth;
            if left == 2 && frame.unhit && depth + 1 >= CHUNK_LEVELS {
                // The last two clues of this frame in one go (at most 81 * 81 steps).
                self.frames[depth].branch = 0;
                if self.last_two(depth, frame, on_found).is_break() {
                    return RunStatus::Stopped;
                }
                continue;
            }
            if frame.unhit && (3..=PACKING_LEVELS + 1).contains(&left) && depth + 1 >= CHUNK_LEVELS
            {
                // Children with at most PACKING_LEVELS clues left: the tight loop.
                if self.descend(depth, frame, left - 1, stop_steps) {
                    self.depth = depth + 1;
                }
                continue;
            }
            self.stats.steps += 1;
            profile!(self.profile, |p| p.placements[left] += 1);
            // Above the probed levels, below the chunk levels, on a grid that the gate
            // picks (`upper_order`): the cell in the most unhit table sets first, counted
            // for every child from the parent's state and the branch left (both kept in
            // the frames and the states, so a resumed run takes the same order).
            let position = if self.upper_order
                && frame.unhit
                && depth >= CHUNK_LEVELS
                && left > PACKING_LEVELS + 1
            {
                self.workspace.table.hits.most_unhit(
                    &self.workspace.states[depth],
                    frame.branch,
                    usize::from(frame.from),
                )
            } else {
                frame.branch.trailing_zeros() as u8
            };
            let bit = 1u128 << position;
            self.frames[depth].branch &= !bit;
            self.frames[depth].dead |= bit;
            let placed = frame.placed | bit;
            let dead = frame.dead | bit;

            if left == 1 {
                // Last clue: it must hit every set still unhit.
                let from = usize::from(frame.from);
                let all_hit = !frame.unhit
                    || self.workspace.table.hits.hits_all(
                        &self.workspace.states[depth],
                        position,
                        from,
                    );
                if all_hit && self.check(placed, on_found).is_break() {
                    return RunStatus::Stopped;
                }
                continue;
            }

            let child = if frame.unhit {
                match self.place(depth, frame, position, dead, left - 1) {
                    Some(child) => child,
                    None => continue,
                }
            } else {
                (free & !dead, false, 0)
            };
            let (branch, unhit, from) = child;
            let (branch, dead) = self.chunk.restrict(depth + 1, branch, dead);
            if branch == 0 {
                continue;
            }
            self.forget_probes(depth + 1);
            self.frames[depth + 1] = Frame {
                branch,
                dead,
                placed,
                unhit,
                from,
                doomed: 0,
            };
            self.depth = depth + 1;
        }
    }

    /// Writes the child state of placing `position` on level `depth` and returns the
    /// child's branch (live cells of an unhit set: within the chunk levels the one with the
    /// fewest of them among the first
    /// [`BRANCH_CANDIDATES`](super::table::BRANCH_CANDIDATES), as the chunk walk
    /// takes it, below them [`HitTable::branch_set`](super::table::HitTable::branch_set)'s;
    /// or every live cell when all are hit), whether sets are still unhit, and its first
    /// non-zero word;
    /// `None` when the child is pruned (its branch set has no live cell, or, with at most
    /// [`CHUNK_PACKING_LEVELS`] clues `left`, the probe proves that more than `left` are
    /// needed).
    #[inline(always)]
    fn place(
        &mut self,
        depth: usize,
        frame: Frame,
        position: u8,
        dead: u128,
        left: usize,
    ) -> Option<(u128, bool, u8)> {
        let all_live = self.prepared.free_positions() & !dead;
        let WorkspaceView { table, states, .. } = &mut self.workspace;
        let BitmapTable {
            hits: table,
            probes,
        } = &mut **table;
        let (low, high) = states.split_at_mut(depth + 1);
        let from = usize::from(frame.from);
        if left <= CHUNK_PACKING_LEVELS {
            // Probe first: most of these children are pruned without a state written.
            let slot = depth % PROBE_SLOTS;
            if self.probes_for[slot] != depth + 1 {
                table.prepare_probes(&low[depth], from, frame.dead, &mut probes[slot]);
                self.probes_for[slot] = depth + 1;
            }
            let probe = table.probe(&low[depth], position, from, dead, left, &probes[slot]);
            profile!(self.profile, |p| p.probed(left, probe));
            match probe {
                Probe::Pruned => return None,
                Probe::AllHit => return Some((all_live, false, 0)),
                Probe::Open => {}
            }
        }
        match table.place(&low[depth], position, &mut high[0], from) {
            None => Some((all_live, false, 0)),
            Some(head) => {
                // The chunk levels keep the rule the chunk walk follows.
                let branch = if depth + 1 >= CHUNK_LEVELS {
                    table.branch_set(&high[0], head, dead)
                } else {
                    table.fewest_live(&high[0], head, dead)
                };
                (branch != 0).then_some((branch, true, (head / 64) as u8))
            }
        }
    }

    /// Tries the clues of level `depth` (sets still unhit; each child has `left` clues
    /// left, at most [`PACKING_LEVELS`], and no chunk filter) until one leaves a child
    /// worth visiting: pushes that child and returns true; false when the frame is
    /// exhausted or the step count reaches `stop_steps`. The same placements, steps and
    /// children as the general loop, without its per-placement frame handling (most of
    /// these placements are pruned by the probe); the children's order differs: the
    /// cell held by the most sets of the probes' family goes first, so its subtree is
    /// small (it hits those sets) and, dead for its later siblings, it leaves fewer live
    /// cells in the sets they must hit (docs/PERFORMANCE.md).
    #[inline(always)]
    fn descend(&mut self, depth: usize, frame: Frame, left: usize, stop_steps: u64) -> bool {
        let free = self.prepared.free_positions();
        let WorkspaceView { table, states, .. } = &mut self.workspace;
        let BitmapTable {
            hits: table,
            probes,
        } = &mut **table;
        let (low, high) = states.split_at_mut(depth + 1);
        let state = &low[depth];
        let from = usize::from(frame.from);
        let mut branch = frame.branch;
        let mut dead = frame.dead;
        let mut doomed = frame.doomed;
        let mut child = None;
        let slot = depth % PROBE_SLOTS;
        if self.probes_for[slot] != depth + 1 {
            let parent_slot = (depth + PROBE_SLOTS - 1) % PROBE_SLOTS;
            if depth > 0 && self.probes_for[parent_slot] == depth {
                // The parent's family is at hand: derive this one from it (the same sets,
                // without the transposition of a fresh preparation).
                let position =
                    (frame.placed & !self.frames[depth - 1].placed).trailing_zeros() as u8;
                let (parent, child) = if parent_slot < slot {
                    let (low, high) = probes.split_at_mut(slot);
                    (&low[parent_slot], &mut high[0])
                } else {
                    let (low, high) = probes.split_at_mut(parent_slot);
                    (&high[0], &mut low[slot])
                };
                table.derive_probes(parent, position, state, frame.dead, child);
            } else {
                table.prepare_probes(state, from, frame.dead, &mut probes[slot]);
            }
            probes[slot].rank_children(frame.branch);
            self.probes_for[slot] = depth + 1;
            self.child_visited[slot] = false;
        } else if self.child_visited[slot] {
            // Back from a child: its cell and the siblings tried before it are dead now.
            probes[slot].resort_by_live_size(frame.dead);
            self.child_visited[slot] = false;
        }
        let scratch = &probes[slot];
        while branch != 0 && self.stats.steps < stop_steps {
            // Below the chunk levels, the child whose cell most family sets hold first
            // (`ProbeScratch::next_child`); the chunk levels keep position order, which
            // the chunks follow.
            let position = if depth >= CHUNK_LEVELS {
                scratch.next_child(branch)
            } else {
                branch.trailing_zeros() as u8
            };
            let bit = 1u128 << position;
            branch &= !bit;
            dead |= bit;
            self.stats.steps += 1;
            let probe = if doomed & bit != 0 {
                Probe::Pruned
            } else {
                let (probe, proved) =
                    table.probe_with_siblings(state, position, from, dead, left, scratch, branch);
                doomed |= proved;
                probe
            };
            profile!(self.profile, |p| {
                p.placements[left + 1] += 1;
                p.probed(left, probe)
            });
            let (child_branch, unhit, child_from) = match probe {
                Probe::Pruned => continue,
                Probe::AllHit => (free & !dead, false, 0),
                Probe::Open => match table.place(state, position, &mut high[0], from) {
                    Some(head) => (
                        table.branch_set(&high[0], head, dead),
                        true,
                        (head / 64) as u8,
                    ),
                    None => (free & !dead, false, 0),
                },
            };
            child = Some(Frame {
                branch: child_branch,
                dead,
                placed: frame.placed | bit,
                unhit,
                from: child_from,
                doomed: 0,
            });
            break;
        }
        self.frames[depth].branch = branch;
        self.frames[depth].dead = dead;
        self.frames[depth].doomed = doomed;
        match child {
            Some(child) => {
                self.child_visited[slot] = true;
                self.forget_probes(depth + 1);
                self.frames[depth + 1] = child;
                true
            }
            None => false,
        }
    }

    /// The frame at `depth` is about to be replaced: probes prepared for it are stale.
    #[inline(always)]
    fn forget_probes(&mut self, depth: usize) {
        let slot = depth % PROBE_SLOTS;
        if self.probes_for[slot] == depth + 1 {
            self.probes_for[slot] = 0;
        }
    }

    /// Solver check of the candidate whose free clues sit at `positions`.
    fn check<F>(&mut self, positions: u128, on_found: &mut F) -> ControlFlow<()>
    where
        F: FnMut(Cells) -> ControlFlow<()>,
    {
        check_candidate(self.prepared, &mut self.stats, positions, on_found)
    }

    /// The last two free clues of level `depth` (sets still unhit), in one go: the leaves
    /// are most of the tree. For each first clue, the last clue must lie in every set it
    /// leaves unhit, so the intersection of those sets (live cells only) gives the
    /// candidates at once, without writing a child state. A step per first clue and per
    /// candidate.
    fn last_two<F>(&mut self, depth: usize, frame: Frame, on_found: &mut F) -> ControlFlow<()>
    where
        F: FnMut(Cells) -> ControlFlow<()>,
    {
        let prepared = self.prepared;
        let free = prepared.free_positions();
        let table = &self.workspace.table.hits;
        let state = &self.workspace.states[depth];
        let from = usize::from(frame.from);
        let mut firsts = frame.branch;
        let mut dead = frame.dead;
        while firsts != 0 {
            let position = firsts.trailing_zeros() as u8;
            let bit = 1u128 << position;
            firsts &= firsts - 1;
            dead |= bit;
            self.stats.steps += 1;
            profile!(self.profile, |p| p.placements[2] += 1);
            let placed = frame.placed | bit;
            let mut lasts = table.common_after(state, position, from, free & !dead);
            while lasts != 0 {
                let last = lasts & lasts.wrapping_neg();
                lasts &= lasts - 1;
                self.stats.steps += 1;
                profile!(self.profile, |p| p.placements[1] += 1);
                if check_candidate(prepared, &mut self.stats, placed | last, on_found).is_break() {
                    return ControlFlow::Break(());
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// Whether a grid's children above the probed levels are tried most-unhit first
/// ([`HitTable::most_unhit`](super::table::HitTable::most_unhit)): only when
/// its clique has at most [`UPPER_ORDER_CLIQUE`] members. That order leaves fewer
/// placements on the slow grids (a small clique: the bound leaves more clues to spare, so
/// the levels above the probed ones branch the most) and more on the others, hence the
/// gate (docs/PERFORMANCE.md). With [`PACKING_LEVELS`] probed, a 16-clue whole-grid scan
/// has no level above them: only scans for more clues take this order. A function of the
/// preparation only: every chunk, slice and resumption of a grid orders alike.
fn upper_order(prepared: &Prepared<'_>) -> bool {
    prepared.clique_members().len() <= UPPER_ORDER_CLIQUE
}

/// Largest clique of the grids whose upper levels go most-unhit first ([`upper_order`]).
const UPPER_ORDER_CLIQUE: usize = 10;
