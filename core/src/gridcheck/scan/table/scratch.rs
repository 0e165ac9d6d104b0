//! The probes' scratch: a parent's family of unhit sets, read by the probes of all its
//! children ([`HitTable::probe`]), with the per-position masks of its sets, their
//! classes by live size (the packing order) and the children's order. A
//! [`BitmapTable`] holds [`PROBE_SLOTS`] of them, one per depth modulo that, so a
//! parent's survives its children's subtrees and a child's can be derived from its
//! parent's ([`HitTable::derive_probes`]).
use super::limits::{SIZE_CLASSES, TIGHT_SETS};
#[cfg(doc)]
use super::{bitmap::BitmapTable, hits::HitTable};
use crate::gridcheck::scan::bits::{count_ones, for_each_position, position_with_most};
use crate::gridcheck::scan::region_fit::{CellSets, SetMask};
#[cfg(doc)]
use crate::gridcheck::scan::transpose::NARROW_COLUMNS;

/// Probe scratches a [`BitmapTable`] holds, for the depths modulo this: a frame's
/// survives the subtrees of its children up to three levels deep (a parent between two
/// children is not prepared again), and a child's family is derived from its parent's. A
/// slot taken by a deeper frame only costs a new preparation. Below the top probed level
/// subtrees are shallow, so more slots gain nothing (docs/PERFORMANCE.md). Each slot is
/// about 4.7 KB.
pub(crate) const PROBE_SLOTS: usize = 4;

/// Newly dead cells up to which [`ProbeScratch::resort_by_live_size`] moves sets class by
/// class; with more, it sorts anew.
pub(super) const RESORT_CELLS: u32 = 6;

/// Scratch of [`HitTable::probe`]: the parent's family of sets for the packing
/// and the exact test, with its per-position masks and its packing order, built once for
/// all the children of a state ([`HitTable::prepare_probes`]).
#[derive(Clone)]
pub(crate) struct ProbeScratch {
    /// The first [`TIGHT_SETS`] unhit sets of the parent state, in table order.
    pub(super) sets: [u128; TIGHT_SETS],
    /// Entries of `sets` in use (those of `members` are below it). This and `rest_from`
    /// are `u32`, not `usize`: the scratch then has the same size on 32- and 64-bit
    /// targets, as the C ABI's `GRIDCHECK_TABLE_BYTES` states.
    pub(super) len: u32,
    /// The entries of `sets` that are the family: all below `len` after
    /// [`HitTable::prepare_probes`]; after [`HitTable::derive_probes`], the
    /// parent's less those its clue hits, and the entries those left refilled.
    pub(super) members: SetMask,
    /// Index in the table of the first unhit set after the family (the table's end when
    /// the family holds them all).
    pub(super) rest_from: u32,
    /// For each position (below [`NARROW_COLUMNS`]; the entries
    /// from there on are never read), the sets of `sets` holding it.
    pub(super) cell_sets: CellSets,
    /// `by_live_size[z]`: the sets of `sets` with `z` live cells in the parent (the last
    /// class: `z` or more).
    pub(super) by_live_size: [SetMask; SIZE_CLASSES],
    /// Bit `z` set when `by_live_size[z]` is not empty.
    pub(super) sizes_present: u32,
    /// The dead cells `by_live_size` counts with.
    pub(super) sorted_dead: u128,
    /// For each position of the branch given to [`ProbeScratch::rank_children`], how
    /// many sets of `sets` hold it: the children's order ([`ProbeScratch::next_child`]).
    pub(super) held: [u8; 128],
}

impl ProbeScratch {
    /// Fresh scratch.
    pub(crate) const fn new() -> ProbeScratch {
        ProbeScratch {
            sets: [0; TIGHT_SETS],
            len: 0,
            members: 0,
            rest_from: 0,
            cell_sets: [0; 128],
            by_live_size: [0; SIZE_CLASSES],
            sizes_present: 0,
            sorted_dead: 0,
            held: [0; 128],
        }
    }

    /// Counts, for each position of `branch` (a parent's children), the family sets
    /// holding it; after [`HitTable::prepare_probes`] for that parent.
    #[inline]
    pub(crate) fn rank_children(&mut self, branch: u128) {
        for_each_position(branch, |position| {
            self.held[position] = count_ones(self.cell_sets[position]) as u8;
        });
    }

    /// The child of `branch` (not empty; positions ranked by
    /// [`ProbeScratch::rank_children`]) to try next: the one the most family sets hold,
    /// the lowest position of those. Tried first, such a cell leaves the fewest sets
    /// unhit below it, and then, dead for its later siblings, takes a live cell from the
    /// most sets they must hit: fewer placements than position order, most on the slow
    /// grids (docs/PERFORMANCE.md). Any order enumerates every clue set once, so the
    /// puzzles are the same.
    #[inline]
    pub(crate) fn next_child(&self, branch: u128) -> u8 {
        position_with_most(branch, |position| self.held[usize::from(position) & 127])
    }

    /// Sorts the family into live-size classes by the cells outside `dead`.
    #[inline]
    pub(crate) fn sort_by_live_size(&mut self, dead: u128) {
        // The classes per 64-set half (no `u128` shift by a variable).
        let mut halves = [[0u64; SIZE_CLASSES]; 2];
        for (half, sets) in halves
            .iter_mut()
            .zip(self.sets[..self.len as usize].chunks(64))
        {
            for (i, &set) in sets.iter().enumerate() {
                let size = (count_ones(set & !dead) as usize).min(SIZE_CLASSES - 1);
                half[size] |= 1 << i;
            }
        }
        // Entries outside the family (a derived family's holes) belong to no class.
        let members = self.members;
        for (class, (&low, &high)) in self
            .by_live_size
            .iter_mut()
            .zip(halves[0].iter().zip(&halves[1]))
        {
            *class = (u128::from(low) | u128::from(high) << 64) & members;
        }
        self.sorted_dead = dead;
        self.note_sizes_present();
    }

    /// Brings the live-size classes to the dead cells `dead` (a superset of those they
    /// count with): each newly dead cell moves the sets holding it one class down, which
    /// is cheaper than a new sort when only a few cells died (a parent between two of
    /// its children, a child after its parent's).
    #[inline]
    pub(crate) fn resort_by_live_size(&mut self, dead: u128) {
        self.move_down_for(dead);
        self.note_sizes_present();
    }

    /// [`ProbeScratch::resort_by_live_size`] without the final
    /// [`ProbeScratch::note_sizes_present`], for a caller that changes the classes further
    /// before it notes them once.
    #[inline]
    pub(super) fn move_down_for(&mut self, dead: u128) {
        let mut newly_dead = dead & !self.sorted_dead;
        if count_ones(newly_dead) > RESORT_CELLS {
            self.sort_by_live_size(dead);
            return;
        }
        while newly_dead != 0 {
            let cell = newly_dead.trailing_zeros() as usize & 127;
            newly_dead &= newly_dead - 1;
            self.sorted_dead |= 1 << cell;
            self.one_class_down(self.cell_sets[cell] & self.members);
        }
    }

    /// Moves the `sets` (family entries that just lost a live cell, counted with
    /// `sorted_dead` already) one live-size class down; sets in the last class (that many
    /// live cells or more) move only when their new count falls below it.
    #[inline]
    fn one_class_down(&mut self, sets: SetMask) {
        if sets == 0 {
            return;
        }
        let classes = &mut self.by_live_size;
        // Upward, so that no set moves twice.
        for size in 1..SIZE_CLASSES - 1 {
            let moving = classes[size] & sets;
            classes[size] ^= moving;
            classes[size - 1] |= moving;
        }
        let mut top = classes[SIZE_CLASSES - 1] & sets;
        while top != 0 {
            let entry = top.trailing_zeros() as usize & (TIGHT_SETS - 1);
            top &= top - 1;
            if (count_ones(self.sets[entry] & !self.sorted_dead) as usize) < SIZE_CLASSES - 1 {
                classes[SIZE_CLASSES - 1] &= !(1 << entry);
                classes[SIZE_CLASSES - 2] |= 1 << entry;
            }
        }
    }

    /// Recomputes `sizes_present` from the classes.
    #[inline]
    pub(super) fn note_sizes_present(&mut self) {
        let mut present = 0u32;
        for (size, class) in self.by_live_size.iter().enumerate() {
            if *class != 0 {
                present |= 1 << size;
            }
        }
        self.sizes_present = present;
    }
}

impl Default for ProbeScratch {
    fn default() -> Self {
        Self::new()
    }
}
