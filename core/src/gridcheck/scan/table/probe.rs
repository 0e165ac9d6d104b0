//! The probes: whether placing a clue leaves sets that the clues left cannot hit (a
//! greedy packing of disjoint sets, then an exact test of tight packings).
use super::hits::HitTable;
use super::level::State;
use super::limits::{
    COVERED_SIBLINGS, NARROW_PROBE_CLUES, NARROW_PROBE_WORDS, SIZE_CLASSES, TIGHT_REGIONS,
    TIGHT_SETS, WORDS,
};
use super::scratch::ProbeScratch;
use crate::gridcheck::scan::bits::{count_ones, for_each_position};
use crate::gridcheck::scan::region_fit::{self, regions_can_hit, split_region, Family, SetMask};
use crate::gridcheck::scan::transpose::{transpose_narrow, NARROW_COLUMNS};

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

impl HitTable {
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
        // The sizes present are noted once, after the refills.
        child.move_down_for(dead);
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
    /// next [`COVERED_SIBLINGS`] siblings outside the regions are *covered* (both
    /// when they are the last two siblings): the test
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
        // The sets meeting the live cells packed so far, from their hitting masks: they
        // cannot pack (the packing's cells only grow), so only the others are read.
        let mut blocked = [0u64; WORDS];
        if first_word < scanned {
            for_each_position(packing.used, |cell| {
                for (word, &hits) in blocked.iter_mut().zip(&self.hit[cell]) {
                    *word |= hits;
                }
            });
        }
        for w in first_word..scanned {
            let unhit = unhit_after(w);
            any_unhit |= unhit != 0;
            let mut bits = unhit & !blocked.get(w).copied().unwrap_or(0);
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
        // The last two siblings, both outside the regions, are covered together: a
        // failure then ends the parent's children without a test of their own.
        let cover = if candidates == siblings && count_ones(candidates) == 2 {
            2
        } else {
            COVERED_SIBLINGS
        };
        for _ in 0..cover {
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
