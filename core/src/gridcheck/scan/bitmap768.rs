//! The 768-set bitmap table of the enumeration.
//!
//! The enumeration works on up to 768 sets with bit operations: for every position a
//! 768-bit hitting mask (bit i set when set i contains the position), and per level a
//! 768-bit "still unhit" state. Placing a clue is one AND-NOT per used word; the first set
//! bit is the first unhit set in table order (the smallest, the enumeration's branch set).
//! Only as many 64-bit words as the set count needs are touched.

#[cfg(test)]
use super::probe_scratch::RESORT_CELLS;
use super::probe_scratch::{ProbeScratch, PROBE_SLOTS};
use super::region_fit::{self, regions_can_hit, split_region, Family, SetMask};
use super::transpose::{transpose_narrow, NARROW_COLUMNS};
use crate::gridcheck::cells::CELL_COUNT;

/// Capacity in sets.
pub(crate) const CAPACITY: usize = 768;
/// 64-bit words per state.
pub(crate) const WORDS: usize = CAPACITY / 64;

/// One level of a chunk run: bit i set while set i of the [`BitmapTable`] is not hit yet.
///
/// Opaque: a [`super::WorkspaceView`] holds one per search level (free clues + 1,
/// [`super::WorkspaceSize`]), 96 bytes each, all-zero bits a valid value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(transparent)]
pub struct LevelState([u64; WORDS]);

impl LevelState {
    /// A state with no set unhit (what a fresh workspace holds).
    ///
    /// ```
    /// use xcover_core::gridcheck::scan::LevelState;
    ///
    /// let mut states = [LevelState::ZERO; 19];
    /// assert_eq!(core::mem::size_of_val(&states), 19 * 96);
    /// # let _ = &mut states;
    /// ```
    pub const ZERO: LevelState = LevelState([0; WORDS]);
}

impl Default for LevelState {
    fn default() -> Self {
        LevelState::ZERO
    }
}

/// The state type of the table's methods (its bits: `.0`).
type State = LevelState;

/// What placing a clue leaves, from [`HitTable::probe`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Probe {
    /// Every set is hit.
    AllHit,
    /// The sets left unhit need more clues than are left.
    Pruned,
    /// Not pruned, and some set is (or may be) left unhit: write the child state with
    /// [`HitTable::place`].
    Open,
}

/// With at most this many clues left, [`HitTable::probe`] reads, beyond the parent's
/// family, only the first [`NARROW_PROBE_WORDS`] words of the state.
pub(crate) const NARROW_PROBE_CLUES: usize = 3;
/// Words (64 sets each) a narrow probe reads beyond the family: the 256 smallest sets.
pub(crate) const NARROW_PROBE_WORDS: usize = 4;
/// Live-size classes of the family's packing order ([`HitTable::prepare_probes`]):
/// sets of this many live cells or more share the last class.
pub(crate) const SIZE_CLASSES: usize = 32;
/// Most regions the exact test of [`HitTable::probe`] handles.
pub(crate) const TIGHT_REGIONS: usize = region_fit::MAX_REGIONS;
/// Sets the packing (first, by live size) and the exact test of [`HitTable::probe`]
/// read: the first this many unhit sets of the parent state
/// ([`HitTable::prepare_probes`]), less those the placed clue hits. 128 sets (one
/// `u128` mask) prune more than 64 for their cost (docs/PERFORMANCE.md).
pub(crate) const TIGHT_SETS: usize = region_fit::MAX_SETS;

/// Siblings (the positions a parent tries after a child, outside the exact test's
/// regions) the exact test of [`HitTable::probe_with_siblings`] covers: it first reads
/// the members none of them holds, so that a failure rules them out as well. Covering
/// more makes that test longer (the measurements that chose 2: docs/PERFORMANCE.md).
pub(crate) const COVERED_SIBLINGS: usize = 2;

/// A chunk run's table: the hitting masks of the sets loaded at the last switch, and the
/// scratch of the probes of a few search levels.
///
/// Opaque: a chunk run loads it; a [`super::WorkspaceView`] borrows one, a
/// [`super::Workspace`] owns one.
///
/// ```
/// use xcover_core::gridcheck::scan::BitmapTable;
///
/// static TABLE: BitmapTable = BitmapTable::new(); // const: can live in a static
/// assert!(core::mem::size_of_val(&TABLE) > 20_000);
/// ```
#[derive(Clone)]
pub struct BitmapTable {
    /// The sets and their hitting masks.
    pub(crate) hits: HitTable,
    /// The probes' scratch of the depths modulo [`PROBE_SLOTS`]: in caller storage with
    /// the table, not in the [`super::ChunkRun`], which the C ABI moves by value.
    pub(crate) probes: [ProbeScratch; PROBE_SLOTS],
}

impl Default for BitmapTable {
    fn default() -> Self {
        Self::new()
    }
}

impl BitmapTable {
    /// An empty table (about 40 KB; keep it in caller storage).
    pub const fn new() -> BitmapTable {
        BitmapTable {
            hits: HitTable::new(),
            probes: [const { ProbeScratch::new() }; PROBE_SLOTS],
        }
    }
}

/// Hitting masks and per-set data of the sets loaded at the last switch (the part of a
/// [`BitmapTable`] the probes read).
#[derive(Clone)]
pub(crate) struct HitTable {
    hit: [[u64; WORDS]; CELL_COUNT],
    sets: [u128; CAPACITY],
    len: usize,
    words: usize,
}

impl HitTable {
    /// An empty table.
    pub(crate) const fn new() -> HitTable {
        HitTable {
            hit: [[0; WORDS]; CELL_COUNT],
            sets: [0; CAPACITY],
            len: 0,
            words: 0,
        }
    }

    /// Loads `sets` (order kept, at most [`CAPACITY`], position bits < 81) and returns
    /// the all-unhit state. Returns `None` when there are too many sets.
    pub(crate) fn load(&mut self, sets: &[u128]) -> Option<State> {
        if sets.len() > CAPACITY {
            return None;
        }
        self.load_from(sets.iter().copied())
    }

    /// Like [`HitTable::load`] from an iterator; `None` (table unusable) when it yields
    /// more than [`CAPACITY`] sets.
    pub(crate) fn load_from(&mut self, sets: impl Iterator<Item = u128>) -> Option<State> {
        for row in self.hit.iter_mut() {
            *row = [0; WORDS];
        }
        let mut len = 0;
        for set in sets {
            if len == CAPACITY {
                self.len = 0;
                self.words = 0;
                return None;
            }
            self.sets[len] = set;
            let mut rest = set;
            while rest != 0 {
                let position = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                self.hit[position][len / 64] |= 1u64 << (len % 64);
            }
            len += 1;
        }
        let words = len.div_ceil(64);
        self.len = len;
        self.words = words;
        let mut state = [0u64; WORDS];
        for (w, word) in state[..words].iter_mut().enumerate() {
            let bits = (len - w * 64).min(64);
            *word = if bits == 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
        }
        Some(LevelState(state))
    }

    /// `out = state` minus the sets hit by `position`, over the active words `from..`;
    /// returns the index of the first still-unhit set there, or `None` when all are hit.
    #[inline]
    pub(crate) fn place(
        &self,
        state: &State,
        position: u8,
        out: &mut State,
        from: usize,
    ) -> Option<usize> {
        let (state, out) = (&state.0, &mut out.0);
        let hit = &self.hit[usize::from(position)];
        let words = self.words.min(WORDS);
        let from = from.min(words);
        // Two simple passes: the AND-NOT vectorises, the search usually stops at `from`.
        for ((o, s), h) in out[from..words]
            .iter_mut()
            .zip(&state[from..words])
            .zip(&hit[from..words])
        {
            *o = s & !h;
        }
        out[from..words]
            .iter()
            .position(|&word| word != 0)
            .map(|i| (from + i) * 64 + out[from + i].trailing_zeros() as usize)
    }

    /// True when `position` hits every set still unhit in the active words `from..`.
    #[inline]
    pub(crate) fn hits_all(&self, state: &State, position: u8, from: usize) -> bool {
        let state = &state.0;
        let hit = &self.hit[usize::from(position)];
        let words = self.words.min(WORDS);
        let from = from.min(words);
        // Branch-free OR of the leftovers (vectorises; the sets are few words).
        state[from..words]
            .iter()
            .zip(&hit[from..words])
            .fold(0u64, |acc, (s, h)| acc | (s & !h))
            == 0
    }

    /// Readies `scratch` for [`HitTable::probe`] on the children of `state` (words
    /// `from..`, cells `dead` dead): keeps its first [`TIGHT_SETS`] unhit sets (the
    /// *family*), for each position which of them hold it (one bit-matrix transposition),
    /// and the family by live size (the packing order: small sets first pack more).
    /// `dead` only orders the packing: each probe tests liveness with its own dead cells.
    pub(crate) fn prepare_probes(
        &self,
        state: &State,
        from: usize,
        dead: u128,
        scratch: &mut ProbeScratch,
    ) {
        let state = &state.0;
        let words = self.words.min(WORDS);
        let mut len = 0;
        let mut rest_from = words * 64;
        'words: for (w, &word) in state.iter().enumerate().take(words).skip(from) {
            let mut bits = word;
            while bits != 0 {
                let index = w * 64 + bits.trailing_zeros() as usize;
                if len == TIGHT_SETS {
                    rest_from = index;
                    break 'words;
                }
                scratch.sets[len] = self.sets[index];
                bits &= bits - 1;
                len += 1;
            }
        }
        // `len` is at most TIGHT_SETS and `rest_from` at most CAPACITY: both fit a u32.
        scratch.len = len as u32;
        scratch.members = region_fit::first_sets(len);
        scratch.rest_from = rest_from as u32;
        scratch.sort_by_live_size(dead);
        transpose_narrow(&scratch.sets[..len], &mut scratch.cell_sets);
    }
}

impl HitTable {
    /// Readies `child` for [`HitTable::probe`] on the children of `child_state`, the
    /// state `parent` was prepared for with `position` placed (cells `dead` dead): the
    /// same family as [`HitTable::prepare_probes`] would keep (the first
    /// [`TIGHT_SETS`] unhit sets), derived from the parent's without the transposition.
    /// The parent's members that `position` misses keep their entries and masks; the
    /// entries of those it hits are refilled with the next unhit sets after the parent's
    /// family, in table order, whose cells are added to the masks one by one. Only the
    /// entries' order differs from a fresh preparation's (the probes' proofs read the
    /// family as a set; only the packing's ties within a live-size class follow it).
    pub(crate) fn derive_probes(
        &self,
        parent: &ProbeScratch,
        position: u8,
        child_state: &State,
        dead: u128,
        child: &mut ProbeScratch,
    ) {
        let hit = parent.cell_sets[usize::from(position) & 127] & parent.members;
        child.sets = parent.sets;
        child.len = parent.len;
        for (mask, &parent_mask) in child.cell_sets[..NARROW_COLUMNS]
            .iter_mut()
            .zip(&parent.cell_sets[..NARROW_COLUMNS])
        {
            *mask = parent_mask & !hit;
        }
        let mut members = parent.members & !hit;
        // The parent's classes less the sets hit, then down for the cells dead since.
        for (class, &parent_class) in child.by_live_size.iter_mut().zip(&parent.by_live_size) {
            *class = parent_class & !hit;
        }
        child.members = members;
        child.sorted_dead = parent.sorted_dead;
        child.resort_by_live_size(dead);
        // The parent's family is every unhit set before `rest_from` (all of them when it
        // holds fewer than TIGHT_SETS): the refills come from there on.
        let mut holes = hit;
        let mut rest_from = parent.rest_from as usize;
        let state = &child_state.0;
        let words = self.words.min(WORDS);
        let mut w = rest_from / 64;
        while holes != 0 && w < words {
            let mut bits = state[w];
            if w == rest_from / 64 {
                bits &= u64::MAX << (rest_from % 64);
            }
            while bits != 0 {
                let index = w * 64 + bits.trailing_zeros() as usize;
                if holes == 0 {
                    rest_from = index;
                    break;
                }
                bits &= bits - 1;
                let entry = holes.trailing_zeros() as usize & (TIGHT_SETS - 1);
                holes &= holes - 1;
                let set = self.sets[index];
                child.sets[entry] = set;
                members |= 1 << entry;
                for_each_position(set, |cell| child.cell_sets[cell] |= 1 << entry);
                let size = (count_ones(set & !dead) as usize).min(SIZE_CLASSES - 1);
                child.by_live_size[size] |= 1 << entry;
                rest_from = index + 1;
            }
            w += 1;
        }
        if holes != 0 {
            // No unhit set is left after the family.
            rest_from = words * 64;
        }
        child.members = members;
        child.rest_from = rest_from as u32;
        child.note_sizes_present();
    }

    /// Placing `position` on `state` (words `from..`), read without writing the child
    /// state: [`Probe::AllHit`] when it hits every set; [`Probe::Pruned`] when the sets it
    /// leaves unhit cannot all be hit by `clues` more clues outside `dead`; [`Probe::Open`]
    /// otherwise. Most placements near the leaves are pruned here, so only the survivors
    /// pay for writing the child state with [`HitTable::place`]. `scratch` must have
    /// been prepared for `state` ([`HitTable::prepare_probes`]).
    ///
    /// "Cannot" is proved from the sets it leaves unhit: first the *family* (the parent's
    /// first [`TIGHT_SETS`] unhit sets, less those `position` hits) by live size in the
    /// parent, smallest first, then the unhit sets after it in table order (with at most
    /// [`NARROW_PROBE_CLUES`] clues, only those in the first [`NARROW_PROBE_WORDS`]
    /// words: the small sets do nearly all the pruning and the scan is shorter). Any
    /// subset of the unhit sets gives a valid proof, so a shorter scan only prunes less:
    /// - **packing**: one of them has no live cell, or more than `clues` of them are
    ///   pairwise disjoint on their live cells (greedy, in that order: taking the sets
    ///   with fewest live cells first packs more of them than table order, which ranks
    ///   by whole size);
    /// - **split**: with two clues to spare, a region that two disjoint sets meet alone
    ///   is replaced by them (a packing one larger);
    /// - **exact test** ([`region_fit`]): exactly `clues` are disjoint, or one fewer.
    ///   Then each of these *regions* takes one clue, and at most one clue is left
    ///   over for anywhere; a search over those choices finds none that hits every
    ///   set of the family.
    #[inline]
    pub(crate) fn probe(
        &self,
        state: &State,
        position: u8,
        from: usize,
        dead: u128,
        clues: usize,
        scratch: &ProbeScratch,
    ) -> Probe {
        self.probe_with_siblings(state, position, from, dead, clues, scratch, 0)
            .0
    }

    /// [`HitTable::probe`] of the child of `position`, where `siblings` are the
    /// positions its parent tries after it (live now, dead by then); also returns the
    /// siblings whose children the same proof prunes, so their probes can be skipped.
    ///
    /// A proof rests on some unhit sets: the packed ones (or one with no live cell), or
    /// the exact test's regions and the members it read. A sibling in none of them
    /// leaves them all unhit, and its child has the same clues to place on fewer live
    /// cells (this child's less the sibling), so the proof holds there too. A packing
    /// proof rules out every sibling outside the packed sets. For the exact test, the
    /// next [`COVERED_SIBLINGS`] siblings outside the regions are *covered*: the test
    /// first reads only the members none of them holds, and when that fails, it rules
    /// them out with this child. That weaker test fails nearly as often as the whole one
    /// and costs more nodes; only when it does not fail does the whole family decide.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn probe_with_siblings(
        &self,
        state: &State,
        position: u8,
        from: usize,
        dead: u128,
        clues: usize,
        scratch: &ProbeScratch,
        siblings: u128,
    ) -> (Probe, u128) {
        let state = &state.0;
        let cell_sets = &scratch.cell_sets;
        let members = scratch.members & !cell_sets[usize::from(position)];
        let mut packing = Packing::new(clues, dead);
        let mut sizes = if members == 0 {
            0
        } else {
            scratch.sizes_present
        };
        // The members meeting a packed set's live cells, from their per-position masks:
        // each class is read only for its members outside them (those the greedy packs).
        let mut meeting = 0 as SetMask;
        while sizes != 0 {
            let size = sizes.trailing_zeros() as usize;
            sizes &= sizes - 1;
            let mut class = scratch.by_live_size[size] & members & !meeting;
            while class != 0 {
                let i = class.trailing_zeros() as usize & (TIGHT_SETS - 1);
                let set = scratch.sets[i];
                if let Err(proof) = packing.add(set) {
                    return (Probe::Pruned, siblings & !proof);
                }
                for_each_position(set & !dead, |cell| meeting |= cell_sets[cell]);
                class &= !meeting;
            }
        }
        // The unhit sets after the family, in table order.
        let hit = &self.hit[usize::from(position)];
        let words = self.words.min(WORDS);
        let scanned = if clues <= NARROW_PROBE_CLUES {
            words.min(NARROW_PROBE_WORDS)
        } else {
            words
        };
        let rest = scratch.rest_from as usize;
        let first_word = (rest / 64).max(from);
        // Unhit bits of word `w` from set `rest` on.
        let unhit_after = |w: usize| {
            let bits = state[w] & !hit[w];
            if w == rest / 64 {
                bits & u64::MAX << (rest % 64)
            } else {
                bits
            }
        };
        let mut any_unhit = members != 0;
        for w in first_word..scanned {
            let mut bits = unhit_after(w);
            any_unhit |= bits != 0;
            while bits != 0 {
                let index = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let Err(proof) = packing.add(self.sets[index]) {
                    return (Probe::Pruned, siblings & !proof);
                }
            }
        }
        if !any_unhit {
            let rest_hit = (first_word.max(scanned)..words).all(|w| unhit_after(w) == 0);
            return (if rest_hit { Probe::AllHit } else { Probe::Open }, 0);
        }
        let Packing {
            mut regions,
            mut disjoint,
            ..
        } = packing;
        if disjoint + 2 < clues || disjoint > TIGHT_REGIONS {
            return (Probe::Open, 0);
        }
        let family = Family::new(&scratch.sets, members, !dead);
        if disjoint + 2 == clues {
            // Two clues to spare: a region that two disjoint sets meet alone splits in two,
            // and the exact test below applies to the larger packing. (Splitting with fewer
            // clues to spare prunes nothing the exact test does not: it only costs time.)
            if disjoint == TIGHT_REGIONS {
                return (Probe::Open, 0);
            }
            let Some((k, i, j)) = split_region(&regions[..disjoint], &family, cell_sets) else {
                return (Probe::Open, 0);
            };
            regions[k] = scratch.sets[i] & !dead;
            regions[disjoint] = scratch.sets[j] & !dead;
            disjoint += 1;
        }
        let regions = &regions[..disjoint];
        let free_clue = disjoint < clues;
        // The exact test on the members that the covered siblings miss: when it fails,
        // it rules them out as well.
        let held = regions.iter().fold(0, |cells, region| cells | region);
        let mut candidates = siblings & !held;
        let mut covered = 0u128;
        for _ in 0..COVERED_SIBLINGS {
            if candidates == 0 {
                break;
            }
            // The next sibling in the parent's order ([`ProbeScratch::next_child`]).
            let next = 1u128 << scratch.next_child(candidates);
            covered |= next;
            candidates &= !next;
        }
        if covered != 0 {
            let shared = members & !region_fit::sets_met(covered, cell_sets);
            let weaker = Family::new(&scratch.sets, shared, !dead);
            if !regions_can_hit(regions, &weaker, free_clue, cell_sets) {
                return (Probe::Pruned, covered);
            }
        }
        if regions_can_hit(regions, &family, free_clue, cell_sets) {
            (Probe::Open, 0)
        } else {
            (Probe::Pruned, 0)
        }
    }

    /// The cells of `within` lying in every set that `position` leaves unhit in `state`
    /// (words `from..`): the possible last clues after it (`within` itself when it hits
    /// every set). Stops at the first empty intersection.
    #[inline]
    pub(crate) fn common_after(
        &self,
        state: &State,
        position: u8,
        from: usize,
        within: u128,
    ) -> u128 {
        let state = &state.0;
        let hit = &self.hit[usize::from(position)];
        let mut common = within;
        for w in from..self.words.min(WORDS) {
            let mut bits = state[w] & !hit[w];
            while bits != 0 {
                common &= self.sets[w * 64 + bits.trailing_zeros() as usize];
                if common == 0 {
                    return 0;
                }
                bits &= bits - 1;
            }
        }
        common
    }

    /// The position of `branch` (not empty) held by the most sets `state` leaves unhit
    /// (words `from..`), the lowest position of those.
    pub(crate) fn most_unhit(&self, state: &State, branch: u128, from: usize) -> u8 {
        let state = &state.0;
        let words = self.words.min(WORDS);
        let from = from.min(words);
        position_with_most(branch, |position| {
            let hit = &self.hit[usize::from(position)];
            state[from..words]
                .iter()
                .zip(&hit[from..words])
                .map(|(s, h)| (s & h).count_ones())
                .sum::<u32>()
        })
    }

    /// The enumeration's branch set after a placement within the chunk levels:
    /// [`fewest_live`] over the sets `state` leaves unhit, from set `head` (the first
    /// unhit one) on (below them: [`HitTable::branch_set`]).
    #[inline]
    pub(crate) fn fewest_live(&self, state: &State, head: usize, dead: u128) -> u128 {
        // The rule of [`fewest_live`], written out over the state's bits (the hot path).
        let state = &state.0;
        let words = self.words.min(WORDS);
        let mut best = self.sets[head] & !dead;
        let mut best_count = count_ones(best);
        let mut left = BRANCH_CANDIDATES;
        for (w, &word) in state.iter().enumerate().take(words).skip(head / 64) {
            let mut bits = word;
            while bits != 0 {
                if left == 0 {
                    return best;
                }
                left -= 1;
                let live = self.sets[w * 64 + bits.trailing_zeros() as usize] & !dead;
                bits &= bits - 1;
                let count = count_ones(live);
                if count < best_count {
                    best = live;
                    best_count = count;
                    if count <= 1 {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// The enumeration's branch set after a placement below the chunk levels, among the
    /// first [`BRANCH_CANDIDATES`] sets `state` leaves unhit, from set `head` (the first
    /// unhit one) on: a set with at most one live cell at once (none prunes, one forces
    /// the clue); else, of the sets with at most two live cells more than the fewest, the
    /// one whose live cells meet the most [`overlap_weight`] of the other candidates per
    /// live cell (the first in table order of those).
    ///
    /// Any unhit set is a valid branch set (every completion hits it). Its live cells are
    /// the children, and each child's cell is dead for the later siblings: a branch set
    /// whose cells lie in many other small unhit sets leaves those with fewer live cells
    /// in the later siblings' subtrees, whose probes then prune more. The set with the
    /// fewest live cells (the rule before, which the chunk levels keep) gives the fewest
    /// children, but it is often the smallest set, the one the probes below pack best and
    /// would rather keep unhit. Over the first 40 grids of seed 11 this rule made 0.49x
    /// the placements (the weights and the slack tried: docs/PERFORMANCE.md, tenth pass).
    pub(crate) fn branch_set(&self, state: &State, head: usize, dead: u128) -> u128 {
        let state = &state.0;
        let words = self.words.min(WORDS);
        // The candidates by their table index, and their live cell counts (small arrays:
        // this runs on the caller's stack, which firmware keeps small).
        let mut indices = [0u16; BRANCH_CANDIDATES];
        let mut counts = [0u8; BRANCH_CANDIDATES];
        let mut taken = 0;
        let mut fewest = u32::MAX;
        'sets: for (w, &word) in state.iter().enumerate().take(words).skip(head / 64) {
            let mut bits = word;
            while bits != 0 {
                if taken == BRANCH_CANDIDATES {
                    break 'sets;
                }
                let index = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let live = self.sets[index] & !dead;
                let count = count_ones(live);
                if count <= 1 {
                    return live;
                }
                indices[taken] = index as u16;
                counts[taken] = count as u8;
                fewest = fewest.min(count);
                taken += 1;
            }
        }
        let live = |j: usize| self.sets[usize::from(indices[j])] & !dead;
        // The candidates eligible (at most two live cells more than the fewest), and the
        // cells they hold.
        let mut eligible = 0u64;
        let mut cells_eligible = 0u128;
        for (j, &count) in counts[..taken].iter().enumerate() {
            if u32::from(count) <= fewest + 2 {
                eligible |= 1 << j;
                cells_eligible |= live(j);
            }
        }
        // For each cell an eligible candidate holds, the candidates holding it.
        let mut holders = [0u64; 128];
        for j in 0..taken {
            for_each_position(live(j) & cells_eligible, |cell| holders[cell] |= 1 << j);
        }
        let mut best = live(0);
        // The best score so far, as the fraction `best_weight / best_count`.
        let (mut best_weight, mut best_count) = (0u64, 1u64);
        while eligible != 0 {
            let i = eligible.trailing_zeros() as usize & (BRANCH_CANDIDATES - 1);
            eligible &= eligible - 1;
            let cells = live(i);
            let mut meeting = 0u64;
            for_each_position(cells, |cell| meeting |= holders[cell]);
            meeting &= !(1 << i);
            // The weights of the other candidates it meets, plus one (no score is zero).
            let mut weight = 1u64;
            while meeting != 0 {
                let j = meeting.trailing_zeros() as usize & (BRANCH_CANDIDATES - 1);
                weight += u64::from(overlap_weight(counts[j]));
                meeting &= meeting - 1;
            }
            let count = u64::from(counts[i]);
            if weight * best_count > best_weight * count {
                best = cells;
                best_weight = weight;
                best_count = count;
            }
        }
        best
    }
}

/// How much a candidate branch set with `count` live cells weighs for the candidates
/// meeting it ([`HitTable::branch_set`]): 4,032,000 / (count + 1)³, so the smallest
/// sets, those that prune, weigh the most (read from a table: no division per set).
#[inline(always)]
fn overlap_weight(count: u8) -> u32 {
    OVERLAP_WEIGHTS[usize::from(count) & 127]
}

/// [`overlap_weight`] for each count up to 127 (a set in the table has at most 81 cells).
const OVERLAP_WEIGHTS: [u32; 128] = {
    let mut weights = [0; 128];
    let mut count = 0;
    while count < 128 {
        let next = count as u32 + 1;
        weights[count] = 4_032_000 / (next * next * next);
        count += 1;
    }
    weights
};

/// The position of `branch` (not empty) with the largest `key`, the lowest position of
/// those: the children's order of [`HitTable::most_unhit`] and
/// [`ProbeScratch::next_child`], which differ only in what they count.
#[inline(always)]
pub(super) fn position_with_most<K: Ord>(branch: u128, mut key: impl FnMut(u8) -> K) -> u8 {
    let mut best = branch.trailing_zeros() as u8;
    let mut most = key(best);
    let mut rest = branch & (branch - 1);
    while rest != 0 {
        let position = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let count = key(position);
        if count > most {
            most = count;
            best = position;
        }
    }
    best
}

/// Calls `f` with each position of `cells`, lowest first, one 64-bit half at a time: a
/// `u128` bit loop works on both halves at every step (`trailing_zeros`, `x &= x - 1`),
/// which costs the probes' hot loops several per cent of their instructions
/// (docs/PERFORMANCE.md, eighth pass).
#[inline(always)]
pub(super) fn for_each_position(cells: u128, mut f: impl FnMut(usize)) {
    for (half, base) in [(cells as u64, 0), ((cells >> 64) as u64, 64)] {
        let mut bits = half;
        while bits != 0 {
            f(base | (bits.trailing_zeros() as usize & 63));
            bits &= bits - 1;
        }
    }
}

/// The number of bits set in `x`: the two halves' bit counts summed within the bytes
/// before the one multiply that adds the bytes (x86_64's baseline has no `popcnt`, and
/// `count_ones` on a `u128` counts each half to the end).
#[inline(always)]
pub(super) fn count_ones(x: u128) -> u32 {
    const ONES: u64 = 0x5555_5555_5555_5555;
    const PAIRS: u64 = 0x3333_3333_3333_3333;
    const NIBBLES: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    const BYTES: u64 = 0x0101_0101_0101_0101;
    let (a, b) = (x as u64, (x >> 64) as u64);
    let a = a - (a >> 1 & ONES);
    let b = b - (b >> 1 & ONES);
    // Fields of four bits: at most 4 + 4, then bytes: at most 16.
    let sum = (a & PAIRS) + (a >> 2 & PAIRS) + (b & PAIRS) + (b >> 2 & PAIRS);
    let bytes = (sum & NIBBLES) + (sum >> 4 & NIBBLES);
    (bytes.wrapping_mul(BYTES) >> 56) as u32
}

/// Unhit sets (the first in table order, the head among them) [`fewest_live`] and
/// [`HitTable::branch_set`] choose the branch set from: the small sets are the likely
/// ones, and reading them all costs more than the smaller tree saves. (`branch_set`
/// scoring only the first 16 or 32 made 1–4 % more placements over 40 grids.)
pub(crate) const BRANCH_CANDIDATES: usize = 64;

/// The live cells (outside `dead`) of the set with the fewest of them among `first` and
/// the sets after it in `rest` (table order), [`BRANCH_CANDIDATES`] sets in all: the
/// first such in that order, or the first with at most one live cell that beats `first`
/// (the search stops there). The enumeration branches on it: every completion hits every
/// unhit set, so any one may be the branch set, and the one with the fewest live cells
/// gives the fewest children (a set with none prunes at once). The chunk walk
/// ([`super::chunks`]) uses the same rule, so chunks stay the enumeration's own subtrees.
#[inline]
pub(crate) fn fewest_live(first: u128, rest: impl Iterator<Item = u128>, dead: u128) -> u128 {
    let mut best = first & !dead;
    let mut best_count = count_ones(best);
    for set in rest.take(BRANCH_CANDIDATES - 1) {
        let live = set & !dead;
        let count = count_ones(live);
        if count < best_count {
            best = live;
            best_count = count;
            if count <= 1 {
                break;
            }
        }
    }
    best
}

/// The probe's greedy packing: unhit sets pairwise disjoint on their live cells (the
/// first [`TIGHT_REGIONS`] kept as the exact test's regions).
struct Packing {
    clues: usize,
    dead: u128,
    /// Live cells of the sets packed.
    used: u128,
    regions: [u128; TIGHT_REGIONS],
    /// Sets packed.
    disjoint: usize,
}

impl Packing {
    #[inline(always)]
    fn new(clues: usize, dead: u128) -> Packing {
        Packing {
            clues,
            dead,
            used: 0,
            regions: [0; TIGHT_REGIONS],
            disjoint: 0,
        }
    }

    /// Packs `set` (an unhit set) when it is disjoint from those packed; `Err` when that
    /// proves `clues` too few (it has no live cell, or it is one disjoint set too many),
    /// with the live cells of the sets that proof rests on (none for a set without live
    /// cells; the packed sets and `set` for one too many).
    #[inline(always)]
    fn add(&mut self, set: u128) -> Result<(), u128> {
        // `used` holds live cells only, so the dead cells need not be masked off for the
        // overlap test (most sets overlap).
        if set & self.used != 0 {
            return Ok(());
        }
        let live = set & !self.dead;
        if live == 0 {
            return Err(0);
        }
        if self.disjoint == self.clues {
            return Err(self.used | live);
        }
        if self.disjoint < TIGHT_REGIONS {
            self.regions[self.disjoint] = live;
        }
        self.used |= live;
        self.disjoint += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::region_fit::tests::{brute, lcg};
    use super::*;
    use std::boxed::Box;
    use std::vec::Vec;

    /// The probe's bound written out directly on plain lists: `family`, the parent's
    /// unhit sets (table order), of which the probe reads the first [`TIGHT_SETS`] less
    /// those holding `position`, by live size outside `parent_dead` (table order within
    /// a size); then `rest`, the child's unhit sets after those (table order). True when
    /// it proves `clues` are not enough.
    fn needs_more_than(
        family: &[u128],
        parent_dead: u128,
        rest: &[u128],
        position: u8,
        dead: u128,
        clues: usize,
    ) -> bool {
        let members: Vec<u128> = family
            .iter()
            .take(TIGHT_SETS)
            .copied()
            .filter(|&set| set >> position & 1 == 0)
            .collect();
        let mut by_size = members.clone();
        by_size.sort_by_key(|set| {
            (set & !parent_dead)
                .count_ones()
                .min(SIZE_CLASSES as u32 - 1)
        });
        let mut used = 0u128;
        let mut regions = Vec::new();
        for &set in by_size.iter().chain(rest) {
            let live = set & !dead;
            if live & used == 0 {
                if live == 0 || regions.len() == clues {
                    return true;
                }
                used |= live;
                regions.push(live);
            }
        }
        if regions.len() + 2 < clues || regions.len() > TIGHT_REGIONS {
            return false;
        }
        let members: Vec<u128> = members.iter().map(|&set| set & !dead).collect();
        if regions.len() + 2 == clues {
            if regions.len() == TIGHT_REGIONS {
                return false;
            }
            // The split, restated: a region two disjoint sets meet alone (first in order).
            let alone = |set: u128, regions: &[u128]| {
                let met: Vec<usize> = (0..regions.len())
                    .filter(|&k| set & regions[k] != 0)
                    .collect();
                (met.len() == 1).then(|| met[0])
            };
            let split = (0..regions.len()).find_map(|k| {
                (0..members.len()).find_map(|i| {
                    (i + 1..members.len()).find_map(|j| {
                        let mine = alone(members[i], &regions) == Some(k)
                            && alone(members[j], &regions) == Some(k);
                        (mine && members[i] & members[j] == 0).then_some((k, i, j))
                    })
                })
            });
            let Some((k, i, j)) = split else {
                return false;
            };
            regions[k] = members[i];
            regions.push(members[j]);
        }
        !brute(&regions, &members, regions.len() < clues)
    }

    /// True when some `clues` or fewer cells of `live` hit every set of `unhit`.
    fn hittable(unhit: &[u128], live: u128, clues: usize) -> bool {
        let Some(&first) = unhit.first() else {
            return true;
        };
        if clues == 0 {
            return false;
        }
        let mut branch = first & live;
        while branch != 0 {
            let bit = branch & branch.wrapping_neg();
            branch &= branch - 1;
            let rest: Vec<u128> = unhit.iter().copied().filter(|&s| s & bit == 0).collect();
            if hittable(&rest, live, clues - 1) {
                return true;
            }
        }
        false
    }

    #[test]
    fn count_ones_matches_the_library() {
        let mut rng = lcg(3);
        for _ in 0..10_000 {
            let x = u128::from(rng()) << 97
                ^ u128::from(rng()) << 64
                ^ u128::from(rng()) << 31
                ^ u128::from(rng());
            for y in [x, !x, x & x >> 3, 0, u128::MAX] {
                assert_eq!(count_ones(y), y.count_ones());
            }
        }
    }

    #[test]
    fn matches_list_filtering() {
        let mut rng = lcg(99);
        let mut sets: Vec<u128> = (0..700)
            .map(|_| (0..5).fold(0u128, |acc, _| acc | 1u128 << (rng() % 81)))
            .collect();
        sets.sort_by_key(|s| (s.count_ones(), *s));
        let mut table = Box::new(HitTable::new());
        let mut state = table.load(&sets).unwrap();
        // Indices into `sets` of the unhit sets (the table may hold equal sets).
        let mut unhit: Vec<usize> = (0..sets.len()).collect();
        let mut dead = 0u128;
        let mut scratch = ProbeScratch::new();
        for position in [70u8, 3, 40, 12, 77, 0] {
            let mut next = LevelState::ZERO;
            let all = unhit.iter().all(|&i| sets[i] >> position & 1 == 1);
            assert_eq!(table.hits_all(&state, position, 0), all);
            let parent = unhit.clone();
            let parent_dead = dead;
            table.prepare_probes(&state, 0, parent_dead, &mut scratch);
            let first = table.place(&state, position, &mut next, 0);
            unhit.retain(|&i| sets[i] >> position & 1 == 0);
            assert_eq!(first, unhit.first().copied());
            dead |= 1u128 << (rng() % 81);
            dead &= !(1u128 << position);
            let from = 0;
            let family: Vec<u128> = parent.iter().map(|&i| sets[i]).collect();
            // The first set after the family, in table order.
            let after = parent.get(TIGHT_SETS).copied().unwrap_or(sets.len());
            for clues in 0..12 {
                // Narrow probes read, beyond the family, the smallest
                // NARROW_PROBE_WORDS * 64 sets only.
                let limit = if clues <= NARROW_PROBE_CLUES {
                    NARROW_PROBE_WORDS * 64
                } else {
                    sets.len()
                };
                let rest: Vec<u128> = unhit
                    .iter()
                    .filter(|&&i| i >= after && i < limit)
                    .map(|&i| sets[i])
                    .collect();
                let expect = match first {
                    None => Probe::AllHit,
                    Some(_)
                        if needs_more_than(&family, parent_dead, &rest, position, dead, clues) =>
                    {
                        Probe::Pruned
                    }
                    Some(_) => Probe::Open,
                };
                assert_eq!(
                    table.probe(&state, position, from, dead, clues, &scratch),
                    expect,
                    "position {position}, clues {clues}"
                );
            }
            let within = !dead & (u128::MAX >> 47);
            let common = unhit.iter().fold(within, |acc, &i| acc & sets[i]);
            assert_eq!(table.common_after(&state, position, from, within), common);
            state = next;
        }
        assert!(table.load(&[0u128; CAPACITY + 1]).is_none());
    }

    /// The rule of [`HitTable::branch_set`], written plainly over the unhit sets in
    /// table order.
    fn branch_set_by_its_rule(unhit: &[u128], dead: u128) -> u128 {
        let candidates: Vec<u128> = unhit
            .iter()
            .take(BRANCH_CANDIDATES)
            .map(|set| set & !dead)
            .collect();
        if let Some(&few) = candidates.iter().find(|c| c.count_ones() <= 1) {
            return few;
        }
        let fewest = candidates.iter().map(|c| c.count_ones()).min().unwrap();
        let weight = |c: u128| 4_032_000 / (c.count_ones() + 1).pow(3);
        let mut best = (candidates[0], 0.0f64);
        for (i, &c) in candidates.iter().enumerate() {
            if c.count_ones() > fewest + 2 {
                continue;
            }
            let meeting: u32 = candidates
                .iter()
                .enumerate()
                .filter(|&(j, &o)| j != i && o & c != 0)
                .map(|(_, &o)| weight(o))
                .sum();
            let score = f64::from(meeting + 1) / f64::from(c.count_ones());
            if score > best.1 {
                best = (c, score);
            }
        }
        best.0
    }

    #[test]
    fn branch_set_follows_its_rule() {
        let mut rng = lcg(7);
        let mut checked = 0;
        for round in 0..300 {
            // Sets of 3 to 8 cells over 40 to 81 positions: many ties of live counts.
            let universe = 40 + rng() % 42;
            let count = 20 + (rng() % 300) as usize;
            let sets = random_sets_below(&mut rng, universe, count, 3, 8);
            let mut table = Box::new(HitTable::new());
            let mut state = table.load(&sets).unwrap();
            let mut unhit: Vec<u128> = sets.clone();
            let mut dead = 0u128;
            for _ in 0..4 {
                let position = (rng() % universe) as u8;
                let mut next = LevelState::ZERO;
                let Some(head) = table.place(&state, position, &mut next, 0) else {
                    break;
                };
                unhit.retain(|&set| set >> position & 1 == 0);
                // Dead cells: a few at random (round 0 leaves the sets whole).
                if round > 0 {
                    for _ in 0..rng() % 6 {
                        dead |= 1u128 << (rng() % universe);
                    }
                }
                let branch = table.branch_set(&next, head, dead);
                assert_eq!(
                    branch,
                    branch_set_by_its_rule(&unhit, dead),
                    "round {round}"
                );
                // Always the live cells of an unhit set: a valid branch.
                assert!(unhit.iter().any(|&set| set & !dead == branch));
                checked += 1;
                state = next;
            }
        }
        assert!(checked > 500, "only {checked} branch sets checked");
    }

    /// 6 to 45 random sets of 2 to 5 positions below `universe`, in table order (by size),
    /// without repeats: the random instances of the probe's tests.
    fn small_sets(rng: &mut impl FnMut() -> u64, universe: u64) -> Vec<u128> {
        let count = 6 + (rng() % 40) as usize;
        random_sets_below(rng, universe, count, 2, 5)
    }

    /// Pruned only when no `clues` live cells hit every unhit set (checked by brute force
    /// on small random instances), and the exact test prunes some that packing alone
    /// does not, with no clue to spare, with one, and (after a split) with two.
    #[test]
    fn probe_prunes_only_the_unhittable() {
        let mut rng = lcg(7);
        let (mut pruned, mut exact_only, mut spare_clue, mut split) = (0, 0, 0, 0);
        // Splits that prune are rare with the size-ordered packing: 12,000 rounds give 8.
        for round in 0..12000 {
            let universe = 14 + round % 10;
            let sets = small_sets(&mut rng, universe);
            let mut table = Box::new(HitTable::new());
            let state = table.load(&sets).unwrap();
            let position = (rng() % universe) as u8;
            let dead = (0..3).fold(0u128, |acc, _| acc | 1u128 << (rng() % universe));
            let dead = dead & !(1u128 << position);
            let unhit: Vec<u128> = sets
                .iter()
                .copied()
                .filter(|s| s >> position & 1 == 0)
                .collect();
            let live = ((1u128 << universe) - 1) & !dead & !(1u128 << position);
            let mut scratch = ProbeScratch::new();
            table.prepare_probes(&state, 0, dead, &mut scratch);
            for clues in 0..8 {
                let probe = table.probe(&state, position, 0, dead, clues, &scratch);
                let possible = hittable(&unhit, live, clues);
                match probe {
                    Probe::AllHit => assert!(unhit.is_empty()),
                    Probe::Pruned => {
                        assert!(!possible, "round {round}: pruned a hittable child");
                        pruned += 1;
                        let packing = unhit.iter().any(|&s| s & live == 0)
                            || greedy_disjoint(&unhit, dead) > clues;
                        if !packing {
                            exact_only += 1;
                            if greedy_disjoint(&unhit, dead) < clues {
                                spare_clue += 1;
                            }
                            if greedy_disjoint(&unhit, dead) + 2 == clues {
                                split += 1;
                            }
                        }
                    }
                    Probe::Open => assert!(!unhit.is_empty()),
                }
            }
        }
        assert!(pruned > 100, "pruned {pruned}");
        assert!(exact_only > 10, "exact test pruned {exact_only}");
        assert!(
            spare_clue > 5,
            "exact test with a spare clue pruned {spare_clue}"
        );
        assert!(
            split > 3,
            "split and exact test with two clues to spare pruned {split}"
        );
    }

    /// The siblings a probe rules out have no completion either (brute force on small
    /// random instances): a sibling `s`, tried after `position`, has `position` dead and
    /// must hit every set without `s` with `clues` live cells other than `s`. And the
    /// proofs rule some out, after a packing and after an exact test.
    #[test]
    fn siblings_ruled_out_are_hopeless() {
        let mut rng = lcg(11);
        let (mut ruled_out, mut by_exact_test) = (0, 0);
        for round in 0..6000 {
            let universe = 14 + round % 10;
            let sets = small_sets(&mut rng, universe);
            let mut table = Box::new(HitTable::new());
            let state = table.load(&sets).unwrap();
            let position = (rng() % universe) as u8;
            let dead = (0..3).fold(0u128, |acc, _| acc | 1u128 << (rng() % universe));
            let dead = dead & !(1u128 << position);
            let all = (1u128 << universe) - 1;
            let siblings = (0..4).fold(0u128, |acc, _| acc | 1u128 << (rng() % universe))
                & all
                & !dead
                & !(1u128 << position);
            let mut scratch = ProbeScratch::new();
            table.prepare_probes(&state, 0, dead, &mut scratch);
            for clues in 0..8 {
                let (probe, doomed) = table.probe_with_siblings(
                    &state,
                    position,
                    0,
                    dead | 1u128 << position,
                    clues,
                    &scratch,
                    siblings,
                );
                assert_eq!(doomed & !siblings, 0, "round {round}: not a sibling");
                if doomed != 0 {
                    assert_eq!(probe, Probe::Pruned, "round {round}");
                }
                let mut rest = doomed;
                while rest != 0 {
                    let sibling = rest.trailing_zeros();
                    rest &= rest - 1;
                    let unhit: Vec<u128> = sets
                        .iter()
                        .copied()
                        .filter(|s| s >> sibling & 1 == 0)
                        .collect();
                    let live = all & !dead & !(1u128 << position) & !(1u128 << sibling);
                    assert!(
                        !hittable(&unhit, live, clues),
                        "round {round}: ruled out sibling {sibling} with {clues} clues"
                    );
                    ruled_out += 1;
                    let unhit_here: Vec<u128> = sets
                        .iter()
                        .copied()
                        .filter(|s| s >> position & 1 == 0)
                        .collect();
                    let packed = unhit_here
                        .iter()
                        .any(|&s| s & !dead & !(1 << position) == 0)
                        || greedy_disjoint(&unhit_here, dead | 1u128 << position) > clues;
                    if !packed {
                        by_exact_test += 1;
                    }
                }
            }
        }
        assert!(ruled_out > 1000, "ruled out {ruled_out}");
        assert!(
            by_exact_test > 20,
            "ruled out after an exact test {by_exact_test}"
        );
    }

    /// `count` random sets of `min..=max` positions below 81, in table order (by size),
    /// without repeats.
    fn random_sets(rng: &mut impl FnMut() -> u64, count: usize, min: u64, max: u64) -> Vec<u128> {
        random_sets_below(rng, 81, count, min, max)
    }

    /// `count` random sets of `min..=max` draws of positions below `universe` (a repeated
    /// draw makes a set smaller), in table order (by size), without repeats.
    fn random_sets_below(
        rng: &mut impl FnMut() -> u64,
        universe: u64,
        count: usize,
        min: u64,
        max: u64,
    ) -> Vec<u128> {
        let mut sets: Vec<u128> = (0..count)
            .map(|_| {
                let size = min + rng() % (max - min + 1);
                (0..size).fold(0u128, |acc, _| acc | 1u128 << (rng() % universe))
            })
            .collect();
        sets.sort_by_key(|s| (s.count_ones(), *s));
        sets.dedup();
        sets
    }

    /// Up to `count` random positions below 81 as a mask.
    fn random_cells(rng: &mut impl FnMut() -> u64, count: u64) -> u128 {
        (0..count).fold(0u128, |acc, _| acc | 1u128 << (rng() % 81))
    }

    type FamilyView = (Vec<u128>, Vec<Vec<u128>>, Vec<(u128, usize)>, Option<usize>);

    /// What a probe reads of a scratch, as plain values: the family's sets (sorted), for
    /// each position the sets holding it (sorted), each set with its live-size class, and
    /// the first unhit set of `state` after the family.
    fn family_view(scratch: &ProbeScratch, state: &State) -> FamilyView {
        let entries = |mask: SetMask| -> Vec<u128> {
            let mut sets: Vec<u128> = (0..TIGHT_SETS)
                .filter(|&i| mask >> i & 1 == 1)
                .map(|i| scratch.sets[i])
                .collect();
            sets.sort();
            sets
        };
        assert_eq!(
            scratch.members >> (scratch.len as usize).min(127) >> 1,
            0,
            "members below len"
        );
        let members = entries(scratch.members);
        let holding = (0..81).map(|p| entries(scratch.cell_sets[p])).collect();
        let mut classes: Vec<(u128, usize)> = (0..SIZE_CLASSES)
            .flat_map(|size| {
                entries(scratch.by_live_size[size])
                    .into_iter()
                    .map(move |s| (s, size))
            })
            .collect();
        classes.sort();
        for (size, class) in scratch.by_live_size.iter().enumerate() {
            assert_eq!(scratch.sizes_present >> size & 1 == 1, *class != 0);
        }
        let next_unhit = (scratch.rest_from as usize..WORDS * 64)
            .find(|&i| state.0[i / 64] >> (i % 64) & 1 == 1);
        (members, holding, classes, next_unhit)
    }

    /// A family derived from the parent's (refilled after the sets its clue hits, the
    /// classes moved for the cells dead since) is the family a fresh preparation keeps,
    /// with the same masks and classes, over chains of derivations (a derived parent has
    /// holes refilled out of table order), with few and many newly dead cells.
    #[test]
    fn derived_family_is_the_fresh_one() {
        let mut rng = lcg(23);
        let (mut refilled, mut exhausted, mut few_dead, mut many_dead) = (0, 0, 0, 0);
        for round in 0..300 {
            let count = if round % 5 == 0 { 150 } else { 500 };
            // Now and then big sets, many in the last class (31 live cells or more).
            let (min, max) = if round % 3 == 0 { (30, 60) } else { (3, 12) };
            let sets = random_sets(&mut rng, count, min, max);
            let mut table = Box::new(HitTable::new());
            let mut state = table.load(&sets).unwrap();
            let mut dead = random_cells(&mut rng, 4);
            let mut parent = Box::new(ProbeScratch::new());
            table.prepare_probes(&state, 0, dead, &mut parent);
            for level in 0..4 {
                let live = ((1u128 << 81) - 1) & !dead;
                if live == 0 {
                    break;
                }
                let position = loop {
                    let p = (rng() % 81) as u8;
                    if live >> p & 1 == 1 {
                        break p;
                    }
                };
                let mut child_state = State::ZERO;
                if table.place(&state, position, &mut child_state, 0).is_none() {
                    break;
                }
                let extra = random_cells(&mut rng, if level % 2 == 0 { 2 } else { 12 });
                dead |= 1u128 << position | extra;
                if count_ones(dead & !parent.sorted_dead) > RESORT_CELLS {
                    many_dead += 1;
                } else {
                    few_dead += 1;
                }
                let mut derived = Box::new(ProbeScratch::new());
                table.derive_probes(&parent, position, &child_state, dead, &mut derived);
                let mut fresh = Box::new(ProbeScratch::new());
                table.prepare_probes(&child_state, 0, dead, &mut fresh);
                assert_eq!(
                    family_view(&derived, &child_state),
                    family_view(&fresh, &child_state),
                    "round {round}, level {level}"
                );
                let hit = parent.cell_sets[usize::from(position)] & parent.members;
                if hit != 0 && fresh.len as usize == TIGHT_SETS {
                    refilled += 1;
                }
                if (fresh.len as usize) < TIGHT_SETS {
                    exhausted += 1;
                }
                state = child_state;
                parent = derived;
            }
        }
        assert!(refilled > 300 && exhausted > 20, "{refilled} {exhausted}");
        assert!(few_dead > 100 && many_dead > 100, "{few_dead} {many_dead}");
    }

    /// Moving the classes for newly dead cells gives the classes of a new sort.
    #[test]
    fn resorting_matches_a_new_sort() {
        let mut rng = lcg(29);
        for round in 0..300 {
            // Every other round, big sets: many in the last class (31 live cells or more).
            let (min, max) = if round % 2 == 0 { (34, 70) } else { (2, 10) };
            let sets = random_sets(&mut rng, 200, min, max);
            let mut table = Box::new(HitTable::new());
            let state = table.load(&sets).unwrap();
            let mut dead = random_cells(&mut rng, 3);
            let mut scratch = Box::new(ProbeScratch::new());
            table.prepare_probes(&state, 0, dead, &mut scratch);
            for _ in 0..6 {
                let cells = 1 + rng() % 9;
                dead |= random_cells(&mut rng, cells);
                scratch.resort_by_live_size(dead);
                let mut sorted = scratch.clone();
                sorted.sort_by_live_size(dead);
                assert_eq!(scratch.by_live_size, sorted.by_live_size, "round {round}");
                assert_eq!(scratch.sizes_present, sorted.sizes_present, "round {round}");
                assert_eq!(scratch.sorted_dead, dead);
            }
        }
    }

    /// Size of the probe's greedy packing of `unhit` (at most [`TIGHT_SETS`], as here),
    /// the fewest live cells first, disjoint on live cells.
    fn greedy_disjoint(unhit: &[u128], dead: u128) -> usize {
        assert!(unhit.len() <= TIGHT_SETS);
        let mut by_size = unhit.to_vec();
        by_size.sort_by_key(|set| (set & !dead).count_ones());
        let mut used = 0u128;
        let mut count = 0;
        for &set in &by_size {
            let live = set & !dead;
            if live & used == 0 {
                used |= live;
                count += 1;
            }
        }
        count
    }
}
