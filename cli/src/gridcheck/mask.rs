//! `--mask`: the cells every reported puzzle must give, and those it must leave empty.
//!
//! One character per cell, row by row: `1` forced given, `0` forced empty, `.` free. A
//! mask has all 81 cells, or ends with `*`, which leaves the cells after it free (`1111*`:
//! the first four cells given, the rest free). Anything else is refused, so that a typo
//! or a cut-off mask does not silently turn into a scan of the whole grid.
use std::fmt;

use xcover_core::gridcheck::scan::{ClueMask, ScanError};
use xcover_core::gridcheck::CELL_COUNT;

/// The syntax, for `--help` and error messages.
pub const SYNTAX: &str = "81 characters, one per cell row by row: `1` forced given, \
    `0` forced empty, `.` free; end a shorter mask with `*` to leave the remaining cells free";

/// What is wrong with a `--mask`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MaskError {
    /// A character that is not `1`, `0` or `.`.
    Character {
        /// Its position, from 1.
        position: usize,
        /// The character.
        found: char,
    },
    /// More than 81 cells, or fewer without a closing `*`.
    Length {
        /// The cells given.
        len: usize,
    },
    /// Core refused the mask written out.
    Refused(ScanError),
}

impl fmt::Display for MaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MaskError::Character { position, found } => {
                write!(f, "character {position} is `{found}`; a mask is {SYNTAX}")
            }
            MaskError::Length { len } => write!(f, "{len} characters; a mask is {SYNTAX}"),
            MaskError::Refused(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for MaskError {}

/// A bad `--mask` (status 1, as the run's other input errors).
impl From<MaskError> for crate::error::CliError {
    fn from(e: MaskError) -> crate::error::CliError {
        crate::error::CliError::failure(e.to_string())
    }
}

/// Parses `--mask TEXT` (surrounding whitespace ignored); the error says what is wrong.
pub fn parse(text: &str) -> Result<ClueMask, MaskError> {
    let text = text.trim();
    let (cells, rest_free) = match text.strip_suffix('*') {
        Some(cells) => (cells, true),
        None => (text, false),
    };
    if let Some((index, bad)) = cells
        .chars()
        .enumerate()
        .find(|&(_, c)| !matches!(c, '0' | '1' | '.'))
    {
        return Err(MaskError::Character {
            position: index + 1,
            found: bad,
        });
    }
    let len = cells.len();
    if len > CELL_COUNT || (len < CELL_COUNT && !rest_free) {
        return Err(MaskError::Length { len });
    }
    // Every cell now written out: the core's parser reads the same mask.
    let full = format!("{cells:.<CELL_COUNT$}");
    ClueMask::parse(full.as_bytes()).map_err(MaskError::Refused)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_masks_and_star_masks_parse() {
        let full = format!("1.0{}", ".".repeat(78));
        let mask = parse(&full).unwrap();
        assert_eq!(mask.givens.0, 1);
        assert_eq!(mask.empties.0, 1 << 2);
        assert_eq!(parse(&format!("  {full}\n")).unwrap(), mask);
        assert_eq!(parse("1.0*").unwrap(), mask);
        assert_eq!(parse(&format!("{full}*")).unwrap(), mask);
        assert_eq!(parse("*").unwrap(), ClueMask::FREE);
    }

    #[test]
    fn typos_and_short_masks_are_refused() {
        let err = parse("abc").unwrap_err().to_string();
        assert!(err.starts_with("character 1 is `a`"), "{err}");
        let err = parse("1111").unwrap_err().to_string();
        assert!(
            err.starts_with("4 characters; a mask is 81 characters"),
            "{err}"
        );
        let err = parse(&"1".repeat(82)).unwrap_err().to_string();
        assert!(err.starts_with("82 characters"), "{err}");
        let err = parse(&format!("{}*", "0".repeat(82)))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("82 characters"), "{err}");
        let err = parse("1*1").unwrap_err().to_string();
        assert!(err.starts_with("character 2 is `*`"), "{err}");
        let err = parse(&format!("{}x", ".".repeat(80)))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("character 81 is `x`"), "{err}");
        assert!(parse("").is_err());
    }
}
