//! How many random pseudo-puzzles a whole grid's UA generation gets, chosen per grid.
//!
//! The random pseudo-puzzles ([`generate::for_mask`]) add the UA of 10 to 16 cells that
//! the 4-digit subsets miss; they cost about 0.25 ms each and pay where the scan is long.
//! How long a grid's scan is shows in its unavoidable rectangles (4-cell UA): a grid with
//! few has a weak clique and a wide tree (seconds), a grid with many a narrow one (a
//! tenth of a second), where a thousand pseudo-puzzles cost more than the placements they
//! save. So a scan for at most [`RICH_MAX_CLUES`] clues of a grid with at least
//! [`RICH_RECTANGLES`] rectangles gets [`RICH_RANDOM`] pseudo-puzzles and every other
//! whole-grid scan [`WHOLE_GRID_RANDOM`] (docs/PERFORMANCE.md, fifteenth pass). With more
//! clues the scan is ten to a hundred times longer, and the longer list pays there too. Any list of real UA finds the same puzzles: only the placements and the time
//! depend on the count.
//!
//! [`generate::for_mask`]: super::generate::for_mask
use crate::gridcheck::grid::Grid;

/// Random pseudo-puzzles for a whole grid with fewer than [`RICH_RECTANGLES`] unavoidable
/// rectangles (the count every grid got before the count was chosen per grid).
pub const WHOLE_GRID_RANDOM: u32 = 1000;
/// Random pseudo-puzzles for a whole grid with at least [`RICH_RECTANGLES`] unavoidable
/// rectangles.
pub const RICH_RANDOM: u32 = 250;
/// Unavoidable rectangles from which a grid counts as rich (fast to scan).
pub const RICH_RECTANGLES: u32 = 9;
/// Most clues of a scan that gets [`RICH_RANDOM`] on a rich grid (measured on 16-clue
/// scans; 17-clue scans of rich grids made up to a third more placements with 250).
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

/// Random pseudo-puzzles for the UA generation of a whole-grid scan of `grid` (no forced
/// givens) for `clues` clues: [`RICH_RANDOM`] when `clues` is at most [`RICH_MAX_CLUES`]
/// and the grid has at least [`RICH_RECTANGLES`] unavoidable rectangles, else
/// [`WHOLE_GRID_RANDOM`].
///
/// ```
/// use xcover_core::gridcheck::ua::budget;
/// use xcover_core::gridcheck::Grid;
///
/// let grid = Grid::parse(b"128465973534789261697231854271354698359876412486912735813647529965128347742593186")?;
/// assert_eq!(budget::whole_grid_random(&grid, 16), budget::RICH_RANDOM);
/// assert_eq!(budget::whole_grid_random(&grid, 17), budget::WHOLE_GRID_RANDOM);
/// # Ok::<(), xcover_core::gridcheck::GridcheckError>(())
/// ```
pub fn whole_grid_random(grid: &Grid, clues: u8) -> u32 {
    if clues <= RICH_MAX_CLUES && unavoidable_rectangles(grid) >= RICH_RECTANGLES {
        RICH_RANDOM
    } else {
        WHOLE_GRID_RANDOM
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
        assert_eq!(whole_grid_random(&slow, 16), WHOLE_GRID_RANDOM);
        let fast = Grid::parse(GRIDS[3]).unwrap();
        assert_eq!(unavoidable_rectangles(&fast), 13);
        assert_eq!(whole_grid_random(&fast, 16), RICH_RANDOM);
        assert_eq!(whole_grid_random(&fast, 12), RICH_RANDOM);
        // Longer scans keep the longer list.
        assert_eq!(whole_grid_random(&fast, 17), WHOLE_GRID_RANDOM);
    }
}
