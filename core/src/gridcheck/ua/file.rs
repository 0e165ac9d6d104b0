//! UA files: one set per line, either
//!
//! * an 81-character mask of `0` and `1` (`1` = cell in the set, cell 0 first), or
//! * `{rc,rc,...}` with 1-based row and column digits (`11` = cell 0, `99` = cell 80; the
//!   reference tool's cache format).
//!
//! Blank lines are skipped; a line end may be `\n` or `\r\n`. Errors give the 1-based line
//! number and what is wrong.
use core::fmt;

use super::list::UaList;
use super::verify::verify_ua;
use crate::gridcheck::cells::{Cells, CELL_COUNT};
use crate::gridcheck::error::{GridcheckError, UaLineProblem};
use crate::gridcheck::grid::{trim_line_end, Grid};

/// Parses one line (without its line end); `Ok(None)` for a blank line.
///
/// ```
/// use xcover_core::gridcheck::ua::file::parse_ua_line;
/// use xcover_core::gridcheck::Cells;
///
/// assert_eq!(parse_ua_line(b"{11,19}"), Ok(Some(Cells::from_cells(&[0, 8]))));
/// assert_eq!(parse_ua_line(b""), Ok(None));
/// assert!(parse_ua_line(b"{11,1x}").is_err());
/// ```
pub fn parse_ua_line(line: &[u8]) -> Result<Option<Cells>, UaLineProblem> {
    let start = line.iter().position(|b| !b.is_ascii_whitespace());
    let Some(start) = start else {
        return Ok(None);
    };
    let end = line
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(start, |e| e + 1);
    let set = if line[start] == b'{' {
        parse_cell_list(&line[start..end], start)?
    } else {
        parse_mask(&line[start..end], start)?
    };
    if set.is_empty() {
        return Err(UaLineProblem::EmptySet);
    }
    Ok(Some(set))
}

/// `{rc,rc,...}`; `offset` = position of the `{` in the line (for error columns).
fn parse_cell_list(text: &[u8], offset: usize) -> Result<Cells, UaLineProblem> {
    let bad = |i: usize| UaLineProblem::CellList {
        column: offset + i + 1,
    };
    let mut set = Cells::EMPTY;
    let mut i = 1; // after `{`
    let skip_spaces = |i: &mut usize| {
        while *i < text.len() && text[*i] == b' ' {
            *i += 1;
        }
    };
    skip_spaces(&mut i);
    if text.get(i) == Some(&b'}') {
        return if i + 1 == text.len() {
            Ok(set)
        } else {
            Err(bad(i + 1))
        };
    }
    loop {
        let digit = |i: usize| match text.get(i) {
            Some(&b) if (b'1'..=b'9').contains(&b) => Ok(b - b'1'),
            _ => Err(bad(i)),
        };
        let (row, col) = (digit(i)?, digit(i + 1)?);
        set.insert(row * 9 + col);
        i += 2;
        skip_spaces(&mut i);
        match text.get(i) {
            Some(b',') => {
                i += 1;
                skip_spaces(&mut i);
            }
            Some(b'}') if i + 1 == text.len() => return Ok(set),
            _ => return Err(bad(i)),
        }
    }
}

/// 81 characters `0`/`1`; `offset` = position of the first one in the line.
fn parse_mask(text: &[u8], offset: usize) -> Result<Cells, UaLineProblem> {
    if text.len() != CELL_COUNT {
        return Err(UaLineProblem::MaskLength(text.len()));
    }
    let mut set = Cells::EMPTY;
    for (cell, &b) in text.iter().enumerate() {
        match b {
            b'1' => set.insert(cell as u8),
            b'0' => {}
            _ => {
                return Err(UaLineProblem::MaskChar {
                    column: offset + cell + 1,
                    byte: b,
                })
            }
        }
    }
    Ok(set)
}

/// Calls `f(line_number, set)` for every non-blank line of `text`.
fn for_each_line(
    text: &[u8],
    mut f: impl FnMut(usize, Cells) -> Result<(), GridcheckError>,
) -> Result<(), GridcheckError> {
    for (index, raw) in text.split(|&b| b == b'\n').enumerate() {
        let line = index + 1;
        match parse_ua_line(trim_line_end(raw)) {
            Ok(Some(set)) => f(line, set)?,
            Ok(None) => {}
            Err(problem) => return Err(GridcheckError::UaLine { line, problem }),
        }
    }
    Ok(())
}

/// Reads every set of a UA file into `list`; returns how many were read. Sets are taken as
/// given (use [`read_verified`] for a file that might not belong to the grid).
///
/// ```
/// use xcover_core::gridcheck::ua::{file, UaList};
/// use xcover_core::gridcheck::Cells;
///
/// let mut storage = [Cells::EMPTY; 4];
/// let mut list = UaList::new(&mut storage);
/// assert_eq!(file::read(b"{11,12}\n{21,22,23}\n", &mut list)?, 2);
/// assert_eq!(list.as_slice()[1].len(), 3);
/// # Ok::<(), xcover_core::gridcheck::GridcheckError>(())
/// ```
pub fn read(text: &[u8], list: &mut UaList<'_>) -> Result<usize, GridcheckError> {
    let mut read = 0;
    for_each_line(text, |_, set| {
        list.push(set)?;
        read += 1;
        Ok(())
    })?;
    Ok(read)
}

/// [`read`], checking with the solver that every set is a UA of `grid`
/// (`Err(NotAUa { line })` otherwise: pruning with a wrong set would lose puzzles).
///
/// ```
/// use xcover_core::gridcheck::ua::{file, UaList};
/// use xcover_core::gridcheck::{Cells, Grid, GridcheckError};
///
/// let grid = Grid::parse(b"123456789456789123789123456214365897365897214897214365531642978642978531978531642")?;
/// let mut storage = [Cells::EMPTY; 4];
/// let mut list = UaList::new(&mut storage);
/// // Row 1 blanked is forced back by the columns: not a UA.
/// let err = file::read_verified(&grid, b"{11,12,13,14,15,16,17,18,19}\n", &mut list);
/// assert_eq!(err, Err(GridcheckError::NotAUa { line: 1 }));
/// # Ok::<(), GridcheckError>(())
/// ```
pub fn read_verified(
    grid: &Grid,
    text: &[u8],
    list: &mut UaList<'_>,
) -> Result<usize, GridcheckError> {
    let mut read = 0;
    for_each_line(text, |line, set| {
        if !verify_ua(grid, set) {
            return Err(GridcheckError::NotAUa { line });
        }
        list.push(set)?;
        read += 1;
        Ok(())
    })?;
    Ok(read)
}

/// Writes one 81-character 0/1 mask per set.
///
/// ```
/// use xcover_core::gridcheck::ua::file;
/// use xcover_core::gridcheck::Cells;
///
/// let mut text = String::new();
/// file::write_masks(&[Cells::from_cells(&[0, 80])], &mut text)?;
/// assert_eq!(text.len(), 82);
/// assert!(text.starts_with('1') && text.ends_with("1\n"));
/// # Ok::<(), xcover_core::gridcheck::GridcheckError>(())
/// ```
pub fn write_masks(uas: &[Cells], out: &mut dyn fmt::Write) -> Result<(), GridcheckError> {
    for ua in uas {
        for cell in 0..CELL_COUNT as u8 {
            out.write_char(if ua.contains(cell) { '1' } else { '0' })?;
        }
        out.write_char('\n')?;
    }
    Ok(())
}

/// Writes one `{rc,rc,...}` line per set (1-based rows and columns, ascending cells).
///
/// ```
/// use xcover_core::gridcheck::ua::file;
/// use xcover_core::gridcheck::Cells;
///
/// let mut text = String::new();
/// file::write_cell_lists(&[Cells::from_cells(&[0, 80])], &mut text)?;
/// assert_eq!(text, "{11,99}\n");
/// # Ok::<(), xcover_core::gridcheck::GridcheckError>(())
/// ```
pub fn write_cell_lists(uas: &[Cells], out: &mut dyn fmt::Write) -> Result<(), GridcheckError> {
    for ua in uas {
        out.write_char('{')?;
        for (i, cell) in ua.iter().enumerate() {
            if i > 0 {
                out.write_char(',')?;
            }
            out.write_char((b'1' + cell / 9) as char)?;
            out.write_char((b'1' + cell % 9) as char)?;
        }
        out.write_str("}\n")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gridcheck::grid::tests::GRID_A;
    use crate::gridcheck::ua::generate::from_digit_subsets;
    use std::string::String;
    use std::vec;

    #[test]
    fn both_forms_parse_to_the_same_set() {
        let mut mask = [b'0'; 81];
        mask[0] = b'1';
        mask[80] = b'1';
        mask[10] = b'1';
        let a = parse_ua_line(&mask).unwrap().unwrap();
        let b = parse_ua_line(b"{11, 22,99}").unwrap().unwrap();
        assert_eq!(a, b);
        assert_eq!(a, Cells::from_cells(&[0, 10, 80]));
        assert_eq!(parse_ua_line(b"   ").unwrap(), None);
    }

    #[test]
    fn bad_lines_are_reported_with_place() {
        assert_eq!(parse_ua_line(b"0101"), Err(UaLineProblem::MaskLength(4)));
        let mut mask = [b'0'; 81];
        mask[5] = b'2';
        assert_eq!(
            parse_ua_line(&mask),
            Err(UaLineProblem::MaskChar {
                column: 6,
                byte: b'2'
            })
        );
        assert_eq!(parse_ua_line(&[b'0'; 81]), Err(UaLineProblem::EmptySet));
        assert_eq!(parse_ua_line(b"{}"), Err(UaLineProblem::EmptySet));
        assert_eq!(
            parse_ua_line(b"{11,0}"),
            Err(UaLineProblem::CellList { column: 5 })
        );
        assert_eq!(
            parse_ua_line(b"{11,22"),
            Err(UaLineProblem::CellList { column: 7 })
        );
        assert_eq!(
            parse_ua_line(b"{11;22}"),
            Err(UaLineProblem::CellList { column: 4 })
        );
        assert_eq!(
            parse_ua_line(b"{11}x"),
            Err(UaLineProblem::CellList { column: 4 })
        );
        let mut storage = [Cells::EMPTY; 4];
        let mut list = UaList::new(&mut storage);
        let text = b"{11,12}\n\n{11,1x}\n";
        assert_eq!(
            read(text, &mut list),
            Err(GridcheckError::UaLine {
                line: 3,
                problem: UaLineProblem::CellList { column: 6 }
            })
        );
    }

    #[test]
    fn generated_list_round_trips_in_both_forms() {
        let g = Grid::parse(GRID_A).unwrap();
        let mut storage = vec![Cells::EMPTY; 20_000];
        let mut scratch = vec![Cells::EMPTY; 20_000];
        let mut list = UaList::new(&mut storage);
        from_digit_subsets(&g, 4, &mut list, &mut scratch).unwrap();
        assert!(list.len() > 10);
        for writer in [write_masks, write_cell_lists] {
            let mut text = String::new();
            writer(list.as_slice(), &mut text).unwrap();
            let crlf = text.replace('\n', "\r\n");
            for t in [&text, &crlf] {
                let mut back_storage = vec![Cells::EMPTY; 20_000];
                let mut back = UaList::new(&mut back_storage);
                assert_eq!(read_verified(&g, t.as_bytes(), &mut back), Ok(list.len()));
                assert_eq!(back.as_slice(), list.as_slice());
            }
        }
        let mut text = String::new();
        write_cell_lists(&[Cells::from_cells(&[0, 80])], &mut text).unwrap();
        assert_eq!(text, "{11,99}\n");
    }

    #[test]
    fn wrong_ua_is_detected() {
        let g = Grid::parse(GRID_A).unwrap();
        let real = g.cells_of_digit(3) | g.cells_of_digit(8);
        let mut text = String::new();
        write_cell_lists(&[real, Cells::from_cells(&[0, 1, 2, 3])], &mut text).unwrap();
        let mut storage = [Cells::EMPTY; 4];
        let mut list = UaList::new(&mut storage);
        assert_eq!(
            read_verified(&g, text.as_bytes(), &mut list),
            Err(GridcheckError::NotAUa { line: 2 })
        );
        // Without verification it is read as is.
        list.clear();
        assert_eq!(read(text.as_bytes(), &mut list), Ok(2));
        let mut small = [Cells::EMPTY; 1];
        let mut full = UaList::new(&mut small);
        assert_eq!(
            read(text.as_bytes(), &mut full),
            Err(GridcheckError::ListFull { capacity: 1 })
        );
    }
}
