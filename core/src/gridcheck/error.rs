//! [`GridcheckError`]: the one error type of the grid checker.
use core::fmt;

/// A house (row, column or box) of the grid, numbered from 0; shown 1-based.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum House {
    /// Row 0..9 (top to bottom).
    Row(u8),
    /// Column 0..9 (left to right).
    Column(u8),
    /// Box 0..9 (row-major: box 0 top left, box 8 bottom right).
    Box(u8),
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            House::Row(r) => write!(f, "row {}", r + 1),
            House::Column(c) => write!(f, "column {}", c + 1),
            House::Box(b) => write!(f, "box {}", b + 1),
        }
    }
}

/// What is wrong with a line of a UA file.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum UaLineProblem {
    /// A `0`/`1` mask line that is not 81 characters long.
    MaskLength(usize),
    /// A character other than `0`/`1` in a mask line (1-based column of the line).
    MaskChar {
        /// 1-based position in the line.
        column: usize,
        /// The offending byte.
        byte: u8,
    },
    /// A `{rc,...}` line that is malformed (missing brace, bad separator, row or column not
    /// 1..9, ...); `column` is the 1-based position of the first bad byte.
    CellList {
        /// 1-based position in the line.
        column: usize,
    },
    /// A line describing an empty set.
    EmptySet,
}

impl fmt::Display for UaLineProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UaLineProblem::MaskLength(n) => {
                write!(f, "a 0/1 mask must have 81 characters, found {n}")
            }
            UaLineProblem::MaskChar { column, byte } => write!(
                f,
                "character {column}: expected `0` or `1` in a mask, found {}",
                ByteName(byte)
            ),
            UaLineProblem::CellList { column } => write!(
                f,
                "character {column}: expected `{{rc,rc,...}}` with row and column digits 1..9"
            ),
            UaLineProblem::EmptySet => write!(f, "empty set (a UA has at least one cell)"),
        }
    }
}

impl core::error::Error for UaLineProblem {}

/// Errors of the grid checker (parsing, validation, capacities, UA files).
///
/// ```
/// use xcover_core::gridcheck::{Grid, GridcheckError};
///
/// let err = Grid::parse(b"12345").unwrap_err();
/// assert_eq!(err, GridcheckError::WrongLength(5));
/// assert_eq!(err.to_string(), "expected 81 characters, found 5");
/// let _: &dyn core::error::Error = &err;
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum GridcheckError {
    /// A grid or puzzle line that does not have exactly 81 characters (after trimming the
    /// line end).
    WrongLength(usize),
    /// A character that is not allowed at a position (0-based `pos`).
    BadChar {
        /// 0-based position in the line.
        pos: usize,
        /// The offending byte.
        byte: u8,
    },
    /// A grid that is not a valid solution: `digit` appears twice in `house`.
    InvalidSolution {
        /// The house holding the duplicate.
        house: House,
        /// The repeated digit.
        digit: u8,
    },
    /// A puzzle given that differs from the grid's digit at `cell`.
    GivenContradictsGrid {
        /// The cell (row*9+col).
        cell: u8,
        /// The puzzle's digit.
        given: u8,
        /// The grid's digit.
        grid: u8,
    },
    /// A caller-provided list is full.
    ListFull {
        /// Its capacity.
        capacity: usize,
    },
    /// A bad line in a UA file (`line` is 1-based).
    UaLine {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        problem: UaLineProblem,
    },
    /// A UA read from a file is not an unavoidable set of the grid (1-based line).
    NotAUa {
        /// 1-based line number (0 if the set did not come from a file).
        line: usize,
    },
    /// The output sink reported an error.
    Write,
}

impl From<fmt::Error> for GridcheckError {
    fn from(_: fmt::Error) -> Self {
        GridcheckError::Write
    }
}

/// Shows a byte as a quoted printable character or as a hex escape.
struct ByteName(u8);

impl fmt::Display for ByteName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_ascii_graphic() || self.0 == b' ' {
            write!(f, "`{}`", self.0 as char)
        } else {
            write!(f, "byte 0x{:02x}", self.0)
        }
    }
}

impl fmt::Display for GridcheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GridcheckError::WrongLength(n) => {
                write!(f, "expected 81 characters, found {n}")
            }
            GridcheckError::BadChar { pos, byte } => write!(
                f,
                "character {} (row {}, column {}): unexpected {}",
                pos + 1,
                pos / 9 + 1,
                pos % 9 + 1,
                ByteName(byte)
            ),
            GridcheckError::InvalidSolution { house, digit } => {
                write!(
                    f,
                    "not a valid solution: digit {digit} appears twice in {house}"
                )
            }
            GridcheckError::GivenContradictsGrid { cell, given, grid } => write!(
                f,
                "given {given} at row {}, column {} contradicts the grid's {grid}",
                cell / 9 + 1,
                cell % 9 + 1
            ),
            GridcheckError::ListFull { capacity } => {
                write!(f, "list full (capacity {capacity})")
            }
            GridcheckError::UaLine { line, problem } => write!(f, "line {line}: {problem}"),
            GridcheckError::NotAUa { line } => {
                write!(f, "line {line}: not an unavoidable set of the grid")
            }
            GridcheckError::Write => write!(f, "output error"),
        }
    }
}

/// The message includes the [`UaLineProblem`] of a bad line, so `source` is `None`.
impl core::error::Error for GridcheckError {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn messages_name_the_place() {
        let e = GridcheckError::BadChar {
            pos: 10,
            byte: b'x',
        };
        assert_eq!(
            e.to_string(),
            "character 11 (row 2, column 2): unexpected `x`"
        );
        let e = GridcheckError::InvalidSolution {
            house: House::Box(8),
            digit: 3,
        };
        assert_eq!(
            e.to_string(),
            "not a valid solution: digit 3 appears twice in box 9"
        );
        let e = GridcheckError::UaLine {
            line: 7,
            problem: UaLineProblem::MaskLength(80),
        };
        assert_eq!(
            e.to_string(),
            "line 7: a 0/1 mask must have 81 characters, found 80"
        );
        let e = GridcheckError::BadChar { pos: 0, byte: 0 };
        assert!(e.to_string().contains("0x00"));
    }
}
