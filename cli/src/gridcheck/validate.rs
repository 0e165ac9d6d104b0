//! Checks of what a journal or part record means, beyond its checksum: a puzzle parses,
//! is written canonically, lies in its grid, has the run's clue count and fits its mask; a
//! chunk id names a chunk; counters add without wrapping. Each error says what is wrong
//! (the durable layer adds the file and the record).
use xcover_core::gridcheck::scan::ChunkId;
use xcover_core::gridcheck::{Cells, Grid, Puzzle};

use super::fingerprint::PuzzleRules;
use super::summary::Counts;

/// The givens of `text`, a puzzle of `grid` under `rules`.
pub(crate) fn puzzle(text: &str, grid: &Grid, rules: &PuzzleRules) -> Result<Cells, String> {
    let puzzle = Puzzle::parse(text.as_bytes()).map_err(|e| format!("not a puzzle: {e}"))?;
    // One spelling: the parser also takes `.` for an empty cell and a line end.
    if text.len() != 81 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err("not a puzzle in canonical form (81 digits, 0 for empty)".into());
    }
    puzzle
        .check_against(grid)
        .map_err(|e| format!("a puzzle that is not in its grid: {e}"))?;
    let givens = puzzle.givens();
    if givens.len() != u32::from(rules.clues) {
        return Err(format!(
            "a puzzle of {} clues in a run for {}",
            givens.len(),
            rules.clues
        ));
    }
    if !rules.mask.givens.is_subset_of(givens) {
        return Err("a puzzle without a forced given of the mask".into());
    }
    if !givens.is_disjoint(rules.mask.empties) {
        return Err("a puzzle with a given in a forced empty cell of the mask".into());
    }
    Ok(givens)
}

/// A chunk id (`ChunkId::to_u32` in decimal).
pub(crate) fn chunk_id(text: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .ok()
        .filter(|&id| digits_only(text) && ChunkId::from_u32(id).is_some())
        .ok_or_else(|| format!("bad chunk id `{text}`"))
}

/// A counter: decimal digits that fit a u64.
pub(crate) fn counter(text: &str) -> Result<u64, String> {
    text.parse::<u64>()
        .ok()
        .filter(|_| digits_only(text))
        .ok_or_else(|| format!("bad counter `{text}`"))
}

/// A grid index below `grids`.
pub(crate) fn grid_index(text: &str, grids: usize) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|&g| digits_only(text) && g < grids)
        .ok_or_else(|| format!("bad grid index `{text}` (the run has {grids} grids)"))
}

/// `total + more`, refused where a counter would wrap around.
pub(crate) fn add_counts(total: Counts, more: Counts) -> Result<Counts, String> {
    match (
        total.nodes.checked_add(more.nodes),
        total.candidates.checked_add(more.candidates),
    ) {
        (Some(nodes), Some(candidates)) => Ok(Counts { nodes, candidates }),
        _ => Err("the counters overflow (their sum does not fit 64 bits)".into()),
    }
}

/// Plain decimal digits (no sign, no space): one spelling per number.
fn digits_only(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use xcover_core::gridcheck::scan::ClueMask;

    const GRID: &str =
        "123456789456789123789123456214365897365897214897214365531642978642978531978531642";

    #[test]
    fn puzzles_are_checked_against_grid_clues_and_mask() {
        let grid = Grid::parse(GRID.as_bytes()).unwrap();
        let givens = Cells::from_cells(&[0, 5, 80]);
        let text = Puzzle::from_grid(&grid, givens).to_string();
        let rules = PuzzleRules {
            clues: 3,
            mask: ClueMask {
                givens: Cells::single(5),
                empties: Cells::single(6),
            },
        };
        assert_eq!(puzzle(&text, &grid, &rules), Ok(givens));
        let other_clues = PuzzleRules { clues: 4, ..rules };
        assert!(puzzle(&text, &grid, &other_clues)
            .unwrap_err()
            .contains("3 clues"));
        let forced = PuzzleRules {
            mask: ClueMask {
                givens: Cells::single(7),
                ..rules.mask
            },
            ..rules
        };
        assert!(puzzle(&text, &grid, &forced)
            .unwrap_err()
            .contains("forced given"));
        let empty = PuzzleRules {
            mask: ClueMask {
                empties: Cells::single(80),
                ..rules.mask
            },
            ..rules
        };
        assert!(puzzle(&text, &grid, &empty)
            .unwrap_err()
            .contains("forced empty"));
        let wrong_digit = format!("2{}", &text[1..]);
        assert!(puzzle(&wrong_digit, &grid, &rules)
            .unwrap_err()
            .contains("not in its grid"));
        assert!(puzzle(&"x".repeat(81), &grid, &rules).is_err());
        assert!(puzzle(&text.replace('0', "."), &grid, &rules).is_err());
    }

    #[test]
    fn numbers_have_one_spelling_and_a_range() {
        assert_eq!(chunk_id("513"), Ok(513));
        assert_eq!(chunk_id("16777215"), Ok(0xff_ffff));
        for bad in ["16777216", "+5", " 5", "", "4294967296"] {
            assert!(chunk_id(bad).is_err(), "{bad}");
        }
        assert_eq!(counter("18446744073709551615"), Ok(u64::MAX));
        assert!(counter("18446744073709551616").is_err());
        assert_eq!(grid_index("1", 2), Ok(1));
        assert!(grid_index("2", 2).is_err());
        let max = Counts {
            nodes: u64::MAX,
            candidates: 0,
        };
        let one = Counts {
            nodes: 1,
            candidates: 1,
        };
        assert!(add_counts(max, one).is_err());
        assert_eq!(add_counts(one, one).unwrap().nodes, 2);
    }
}
