//! [`Grid`]: a complete, valid Sudoku solution grid.
use core::fmt;

use super::cells::{box_of, col_of, row_of, Cells, CELL_COUNT};
use super::error::{GridcheckError, House};

/// A complete Sudoku solution: 81 digits 1..9, every row, column and box a permutation.
///
/// The only ways to build one ([`Grid::parse`], [`Grid::from_digits`]) check validity, so
/// code holding a `Grid` may rely on it.
///
/// ```
/// use xcover_core::gridcheck::{Grid, GridcheckError};
///
/// let grid = Grid::parse(b"123456789456789123789123456214365897365897214897214365531642978642978531978531642")?;
/// assert_eq!(grid.digit(9), 4); // row 2, column 1
/// assert_eq!(grid.cells_of_digit(1).len(), 9);
/// // Two 1s in the first row: not a solution.
/// let mut digits = *grid.digits();
/// digits[1] = 1;
/// assert!(matches!(Grid::from_digits(digits), Err(GridcheckError::InvalidSolution { .. })));
/// # Ok::<(), GridcheckError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Grid {
    digits: [u8; CELL_COUNT],
}

/// Strips a trailing `\n`, `\r\n` or `\r` (the only trimming the line formats allow).
pub(crate) fn trim_line_end(line: &[u8]) -> &[u8] {
    let mut end = line.len();
    while end > 0 && (line[end - 1] == b'\n' || line[end - 1] == b'\r') {
        end -= 1;
    }
    &line[..end]
}

impl Grid {
    /// Parses one line of 81 digits `1`..`9` (a trailing line end is ignored) and checks
    /// that it is a valid solution.
    pub fn parse(line: &[u8]) -> Result<Grid, GridcheckError> {
        let line = trim_line_end(line);
        if line.len() != CELL_COUNT {
            return Err(GridcheckError::WrongLength(line.len()));
        }
        let mut digits = [0u8; CELL_COUNT];
        for (pos, (&byte, digit)) in line.iter().zip(digits.iter_mut()).enumerate() {
            if !(b'1'..=b'9').contains(&byte) {
                return Err(GridcheckError::BadChar { pos, byte });
            }
            *digit = byte - b'0';
        }
        Grid::from_digits(digits)
    }

    /// Builds a grid from 81 digits 1..9, checking that it is a valid solution.
    pub fn from_digits(digits: [u8; CELL_COUNT]) -> Result<Grid, GridcheckError> {
        if is_solution(&digits) {
            return Ok(Grid { digits });
        }
        // Not a solution: its first fault in cell order (the same loop accepts only what
        // `is_solution` accepts). seen[h] = digits already met in house h: rows 0..9, columns 9..18, boxes 18..27.
        let mut seen = [0u16; 27];
        for (cell, &digit) in digits.iter().enumerate() {
            if !(1..=9).contains(&digit) {
                return Err(GridcheckError::BadChar {
                    pos: cell,
                    byte: digit.wrapping_add(b'0'),
                });
            }
            let cell = cell as u8;
            let bit = 1u16 << digit;
            let houses = [
                (row_of(cell) as usize, House::Row(row_of(cell))),
                (9 + col_of(cell) as usize, House::Column(col_of(cell))),
                (18 + box_of(cell) as usize, House::Box(box_of(cell))),
            ];
            for (index, house) in houses {
                if seen[index] & bit != 0 {
                    return Err(GridcheckError::InvalidSolution { house, digit });
                }
                seen[index] |= bit;
            }
        }
        Ok(Grid { digits })
    }

    /// The digit (1..9) at `cell` (0..81).
    #[inline]
    pub fn digit(&self, cell: u8) -> u8 {
        self.digits[cell as usize]
    }

    /// All 81 digits, row by row.
    #[inline]
    pub fn digits(&self) -> &[u8; CELL_COUNT] {
        &self.digits
    }

    /// The nine cells holding `digit` (empty for a digit outside 1..9).
    pub fn cells_of_digit(&self, digit: u8) -> Cells {
        let mut set = Cells::EMPTY;
        for (cell, &d) in self.digits.iter().enumerate() {
            if d == digit {
                set.insert(cell as u8);
            }
        }
        set
    }
}

/// Whether `digits` is a solution: every row, column and box has all nine bits of the
/// digits 1..9 set (nine cells, so nine distinct digits). One pass of bit masks, without
/// the work that names the failing house: the Sudoku solver's answer is checked on every
/// puzzle solved.
fn is_solution(digits: &[u8; CELL_COUNT]) -> bool {
    const ALL: u16 = 0b11_1111_1110;
    let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
    for (r, row) in digits.chunks_exact(9).enumerate() {
        for (c, &digit) in row.iter().enumerate() {
            // A value outside 1..9 sets a bit outside ALL, or none.
            let bit = 1u16.checked_shl(u32::from(digit)).unwrap_or(0);
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[r / 3 * 3 + c / 3] |= bit;
        }
    }
    rows.iter().chain(&cols).chain(&boxes).all(|&m| m == ALL)
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &d in &self.digits {
            f.write_char_digit(d)?;
        }
        Ok(())
    }
}

/// Writing one digit without going through the integer formatter.
trait WriteDigit {
    fn write_char_digit(&mut self, d: u8) -> fmt::Result;
}

impl WriteDigit for fmt::Formatter<'_> {
    fn write_char_digit(&mut self, d: u8) -> fmt::Result {
        fmt::Write::write_char(self, (b'0' + d) as char)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::string::ToString;

    /// Solution of the first puzzle of the 17-clue list (used across the module's tests).
    pub(crate) const GRID_A: &[u8; 81] =
        b"693784512487512936125963874932651487568247391741398625319475268856129743274836159";

    /// The one-pass mask check accepts exactly what the cell-by-cell loop accepts: the
    /// grid, and none of its one-cell changes (any byte) or two-cell swaps in a row, column
    /// or box (whose houses all still hold nine distinct digits but one).
    #[test]
    fn the_mask_check_accepts_solutions_only() {
        let mut digits = [0u8; CELL_COUNT];
        for (d, &b) in digits.iter_mut().zip(GRID_A) {
            *d = b - b'0';
        }
        assert!(is_solution(&digits));
        for cell in 0..CELL_COUNT {
            for value in 0..=u8::MAX {
                if value == digits[cell] {
                    continue;
                }
                let mut changed = digits;
                changed[cell] = value;
                assert!(!is_solution(&changed), "cell {cell} = {value}");
                assert!(Grid::from_digits(changed).is_err());
            }
            for other in [cell / 9 * 9, cell % 9, cell / 27 * 27 + cell % 9 / 3 * 3] {
                let mut swapped = digits;
                swapped.swap(cell, other);
                assert_eq!(is_solution(&swapped), swapped == digits);
                assert_eq!(Grid::from_digits(swapped).is_ok(), swapped == digits);
            }
        }
    }

    #[test]
    fn parse_valid_grid_and_round_trip() {
        let g = Grid::parse(GRID_A).unwrap();
        assert_eq!(g.to_string().as_bytes(), &GRID_A[..]);
        assert_eq!(g.digit(0), 6);
        assert_eq!(g.digit(80), 9);
        let mut with_crlf = std::vec::Vec::from(&GRID_A[..]);
        with_crlf.extend_from_slice(b"\r\n");
        assert_eq!(Grid::parse(&with_crlf).unwrap(), g);
        for d in 1..=9 {
            let cells = g.cells_of_digit(d);
            assert_eq!(cells.len(), 9);
            assert!(cells.iter().all(|c| g.digit(c) == d));
        }
        assert!(g.cells_of_digit(0).is_empty());
    }

    #[test]
    fn parse_errors_are_specific() {
        assert_eq!(
            Grid::parse(&GRID_A[..80]),
            Err(GridcheckError::WrongLength(80))
        );
        let mut bad = *GRID_A;
        bad[5] = b'0';
        assert_eq!(
            Grid::parse(&bad),
            Err(GridcheckError::BadChar { pos: 5, byte: b'0' })
        );
        bad[5] = b'.';
        assert_eq!(
            Grid::parse(&bad),
            Err(GridcheckError::BadChar { pos: 5, byte: b'.' })
        );
        // Swap two cells of row 1 that are in different boxes and columns: rows stay valid,
        // columns break.
        let mut swapped = *GRID_A;
        swapped.swap(0, 8);
        assert!(matches!(
            Grid::parse(&swapped),
            Err(GridcheckError::InvalidSolution {
                house: House::Column(_),
                ..
            })
        ));
        let mut dup = *GRID_A;
        dup[1] = dup[0];
        assert_eq!(
            Grid::parse(&dup),
            Err(GridcheckError::InvalidSolution {
                house: House::Row(0),
                digit: 6
            })
        );
    }
}
