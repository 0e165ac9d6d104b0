//! One Sudoku puzzle: solved and its solutions counted by core's bitboard solver.
use core::fmt::Write as _;

use xcover_core::gridcheck::{solver, Puzzle};
use xcover_core::sink::ByteSink;

use crate::buffers::buffers;

/// Solves the puzzle in the inbox (81 characters, `1`-`9` givens, `0` or `.` empty) and
/// counts its solutions up to `limit` (0: all of them). Writes the first solution's 81
/// digits and a newline to stdout; returns the count (0: no solution), or -1 with the
/// message on stderr for a line that is not a puzzle.
#[no_mangle]
#[allow(unsafe_code)] // the exported name (the lint counts `no_mangle`); no unsafe code
pub extern "C" fn sudoku_solve(limit: u32) -> i32 {
    let mut buffers = buffers();
    let buffers = &mut *buffers;
    let puzzle = match Puzzle::parse(&buffers.inbox) {
        Ok(p) => p,
        Err(e) => {
            let _ = writeln!(buffers.err, "not a puzzle: {e}");
            return -1;
        }
    };
    let (first, count) = solver::solve_and_count(&puzzle, limit);
    if let Some(digits) = first {
        let mut line = digits.map(|d| b'0' + d);
        buffers.out.write_bytes(&line);
        line[0] = b'\n';
        buffers.out.write_bytes(&line[..1]);
    }
    count.min(i32::MAX as u32) as i32
}
