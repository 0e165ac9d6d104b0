//! Knuth's `queens-dlx`: the n-queens problem as DLX3 input, byte for byte as his
//! generator writes it (the conformance corpus's `queens*` inputs were made with it). One
//! generator for the tests, benches and fuzz targets of every crate; the engine does not
//! use it.

use core::fmt::{self, Write};

/// The largest board: the diagonal names `a<t>`, `b<t>` with `t` up to `2n - 3` need one
/// of the 62 one-character codes each.
const MAX_N: usize = 32;

/// One-character name of `x`: `0`–`9`, `a`–`z`, `A`–`Z` (`x` below 62).
fn code(x: usize) -> char {
    const CODES: &[u8; 62] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    char::from(CODES[x])
}

/// Writes the n-queens exact-cover problem exactly as Knuth's `queens-dlx n` does.
///
/// Rows `r<t>` and columns `c<t>` are primary, listed in "organ-pipe" order (centre
/// first, so the search branches on the most constrained lines first); the diagonals
/// `a<t>` and `b<t>`, `t = 1 ..= 2n-3`, are secondary (the corner diagonals 0 and 2n-2
/// hold one cell each and are left out). One option per cell, row by row.
///
/// Returns [`fmt::Error`] if `n` is 0 or above 32 (no one-character names for its
/// diagonals), writing nothing, or if `out` fails.
///
/// ```
/// use xcover_core::testing::write_queens_dlx;
///
/// let mut text = String::new();
/// write_queens_dlx(4, &mut text).unwrap();
/// let lines: Vec<&str> = text.lines().collect();
/// assert_eq!(lines[0], "| This data produced by queens-dlx 4");
/// assert_eq!(lines[1], "r2 c2 r1 c1 r3 c3 r0 c0 | a1 b1 a2 b2 a3 b3 a4 b4 a5 b5");
/// assert_eq!((lines[2], lines.len()), ("r0 c0 b3", 2 + 16));
/// assert!(write_queens_dlx(33, &mut String::new()).is_err());
/// ```
pub fn write_queens_dlx<W: Write + ?Sized>(n: usize, out: &mut W) -> fmt::Result {
    if !(1..=MAX_N).contains(&n) {
        return Err(fmt::Error);
    }
    let nn = 2 * n - 2; // diagonals 0 ..= nn; only 1 ..= nn-1 are items
    writeln!(out, "| This data produced by queens-dlx {n}")?;
    for j in 0..n {
        let t = if j & 1 == 1 {
            (n - 1 - j) >> 1
        } else {
            (n + j) >> 1
        };
        write!(out, "r{} c{} ", code(t), code(t))?;
    }
    out.write_char('|')?;
    for t in 1..nn {
        write!(out, " a{} b{}", code(t), code(t))?;
    }
    out.write_char('\n')?;
    for j in 0..n {
        for k in 0..n {
            write!(out, "r{} c{}", code(j), code(k))?;
            let a = j + k;
            if a != 0 && a < nn {
                write!(out, " a{}", code(a))?;
            }
            let b = n - 1 - j + k;
            if b != 0 && b < nn {
                write!(out, " b{}", code(b))?;
            }
            out.write_char('\n')?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::String;

    #[test]
    fn codes_cover_62_names() {
        assert_eq!(
            (code(0), code(10), code(36), code(61)),
            ('0', 'a', 'A', 'Z')
        );
    }

    /// Knuth's 4-queens file, line by line.
    #[test]
    fn queens_4_by_hand() {
        let mut text = String::new();
        write_queens_dlx(4, &mut text).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("| This data produced by queens-dlx 4"));
        assert_eq!(
            lines.next(),
            Some("r2 c2 r1 c1 r3 c3 r0 c0 | a1 b1 a2 b2 a3 b3 a4 b4 a5 b5")
        );
        assert_eq!(lines.next(), Some("r0 c0 b3"));
        assert_eq!(lines.next(), Some("r0 c1 a1 b4"));
        assert_eq!(text.lines().count(), 2 + 16);
        assert_eq!(text.lines().last(), Some("r3 c3 b3"));
    }

    /// Every board from 1 to 32 is written, with one option per cell; 0 and 33 are refused
    /// before anything is written.
    #[test]
    fn boards_from_1_to_32() {
        for n in 1..=MAX_N {
            let mut text = String::new();
            write_queens_dlx(n, &mut text).unwrap();
            assert_eq!(text.lines().count(), 2 + n * n, "n = {n}");
        }
        let mut text = String::new();
        write_queens_dlx(MAX_N, &mut text).unwrap();
        assert!(text.lines().nth(1).unwrap().ends_with(" aZ bZ"));
        for n in [0, MAX_N + 1] {
            let mut text = String::new();
            assert_eq!(write_queens_dlx(n, &mut text), Err(fmt::Error));
            assert!(text.is_empty());
        }
    }
}
