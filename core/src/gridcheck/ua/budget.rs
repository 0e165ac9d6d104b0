//! How a whole grid's UA list is generated (which pseudo-puzzles, how many), chosen per grid.
//!
//! The random pseudo-puzzles ([`generate::for_mask`]) add the UA of 10 to 16 cells that
//! the 4-digit subsets miss; they cost about 0.25 ms each and pay where the scan is long.
//! How long a grid's scan is shows in its unavoidable rectangles (4-cell UA): a grid with
//! few has a weak clique and a wide tree (seconds), a grid with many a narrow one (a
//! tenth of a second), where a thousand pseudo-puzzles cost more than the placements they
//! save. So a scan for at most [`RICH_MAX_CLUES`] clues of a grid with at least
//! [`RICH_RECTANGLES`] rectangles gets [`RICH_RANDOM`] random pseudo-puzzles and no
//! 4-digit subsets (which cost as much as 300 random ones there and find little the
//! random ones miss), and every other whole-grid scan the 4-digit subsets and
//! [`WHOLE_GRID_RANDOM`] (docs/PERFORMANCE.md, fifteenth pass). With more clues the scan is
//! ten to a hundred times longer, and the longer list pays there too. Any list of real UA
//! finds the same puzzles: only the placements and the time depend on the recipe.
//!
//! [`generate::for_mask`]: super::generate::for_mask
use super::generate::{self, GenStats, DEFAULT_RANDOM_BLANKS};
use super::list::UaList;
use crate::gridcheck::cells::Cells;
use crate::gridcheck::error::GridcheckError;
use crate::gridcheck::grid::Grid;
use crate::gridcheck::scan::ScanOptions;

/// Random pseudo-puzzles after the 4-digit subsets for a whole grid with fewer than
/// [`RICH_RECTANGLES`] unavoidable rectangles (what every grid got before the recipe was
/// chosen per grid).
pub const WHOLE_GRID_RANDOM: u32 = 1000;
/// Random pseudo-puzzles (and no 4-digit subsets) for a whole grid with at least
/// [`RICH_RECTANGLES`] unavoidable rectangles.
pub const RICH_RANDOM: u32 = 400;
/// Random pseudo-puzzles after the 4-digit subsets for a masked scan: its forced givens are
/// never blanked, so the pseudo-puzzles are small, and 300 give most of the pruning in a
/// few milliseconds.
pub const MASKED_RANDOM: u32 = 300;
/// Unavoidable rectangles from which a grid counts as rich (fast to scan).
pub const RICH_RECTANGLES: u32 = 9;
/// Most clues of a scan that gets [`RICH_RANDOM`] on a rich grid (measured on 16-clue
/// scans; 17-clue scans of rich grids made up to a third more placements with the
/// 4-digit subsets and 250).
pub const RICH_MAX_CLUES: u8 = 16;

/// The grid's unavoidable rectangles: its 4-cell UA, two digits swapped on two rows and
/// two columns whose four cells lie in two boxes (the same band or the same stack). They
/// are all the UA of 4 cells, the smallest a UA can have.
///
/// ```
/// use xcover_core::gridcheck::ua::budget;
/// use xcover_core::gridcheck::Grid;
///
/// let grid = Grid::parse(b"128465973534789261697231854271354698359876412486912735813647529965128347742593186")?;
/// assert_eq!(budget::unavoidable_rectangles(&grid), 13);
/// # Ok::<(), xcover_core::gridcheck::GridcheckError>(())
/// ```
pub fn unavoidable_rectangles(grid: &Grid) -> u32 {
    let digits = grid.digits();
    let at = |row: usize, col: usize| digits[row * 9 + col];
    let mut count = 0;
    for r1 in 0..9 {
        for r2 in r1 + 1..9 {
            let same_band = r1 / 3 == r2 / 3;
            for c1 in 0..9 {
                for c2 in c1 + 1..9 {
                    // Two boxes: the same band and two stacks, or the same stack and two
                    // bands (the same band and stack is one box, which cannot hold a digit
                    // twice).
                    if same_band == (c1 / 3 == c2 / 3) {
                        continue;
                    }
                    if at(r1, c1) == at(r2, c2) && at(r1, c2) == at(r2, c1) {
                        count += 1;
                    }
                }
            }
        }
    }
    count
}

/// How a UA list is generated: the 4-digit subsets or not, and how many random
/// pseudo-puzzles ([`generate::for_mask`] or [`generate::from_random_blanks`]).
///
/// ```
/// use xcover_core::gridcheck::ua::{budget::{self, Recipe}, UaList};
/// use xcover_core::gridcheck::{Cells, Grid};
///
/// let grid = Grid::parse(b"128465973534789261697231854271354698359876412486912735813647529965128347742593186")?;
/// let recipe = budget::whole_grid_recipe(&grid, 16);
/// assert_eq!(recipe, Recipe { digit_subsets: false, random: budget::RICH_RANDOM });
/// let (mut storage, mut scratch) = (vec![Cells::EMPTY; 1 << 16], vec![Cells::EMPTY; 1 << 16]);
/// let mut list = UaList::new(&mut storage);
/// Recipe { digit_subsets: false, random: 10 }.generate(&grid, 1, Cells::EMPTY, &mut list, &mut scratch)?;
/// assert!(!list.is_empty());
/// # Ok::<(), xcover_core::gridcheck::GridcheckError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Recipe {
    /// The pseudo-puzzles of all 4-digit subsets first ([`generate::for_mask`]).
    pub digit_subsets: bool,
    /// Random pseudo-puzzles.
    pub random: u32,
}

impl Recipe {
    /// The 4-digit subsets and `random` random pseudo-puzzles: the recipe of a count given
    /// by the caller, and of a masked scan.
    pub const fn given(random: u32) -> Recipe {
        Recipe {
            digit_subsets: true,
            random,
        }
    }

    /// Generates the list into `list` with `seed`, never blanking the cells of `keep` (a
    /// recipe without the 4-digit subsets is for a whole grid: with cells kept it takes them
    /// as [`generate::for_mask`] does). Every set merged is a real minimal UA; `list` is
    /// sorted and de-duplicated; `Err(ListFull)` when the distinct sets do not fit.
    pub fn generate(
        &self,
        grid: &Grid,
        seed: u64,
        keep: Cells,
        list: &mut UaList<'_>,
        scratch: &mut [Cells],
    ) -> Result<GenStats, GridcheckError> {
        if self.digit_subsets || !keep.is_empty() {
            generate::for_mask(grid, self.random, seed, keep, list, scratch)
        } else {
            generate::from_random_blanks(
                grid,
                self.random,
                DEFAULT_RANDOM_BLANKS,
                seed,
                list,
                scratch,
            )
        }
    }
}

/// The recipe of the UA generation of a whole-grid scan of `grid` (no forced givens) for
/// `clues` clues: [`RICH_RANDOM`] random pseudo-puzzles without the 4-digit subsets when
/// `clues` is at most [`RICH_MAX_CLUES`] and the grid has at least [`RICH_RECTANGLES`]
/// unavoidable rectangles, else the 4-digit subsets and [`WHOLE_GRID_RANDOM`].
///
/// ```
/// use xcover_core::gridcheck::ua::budget::{self, Recipe};
/// use xcover_core::gridcheck::Grid;
///
/// let grid = Grid::parse(b"128465973534789261697231854271354698359876412486912735813647529965128347742593186")?;
/// assert!(!budget::whole_grid_recipe(&grid, 16).digit_subsets);
/// assert_eq!(budget::whole_grid_recipe(&grid, 17), Recipe::given(budget::WHOLE_GRID_RANDOM));
/// # Ok::<(), xcover_core::gridcheck::GridcheckError>(())
/// ```
pub fn whole_grid_recipe(grid: &Grid, clues: u8) -> Recipe {
    if clues <= RICH_MAX_CLUES && unavoidable_rectangles(grid) >= RICH_RECTANGLES {
        Recipe {
            digit_subsets: false,
            random: RICH_RANDOM,
        }
    } else {
        Recipe::given(WHOLE_GRID_RANDOM)
    }
}

/// The default recipe of a scan of `grid` with `options`, the one every front end uses
/// when the caller names no count: [`whole_grid_recipe`] for a whole grid (no forced
/// givens or empty cells), else the 4-digit subsets and [`MASKED_RANDOM`].
///
/// ```
/// use xcover_core::gridcheck::scan::{ClueMask, ScanOptions};
/// use xcover_core::gridcheck::ua::budget::{self, Recipe};
/// use xcover_core::gridcheck::{Cells, Grid};
///
/// let grid = Grid::parse(b"128465973534789261697231854271354698359876412486912735813647529965128347742593186")?;
/// let mut options = ScanOptions::for_clues(16)?;
/// assert_eq!(budget::scan_recipe(&grid, &options), budget::whole_grid_recipe(&grid, 16));
/// options.mask = ClueMask { givens: Cells::from_cells(&[0, 10, 20]), empties: Cells::EMPTY };
/// assert_eq!(budget::scan_recipe(&grid, &options), Recipe::given(budget::MASKED_RANDOM));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn scan_recipe(grid: &Grid, options: &ScanOptions) -> Recipe {
    if options.mask.is_free() {
        whole_grid_recipe(grid, options.clues)
    } else {
        Recipe::given(MASKED_RANDOM)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gridcheck::cells::Cells;
    use crate::gridcheck::ua::{generate, UaList};

    const SLOW: &[u8; 81] =
        b"216735498975684231843219675439572816527168349681493752192847563354926187768351924";
    const GRIDS: [&[u8; 81]; 4] = [
        SLOW,
        b"342896571517432896869571342638247159491358267275619438756183924984725613123964785",
        b"685913472472685319193472685318769524947258136526341798834527961761894253259136847",
        b"128465973534789261697231854271354698359876412486912735813647529965128347742593186",
    ];

    /// The rectangles are the 4-cell sets of the 4-digit pseudo-puzzles' minimal UA
    /// (every UA of 4 cells involves two digits).
    #[test]
    fn rectangles_are_the_four_cell_ua() {
        let mut storage = [Cells::EMPTY; 1 << 15];
        let mut scratch = [Cells::EMPTY; 1 << 14];
        for line in GRIDS {
            let grid = Grid::parse(line).unwrap();
            let mut list = UaList::new(&mut storage);
            generate::from_digit_subsets(&grid, 2, &mut list, &mut scratch).unwrap();
            let fours = list.as_slice().iter().filter(|u| u.len() == 4).count();
            assert!(fours > 0);
            assert_eq!(unavoidable_rectangles(&grid) as usize, fours, "{grid}");
        }
    }

    /// A slow grid of the benchmark sample (seed 11, line 54: 6 s) and a fast one (line 189:
    /// 0.5 s); the rectangles are those the generator finds (`rectangles_are_the_four_cell_ua`).
    #[test]
    fn a_grid_rich_in_rectangles_gets_fewer_pseudo_puzzles() {
        let slow = Grid::parse(SLOW).unwrap();
        assert_eq!(unavoidable_rectangles(&slow), 4);
        assert_eq!(
            whole_grid_recipe(&slow, 16),
            Recipe::given(WHOLE_GRID_RANDOM)
        );
        let fast = Grid::parse(GRIDS[3]).unwrap();
        assert_eq!(unavoidable_rectangles(&fast), 13);
        let rich = Recipe {
            digit_subsets: false,
            random: RICH_RANDOM,
        };
        assert_eq!(whole_grid_recipe(&fast, 16), rich);
        assert_eq!(whole_grid_recipe(&fast, 12), rich);
        // Longer scans keep the longer list.
        assert_eq!(
            whole_grid_recipe(&fast, 17),
            Recipe::given(WHOLE_GRID_RANDOM)
        );
    }
}
