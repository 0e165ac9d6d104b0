//! Checks of what a journal or part record means, beyond its checksum: a puzzle parses,
//! is written canonically, lies in its grid, has the run's clue count and fits its mask; a
//! chunk id names a chunk; counters add without wrapping. Each error says what is wrong
//! (the durable layer adds the file and the record).
use std::fmt;

use xcover_core::gridcheck::scan::ChunkId;
use xcover_core::gridcheck::{Cells, Grid, GridcheckError, Puzzle};

use super::fingerprint::PuzzleRules;
use super::summary::Counts;

/// What a record of a journal or a part means that it must not: the checks here, and
/// those of the two readers (`journal::apply`, `part::apply`), which share their record
/// tags and most of their rules. The durable layer names the file and the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RecordError {
    /// The payload is not one line of text ended by its newline.
    NotOneLine,
    /// `tag text`: a record of a known tag whose words do not parse.
    Bad { tag: String, text: String },
    /// A record of a tag the format does not have.
    UnknownTag { tag: String, text: String },
    /// A puzzle core cannot read.
    NotAPuzzle(GridcheckError),
    /// A puzzle not spelled as the writer spells it.
    NotCanonical,
    /// A puzzle whose givens are not its grid's digits.
    NotInItsGrid(GridcheckError),
    /// A puzzle of `found` clues in a run for `run`.
    ClueCount { found: u32, run: u8 },
    /// A puzzle without a given the mask forces.
    MissingForcedGiven,
    /// A puzzle with a given in a cell the mask forces empty.
    GivenInForcedEmpty,
    /// A chunk id that names no chunk.
    ChunkId(String),
    /// A counter that is not decimal digits fitting 64 bits.
    Counter(String),
    /// A grid index not below the run's `grids`.
    GridIndex { text: String, grids: usize },
    /// Adding the counters would wrap around.
    CountersOverflow,
    /// A grid that core cannot read (part).
    BadGrid(GridcheckError),
    /// A grid record after a later grid's (part).
    GridOutOfOrder(usize),
    /// A chunk or puzzle record not under its grid's record (part).
    OutOfPlace { tag: String, grid: usize },
    /// Chunk ids not increasing (part).
    ChunkOutOfOrder(u32),
    /// More chunk records than the grid's preparation made chunks (part).
    TooManyChunks(usize),
    /// Puzzles not sorted, or one twice (part).
    PuzzleOutOfOrder(String),
    /// A puzzle recorded twice (journal).
    PuzzleTwice { puzzle: String, grid: usize },
    /// A chunk recorded twice (journal).
    ChunkTwice { id: u32, grid: usize },
    /// A chunk record with counters where the journal keeps none, or without them where
    /// it keeps them (journal).
    ChunkCounters { value: String, counted: bool },
    /// A chunk record's value that is neither `id` nor `id:nodes:candidates` (journal).
    BadChunk(String),
    /// Preparation figures that do not parse (journal).
    BadPreparation(String),
    /// Preparation figures twice, or in a journal without a shard (journal).
    UnexpectedPreparation(usize),
    /// A grid finished twice (journal).
    GridDoneTwice(usize),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RecordError as E;
        match self {
            E::NotOneLine => f.write_str("not one line of text"),
            E::Bad { tag, text } => write!(f, "bad {tag} record `{text}`"),
            E::UnknownTag { tag, text } => write!(f, "unknown record `{tag} {text}`"),
            E::NotAPuzzle(e) => write!(f, "not a puzzle: {e}"),
            E::NotCanonical => {
                f.write_str("not a puzzle in canonical form (81 digits, 0 for empty)")
            }
            E::NotInItsGrid(e) => write!(f, "a puzzle that is not in its grid: {e}"),
            E::ClueCount { found, run } => {
                write!(f, "a puzzle of {found} clues in a run for {run}")
            }
            E::MissingForcedGiven => f.write_str("a puzzle without a forced given of the mask"),
            E::GivenInForcedEmpty => {
                f.write_str("a puzzle with a given in a forced empty cell of the mask")
            }
            E::ChunkId(text) => write!(f, "bad chunk id `{text}`"),
            E::Counter(text) => write!(f, "bad counter `{text}`"),
            E::GridIndex { text, grids } => {
                write!(f, "bad grid index `{text}` (the run has {grids} grids)")
            }
            E::CountersOverflow => {
                f.write_str("the counters overflow (their sum does not fit 64 bits)")
            }
            E::BadGrid(e) => write!(f, "bad grid: {e}"),
            E::GridOutOfOrder(index) => write!(f, "grid {index} out of order"),
            E::OutOfPlace { tag, grid } => {
                write!(f, "a {tag} record of grid {grid} out of place")
            }
            E::ChunkOutOfOrder(id) => write!(f, "chunk {id} out of order or twice"),
            E::TooManyChunks(chunks) => write!(f, "more chunks than the grid's {chunks}"),
            E::PuzzleOutOfOrder(puzzle) => write!(f, "puzzle {puzzle} out of order or twice"),
            E::PuzzleTwice { puzzle, grid } => {
                write!(f, "puzzle {puzzle} of grid {grid} recorded twice")
            }
            E::ChunkTwice { id, grid } => write!(f, "chunk {id} of grid {grid} recorded twice"),
            E::ChunkCounters { value, counted } => write!(
                f,
                "chunk record `{value}` {} counters in a journal {}",
                if *counted { "without" } else { "with" },
                if *counted {
                    "of a shard (which keeps them)"
                } else {
                    "without a shard (which keeps none)"
                }
            ),
            E::BadChunk(value) => write!(f, "bad chunk record `{value}`"),
            E::BadPreparation(value) => write!(f, "bad preparation figures `{value}`"),
            E::UnexpectedPreparation(grid) => {
                write!(f, "unexpected preparation figures for grid {grid}")
            }
            E::GridDoneTwice(grid) => write!(f, "grid {grid} finished twice"),
        }
    }
}

impl std::error::Error for RecordError {}

/// A refused record: status 1. (Mapped here, not in `crate::error`, which imports no
/// module of the command.)
impl From<RecordError> for crate::error::CliError {
    fn from(e: RecordError) -> crate::error::CliError {
        crate::error::CliError::failure(e.to_string())
    }
}

/// The givens of `text`, a puzzle of `grid` under `rules`.
pub(crate) fn puzzle(text: &str, grid: &Grid, rules: &PuzzleRules) -> Result<Cells, RecordError> {
    let puzzle = Puzzle::parse(text.as_bytes()).map_err(RecordError::NotAPuzzle)?;
    // One spelling: the parser also takes `.` for an empty cell and a line end.
    if text.len() != 81 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(RecordError::NotCanonical);
    }
    puzzle
        .check_against(grid)
        .map_err(RecordError::NotInItsGrid)?;
    let givens = puzzle.givens();
    if givens.len() != u32::from(rules.clues) {
        return Err(RecordError::ClueCount {
            found: givens.len(),
            run: rules.clues,
        });
    }
    if !rules.mask.givens.is_subset_of(givens) {
        return Err(RecordError::MissingForcedGiven);
    }
    if !givens.is_disjoint(rules.mask.empties) {
        return Err(RecordError::GivenInForcedEmpty);
    }
    Ok(givens)
}

/// A chunk id (`ChunkId::to_u32` in decimal).
pub(crate) fn chunk_id(text: &str) -> Result<u32, RecordError> {
    text.parse::<u32>()
        .ok()
        .filter(|&id| digits_only(text) && ChunkId::from_u32(id).is_some())
        .ok_or_else(|| RecordError::ChunkId(text.to_owned()))
}

/// A counter: decimal digits that fit a u64.
pub(crate) fn counter(text: &str) -> Result<u64, RecordError> {
    text.parse::<u64>()
        .ok()
        .filter(|_| digits_only(text))
        .ok_or_else(|| RecordError::Counter(text.to_owned()))
}

/// A grid index below `grids`.
pub(crate) fn grid_index(text: &str, grids: usize) -> Result<usize, RecordError> {
    text.parse::<usize>()
        .ok()
        .filter(|&g| digits_only(text) && g < grids)
        .ok_or_else(|| RecordError::GridIndex {
            text: text.to_owned(),
            grids,
        })
}

/// `total + more`, refused where a counter would wrap around.
pub(crate) fn add_counts(total: Counts, more: Counts) -> Result<Counts, RecordError> {
    match (
        total.nodes.checked_add(more.nodes),
        total.candidates.checked_add(more.candidates),
    ) {
        (Some(nodes), Some(candidates)) => Ok(Counts { nodes, candidates }),
        _ => Err(RecordError::CountersOverflow),
    }
}

/// A payload's text: one line, ended by its newline (so that every frame line starts a
/// line of the file, and `grep '^chunk '` counts the chunks done).
pub(crate) fn payload_line(payload: &[u8]) -> Result<&str, RecordError> {
    std::str::from_utf8(payload)
        .ok()
        .and_then(|text| text.strip_suffix('\n'))
        .filter(|line| !line.contains('\n'))
        .ok_or(RecordError::NotOneLine)
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
            .to_string()
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
            .to_string()
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
            .to_string()
            .contains("forced empty"));
        let wrong_digit = format!("2{}", &text[1..]);
        assert!(puzzle(&wrong_digit, &grid, &rules)
            .unwrap_err()
            .to_string()
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
