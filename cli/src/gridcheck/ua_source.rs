//! The UA list of a grid: generated, or loaded from a file and verified, and saved.
//!
//! TEMPORARY: a std implementation over the solver until `gridcheck::ua` lands; to be
//! replaced by the core generators / verify_ua / file format.
use std::ops::ControlFlow;
use std::path::Path;

use anyhow::{bail, Context, Result};
use xcover_core::gridcheck::{solver, Cells, Grid, Puzzle};

/// Minimal UA of the pseudo-puzzle made of `grid` with `blank` emptied.
fn from_pseudo_puzzle(grid: &Grid, blank: u128, out: &mut Vec<Cells>) {
    let digits = grid.digits();
    let mut puzzle = *digits;
    for (cell, d) in puzzle.iter_mut().enumerate() {
        if blank >> cell & 1 == 1 {
            *d = 0;
        }
    }
    let Ok(puzzle) = Puzzle::from_digits(puzzle) else { return };
    let mut local: Vec<u128> = Vec::new();
    solver::for_each_solution(&puzzle, Some(grid), &mut |s| {
        let mut ua = 0u128;
        for (cell, (&a, &b)) in s.iter().zip(digits.iter()).enumerate() {
            if a != b {
                ua |= 1u128 << cell;
            }
        }
        if ua != 0 {
            local.push(ua);
        }
        ControlFlow::Continue(())
    });
    local.sort_unstable_by_key(|u| (u.count_ones(), *u));
    let mut kept: Vec<u128> = Vec::new();
    for ua in local {
        if !kept.iter().any(|&k| k & ua == k) {
            kept.push(ua);
        }
    }
    out.extend(kept.into_iter().map(Cells));
}

/// Generates the UA list: all 4-digit subsets, then `random` 54-blank pseudo-puzzles.
/// Cells of `keep` (forced givens of a masked scan) are never blanked: a UA through a forced
/// given is useless to that scan, and keeping them makes the pseudo-puzzles much smaller.
pub fn generate(grid: &Grid, random: u32, seed: u64, keep: Cells) -> Result<Vec<Cells>> {
    let mut out = Vec::new();
    for subset in 0u32..512 {
        if subset.count_ones() != 4 {
            continue;
        }
        let mut blank = 0u128;
        for d in 0..9u8 {
            if subset >> d & 1 == 1 {
                blank |= grid.cells_of_digit(d + 1).0;
            }
        }
        from_pseudo_puzzle(grid, blank & !keep.0, &mut out);
    }
    let open = Cells::ALL.0 & !keep.0;
    let blanks = open.count_ones().min(54);
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    for _ in 0..random {
        let mut blank = 0u128;
        while blank.count_ones() < blanks {
            blank |= (1u128 << (next() % 81)) & open;
        }
        from_pseudo_puzzle(grid, blank, &mut out);
    }
    out.sort_unstable_by_key(|u| (u.0.count_ones(), u.0));
    out.dedup();
    Ok(out)
}

/// True when blanking `ua` in the grid leaves more than one solution.
pub fn verify(grid: &Grid, ua: Cells) -> bool {
    let givens = Cells(Cells::ALL.0 & !ua.0);
    !ua.is_empty() && !solver::is_unique_with_grid(grid, givens)
}

/// Loads a UA file (81-char 0/1 masks or `{rc,rc,...}` lines) and verifies every UA.
pub fn load(path: &Path, grid: &Grid) -> Result<Vec<Cells>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut out = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let mut ua = 0u128;
        if line.starts_with('{') {
            let inner = line.trim_start_matches('{').trim_end_matches('}');
            for rc in inner.split(',') {
                let b = rc.trim().as_bytes();
                if b.len() != 2 || !(b'1'..=b'9').contains(&b[0]) || !(b'1'..=b'9').contains(&b[1]) {
                    bail!("{} line {}: bad cell `{rc}`", path.display(), number + 1);
                }
                ua |= 1u128 << (usize::from(b[0] - b'1') * 9 + usize::from(b[1] - b'1'));
            }
        } else {
            if line.len() != 81 || !line.bytes().all(|b| b == b'0' || b == b'1') {
                bail!("{} line {}: expected 81 characters 0/1 or {{rc,...}}", path.display(), number + 1);
            }
            for (cell, b) in line.bytes().enumerate() {
                if b == b'1' {
                    ua |= 1u128 << cell;
                }
            }
        }
        if !verify(grid, Cells(ua)) {
            bail!("{} line {}: not an unavoidable set of the grid (refused)", path.display(), number + 1);
        }
        out.push(Cells(ua));
    }
    Ok(out)
}

/// Saves the list, one 81-char 0/1 mask per line.
pub fn save(path: &Path, uas: &[Cells]) -> Result<()> {
    let mut text = String::with_capacity(uas.len() * 82);
    for ua in uas {
        for cell in 0..81 {
            text.push(if ua.0 >> cell & 1 == 1 { '1' } else { '0' });
        }
        text.push('\n');
    }
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}
