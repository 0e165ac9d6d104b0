//! Sudoku: puzzles, solution grids, a solver and a counter (the bitboard solver of
//! `xcover sudoku`).
//!
//! ```
//! use xcover_solver::sudoku::{self, Puzzle};
//!
//! let puzzle = Puzzle::parse(
//!     "000000010400000000020000000000050407008000300001090000300400200050100000000806000",
//! )?;
//! let grid = sudoku::solve(&puzzle).expect("a solution");
//! assert!(grid.to_string().starts_with("693784512"));
//! assert_eq!(sudoku::count(&puzzle, 2), 1); // the only one
//! # Ok::<(), xcover_solver::Error>(())
//! ```
use std::fmt;

use xcover_core::gridcheck::{solver, Grid as CoreGrid, Puzzle as CorePuzzle};

use crate::error::{Error, ErrorKind};

fn sudoku_error(e: impl fmt::Display) -> Error {
    Error::new(ErrorKind::Sudoku, e.to_string())
}

/// A Sudoku puzzle: 81 cells, row by row, each a digit 1-9 (a given) or empty.
///
/// ```
/// use xcover_solver::sudoku::Puzzle;
///
/// let p = Puzzle::parse(&format!("12{}", ".".repeat(79)))?;
/// assert_eq!((p.digit(0), p.digit(2), p.clue_count()), (1, 0, 2));
/// assert!(p.to_string().starts_with("120"));
/// assert!(Puzzle::parse("12").is_err());
/// # Ok::<(), xcover_solver::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Puzzle {
    cells: [u8; 81],
}

impl Puzzle {
    /// Reads 81 characters: `1`-`9` a given, `0` or `.` an empty cell (surrounding white
    /// space ignored).
    ///
    /// ```
    /// use xcover_solver::sudoku::Puzzle;
    ///
    /// assert!(Puzzle::parse(&"0".repeat(81)).is_ok());
    /// assert_eq!(
    ///     Puzzle::parse(&"x".repeat(81)).unwrap_err().to_string(),
    ///     "character 1 (row 1, column 1): unexpected `x`"
    /// );
    /// ```
    pub fn parse(text: &str) -> Result<Puzzle, Error> {
        let p = CorePuzzle::parse(text.trim().as_bytes()).map_err(sudoku_error)?;
        Ok(Puzzle { cells: *p.digits() })
    }

    /// [`parse`](Puzzle::parse) for bytes (a line as read from a file, which need not be
    /// UTF-8; surrounding ASCII white space ignored).
    ///
    /// ```
    /// use xcover_solver::sudoku::Puzzle;
    ///
    /// assert_eq!(Puzzle::parse_bytes(&[b'0'; 81])?.clue_count(), 0);
    /// assert!(Puzzle::parse_bytes(b"\xff").is_err());
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn parse_bytes(text: &[u8]) -> Result<Puzzle, Error> {
        let p = CorePuzzle::parse(text.trim_ascii()).map_err(sudoku_error)?;
        Ok(Puzzle { cells: *p.digits() })
    }

    /// A puzzle from 81 values, 0 for an empty cell and 1-9 for a given.
    ///
    /// ```
    /// let p = xcover_solver::sudoku::Puzzle::from_digits([0; 81])?;
    /// assert_eq!(p.clue_count(), 0);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn from_digits(cells: [u8; 81]) -> Result<Puzzle, Error> {
        let p = CorePuzzle::from_digits(cells).map_err(sudoku_error)?;
        Ok(Puzzle { cells: *p.digits() })
    }

    /// The digit of cell `cell` (row * 9 + column), 0 when empty.
    ///
    /// ```
    /// let p = xcover_solver::sudoku::Puzzle::parse(&format!("{}9", ".".repeat(80)))?;
    /// assert_eq!((p.digit(0), p.digit(80)), (0, 9));
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    ///
    /// # Panics
    ///
    /// If `cell` is 81 or more.
    pub fn digit(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// The 81 cells, 0 for an empty one.
    ///
    /// ```
    /// let p = xcover_solver::sudoku::Puzzle::from_digits([0; 81])?;
    /// assert_eq!(p.digits(), &[0; 81]);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn digits(&self) -> &[u8; 81] {
        &self.cells
    }

    /// The number of givens.
    ///
    /// ```
    /// let p = xcover_solver::sudoku::Puzzle::parse(&format!("12{}", "0".repeat(79)))?;
    /// assert_eq!(p.clue_count(), 2);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn clue_count(&self) -> usize {
        self.cells.iter().filter(|&&d| d != 0).count()
    }

    fn core(&self) -> CorePuzzle {
        // The digits were checked when the puzzle was made.
        CorePuzzle::from_digits(self.cells).unwrap_or(CorePuzzle::EMPTY)
    }
}

impl fmt::Display for Puzzle {
    /// 81 characters, `0` for an empty cell (the format `xcover gridcheck` prints).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.core().fmt(f)
    }
}

/// A complete, valid Sudoku solution grid.
///
/// ```
/// use xcover_solver::sudoku::Grid;
///
/// let text = "123456789456789123789123456214365897365897214897214365531642978642978531978531642";
/// let grid = Grid::parse(text)?;
/// assert_eq!(grid.to_string(), text);
/// assert_eq!(grid.digit(80), 2);
/// assert!(Grid::parse(&text.replace("123456789456", "113456789456")).is_err());
/// # Ok::<(), xcover_solver::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    pub(crate) grid: CoreGrid,
}

impl Grid {
    /// Reads 81 digits 1-9 forming a valid solution (surrounding white space ignored).
    ///
    /// ```
    /// assert!(xcover_solver::sudoku::Grid::parse(&"1".repeat(81)).is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Grid, Error> {
        let grid = CoreGrid::parse(text.trim().as_bytes()).map_err(sudoku_error)?;
        Ok(Grid { grid })
    }

    /// The digit (1-9) of cell `cell` (row * 9 + column).
    ///
    /// ```
    /// let grid = xcover_solver::sudoku::Grid::parse(
    ///     "123456789456789123789123456214365897365897214897214365531642978642978531978531642",
    /// )?;
    /// assert_eq!((grid.digit(0), grid.digit(9)), (1, 4));
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    ///
    /// # Panics
    ///
    /// If `cell` is 81 or more.
    pub fn digit(&self, cell: usize) -> u8 {
        self.grid.digits()[cell]
    }

    /// The 81 digits.
    ///
    /// ```
    /// let grid = xcover_solver::sudoku::Grid::parse(
    ///     "123456789456789123789123456214365897365897214897214365531642978642978531978531642",
    /// )?;
    /// assert_eq!(grid.digits().iter().filter(|&&d| d == 5).count(), 9);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn digits(&self) -> &[u8; 81] {
        self.grid.digits()
    }
}

impl fmt::Display for Grid {
    /// 81 digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.grid.fmt(f)
    }
}

/// A solution of `puzzle` (the first the solver finds), or `None` when it has none.
/// Whether it is the only one: [`count`] with limit 2.
///
/// ```
/// use xcover_solver::sudoku::{self, Puzzle};
///
/// let empty = Puzzle::from_digits([0; 81])?;
/// assert!(sudoku::solve(&empty).is_some());
/// let mut clash = [0; 81];
/// (clash[0], clash[1]) = (5, 5);
/// assert!(sudoku::solve(&Puzzle::from_digits(clash)?).is_none());
/// # Ok::<(), xcover_solver::Error>(())
/// ```
pub fn solve(puzzle: &Puzzle) -> Option<Grid> {
    let digits = solver::solve(&puzzle.core())?;
    CoreGrid::from_digits(digits).ok().map(|grid| Grid { grid })
}

/// The number of solutions of `puzzle`, counting stops at `limit` (0: no limit, which may
/// take very long on puzzles with few givens).
///
/// ```
/// use xcover_solver::sudoku::{self, Puzzle};
///
/// assert_eq!(sudoku::count(&Puzzle::from_digits([0; 81])?, 100), 100);
/// # Ok::<(), xcover_solver::Error>(())
/// ```
pub fn count(puzzle: &Puzzle, limit: u32) -> u32 {
    solver::count_solutions(&puzzle.core(), limit)
}

/// A solution of `puzzle` and the number of its solutions, counting stopped at `limit`
/// (0: no limit), in one search: with limit 2, whether the solution is the only one.
///
/// ```
/// use xcover_solver::sudoku::{self, Puzzle};
///
/// let (grid, count) = sudoku::solve_counting(&Puzzle::from_digits([0; 81])?, 2);
/// assert!(grid.is_some() && count == 2); // a solution, not the only one
/// # Ok::<(), xcover_solver::Error>(())
/// ```
pub fn solve_counting(puzzle: &Puzzle, limit: u32) -> (Option<Grid>, u32) {
    let (digits, count) = solver::solve_and_count(&puzzle.core(), limit);
    let grid = digits.and_then(|d| CoreGrid::from_digits(d).ok().map(|grid| Grid { grid }));
    (grid, count)
}
