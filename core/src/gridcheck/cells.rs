//! [`Cells`]: a set of Sudoku cells in one `u128`.
//!
//! Bit `i` stands for cell `i = row * 9 + col` (rows and columns 0..9), so the 81 used bits
//! are bits 0..81 and bits 81..128 are always zero. Every operation is a handful of integer
//! instructions: sets are compared, intersected and tested for disjointness in the scan's
//! innermost loops.
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Sub, SubAssign};

/// Number of cells in a Sudoku grid.
pub const CELL_COUNT: usize = 81;

/// Row (0..9) of `cell`.
#[inline]
pub const fn row_of(cell: u8) -> u8 {
    cell / 9
}

/// Column (0..9) of `cell`.
#[inline]
pub const fn col_of(cell: u8) -> u8 {
    cell % 9
}

/// Box (0..9, row-major) of `cell`.
#[inline]
pub const fn box_of(cell: u8) -> u8 {
    cell / 27 * 3 + cell % 9 / 3
}

/// A set of cells of the 9x9 grid; bit `i` = cell `i = row * 9 + col`.
///
/// The field is public so that callers can build masks with plain integer arithmetic.
/// Every value produced by this module keeps bits 81.. clear; [`Cells::len`] and
/// [`Cells::iter`] ignore them, so a caller's stray high bit can never name a cell outside
/// the grid (and index past an 81-entry table).
///
/// ```
/// use xcover_core::gridcheck::Cells;
///
/// let row1 = Cells::from_cells(&[0, 1, 2, 3, 4, 5, 6, 7, 8]);
/// let col1 = Cells::from_cells(&[0, 9, 18, 27, 36, 45, 54, 63, 72]);
/// assert_eq!((row1 & col1).iter().collect::<Vec<u8>>(), vec![0]);
/// assert_eq!((row1 | col1).len(), 17);
/// assert!((row1 - col1).is_disjoint(col1));
/// assert_eq!(Cells::ALL.complement(), Cells::EMPTY);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Debug)]
pub struct Cells(pub u128);

impl Cells {
    /// The empty set.
    pub const EMPTY: Cells = Cells(0);
    /// All 81 cells.
    pub const ALL: Cells = Cells((1u128 << CELL_COUNT) - 1);

    /// The set holding only `cell` (0..81). A cell outside the grid gives the empty set.
    #[inline]
    pub const fn single(cell: u8) -> Cells {
        if (cell as usize) < CELL_COUNT {
            Cells(1u128 << cell)
        } else {
            Cells::EMPTY
        }
    }

    /// Whether `cell` is in the set (false for cells outside the grid).
    #[inline]
    pub const fn contains(self, cell: u8) -> bool {
        (cell as usize) < CELL_COUNT && (self.0 >> cell) & 1 == 1
    }

    /// Adds `cell` (ignored if outside the grid).
    #[inline]
    pub fn insert(&mut self, cell: u8) {
        self.0 |= Cells::single(cell).0;
    }

    /// Removes `cell` (ignored if outside the grid).
    #[inline]
    pub fn remove(&mut self, cell: u8) {
        self.0 &= !Cells::single(cell).0;
    }

    /// Number of cells in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        (self.0 & Cells::ALL.0).count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the two sets have no cell in common.
    #[inline]
    pub const fn is_disjoint(self, other: Cells) -> bool {
        self.0 & other.0 == 0
    }

    /// Whether every cell of `self` is in `other`.
    #[inline]
    pub const fn is_subset_of(self, other: Cells) -> bool {
        self.0 & !other.0 == 0
    }

    /// Cells in either set.
    #[inline]
    pub const fn union(self, other: Cells) -> Cells {
        Cells(self.0 | other.0)
    }

    /// Cells in both sets.
    #[inline]
    pub const fn intersection(self, other: Cells) -> Cells {
        Cells(self.0 & other.0)
    }

    /// Cells of `self` that are not in `other`.
    #[inline]
    pub const fn difference(self, other: Cells) -> Cells {
        Cells(self.0 & !other.0)
    }

    /// The cells of the grid that are not in the set.
    #[inline]
    pub const fn complement(self) -> Cells {
        Cells(Cells::ALL.0 & !self.0)
    }

    /// The lowest cell of the set, if any.
    #[inline]
    pub const fn lowest(self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as u8)
        }
    }

    /// The cells in ascending order.
    #[inline]
    pub const fn iter(self) -> CellsIter {
        CellsIter(self.0 & Cells::ALL.0)
    }

    /// The set of the cells listed in `cells` (cells outside the grid are ignored).
    pub fn from_cells(cells: &[u8]) -> Cells {
        cells
            .iter()
            .fold(Cells::EMPTY, |set, &c| set | Cells::single(c))
    }
}

/// Ascending iterator over the cells of a [`Cells`] (see [`Cells::iter`]).
#[derive(Clone, Debug)]
pub struct CellsIter(u128);

impl Iterator for CellsIter {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let cell = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(cell)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CellsIter {}

impl IntoIterator for Cells {
    type Item = u8;
    type IntoIter = CellsIter;

    fn into_iter(self) -> CellsIter {
        self.iter()
    }
}

impl BitOr for Cells {
    type Output = Cells;
    #[inline]
    fn bitor(self, rhs: Cells) -> Cells {
        self.union(rhs)
    }
}

impl BitOrAssign for Cells {
    #[inline]
    fn bitor_assign(&mut self, rhs: Cells) {
        self.0 |= rhs.0;
    }
}

impl BitAnd for Cells {
    type Output = Cells;
    #[inline]
    fn bitand(self, rhs: Cells) -> Cells {
        self.intersection(rhs)
    }
}

impl BitAndAssign for Cells {
    #[inline]
    fn bitand_assign(&mut self, rhs: Cells) {
        self.0 &= rhs.0;
    }
}

impl Sub for Cells {
    type Output = Cells;
    #[inline]
    fn sub(self, rhs: Cells) -> Cells {
        self.difference(rhs)
    }
}

impl SubAssign for Cells {
    #[inline]
    fn sub_assign(&mut self, rhs: Cells) {
        self.0 &= !rhs.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    #[test]
    fn bits_above_the_grid_are_no_cells() {
        let stray = Cells(u128::MAX);
        assert_eq!(stray.len(), 81);
        assert_eq!(stray.iter().count(), 81);
        assert_eq!(stray.iter().max(), Some(80));
        assert_eq!(Cells(1u128 << 100).len(), 0);
        assert_eq!(Cells(1u128 << 100).iter().next(), None);
    }

    #[test]
    fn the_solver_takes_stray_high_bits_without_panicking() {
        let grid = crate::gridcheck::Grid::parse(
            b"693784512487512936125963874932651487568247391741398625319475268856129743274836159",
        )
        .unwrap();
        // All 81 cells given (plus stray bits): the grid itself, unique.
        assert!(crate::gridcheck::solver::is_unique_with_grid(
            &grid,
            Cells(u128::MAX)
        ));
        // Only stray bits: no givens, many solutions.
        assert!(!crate::gridcheck::solver::is_unique_with_grid(
            &grid,
            Cells(u128::MAX << 81)
        ));
    }

    #[test]
    fn single_contains_insert_remove() {
        let mut s = Cells::EMPTY;
        assert!(s.is_empty());
        s.insert(0);
        s.insert(80);
        s.insert(81); // outside: ignored
        assert_eq!(s.len(), 2);
        assert!(s.contains(0) && s.contains(80) && !s.contains(40) && !s.contains(81));
        s.remove(0);
        assert_eq!(s, Cells::single(80));
        assert_eq!(Cells::single(200), Cells::EMPTY);
        assert_eq!(Cells::ALL.len(), 81);
        assert!(!Cells::ALL.contains(81));
    }

    #[test]
    fn set_algebra() {
        let a = Cells::from_cells(&[1, 2, 3, 40]);
        let b = Cells::from_cells(&[3, 40, 77]);
        assert_eq!(a | b, Cells::from_cells(&[1, 2, 3, 40, 77]));
        assert_eq!(a & b, Cells::from_cells(&[3, 40]));
        assert_eq!(a - b, Cells::from_cells(&[1, 2]));
        assert_eq!(a.union(b), a | b);
        assert_eq!(a.intersection(b), a & b);
        assert_eq!(a.difference(b), a - b);
        assert!(!a.is_disjoint(b));
        assert!((a - b).is_disjoint(b));
        assert!((a & b).is_subset_of(a) && (a & b).is_subset_of(b));
        assert!(!a.is_subset_of(b));
        assert!(Cells::EMPTY.is_subset_of(Cells::EMPTY));
        assert_eq!(a.complement().len(), 77);
        assert!(a.complement().is_disjoint(a));
        let mut c = a;
        c |= b;
        c -= Cells::single(1);
        c &= Cells::from_cells(&[1, 2, 77]);
        assert_eq!(c, Cells::from_cells(&[2, 77]));
    }

    #[test]
    fn lowest_and_iteration_ascend() {
        assert_eq!(Cells::EMPTY.lowest(), None);
        let s = Cells::from_cells(&[80, 5, 64, 63, 0]);
        assert_eq!(s.lowest(), Some(0));
        let v: Vec<u8> = s.iter().collect();
        assert_eq!(v, [0, 5, 63, 64, 80]);
        assert_eq!(s.iter().len(), 5);
        let all: Vec<u8> = Cells::ALL.into_iter().collect();
        assert_eq!(all.len(), 81);
        assert!(all.windows(2).all(|w| w[0] + 1 == w[1]));
    }

    #[test]
    fn houses_of_cells() {
        assert_eq!((row_of(0), col_of(0), box_of(0)), (0, 0, 0));
        assert_eq!((row_of(80), col_of(80), box_of(80)), (8, 8, 8));
        assert_eq!((row_of(32), col_of(32), box_of(32)), (3, 5, 4));
        assert_eq!(box_of(26), 2);
        assert_eq!(box_of(27), 3);
    }

    #[test]
    fn order_is_numeric_on_the_bitmap() {
        assert!(Cells::single(3) > Cells::single(2));
        assert!(Cells::from_cells(&[0, 1]) > Cells::single(1));
    }
}
