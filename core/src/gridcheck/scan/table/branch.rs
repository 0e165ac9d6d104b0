//! The branch rules: which unhit set the enumeration branches on.
use super::hits::HitTable;
use super::level::State;
use super::limits::{BRANCH_CANDIDATES, BRANCH_SCORED, WORDS};
use crate::gridcheck::scan::bits::{count_ones, for_each_position, position_with_most};
#[cfg(doc)]
use crate::gridcheck::scan::chunks;

impl HitTable {
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
    /// first [`BRANCH_SCORED`] sets `state` leaves unhit, from set `head` (the first
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
    /// would rather keep unhit. This rule leaves about half the placements of that one
    /// (the weights and the slack tried: docs/PERFORMANCE.md).
    pub(crate) fn branch_set(&self, state: &State, head: usize, dead: u128) -> u128 {
        let state = &state.0;
        let words = self.words.min(WORDS);
        // The candidates' live cells and their counts (small arrays: this runs on the
        // caller's stack, which firmware keeps small).
        let mut lives = [0u128; BRANCH_SCORED];
        let mut counts = [0u8; BRANCH_SCORED];
        let mut taken = 0;
        let mut fewest = u32::MAX;
        'sets: for (w, &word) in state.iter().enumerate().take(words).skip(head / 64) {
            let mut bits = word;
            while bits != 0 {
                if taken == BRANCH_SCORED {
                    break 'sets;
                }
                let index = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let live = self.sets[index] & !dead;
                let count = count_ones(live);
                if count <= 1 {
                    return live;
                }
                lives[taken] = live;
                counts[taken] = count as u8;
                fewest = fewest.min(count);
                taken += 1;
            }
        }
        // The candidates eligible (at most two live cells more than the fewest), the
        // cells they hold, and each candidate's weight for those meeting it.
        let mut eligible = 0u64;
        let mut cells_eligible = 0u128;
        let mut weights = [0u32; BRANCH_SCORED];
        for (j, (&count, weight)) in counts[..taken].iter().zip(&mut weights).enumerate() {
            *weight = overlap_weight(count);
            if u32::from(count) <= fewest + 2 {
                eligible |= 1 << j;
                cells_eligible |= lives[j];
            }
        }
        // For each cell an eligible candidate holds, the candidates holding it.
        let mut holders = [0u64; 128];
        for (j, &live) in lives[..taken].iter().enumerate() {
            for_each_position(live & cells_eligible, |cell| holders[cell] |= 1 << j);
        }
        let mut best = lives[0];
        // The best score so far, as the fraction `best_weight / best_count`.
        let (mut best_weight, mut best_count) = (0u64, 1u64);
        while eligible != 0 {
            let i = eligible.trailing_zeros() as usize & (BRANCH_SCORED - 1);
            eligible &= eligible - 1;
            let cells = lives[i];
            let mut meeting = 0u64;
            for_each_position(cells, |cell| meeting |= holders[cell]);
            meeting &= !(1 << i);
            // The weights of the other candidates it meets, plus one (no score is zero).
            let mut weight = 1u64;
            while meeting != 0 {
                let j = meeting.trailing_zeros() as usize & (BRANCH_SCORED - 1);
                weight += u64::from(weights[j]);
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

// The candidates of `branch_set` fit a `u64`, and its index masks need a power of two.
const _: () = assert!(BRANCH_SCORED.is_power_of_two() && BRANCH_SCORED <= 64);

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

/// The live cells (outside `dead`) of the set with the fewest of them among `first` and
/// the sets after it in `rest` (table order), [`BRANCH_CANDIDATES`] sets in all: the
/// first such in that order, or the first with at most one live cell that beats `first`
/// (the search stops there). The enumeration branches on it: every completion hits every
/// unhit set, so any one may be the branch set, and the one with the fewest live cells
/// gives the fewest children (a set with none prunes at once). The chunk walk
/// ([`chunks`]) uses the same rule, so chunks stay the enumeration's own subtrees.
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

#[cfg(test)]
mod tests {
    use super::super::level::LevelState;
    use super::super::tests::random_sets_below;
    use super::*;
    use crate::gridcheck::scan::region_fit::tests::lcg;
    use std::boxed::Box;
    use std::vec::Vec;

    /// The rule of [`HitTable::branch_set`], written plainly over the unhit sets in
    /// table order.
    fn branch_set_by_its_rule(unhit: &[u128], dead: u128) -> u128 {
        let candidates: Vec<u128> = unhit
            .iter()
            .take(BRANCH_SCORED)
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
}
