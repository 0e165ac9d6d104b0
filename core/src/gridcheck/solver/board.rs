//! [`Board`]: the candidate bitboards and the constraint propagation of the solver.
//!
//! Candidates are kept per digit and per band: `cand[word(d, b)]` (= `b * 9 + d`) holds, as 27 bits, the
//! cells of band `b` where digit `d` (0..9) may still go. A placed digit keeps its own bit and
//! loses every peer, so a finished board holds each digit exactly once per row, column and
//! box. Working per (digit, band) word lets one table look-up apply the "one minirow per row
//! and per box" rule (hidden singles in rows and boxes, pointing and claiming) in one step.
use crate::gridcheck::cells::{Cells, CELL_COUNT};
use crate::gridcheck::grid::Grid;

use super::tables::{
    fold_columns, spread_columns, BAND, BOXES_OF_ROW, COLUMN_IN_BAND, LOCKED_CELLS, PEERS_IN_BAND,
    PERMUTATION_CELLS, SINGLE_ROW,
};

/// Candidate state of a (partial) solve.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Board {
    /// `cand[word(d, b)]`: cells of band `b` where digit `d` may go.
    pub(crate) cand: [u32; 27],
    /// Words that lost cells since they were last propagated (bit `word(d, b)`): only those
    /// need the band rule again. Every change marks exactly the words it shrinks, which
    /// saves the visits (and mispredicted branches) of words that did not change.
    dirty: u32,
    /// Cells not yet placed, per band.
    pub(crate) unsolved: [u32; 3],
}

/// What the search stack keeps of a [`Board`] (see [`Board::snapshot`]).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Snapshot {
    cand: [u32; 27],
    unsolved: [u32; 3],
}

impl Snapshot {
    /// A placeholder value for stack slots not yet used.
    pub(crate) const EMPTY: Snapshot = Snapshot {
        cand: [0; 27],
        unsolved: [0; 3],
    };
}

/// Outcome of [`Board::propagate`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Status {
    /// No solution below this board.
    Contradiction,
    /// Every cell is placed; the board is a solution.
    Solved,
    /// Propagation is stuck: a guess is needed.
    Open,
}

/// All 27 (digit, band) words.
const ALL_WORDS: u32 = (1 << 27) - 1;

/// Index of the word of digit `d` (0..9) in band `b` (0..3): band-major, so the nine words
/// of a band are contiguous (clearing a placed cell from all digits is one short loop over
/// adjacent words).
#[inline(always)]
pub(crate) const fn word(d: usize, b: usize) -> usize {
    b * 9 + d
}

/// The other two bands.
const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// For each cell: its band and its bit in the band.
const CELL_SITE: [[u8; 2]; CELL_COUNT] = cell_site();

const fn cell_site() -> [[u8; 2]; CELL_COUNT] {
    let mut table = [[0u8; 2]; CELL_COUNT];
    let mut cell = 0;
    while cell < CELL_COUNT {
        table[cell] = [(cell / 27) as u8, (cell % 27) as u8];
        cell += 1;
    }
    table
}

/// For each cell: its row (bit 0..9), column (bit 9 + c) and box (bit 18 + k).
const HOUSES_OF_CELL: [u32; CELL_COUNT] = houses_of_cell();

const fn houses_of_cell() -> [u32; CELL_COUNT] {
    let mut table = [0u32; CELL_COUNT];
    let mut cell = 0;
    while cell < CELL_COUNT {
        let (r, c) = (cell / 9, cell % 9);
        table[cell] = 1 << r | 1 << (9 + c) | 1 << (18 + (r / 3) * 3 + c / 3);
        cell += 1;
    }
    table
}

/// For a 3-bit mask of a band's rows, the band cells in those rows.
const ROWS_IN_BAND: [u32; 8] = rows_in_band();

const fn rows_in_band() -> [u32; 8] {
    let mut table = [0u32; 8];
    let mut m = 0;
    while m < 8 {
        let mut r = 0;
        while r < 3 {
            if m & (1 << r) != 0 {
                table[m] |= 0x1ff << (9 * r);
            }
            r += 1;
        }
        m += 1;
    }
    table
}

/// For a 3-bit mask of a band's boxes, the band cells in those boxes.
const BOXES_IN_BAND: [u32; 8] = boxes_in_band();

const fn boxes_in_band() -> [u32; 8] {
    let mut table = [0u32; 8];
    let mut m = 0;
    while m < 8 {
        let mut k = 0;
        while k < 3 {
            if m & (1 << k) != 0 {
                table[m] |= spread_columns(7 << (3 * k));
            }
            k += 1;
        }
        m += 1;
    }
    table
}

/// For each word: its band and the words of the same digit in the other two bands.
const WORD_SITE: [[u8; 3]; 27] = word_site();

const fn word_site() -> [[u8; 3]; 27] {
    let mut table = [[0u8; 3]; 27];
    let mut i = 0;
    while i < 27 {
        let (d, b) = (i % 9, i / 9);
        let [o1, o2] = OTHER_BANDS[b];
        table[i] = [b as u8, word(d, o1) as u8, word(d, o2) as u8];
        i += 1;
    }
    table
}

impl Board {
    /// The board with every digit possible everywhere.
    pub(crate) const EMPTY: Board = Board {
        cand: [BAND; 27],
        dirty: ALL_WORDS,
        unsolved: [BAND; 3],
    };

    /// The board with the givens `(cell 0..81, digit 1..9)` placed (entries out of range
    /// are ignored), or `None` if two givens clash (same house and digit, or one cell with
    /// two digits). Builds all words at once instead of placing the givens one by one.
    pub(crate) fn with_givens(givens: impl Iterator<Item = (u8, u8)>) -> Option<Board> {
        let mut removed = [0u32; 27];
        let mut given = [0u32; 27];
        let mut given_cells = [0u32; 3];
        for (cell, digit) in givens {
            let (cell, digit) = (cell as usize, digit as usize);
            if cell >= CELL_COUNT || !(1..=9).contains(&digit) {
                continue;
            }
            let (d, b, p) = (digit - 1, cell / 27, cell % 27);
            let bit = 1u32 << p;
            if given_cells[b] & bit != 0 {
                if given[word(d, b)] & bit == 0 {
                    return None;
                }
                continue;
            }
            given_cells[b] |= bit;
            given[word(d, b)] |= bit;
            removed[word(d, b)] |= PEERS_IN_BAND[p];
            for ob in OTHER_BANDS[b] {
                removed[word(d, ob)] |= COLUMN_IN_BAND[p % 9];
            }
        }
        let mut board = Board::EMPTY;
        for (b, &cells) in given_cells.iter().enumerate() {
            for d in 0..9 {
                let w = word(d, b);
                board.cand[w] = BAND & !removed[w] & !(cells & !given[w]);
                if given[w] & removed[w] != 0 {
                    return None;
                }
            }
            board.unsolved[b] = BAND & !cells;
        }
        Some(board)
    }

    /// The board with the grid's digits on `givens` placed: [`Board::with_givens`] for
    /// givens that cannot clash, since they come from one valid grid. Instead of removing
    /// each given's peers word by word, it collects per digit the rows, columns and boxes
    /// that hold it, and builds each word from those once.
    #[inline]
    pub(crate) fn with_grid_givens(grid: &Grid, givens: Cells) -> Board {
        let digits = grid.digits();
        // Per digit: bit r = row r holds it, bit 9 + c = column c, bit 18 + k = box k.
        let mut houses = [0u32; 9];
        let mut given = [0u32; 27];
        let mut given_cells = [0u32; 3];
        for cell in givens.iter() {
            let cell = cell as usize;
            let (Some(&digit), Some(&[b, p])) = (digits.get(cell), CELL_SITE.get(cell)) else {
                continue;
            };
            let d = (digit as usize).wrapping_sub(1) % 9; // 1..9 in a valid grid
            let (b, bit) = (b as usize, 1u32 << p);
            given_cells[b] |= bit;
            given[word(d, b)] |= bit;
            houses[d] |= HOUSES_OF_CELL[cell];
        }
        let mut board = Board::EMPTY;
        for (d, &h) in houses.iter().enumerate() {
            let columns = spread_columns((h >> 9) & 0x1ff);
            for (b, &cells) in given_cells.iter().enumerate() {
                let rows = ROWS_IN_BAND[((h >> (3 * b)) & 7) as usize];
                let boxes = BOXES_IN_BAND[((h >> (18 + 3 * b)) & 7) as usize];
                let w = word(d, b);
                board.cand[w] = BAND & !(rows | columns | boxes | cells) | given[w];
            }
        }
        for (b, &cells) in given_cells.iter().enumerate() {
            board.unsolved[b] = BAND & !cells;
        }
        board
    }

    /// Places digit `d` (0..9) on `cell` (0..81): removes the digit from the cell's peers and
    /// every other digit from the cell. False if `d` is no longer possible there.
    #[inline]
    pub(crate) fn place(&mut self, d: usize, cell: usize) -> bool {
        let (b, p) = (cell / 27, cell % 27);
        let bit = 1u32 << p;
        if self.cand[word(d, b)] & bit == 0 {
            return false;
        }
        // Every word that loses a cell is marked dirty (and only those).
        let mut dirty = self.dirty;
        let own_before = self.cand[word(d, b)];
        let own = own_before & !PEERS_IN_BAND[p];
        let column = COLUMN_IN_BAND[p % 9];
        for ob in OTHER_BANDS[b] {
            let j = word(d, ob);
            let before = self.cand[j];
            self.cand[j] = before & !column;
            dirty |= ((before & column != 0) as u32) << j;
        }
        // The loop reports the digit's own word (it lost the cell for a moment); it only
        // needs a visit if it lost peers. (Masked before merging: a mark the word already
        // had must stay.)
        dirty |= (clear_in_band(&mut self.cand, b, bit) & !(1 << d)) << (b * 9);
        self.cand[word(d, b)] = own;
        dirty |= ((own != own_before) as u32) << word(d, b);
        self.unsolved[b] &= !bit;
        self.dirty = dirty;
        true
    }

    /// Places the digits of `known` (1..9, a solution) on the open cells of `cells` (a
    /// bitmap) where they are still possible; whether any was placed. (Two cells of a
    /// solution never clash, so placing one leaves the others' digits possible.) Out of
    /// line: one copy for every caller's stack depth.
    #[inline(never)]
    pub(crate) fn place_known(&mut self, cells: u128, known: &[u8; CELL_COUNT]) -> bool {
        let mut placed = false;
        for b in 0..3 {
            let mut open = (cells >> (27 * b)) as u32 & self.unsolved[b];
            while open != 0 {
                let cell = b * 27 + open.trailing_zeros() as usize;
                open &= open - 1;
                let d = (known[cell] as usize).wrapping_sub(1);
                placed |= d < 9 && self.place(d, cell);
            }
        }
        placed
    }

    /// The candidates and unplaced cells, without the propagation bookkeeping: what the
    /// search stack keeps of a board.
    #[inline]
    pub(crate) fn snapshot(&self) -> Snapshot {
        Snapshot {
            cand: self.cand,
            unsolved: self.unsolved,
        }
    }

    /// Restores a board saved by [`Board::snapshot`] at a fixpoint of [`Board::propagate`]
    /// (so every word counts as propagated).
    #[inline]
    pub(crate) fn restore(&mut self, saved: &Snapshot) {
        self.cand = saved.cand;
        self.unsolved = saved.unsolved;
        self.dirty = 0;
    }

    /// Removes digit `d` from `cell` (the other branch of a guess).
    #[inline]
    pub(crate) fn forbid(&mut self, d: usize, cell: usize) {
        self.cand[word(d, cell / 27)] &= !(1u32 << (cell % 27));
        self.dirty |= 1 << word(d, cell / 27);
    }

    /// Applies the band rule to every changed (digit, band) word until nothing changes.
    /// False on a contradiction.
    ///
    /// Works in rounds: a round visits the words dirty when it starts (`todo`), and the
    /// words they change are collected for the next round (`dirty`). Nothing in a visit
    /// decides which word comes next, and a visit has no data-dependent branch, so the
    /// processor overlaps consecutive visits instead of waiting for each one.
    ///
    /// For the same reason, a cell placed by a hidden single leaves the other digits' words
    /// only at the end of the round ([`clear_placed`]). Until then those words keep a
    /// candidate too many, which only makes their deductions weaker, never wrong; if one of
    /// them also claims the cell, the clearing empties its row and the next round reports
    /// the contradiction.
    #[inline]
    fn band_pass(&mut self, changed: &mut u32) -> bool {
        let mut dirty = self.dirty;
        // Cells placed this round: per word (its own digit keeps them) and per band.
        let mut own = [0u32; 27];
        while dirty != 0 {
            let mut todo = dirty;
            *changed |= todo;
            dirty = 0;
            let unsolved_before = self.unsolved;
            while todo != 0 {
                let i = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                dirty &= !(1 << i);
                let [b, j1, j2] = WORD_SITE[i];
                let b = b as usize;
                let mut x = self.cand[i];
                // Rows and boxes: keep the minirows lying on some legal placement.
                let minirows = BOXES_OF_ROW[(x & 0x1ff) as usize] as usize
                    | (BOXES_OF_ROW[((x >> 9) & 0x1ff) as usize] as usize) << 3
                    | (BOXES_OF_ROW[((x >> 18) & 0x1ff) as usize] as usize) << 6;
                x &= PERMUTATION_CELLS[minirows & 0x1ff];
                if x == 0 {
                    self.dirty = 0;
                    return false;
                }
                self.cand[i] = x;
                // A row with one cell left places the digit there (hidden single in a row;
                // the table already emptied the rest of its box).
                let placed = (single_row(x & 0x1ff)
                    | single_row((x >> 9) & 0x1ff) << 9
                    | single_row((x >> 18) & 0x1ff) << 18)
                    & self.unsolved[b];
                self.unsolved[b] &= !placed;
                own[i] |= placed;
                // A box whose cells for the digit share one column: the other bands lose
                // that column. Only the other bands that actually lose cells need a visit.
                let locked = LOCKED_CELLS[fold_columns(x) as usize];
                for j in [j1 as usize, j2 as usize] {
                    let before = self.cand[j];
                    self.cand[j] = before & !locked;
                    dirty |= ((before & locked != 0) as u32) << j;
                }
            }
            for (b, &before) in unsolved_before.iter().enumerate() {
                let placed = before & !self.unsolved[b];
                if placed != 0 {
                    dirty |= clear_placed(&mut self.cand, &mut own, b, placed) << (b * 9);
                }
            }
        }
        self.dirty = 0;
        true
    }

    /// Places every cell with a single candidate. `None` on a contradiction (an unplaced
    /// cell with no candidate, or two singles clashing), otherwise whether anything changed.
    #[inline]
    fn naked_singles(&mut self, changed: u32) -> Option<bool> {
        let mut progress = false;
        for b in 0..3 {
            if changed >> (9 * b) & 0x1ff == 0 {
                continue;
            }
            let (mut one, mut two) = (0u32, 0u32);
            for d in 0..9 {
                let x = self.cand[word(d, b)];
                two |= one & x;
                one |= x;
            }
            let unsolved = self.unsolved[b];
            if unsolved & !one != 0 {
                return None;
            }
            let mut singles = one & !two & unsolved;
            while singles != 0 {
                let p = singles.trailing_zeros() as usize;
                singles &= singles - 1;
                let bit = 1u32 << p;
                let mut d = 0;
                while self.cand[word(d, b)] & bit == 0 {
                    d += 1;
                    if d == 9 {
                        return None; // lost to an earlier single of this loop
                    }
                }
                if !self.place(d, b * 27 + p) {
                    return None;
                }
                progress = true;
            }
        }
        Some(progress)
    }

    /// Places every digit that has one cell left in a column (hidden single in a column).
    /// `None` on a contradiction, otherwise whether anything changed.
    #[inline]
    fn column_singles(&mut self, changed: u32) -> Option<bool> {
        let mut progress = false;
        let digits = (changed | changed >> 9 | changed >> 18) & 0x1ff;
        for d in 0..9 {
            if digits >> d & 1 == 0 {
                continue;
            }
            let mut any = [0u32; 3];
            let mut exactly_one = [0u32; 3];
            for b in 0..3 {
                let x = self.cand[word(d, b)];
                let (r0, r1, r2) = (x & 0x1ff, (x >> 9) & 0x1ff, x >> 18);
                any[b] = r0 | r1 | r2;
                exactly_one[b] = (r0 ^ r1 ^ r2) & !(r0 & r1 & r2);
            }
            for b in 0..3 {
                let [o1, o2] = OTHER_BANDS[b];
                let columns = exactly_one[b] & !any[o1] & !any[o2];
                let mut cells = self.cand[word(d, b)] & spread_columns(columns) & self.unsolved[b];
                while cells != 0 {
                    let p = cells.trailing_zeros() as usize;
                    cells &= cells - 1;
                    if !self.place(d, b * 27 + p) {
                        return None;
                    }
                    progress = true;
                }
            }
        }
        Some(progress)
    }

    /// Runs all deductions to a fixpoint.
    ///
    /// The singles are only looked for where something changed: words that have not
    /// changed since a fixpoint (where there were none) cannot hold new ones. So the checks
    /// run on the bands (naked singles) and digits (hidden singles in columns) of the words
    /// changed since they last ran; the words dirty on entry are those changed since the
    /// last fixpoint (or all of them on a new board).
    ///
    /// Never inlined: it is too large to be, and as an inline function each crate that
    /// calls it compiled its own copy (the browser's module held two, 1.5 KB of its size
    /// budget). The native build's instructions are the same either way.
    #[inline(never)]
    pub(crate) fn propagate(&mut self) -> Status {
        // Words changed since the last naked-single and column-single checks.
        let (mut naked_todo, mut column_todo) = (0u32, 0u32);
        loop {
            let mut changed = 0u32;
            if !self.band_pass(&mut changed) {
                return Status::Contradiction;
            }
            if self.unsolved == [0; 3] {
                return Status::Solved;
            }
            naked_todo |= changed;
            column_todo |= changed;
            match self.naked_singles(naked_todo) {
                None => return Status::Contradiction,
                Some(true) => {
                    naked_todo = 0;
                    continue;
                }
                Some(false) => naked_todo = 0,
            }
            match self.column_singles(column_todo) {
                None => return Status::Contradiction,
                Some(true) => {
                    column_todo = 0;
                    continue;
                }
                Some(false) => return Status::Open,
            }
        }
    }

    /// The unplaced cell to guess on: one with two candidates if any, else three, else the
    /// first unplaced cell. `None` if every cell is placed.
    #[inline]
    pub(crate) fn guess_cell(&self) -> Option<usize> {
        let mut fallback = None;
        for b in 0..3 {
            let (mut one, mut two, mut three, mut four) = (0u32, 0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.cand[word(d, b)];
                four |= three & x;
                three |= two & x;
                two |= one & x;
                one |= x;
            }
            let unsolved = self.unsolved[b];
            let pairs = two & !three & unsolved;
            if pairs != 0 {
                return Some(b * 27 + pairs.trailing_zeros() as usize);
            }
            if fallback.is_none() {
                let triples = three & !four & unsolved;
                if triples != 0 {
                    fallback = Some(b * 27 + triples.trailing_zeros() as usize);
                }
            }
        }
        if fallback.is_some() {
            return fallback;
        }
        (0..3)
            .find(|&b| self.unsolved[b] != 0)
            .map(|b| b * 27 + self.unsolved[b].trailing_zeros() as usize)
    }

    /// The cells that can no longer hold the grid's digit, the grid given as per-(digit,
    /// band) words (`grid_words[word(d, b)]` = cells of band `b` holding digit `d`): placed
    /// cells with another digit, and open cells that lost the grid's digit. Every solution
    /// below this board differs from the grid on at least these cells; on a solved board it
    /// is exactly the difference.
    #[inline]
    pub(crate) fn differences(&self, grid_words: &[u32; 27]) -> u128 {
        let mut diff = 0u128;
        for b in 0..3 {
            let (cand, grid) = (&self.cand[b * 9..b * 9 + 9], &grid_words[b * 9..b * 9 + 9]);
            // Digits 0..8 as two rows of four lanes (vector code), then digit 8: this is
            // asked at every branch of UA generation.
            let mut lanes = [0u32; 4];
            for (k, lane) in lanes.iter_mut().enumerate() {
                *lane = cand[k] & grid[k] | cand[k + 4] & grid[k + 4];
            }
            let keeps_grid_digit = lanes[0] | lanes[1] | lanes[2] | lanes[3] | cand[8] & grid[8];
            diff |= ((BAND & !keeps_grid_digit) as u128) << (27 * b);
        }
        diff
    }

    /// Whether digit `d` is still possible on `cell`.
    #[inline]
    pub(crate) fn allows(&self, d: usize, cell: usize) -> bool {
        self.cand[word(d, cell / 27)] >> (cell % 27) & 1 == 1
    }

    /// The lowest digit still possible on `cell`, if any.
    #[inline]
    pub(crate) fn first_candidate(&self, cell: usize) -> Option<usize> {
        (0..9).find(|&d| self.allows(d, cell))
    }

    /// The digits (1..9) of a solved board, row by row.
    pub(crate) fn digits(&self) -> [u8; CELL_COUNT] {
        let mut out = [0u8; CELL_COUNT];
        for d in 0..9 {
            for b in 0..3 {
                let mut x = self.cand[word(d, b)];
                while x != 0 {
                    let p = x.trailing_zeros() as usize;
                    x &= x - 1;
                    out[b * 27 + p] = d as u8 + 1;
                }
            }
        }
        out
    }
}

/// Removes `cells` of band `b` from all nine digits; returns the digits (bit `d`) that lost
/// something. Written over the nine adjacent words so that it compiles to vector code.
#[inline(always)]
fn clear_in_band(cand: &mut [u32; 27], b: usize, cells: u32) -> u32 {
    let words = &mut cand[b * 9..b * 9 + 9];
    let mut lost = 0u32;
    for (e, w) in words.iter_mut().enumerate() {
        let before = *w;
        *w = before & !cells;
        lost |= ((before & cells != 0) as u32) << e;
    }
    lost
}

/// Removes `cells` of band `b` from every digit but the one placed there (`own`), and
/// forgets `own` for the band; returns the digits (bit `d`) that lost something.
#[inline(always)]
fn clear_placed(cand: &mut [u32; 27], own: &mut [u32; 27], b: usize, cells: u32) -> u32 {
    let words = &mut cand[b * 9..b * 9 + 9];
    let owners = &mut own[b * 9..b * 9 + 9];
    let mut lost = 0u32;
    for (e, (w, o)) in words.iter_mut().zip(owners.iter_mut()).enumerate() {
        let before = *w;
        let after = before & (!cells | *o);
        *w = after;
        *o = 0;
        lost |= ((after != before) as u32) << e;
    }
    lost
}

/// The row value itself if it has exactly one cell, else 0.
#[inline(always)]
fn single_row(row: u32) -> u32 {
    SINGLE_ROW[row as usize] as u32
}
