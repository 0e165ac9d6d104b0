//! [`Puzzle`]: 81 cells, each a given digit 1..9 or empty (0).
use core::fmt;

use super::cells::{Cells, CELL_COUNT};
use super::error::GridcheckError;
use super::grid::{trim_line_end, Grid};

/// A Sudoku puzzle: `cells[i]` is the given digit 1..9 of cell `i`, or 0 for an empty cell.
///
/// A puzzle need not be valid (it may have repeated givens, no solution or many); the
/// solver reports that.
///
/// ```
/// use xcover_core::gridcheck::{solver, Cells, Grid, Puzzle};
///
/// let grid = Grid::parse(b"123456789456789123789123456214365897365897214897214365531642978642978531978531642")?;
/// let puzzle = Puzzle::from_grid(&grid, Cells::ALL - Cells::single(40));
/// assert_eq!(puzzle.clue_count(), 80);
/// assert_eq!(puzzle.digit(40), 0);
/// puzzle.check_against(&grid)?;
/// assert_eq!(Puzzle::parse(puzzle.to_string().as_bytes())?, puzzle);
/// assert_eq!(solver::count_solutions(&puzzle, 0), 1);
/// # Ok::<(), xcover_core::gridcheck::GridcheckError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Puzzle {
    cells: [u8; CELL_COUNT],
}

impl Default for Puzzle {
    fn default() -> Self {
        Puzzle::EMPTY
    }
}

impl Puzzle {
    /// The puzzle with no givens.
    pub const EMPTY: Puzzle = Puzzle {
        cells: [0; CELL_COUNT],
    };

    /// Parses one line of 81 characters: `1`..`9` for a given, `0` or `.` for an empty cell
    /// (a trailing line end is ignored).
    pub fn parse(line: &[u8]) -> Result<Puzzle, GridcheckError> {
        let line = trim_line_end(line);
        if line.len() != CELL_COUNT {
            return Err(GridcheckError::WrongLength(line.len()));
        }
        let mut cells = [0u8; CELL_COUNT];
        for (pos, (&byte, cell)) in line.iter().zip(cells.iter_mut()).enumerate() {
            *cell = match byte {
                b'1'..=b'9' => byte - b'0',
                b'0' | b'.' => 0,
                _ => return Err(GridcheckError::BadChar { pos, byte }),
            };
        }
        Ok(Puzzle { cells })
    }

    /// Builds a puzzle from 81 values 0..=9 (0 = empty).
    pub fn from_digits(cells: [u8; CELL_COUNT]) -> Result<Puzzle, GridcheckError> {
        // The largest value first (a pass the compiler vectorizes): every puzzle the
        // Sudoku solver is given comes through here.
        if cells.iter().copied().max() <= Some(9) {
            return Ok(Puzzle { cells });
        }
        match cells.iter().position(|&d| d > 9) {
            Some(pos) => Err(GridcheckError::BadChar {
                pos,
                byte: cells[pos].wrapping_add(b'0'),
            }),
            None => Ok(Puzzle { cells }),
        }
    }

    /// The puzzle whose givens are the cells of `givens`, with the grid's digits.
    pub fn from_grid(grid: &Grid, givens: Cells) -> Puzzle {
        let mut cells = [0u8; CELL_COUNT];
        for cell in givens.iter() {
            cells[cell as usize] = grid.digit(cell);
        }
        Puzzle { cells }
    }

    /// The given digit of `cell`, or 0 if it is empty.
    #[inline]
    pub fn digit(&self, cell: u8) -> u8 {
        self.cells[cell as usize]
    }

    /// All 81 cells (0 = empty), row by row.
    #[inline]
    pub fn digits(&self) -> &[u8; CELL_COUNT] {
        &self.cells
    }

    /// Sets `cell` to `digit` (0 empties it; values above 9 are ignored).
    pub fn set(&mut self, cell: u8, digit: u8) {
        if digit <= 9 {
            if let Some(slot) = self.cells.get_mut(cell as usize) {
                *slot = digit;
            }
        }
    }

    /// The cells holding a given.
    pub fn givens(&self) -> Cells {
        // Branch-free (the solver benches call this once per puzzle).
        Cells(
            self.cells
                .iter()
                .enumerate()
                .fold(0u128, |bits, (cell, &d)| bits | u128::from(d != 0) << cell),
        )
    }

    /// Number of givens.
    pub fn clue_count(&self) -> u32 {
        self.cells.iter().filter(|&&d| d != 0).count() as u32
    }

    /// Checks that every given equals the grid's digit; the first contradiction is an error.
    pub fn check_against(&self, grid: &Grid) -> Result<(), GridcheckError> {
        for (cell, &given) in self.cells.iter().enumerate() {
            let cell = cell as u8;
            if given != 0 && given != grid.digit(cell) {
                return Err(GridcheckError::GivenContradictsGrid {
                    cell,
                    given,
                    grid: grid.digit(cell),
                });
            }
        }
        Ok(())
    }
}

impl fmt::Display for Puzzle {
    /// 81 characters, the digit or `0` for an empty cell (the reference tool's format).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &d in &self.cells {
            fmt::Write::write_char(f, (b'0' + d) as char)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gridcheck::grid::tests::GRID_A;
    use std::string::ToString;

    const P17: &[u8] =
        b"000000010400000000020000000000050407008000300001090000300400200050100000000806000";

    #[test]
    fn parse_display_and_counts() {
        let p = Puzzle::parse(P17).unwrap();
        assert_eq!(p.clue_count(), 17);
        assert_eq!(p.givens().len(), 17);
        assert_eq!(p.to_string().as_bytes(), P17);
        let dotted: std::string::String = P17
            .iter()
            .map(|&b| if b == b'0' { '.' } else { b as char })
            .collect();
        assert_eq!(Puzzle::parse(dotted.as_bytes()).unwrap(), p);
        assert_eq!(p.digit(7), 1);
        assert_eq!(Puzzle::default().clue_count(), 0);
    }

    #[test]
    fn parse_errors() {
        assert_eq!(Puzzle::parse(b""), Err(GridcheckError::WrongLength(0)));
        assert_eq!(
            Puzzle::parse(&P17[1..]),
            Err(GridcheckError::WrongLength(80))
        );
        let mut bad = [b'0'; 81];
        bad[80] = b'x';
        assert_eq!(
            Puzzle::parse(&bad),
            Err(GridcheckError::BadChar {
                pos: 80,
                byte: b'x'
            })
        );
        let mut d = [0u8; 81];
        d[3] = 10;
        assert!(Puzzle::from_digits(d).is_err());
    }

    #[test]
    fn from_grid_and_check_against() {
        let g = Grid::parse(GRID_A).unwrap();
        let p = Puzzle::parse(P17).unwrap();
        assert_eq!(p.check_against(&g), Ok(()));
        assert_eq!(Puzzle::from_grid(&g, p.givens()), p);
        let mut wrong = p;
        wrong.set(0, if g.digit(0) == 1 { 2 } else { 1 });
        assert_eq!(
            wrong.check_against(&g),
            Err(GridcheckError::GivenContradictsGrid {
                cell: 0,
                given: wrong.digit(0),
                grid: 6
            })
        );
        assert_eq!(Puzzle::from_grid(&g, Cells::ALL).to_string(), g.to_string());
    }
}
