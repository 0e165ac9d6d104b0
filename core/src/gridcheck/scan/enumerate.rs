//! Phase 3: the pruned enumeration as a resumable state machine (explicit stack, no
//! recursion).
//!
//! Free clues are numbered `K-1` (most significant, search depth 0) down to `0` and placed
//! in strictly decreasing iterator positions, so every clue set is generated once. For clue
//! `c` below a clue at position `upper`: positions `max(c, lowest cell of the first unhit UA)
//! .. min(upper, limit[c])` (room for the `c` clues below; nothing below the head's lowest
//! cell can hit it; the clique members below `limit[c]` need `c+1` clues). The unhit UA of
//! a level are a filtered list while there are more than 768 of them, then a bitmap state
//! ([`super::bitmap768`]). On the last clue only the head UA's positions are tried, and
//! each must hit every remaining UA. When all kept UA are hit early, the remaining clues
//! are placed without pruning (this yields the non-minimal puzzles). Every surviving
//! candidate is checked with the grid-aware uniqueness solver.
use super::bitmap768::{CAPACITY, WORDS};
use super::chunks::ChunkId;
use super::error::ScanError;
use super::storage::{Workspace, WorkspaceSize};
use super::Prepared;
use crate::gridcheck::cells::Cells;
use crate::gridcheck::solver::is_unique_with_grid;
use core::ops::ControlFlow;

/// Outcome of [`ChunkRun::run`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RunStatus {
    /// The chunk is finished.
    Done,
    /// The budget ran out; call `run` again to continue.
    BudgetExhausted,
    /// Stopped at a puzzle (stop-at-first, or the callback asked to stop).
    Stopped,
}

/// Counters of a run (cumulative over resumptions).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct RunStats {
    /// Placements tried (the budget unit).
    pub steps: u64,
    /// Candidates that hit all kept UA and went to the solver.
    pub candidates: u64,
    /// Solver calls (candidates plus minimality checks).
    pub solver_calls: u64,
    /// Puzzles reported.
    pub found: u64,
}

/// Where the unhit UA of a level live.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Unhit {
    /// The whole kept list (nothing placed yet).
    Root,
    /// `lists[start..start + len]` of the workspace.
    List { start: u32, len: u32 },
    /// The wide state of this level (`wide_states[depth]`).
    Wide,
    /// The bitmap state of this level (`states[depth]`).
    Bitmap,
    /// Every kept UA is hit: no pruning below.
    AllHit,
}

/// One level of the search.
#[derive(Copy, Clone, Debug)]
struct Frame {
    /// Positions still to try for this level's clue.
    candidates: u128,
    /// Positions of the more significant free clues.
    placed: u128,
    /// Unhit UA before this level's clue.
    unhit: Unhit,
    /// First active word of the wide or bitmap state (earlier words are dead).
    from: u8,
}

const EMPTY_FRAME: Frame = Frame {
    candidates: 0,
    placed: 0,
    unhit: Unhit::AllHit,
    from: 0,
};

/// A run over one chunk (or the whole scan with [`ChunkId::WHOLE`]).
pub struct ChunkRun<'p, 'w> {
    prepared: &'p Prepared<'p>,
    workspace: Workspace<'w>,
    chunk: ChunkId,
    frames: [Frame; 82],
    depth: usize,
    /// False until the first `run` call set the root up.
    started: bool,
    finished: Option<RunStatus>,
    stats: RunStats,
}

impl<'p, 'w> ChunkRun<'p, 'w> {
    /// A run of `chunk` with `workspace` (checked against [`WorkspaceSize::for_scan`]).
    pub fn new(
        prepared: &'p Prepared<'p>,
        workspace: Workspace<'w>,
        chunk: ChunkId,
    ) -> Result<ChunkRun<'p, 'w>, ScanError> {
        let need = WorkspaceSize::for_scan(prepared);
        if workspace.lists.len() < need.list_entries {
            return Err(ScanError::StorageTooSmall {
                what: "workspace lists",
                needed: need.list_entries,
                given: workspace.lists.len(),
            });
        }
        if workspace.wide_states.len() < need.wide_states {
            return Err(ScanError::StorageTooSmall {
                what: "workspace wide states",
                needed: need.wide_states,
                given: workspace.wide_states.len(),
            });
        }
        if workspace.states.len() < need.states {
            return Err(ScanError::StorageTooSmall {
                what: "workspace states",
                needed: need.states,
                given: workspace.states.len(),
            });
        }
        let clues = prepared.free_clues();
        let bad_top =
            chunk.top != u8::MAX && (clues == 0 || chunk.top >= prepared.free_cell_count());
        let bad_second = chunk.second != u8::MAX
            && (clues < 2 || chunk.top == u8::MAX || chunk.second >= chunk.top);
        if bad_top || bad_second {
            return Err(ScanError::BadChunk);
        }
        Ok(ChunkRun {
            prepared,
            workspace,
            chunk,
            frames: [EMPTY_FRAME; 82],
            depth: 0,
            started: false,
            finished: None,
            stats: RunStats::default(),
        })
    }

    /// Counters so far.
    pub fn stats(&self) -> RunStats {
        self.stats
    }

    /// Gives the workspace back (for the next chunk).
    pub fn into_workspace(self) -> Workspace<'w> {
        self.workspace
    }

    /// Runs for about `budget` steps; every puzzle found is passed to `on_found` (cells of
    /// the grid that are givens). Returning `Break` stops the run ([`RunStatus::Stopped`]).
    pub fn run<F>(&mut self, budget: u64, on_found: &mut F) -> RunStatus
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
        let clues = prepared.free_clues();
        let kept = prepared.kept();
        let (unhit, head) = if kept.is_empty() {
            (Unhit::AllHit, None)
        } else if kept.len() <= CAPACITY {
            match self.workspace.table.load(kept) {
                Some(state) => {
                    self.workspace.states[0] = state;
                    (Unhit::Bitmap, Some(kept[0]))
                }
                None => (Unhit::Root, Some(kept[0])),
            }
        } else if let Some(wide) = prepared.wide_hits() {
            self.workspace.wide_states[0] = wide.full_state();
            (Unhit::Wide, Some(kept[0]))
        } else {
            (Unhit::Root, Some(kept[0]))
        };
        let candidates =
            prepared.candidates(clues - 1, prepared.free_cell_count(), head) & self.chunk.filter(0);
        self.frames[0] = Frame {
            candidates,
            placed: 0,
            unhit,
            from: 0,
        };
        self.depth = 0;
        candidates != 0
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
        let kept = prepared.kept();
        loop {
            let depth = self.depth;
            let frame = self.frames[depth];
            if frame.candidates == 0 {
                if depth == 0 {
                    return RunStatus::Done;
                }
                self.depth -= 1;
                continue;
            }
            if self.stats.steps >= stop_steps {
                return RunStatus::BudgetExhausted;
            }
            if frame.unhit == Unhit::Bitmap && depth + 2 <= clues {
                // Bitmap mode with two clues or more left: nearly every step of a scan.
                if self.run_bitmap(stop_steps, on_found).is_break() {
                    return RunStatus::Stopped;
                }
                continue;
            }
            self.stats.steps += 1;
            let position = frame.candidates.trailing_zeros() as u8;
            self.frames[depth].candidates &= frame.candidates - 1;
            let bit = 1u128 << position;
            let clue = clues - 1 - depth;
            let placed = frame.placed | bit;
            let from = usize::from(frame.from);

            if clue == 0 {
                // Last clue: it must hit every UA still unhit.
                let all_hit = match frame.unhit {
                    Unhit::AllHit => true,
                    Unhit::Bitmap => {
                        self.workspace
                            .table
                            .hits_all(&self.workspace.states[depth], position, from)
                    }
                    Unhit::Wide => match prepared.wide_hits() {
                        Some(wide) => {
                            wide.hits_all(&self.workspace.wide_states[depth], position, from)
                        }
                        None => true,
                    },
                    Unhit::Root => kept.iter().all(|&set| set & bit != 0),
                    Unhit::List { start, len } => {
                        let (start, len) = (start as usize, len as usize);
                        self.workspace.lists[start..start + len]
                            .iter()
                            .all(|&set| set & bit != 0)
                    }
                };
                if all_hit && self.check(placed, on_found).is_break() {
                    return RunStatus::Stopped;
                }
                continue;
            }

            // Unhit UA for the next clue, the head of that list, and the child's active words.
            let mut wide_unhit = 0;
            let (child, head, child_from) = match frame.unhit {
                Unhit::AllHit => (Unhit::AllHit, None, 0),
                Unhit::Bitmap => {
                    let table = &*self.workspace.table;
                    let (low, high) = self.workspace.states.split_at_mut(depth + 1);
                    match table.place(&low[depth], position, &mut high[0], from) {
                        Some(index) => (
                            Unhit::Bitmap,
                            Some(table.set(index)),
                            table.start_word(position),
                        ),
                        None => (Unhit::AllHit, None, 0),
                    }
                }
                Unhit::Wide => match prepared.wide_hits() {
                    Some(wide) => {
                        let (low, high) = self.workspace.wide_states.split_at_mut(depth + 1);
                        let (count, first) = wide.place(&low[depth], position, &mut high[0], from);
                        wide_unhit = count as usize;
                        match first {
                            Some(index) => {
                                (Unhit::Wide, Some(kept[index]), wide.start_word(position))
                            }
                            None => (Unhit::AllHit, None, 0),
                        }
                    }
                    None => (Unhit::AllHit, None, 0),
                },
                Unhit::Root | Unhit::List { .. } => {
                    let (parent_start, parent_len, child_start) = match frame.unhit {
                        Unhit::List { start, len } => {
                            (start as usize, len as usize, (start + len) as usize)
                        }
                        _ => (0, kept.len(), 0),
                    };
                    let child_len =
                        self.filter_list(frame.unhit, parent_start, parent_len, child_start, bit);
                    match child_len {
                        0 => (Unhit::AllHit, None, 0),
                        n => {
                            let head = self.workspace.lists[child_start];
                            (
                                Unhit::List {
                                    start: child_start as u32,
                                    len: n as u32,
                                },
                                Some(head),
                                0,
                            )
                        }
                    }
                }
            };
            let candidates = prepared.candidates((clue - 1) as u8, position, head)
                & self.chunk.filter(depth + 1);
            if candidates == 0 {
                continue;
            }
            // Switch to the 768-set bitmap when few enough sets are left.
            let (child, child_from) = match child {
                Unhit::List { start, len } if len as usize <= CAPACITY => {
                    let (start, len) = (start as usize, len as usize);
                    let list = &self.workspace.lists[start..start + len];
                    match self.workspace.table.load(list) {
                        Some(state) => {
                            self.workspace.states[depth + 1] = state;
                            (Unhit::Bitmap, self.workspace.table.start_word(position))
                        }
                        None => (child, child_from),
                    }
                }
                Unhit::Wide
                    if wide_unhit <= CAPACITY
                        && clue > usize::from(prepared.options().switch_min_clue) =>
                {
                    self.switch_wide(depth + 1, child_from, position)
                        .unwrap_or((child, child_from))
                }
                other => (other, child_from),
            };
            let mut candidates = candidates;
            if child == Unhit::Bitmap && clue >= 2 {
                // Every clue after the child's lies below limit[clue - 2]: the child's clue
                // must hit each unhit set lying wholly at or above it.
                let bound = prepared.limit((clue - 2) as u8);
                if bound < position {
                    candidates &= self.workspace.table.must_hit(
                        &self.workspace.states[depth + 1],
                        child_from,
                        bound,
                        candidates,
                    );
                    if candidates == 0 {
                        continue;
                    }
                }
            }
            self.frames[depth + 1] = Frame {
                candidates,
                placed,
                unhit: child,
                from: child_from as u8,
            };
            self.depth = depth + 1;
        }
    }

    /// Runs the search from the current frame (bitmap mode, at least two clues left) for
    /// as long as it stays in bitmap mode: pushes and pops without going back through the
    /// general loop. Returns to it with `self.depth` on a frame it does not handle (a
    /// parent in another mode, a child with every set hit), on an exhausted root, or when
    /// the step count reaches `stop_steps`. Same placements, order and steps as the
    /// general loop.
    fn run_bitmap<F>(&mut self, stop_steps: u64, on_found: &mut F) -> ControlFlow<()>
    where
        F: FnMut(Cells) -> ControlFlow<()>,
    {
        let clues = usize::from(self.prepared.free_clues());
        let mut depth = self.depth;
        loop {
            let frame = self.frames[depth];
            if frame.candidates != 0 {
                if self.stats.steps >= stop_steps {
                    break;
                }
                if depth + 2 == clues {
                    // Two clues left: the whole frame at once (at most 81 * 81 steps).
                    self.frames[depth].candidates = 0;
                    if self.last_two_bitmap(depth, frame, on_found).is_break() {
                        self.depth = depth;
                        return ControlFlow::Break(());
                    }
                } else if self.descend_bitmap(depth, frame, stop_steps) {
                    depth += 1;
                    if self.frames[depth].unhit == Unhit::Bitmap {
                        continue;
                    }
                    break;
                } else if self.frames[depth].candidates != 0 {
                    break;
                }
            }
            // This frame is exhausted: back to its parent.
            if depth == 0 {
                break;
            }
            depth -= 1;
            if self.frames[depth].unhit != Unhit::Bitmap {
                break;
            }
        }
        self.depth = depth;
        ControlFlow::Continue(())
    }

    /// Places this frame's clues in bitmap mode (at least three clues left, counting
    /// this one) until one leaves a child worth visiting, pushes that child and returns
    /// true; false when the frame is exhausted or the step count reaches `stop_steps`.
    /// Same placements, order, steps and children as the general loop, but a placement
    /// pruned by the bounds (most of them) never writes its child state: the head and
    /// the must-hit test read the parent's state with the placement's hitting mask
    /// applied on the fly.
    #[inline(always)]
    fn descend_bitmap(&mut self, depth: usize, frame: Frame, stop_steps: u64) -> bool {
        let prepared = self.prepared;
        let clue = usize::from(prepared.free_clues()) - 1 - depth;
        let child_clue = (clue - 1) as u8;
        // Every clue after the child's lies below limit[clue - 2]: the child's clue must
        // hit each unhit set lying wholly at or above it.
        let bound = prepared.limit((clue - 2) as u8);
        let filter = self.chunk.filter(depth + 1);
        let from = usize::from(frame.from);
        let Workspace { table, states, .. } = &mut self.workspace;
        let (low, high) = states.split_at_mut(depth + 1);
        let state = &low[depth];
        let mut candidates = frame.candidates;
        while candidates != 0 && self.stats.steps < stop_steps {
            let position = candidates.trailing_zeros() as u8;
            candidates &= candidates - 1;
            self.stats.steps += 1;
            let probe = table.probe(state, position, from);
            let head = probe.map(|probe| table.set(probe.head));
            let mut child_candidates = prepared.candidates(child_clue, position, head) & filter;
            if child_candidates == 0 {
                continue;
            }
            let child_from = table.start_word(position);
            if let Some(probe) = probe {
                if bound < position {
                    child_candidates =
                        table.must_hit_after(state, position, probe, bound, child_candidates);
                    if child_candidates == 0 {
                        continue;
                    }
                }
            }
            let unhit = match head {
                Some(_) => {
                    table.place(state, position, &mut high[0], from);
                    Unhit::Bitmap
                }
                None => Unhit::AllHit,
            };
            self.frames[depth].candidates = candidates;
            self.frames[depth + 1] = Frame {
                candidates: child_candidates,
                placed: frame.placed | 1u128 << position,
                unhit,
                from: if head.is_some() { child_from as u8 } else { 0 },
            };
            return true;
        }
        self.frames[depth].candidates = candidates;
        false
    }

    /// Loads the 768-set table from the wide state of level `depth` (active words from
    /// `from`); returns the bitmap mode and its active word for a clue below `position`.
    fn switch_wide(&mut self, depth: usize, from: usize, position: u8) -> Option<(Unhit, usize)> {
        let prepared = self.prepared;
        let kept = prepared.kept();
        let wide = prepared.wide_hits()?;
        let Workspace {
            table,
            states,
            wide_states,
            ..
        } = &mut self.workspace;
        let state = table.load_from(wide.unhit(&wide_states[depth], from).map(|i| kept[i]))?;
        states[depth] = state;
        Some((Unhit::Bitmap, table.start_word(position)))
    }

    /// Copies the parent's sets not hit by `bit` to `lists[child_start..]`; returns how many.
    fn filter_list(
        &mut self,
        parent: Unhit,
        start: usize,
        len: usize,
        child_start: usize,
        bit: u128,
    ) -> usize {
        let kept = self.prepared.kept();
        let lists = &mut *self.workspace.lists;
        let mut n = 0;
        match parent {
            Unhit::Root => {
                for &set in kept {
                    if set & bit == 0 {
                        lists[child_start + n] = set;
                        n += 1;
                    }
                }
            }
            _ => {
                // Parent and child regions do not overlap (child starts after the parent).
                let (parent_part, child_part) = lists.split_at_mut(child_start);
                for &set in &parent_part[start..start + len] {
                    if set & bit == 0 {
                        child_part[n] = set;
                        n += 1;
                    }
                }
            }
        }
        n
    }

    /// Solver check of the candidate whose free clues sit at `positions`.
    fn check<F>(&mut self, positions: u128, on_found: &mut F) -> ControlFlow<()>
    where
        F: FnMut(Cells) -> ControlFlow<()>,
    {
        check_candidate(self.prepared, &mut self.stats, positions, on_found)
    }

    /// The last two free clues in bitmap mode, in one go (the leaves are most of the
    /// tree; this skips a frame push and pop per placement). Same placements, same order
    /// and same step count as the general loop.
    fn last_two_bitmap<F>(
        &mut self,
        depth: usize,
        frame: Frame,
        on_found: &mut F,
    ) -> ControlFlow<()>
    where
        F: FnMut(Cells) -> ControlFlow<()>,
    {
        let prepared = self.prepared;
        let last_filter = self.chunk.filter(depth + 1);
        let table = &*self.workspace.table;
        let state = &self.workspace.states[depth];
        let from = usize::from(frame.from);
        let mut child = [0u64; WORDS];
        let mut firsts = frame.candidates;
        while firsts != 0 {
            let position = firsts.trailing_zeros() as u8;
            firsts &= firsts - 1;
            self.stats.steps += 1;
            let placed = frame.placed | 1u128 << position;
            let head = table
                .place(state, position, &mut child, from)
                .map(|index| table.set(index));
            let child_from = table.start_word(position);
            let mut lasts = prepared.candidates(0, position, head) & last_filter;
            while lasts != 0 {
                let last = lasts.trailing_zeros() as u8;
                lasts &= lasts - 1;
                self.stats.steps += 1;
                let all_hit = head.is_none() || table.hits_all(&child, last, child_from);
                if all_hit
                    && check_candidate(prepared, &mut self.stats, placed | 1u128 << last, on_found)
                        .is_break()
                {
                    return ControlFlow::Break(());
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// Solver check of the candidate whose free clues sit at `positions`; counts it in `stats`
/// and reports a puzzle to `on_found`.
fn check_candidate<F>(
    prepared: &Prepared<'_>,
    stats: &mut RunStats,
    positions: u128,
    on_found: &mut F,
) -> ControlFlow<()>
where
    F: FnMut(Cells) -> ControlFlow<()>,
{
    let givens = prepared.remap().to_cells(positions) | prepared.forced_givens().0;
    stats.candidates += 1;
    stats.solver_calls += 1;
    stats.steps += 1;
    let grid = prepared.grid();
    if !is_unique_with_grid(grid, Cells(givens)) {
        return ControlFlow::Continue(());
    }
    if prepared.options().minimal_only {
        let mut rest = givens;
        while rest != 0 {
            let cell = rest & rest.wrapping_neg();
            rest &= rest - 1;
            stats.solver_calls += 1;
            if is_unique_with_grid(grid, Cells(givens & !cell)) {
                return ControlFlow::Continue(());
            }
        }
    }
    stats.found += 1;
    let flow = on_found(Cells(givens));
    if flow.is_break() || prepared.options().stop_at_first {
        return ControlFlow::Break(());
    }
    ControlFlow::Continue(())
}
