//! Constant tables of the band solver, computed at compile time.
//!
//! A *band* is three consecutive rows (27 cells). Inside a band a cell is bit
//! `row_in_band * 9 + col`. A *minirow* is the three cells of one row inside one box; minirow
//! `(r, k)` (row `r` of the band, box `k` of the band) is bit `r * 3 + k` of a 9-bit
//! "minirow mask".

/// Bits of one band (27 cells).
pub(crate) const BAND: u32 = (1 << 27) - 1;

/// Which minirows of one band row are non-empty: 9-bit row value -> 3-bit box mask.
pub(crate) const BOXES_OF_ROW: [u8; 512] = boxes_of_row();

/// For a 9-bit minirow mask `m`, the 27-bit cell mask of every minirow that lies on some
/// placement of the digit consistent with `m`: a digit occupies exactly one minirow in each
/// row and in each box of a band, i.e. a permutation (row r -> box p(r)); a minirow survives
/// iff some permutation inside `m` uses it. 0 if no permutation fits (contradiction).
pub(crate) const PERMUTATION_CELLS: [u32; 512] = permutation_cells();

/// For a 9-bit column mask of one band, the columns that are the only column of their box
/// (three-column group): the digit is locked in that column of the band, so the other two
/// bands lose it there.
pub(crate) const LOCKED_COLUMNS: [u16; 512] = locked_columns();

/// [`LOCKED_COLUMNS`] spread over the three rows of a band (the cells the other bands lose).
pub(crate) const LOCKED_CELLS: [u32; 512] = locked_cells();

/// A 9-bit row value itself if it has exactly one cell, else 0 (the digit is placed there).
pub(crate) const SINGLE_ROW: [u16; 512] = single_row();

/// For a band cell (0..27), the other cells of its row and box inside the band.
pub(crate) const PEERS_IN_BAND: [u32; 27] = peers_in_band();

/// The three cells of column `c` (0..9) inside a band.
pub(crate) const COLUMN_IN_BAND: [u32; 9] = column_in_band();

/// Expands a 9-bit column mask to the 27-bit mask of those columns in a band.
#[inline(always)]
pub(crate) const fn spread_columns(columns: u32) -> u32 {
    columns | columns << 9 | columns << 18
}

/// Folds a 27-bit band mask onto its 9 columns (columns with at least one cell).
#[inline(always)]
pub(crate) const fn fold_columns(band: u32) -> u32 {
    (band | band >> 9 | band >> 18) & 0x1ff
}

/// 27-bit cell mask of a 9-bit minirow mask.
const fn minirow_cells(minirows: u32) -> u32 {
    let mut cells = 0u32;
    let mut bit = 0;
    while bit < 9 {
        if minirows & (1 << bit) != 0 {
            let (r, k) = (bit / 3, bit % 3);
            cells |= 7 << (r * 9 + k * 3);
        }
        bit += 1;
    }
    cells
}

const fn boxes_of_row() -> [u8; 512] {
    let mut table = [0u8; 512];
    let mut row = 0;
    while row < 512 {
        let mut boxes = 0u8;
        let mut k = 0;
        while k < 3 {
            if row & (7 << (3 * k)) != 0 {
                boxes |= 1 << k;
            }
            k += 1;
        }
        table[row] = boxes;
        row += 1;
    }
    table
}

const fn permutation_cells() -> [u32; 512] {
    // The six permutations row r -> box p[r].
    const PERMS: [[u32; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut table = [0u32; 512];
    let mut mask = 0;
    while mask < 512 {
        let mut allowed = 0u32;
        let mut i = 0;
        while i < 6 {
            let p = PERMS[i];
            let placement = 1 << p[0] | 1 << (3 + p[1]) | 1 << (6 + p[2]);
            if placement & mask == placement {
                allowed |= placement;
            }
            i += 1;
        }
        table[mask as usize] = minirow_cells(allowed);
        mask += 1;
    }
    table
}

const fn locked_columns() -> [u16; 512] {
    let mut table = [0u16; 512];
    let mut columns = 0;
    while columns < 512 {
        let mut locked = 0u16;
        let mut k = 0;
        while k < 3 {
            let group = (columns >> (3 * k)) & 7;
            if group != 0 && group & (group - 1) == 0 {
                locked |= (group << (3 * k)) as u16;
            }
            k += 1;
        }
        table[columns] = locked;
        columns += 1;
    }
    table
}

const fn single_row() -> [u16; 512] {
    let mut table = [0u16; 512];
    let mut row = 1;
    while row < 512 {
        if row & (row - 1) == 0 {
            table[row] = row as u16;
        }
        row += 1;
    }
    table
}

const fn locked_cells() -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut columns = 0;
    while columns < 512 {
        table[columns] = spread_columns(LOCKED_COLUMNS[columns] as u32);
        columns += 1;
    }
    table
}

const fn peers_in_band() -> [u32; 27] {
    let mut table = [0u32; 27];
    let mut cell = 0;
    while cell < 27 {
        let (r, c) = (cell / 9, cell % 9);
        let row = 0x1ff << (r * 9);
        let boxk = c / 3;
        let box_cells = (7 << (boxk * 3)) * (1 | 1 << 9 | 1 << 18);
        table[cell] = (row | box_cells) & !(1 << cell);
        cell += 1;
    }
    table
}

const fn column_in_band() -> [u32; 9] {
    let mut table = [0u32; 9];
    let mut c = 0;
    while c < 9 {
        table[c] = spread_columns(1 << c);
        c += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_need_one_minirow_per_row_and_box() {
        // Everything allowed: all cells survive.
        assert_eq!(PERMUTATION_CELLS[0x1ff], BAND);
        // Only the diagonal minirows (0,0), (1,1), (2,2).
        let diag = 1 | 1 << 4 | 1 << 8;
        assert_eq!(PERMUTATION_CELLS[diag], 7 | 7 << 12 | 7 << 24);
        // Row 0 and row 1 both only in box 0: impossible.
        assert_eq!(PERMUTATION_CELLS[1 | 1 << 3 | 0x1c0], 0);
        // Row 0 only in box 0: box 0 of rows 1, 2 is excluded.
        let m = 1 | 0b111 << 3 | 0b111 << 6;
        let cells = PERMUTATION_CELLS[m];
        assert_eq!(cells & (7 << 9), 0);
        assert_eq!(cells & (7 << 18), 0);
        assert_eq!(cells & 7, 7);
    }

    #[test]
    fn small_tables() {
        assert_eq!(BOXES_OF_ROW[0b100_000_001], 0b101);
        assert_eq!(SINGLE_ROW[0b1000], 0b1000);
        assert_eq!(SINGLE_ROW[0b1001], 0);
        assert_eq!(SINGLE_ROW[0], 0);
        assert_eq!(LOCKED_COLUMNS[0b011_010_001], 0b000_010_001);
        assert_eq!(LOCKED_CELLS[0b011_010_001], spread_columns(0b000_010_001));
        assert_eq!(PEERS_IN_BAND[0].count_ones(), 8 + 6);
        assert_eq!(PEERS_IN_BAND[13] & (1 << 13), 0);
        assert_eq!(COLUMN_IN_BAND[2], 1 << 2 | 1 << 11 | 1 << 20);
        assert_eq!(fold_columns(1 << 20 | 1 << 3), 1 << 2 | 1 << 3);
    }
}
