//! Step D: remapping grid cells to iterator positions.
//!
//! Positions `0..free` are the free cells in the order of [`super::rating::order_cells`]
//! (smallest clique member lowest); then the forced givens; the forced empty cells take the
//! top positions. The enumeration tries the live cells of a branch set in increasing
//! position order, so this order decides which cells are tried (and made dead) first
//! (orders compared: docs/PERFORMANCE.md).

use crate::gridcheck::cells::CELL_COUNT;

/// Both directions of the cell <-> position map.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Remap {
    to_cell: [u8; CELL_COUNT],
    to_position: [u8; CELL_COUNT],
}

impl Remap {
    /// Builds the map: `free_order` lists the free cells (all of them, each once), then
    /// `givens` and `empties` follow in increasing cell order. The three sets must
    /// partition the 81 cells.
    pub(crate) fn build(free_order: &[u8], givens: u128, empties: u128) -> Remap {
        let mut map = Remap {
            to_cell: [0; CELL_COUNT],
            to_position: [0; CELL_COUNT],
        };
        let mut position = 0usize;
        let mut put = |cell: u8, map: &mut Remap| {
            map.to_cell[position] = cell;
            map.to_position[usize::from(cell)] = position as u8;
            position += 1;
        };
        for &cell in free_order {
            put(cell, &mut map);
        }
        for part in [givens, empties] {
            let mut rest = part;
            while rest != 0 {
                put(rest.trailing_zeros() as u8, &mut map);
                rest &= rest - 1;
            }
        }
        map
    }

    /// Grid cell at iterator position `position`.
    pub(crate) fn cell(&self, position: u8) -> u8 {
        self.to_cell[usize::from(position)]
    }

    #[cfg(test)]
    /// Iterator position of grid cell `cell`.
    pub(crate) fn position(&self, cell: u8) -> u8 {
        self.to_position[usize::from(cell)]
    }

    /// A cell set as a position set.
    pub(crate) fn positions_of(&self, cells: u128) -> u128 {
        let mut out = 0u128;
        let mut rest = cells;
        while rest != 0 {
            out |= 1u128 << self.to_position[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        out
    }

    /// A position set as a cell set.
    pub(crate) fn cells_of(&self, positions: u128) -> u128 {
        let mut out = 0u128;
        let mut rest = positions;
        while rest != 0 {
            out |= 1u128 << self.to_cell[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_layout() {
        let givens = 1u128 << 5 | 1u128 << 70;
        let empties = 1u128 << 80 | 1u128 << 0;
        let mut order = [0u8; 77];
        let mut len = 0;
        for cell in (0..81u8).rev() {
            if (givens | empties) >> cell & 1 == 0 {
                order[len] = cell;
                len += 1;
            }
        }
        let map = Remap::build(&order[..len], givens, empties);
        assert_eq!(map.cell(0), 79);
        assert_eq!(map.position(5), 77);
        assert_eq!(map.position(70), 78);
        assert_eq!(map.position(0), 79);
        assert_eq!(map.position(80), 80);
        for cell in 0..81u8 {
            assert_eq!(map.cell(map.position(cell)), cell);
        }
        let set = 0x1234_5678_9abc_def0_1234u128;
        assert_eq!(map.cells_of(map.positions_of(set)), set);
    }
}
