//! Clue masks and step A of the preparation: forced cells.
//!
//! A mask has up to 81 characters: `1` = the cell must be a given, `0` = the cell must be
//! empty, any other character (usually `.`) = free. A shorter mask leaves the tail free.
use super::error::ScanError;
use super::size_order::sort_size_order;
use crate::gridcheck::cells::{Cells, CELL_COUNT};

/// All 81 cell bits.
pub(crate) const ALL_BITS: u128 = Cells::ALL.0;

/// Forced givens and forced empty cells of a scan.
///
/// ```
/// use xcover_core::gridcheck::scan::ClueMask;
/// use xcover_core::gridcheck::Cells;
///
/// let mask = ClueMask::parse(b"10.1\n")?;
/// assert_eq!(mask.givens, Cells::from_cells(&[0, 3]));
/// assert_eq!(mask.empties, Cells::single(1));
/// assert_eq!(mask.free_cells().len(), 78);
/// # Ok::<(), xcover_core::gridcheck::scan::ScanError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct ClueMask {
    /// Cells that must be givens.
    pub givens: Cells,
    /// Cells that must stay empty.
    pub empties: Cells,
}

impl ClueMask {
    /// No cell forced either way (whole-grid scan).
    pub const FREE: ClueMask = ClueMask {
        givens: Cells(0),
        empties: Cells(0),
    };

    /// Parses a mask line; trailing line ends and spaces are trimmed first.
    pub fn parse(text: &[u8]) -> Result<ClueMask, ScanError> {
        let mut end = text.len();
        while end > 0 && matches!(text[end - 1], b'\n' | b'\r' | b' ' | b'\t') {
            end -= 1;
        }
        let text = &text[..end];
        if text.len() > CELL_COUNT {
            return Err(ScanError::MaskTooLong { len: text.len() });
        }
        let mut givens = 0u128;
        let mut empties = 0u128;
        for (cell, &ch) in text.iter().enumerate() {
            match ch {
                b'1' => givens |= 1u128 << cell,
                b'0' => empties |= 1u128 << cell,
                _ => {}
            }
        }
        Ok(ClueMask {
            givens: Cells(givens),
            empties: Cells(empties),
        })
    }

    /// True when nothing is forced.
    pub fn is_free(&self) -> bool {
        self.givens.0 == 0 && self.empties.0 == 0
    }

    /// Cells that are neither forced given nor forced empty.
    pub fn free_cells(&self) -> Cells {
        Cells(ALL_BITS & !self.givens.0 & !self.empties.0)
    }
}

/// Result of step A.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Forced {
    /// Forced givens: the mask's plus those step A found.
    pub(crate) givens: u128,
    /// Givens step A added (a UA shrunk to one cell).
    pub(crate) extra_givens: u128,
    /// Forced empty cells (the mask's).
    pub(crate) empties: u128,
    /// Number of shrunk sets written to the output (sorted by size, then bits; no duplicates).
    pub(crate) len: usize,
    /// A UA lies entirely in forced empty cells: no puzzle can respect the mask.
    pub(crate) impossible: bool,
}

/// Step A: drops the sets hit by a forced given, shrinks the others to their free cells,
/// turns one-cell remainders into extra forced givens. Writes the remaining sets to
/// `out[..len]`, sorted by (size, bits) and de-duplicated. Every output set must still be
/// hit by any puzzle that respects the mask, so it is as good as a real UA for pruning.
pub(crate) fn apply_forced(
    uas: &[Cells],
    mask: &ClueMask,
    out: &mut [u128],
) -> Result<Forced, ScanError> {
    if out.len() < uas.len() {
        return Err(ScanError::StorageTooSmall {
            what: "prepare work list",
            needed: uas.len(),
            given: out.len(),
        });
    }
    let mut givens = mask.givens.0 & ALL_BITS;
    let empties = mask.empties.0 & ALL_BITS & !givens;
    let mut extra = 0u128;
    let mut impossible = false;
    let mut len = 0;
    for (index, ua) in uas.iter().enumerate() {
        let set = ua.0 & ALL_BITS;
        if set == 0 {
            return Err(ScanError::EmptyUa { index });
        }
        if set & givens != 0 {
            continue;
        }
        let rest = set & !empties;
        if rest == 0 {
            // Lies in forced empties and is hit by no forced given: nothing can hit it.
            impossible = true;
            continue;
        }
        if rest.count_ones() == 1 {
            givens |= rest;
            extra |= rest;
            continue;
        }
        out[len] = rest;
        len += 1;
    }
    // Sets kept before an extra given was found may be hit by it.
    if extra != 0 {
        let mut kept = 0;
        for i in 0..len {
            if out[i] & extra == 0 {
                out[kept] = out[i];
                kept += 1;
            }
        }
        len = kept;
    }
    let list = &mut out[..len];
    sort_size_order(list);
    let mut unique = 0;
    for i in 0..len {
        if unique == 0 || out[unique - 1] != out[i] {
            out[unique] = out[i];
            unique += 1;
        }
    }
    Ok(Forced {
        givens,
        extra_givens: extra,
        empties,
        len: unique,
        impossible,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(list: &[u8]) -> u128 {
        list.iter().fold(0, |acc, &c| acc | 1u128 << c)
    }

    #[test]
    fn parse_reads_givens_empties_and_free() {
        let mask = ClueMask::parse(b"1.0x1\r\n").unwrap();
        assert_eq!(mask.givens.0, cells(&[0, 4]));
        assert_eq!(mask.empties.0, cells(&[2]));
        assert_eq!(mask.free_cells().0.count_ones(), 78);
        assert!(ClueMask::parse(b"").unwrap().is_free());
    }

    #[test]
    fn parse_refuses_long_mask() {
        let long = [b'.'; 82];
        assert_eq!(
            ClueMask::parse(&long),
            Err(ScanError::MaskTooLong { len: 82 })
        );
    }

    #[test]
    fn step_a_drops_shrinks_and_forces() {
        let mask = ClueMask {
            givens: Cells(cells(&[0])),
            empties: Cells(cells(&[1, 2])),
        };
        let uas = [
            Cells(cells(&[0, 5, 6, 7])), // hit by forced given 0: dropped
            Cells(cells(&[1, 9, 10])),   // shrinks to {9,10}
            Cells(cells(&[2, 20])),      // shrinks to {20}: forced given
            Cells(cells(&[20, 30, 31])), // hit by the new forced given 20: dropped
            Cells(cells(&[9, 10])),      // duplicate of the shrunk one
        ];
        let mut out = [0u128; 5];
        let forced = apply_forced(&uas, &mask, &mut out).unwrap();
        assert_eq!(forced.givens, cells(&[0, 20]));
        assert_eq!(forced.extra_givens, cells(&[20]));
        assert!(!forced.impossible);
        assert_eq!(&out[..forced.len], &[cells(&[9, 10])]);
    }

    #[test]
    fn step_a_detects_impossible_and_empty() {
        let mask = ClueMask {
            givens: Cells(0),
            empties: Cells(cells(&[1, 2])),
        };
        let mut out = [0u128; 2];
        let forced = apply_forced(&[Cells(cells(&[1, 2]))], &mask, &mut out).unwrap();
        assert!(forced.impossible);
        assert_eq!(
            apply_forced(&[Cells(0)], &mask, &mut out),
            Err(ScanError::EmptyUa { index: 0 })
        );
        let mut small = [0u128; 0];
        assert!(apply_forced(&[Cells(1)], &mask, &mut small).is_err());
    }
}
