//! Shared helpers for the benches: generators of DLX3 inputs in Knuth's text format.
//!
//! * [`queens_dlx`] reproduces Knuth's `queens-dlx n` byte for byte (the `queens*` cases of
//!   the conformance corpus were made with it);
//! * [`queens_k_dlx`] and [`queens_diag01_dlx`] reproduce the hand-made multiplicity
//!   variants of the corpus (`queens*_k*_all01`, `queens*_diag01_primary`);
//! * [`edge_matching_dlx`] is a colour-control problem (edge-matching tile puzzle);
//! * [`pentominoes_dlx`] is a polyomino packing (many options per item);
//! * [`KINDS`] names one input of each kind of search path, for `mems_per_sec --kind`;
//! * [`dominoes_dlx`] is a big, easy input for measuring the parser.
//!
//! and a small driver of the core engine ([`HeapWorkspace`], [`load`], [`count`]) that runs a
//! problem the way `xcover dlx3 m0 v0` does, without output; and, in [`grids`], seeded
//! random solution grids and the default UA generation of the grid checker; in [`sample`],
//! the options that choose a sample of grids and its UA; in [`times`], summaries of per-grid
//! times (mean, median, tail, histogram); in [`mod@out`], standard output that ends the
//! program quietly on a closed pipe.
#![deny(missing_docs)]

pub mod grids;
pub mod out;
pub mod sample;
pub mod times;

use std::fmt::Write as _;

/// Engine storage sized for an input as `xcover dlx3` sizes it
/// ([`HeapWorkspace::for_input`]).
pub use xcover_core::dlx3::HeapWorkspace;
use xcover_core::dlx3::{Dlx3, Dlx3Error, Event, Settings, Sinks, Stats};
use xcover_core::testing::write_queens_dlx;

/// The number given to a command-line option of the bench programs: `value` is the
/// argument after the option `what` (`None` when the command line ended there).
pub fn number_arg(value: Option<String>, what: &str) -> Result<u64, String> {
    value
        .ok_or(format!("{what} needs a value"))?
        .parse()
        .map_err(|e| format!("{what}: {e}"))
}

use xcover_core::sink::ByteSink;
pub use xcover_core::sink::Discard;

/// Settings of `dlx3 m0 v0`: count only, print nothing.
pub fn quiet_settings() -> Settings {
    Settings::new().verbosity(0).print_interval(0)
}

/// Reads `input` into a fresh engine over `workspace` (messages go to `err`).
pub fn load<'a>(
    input: &[u8],
    settings: Settings,
    workspace: &'a mut HeapWorkspace,
    err: &mut dyn ByteSink,
) -> Result<Dlx3<'a>, Dlx3Error> {
    let mut engine = Dlx3::new(workspace.as_mut_view(), settings)?;
    engine.read_input(input, err)?;
    Ok(engine)
}

/// Runs a loaded engine to the end (solutions to `out`, reports to `err`) and returns its
/// counters. The closing reports are written to `err` as well.
pub fn run_to_end(
    engine: &mut Dlx3<'_>,
    out: &mut dyn ByteSink,
    err: &mut dyn ByteSink,
) -> Result<Stats, Dlx3Error> {
    loop {
        let mut sinks = Sinks {
            out: &mut *out,
            err: &mut *err,
            shape: None,
        };
        if let Event::Done(_) = engine.run(u64::MAX, &mut sinks)? {
            break;
        }
    }
    engine.finish(err);
    Ok(engine.stats())
}

/// Solves `input` with `settings`, discarding all text, and returns the counters.
pub fn count(input: &[u8], settings: Settings) -> Result<Stats, Dlx3Error> {
    let mut workspace = HeapWorkspace::for_input(input);
    let mut engine = load(input, settings, &mut workspace, &mut Discard)?;
    run_to_end(&mut engine, &mut Discard, &mut Discard)
}

/// The n-queens exact-cover problem exactly as Knuth's `queens-dlx n` writes it (see
/// [`write_queens_dlx`]).
///
/// # Panics
/// If `n == 0` or `n > 32` (`queens-dlx` has no names for its diagonals).
pub fn queens_dlx(n: usize) -> String {
    let mut out = String::new();
    write_queens_dlx(n, &mut out).expect("queens_dlx: n must be 1..=32");
    out
}

/// "Place exactly `k` non-attacking queens on an n×n board": a counter item `k|Q` and every
/// row, column and diagonal a primary item with bounds `0:1` (multiplicities and slack).
/// Reproduces the corpus files `queens5_k3_all01` and `queens6_k5_all01`.
pub fn queens_k_dlx(n: usize, k: usize) -> String {
    let mut out = format!("{k}|Q");
    queens_lines_items(&mut out, n, "0:1|");
    out.push('\n');
    queens_cell_options(&mut out, n, "Q ");
    out
}

/// n-queens with rows and columns exact and every diagonal a primary item with bounds
/// `0:1` (a null move for each unused diagonal). Reproduces `queens*_diag01_primary`.
pub fn queens_diag01_dlx(n: usize) -> String {
    let mut out = String::new();
    for (i, prefix) in ["r", "c"].iter().enumerate() {
        for t in 0..n {
            if i + t > 0 {
                out.push(' ');
            }
            let _ = write!(out, "{prefix}{t}");
        }
    }
    for prefix in ["a", "b"] {
        for t in 0..2 * n - 1 {
            let _ = write!(out, " 0:1|{prefix}{t}");
        }
    }
    out.push('\n');
    queens_cell_options(&mut out, n, "");
    out
}

/// ` 0:1|r0 ... 0:1|b<2n-2>`: every line of the board as an item with the given bound prefix.
fn queens_lines_items(out: &mut String, n: usize, bound: &str) {
    for (prefix, count) in [("r", n), ("c", n), ("a", 2 * n - 1), ("b", 2 * n - 1)] {
        for t in 0..count {
            let _ = write!(out, " {bound}{prefix}{t}");
        }
    }
}

/// One option per cell: `<lead>r<j> c<k> a<j+k> b<n-1+j-k>`.
fn queens_cell_options(out: &mut String, n: usize, lead: &str) {
    for j in 0..n {
        for k in 0..n {
            let _ = writeln!(out, "{lead}r{j} c{k} a{} b{}", j + k, n - 1 + j - k);
        }
    }
}

/// An edge-matching puzzle with colour controls: fill a `rows`×`cols` grid with tiles whose
/// four edges carry one of `colours` colours (`a`, `b`, ...). The tile set is every
/// (north, east, south, west) colour combination, each tile usable at most once (primary
/// item `0:1|t<i>`, so with slack), every cell exactly once (primary `x<r>y<c>`), and the
/// colour of each inner edge (secondary `h<r>_<c>` / `v<r>_<c>`) must agree on both sides.
///
/// # Panics
/// If `colours` is not 1..=26 or the names would exceed 8 characters.
pub fn edge_matching_dlx(rows: usize, cols: usize, colours: usize) -> String {
    assert!(
        (1..=26).contains(&colours),
        "edge_matching_dlx: 1..=26 colours"
    );
    assert!(
        rows <= 100 && cols <= 100,
        "edge_matching_dlx: names would be too long"
    );
    let colour = |c: usize| char::from(b'a' + u8::try_from(c).unwrap_or(0));
    let tiles = colours.pow(4);
    let mut out = format!("| edge matching, {rows}x{cols} grid, {colours} colours\n");
    for r in 0..rows {
        for c in 0..cols {
            let _ = write!(out, "x{r}y{c} ");
        }
    }
    for t in 0..tiles {
        let _ = write!(out, "0:1|t{t} ");
    }
    out.push('|');
    for r in 0..rows.saturating_sub(1) {
        for c in 0..cols {
            let _ = write!(out, " h{r}_{c}");
        }
    }
    for r in 0..rows {
        for c in 0..cols.saturating_sub(1) {
            let _ = write!(out, " v{r}_{c}");
        }
    }
    out.push('\n');
    for r in 0..rows {
        for c in 0..cols {
            for t in 0..tiles {
                let (north, east) = (t / colours.pow(3), t / colours.pow(2) % colours);
                let (south, west) = (t / colours % colours, t % colours);
                let _ = write!(out, "x{r}y{c} t{t}");
                if r > 0 {
                    let _ = write!(out, " h{}_{c}:{}", r - 1, colour(north));
                }
                if r + 1 < rows {
                    let _ = write!(out, " h{r}_{c}:{}", colour(south));
                }
                if c > 0 {
                    let _ = write!(out, " v{r}_{}:{}", c - 1, colour(west));
                }
                if c + 1 < cols {
                    let _ = write!(out, " v{r}_{c}:{}", colour(east));
                }
                out.push('\n');
            }
        }
    }
    out
}

/// Domino tilings of a `rows`×`cols` board: one primary item per cell (`<r>_<c>`), one
/// option per domino position. A large input (`rows*cols` items, about `2*rows*cols`
/// options) for timing the parser; dlx3 allows at most 10000 items.
pub fn dominoes_dlx(rows: usize, cols: usize) -> String {
    let mut out = String::new();
    for r in 0..rows {
        for c in 0..cols {
            if r + c > 0 {
                out.push(' ');
            }
            let _ = write!(out, "{r}_{c}");
        }
    }
    out.push('\n');
    for r in 0..rows {
        for c in 0..cols {
            if c + 1 < cols {
                let _ = writeln!(out, "{r}_{c} {r}_{}", c + 1);
            }
            if r + 1 < rows {
                let _ = writeln!(out, "{r}_{c} {}_{c}", r + 1);
            }
        }
    }
    out
}

/// The twelve pentominoes (Conway's letters), each as five (row, column) cells.
const PENTOMINOES: [(char, [(i32, i32); 5]); 12] = [
    ('F', [(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)]),
    ('I', [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]),
    ('L', [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)]),
    ('N', [(0, 1), (1, 1), (2, 0), (2, 1), (3, 0)]),
    ('P', [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]),
    ('T', [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)]),
    ('U', [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]),
    ('V', [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]),
    ('W', [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]),
    ('X', [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]),
    ('Y', [(0, 1), (1, 0), (1, 1), (2, 1), (3, 1)]),
    ('Z', [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)]),
];

/// Packing the twelve pentominoes into a `rows`×`cols` board (60 cells for an exact
/// cover): primary items are the pieces and the cells `<r>_<c>`; one option per distinct
/// orientation (of the 8 rotations and reflections) and position of each piece, as
/// `P r_c r_c r_c r_c r_c` with the cells in row-major order. 3×20 has 8 solutions
/// (2 up to symmetry), like Knuth's pentomino examples.
pub fn pentominoes_dlx(rows: usize, cols: usize) -> String {
    let mut out = String::new();
    for (piece, _) in PENTOMINOES {
        let _ = write!(out, "{piece} ");
    }
    for r in 0..rows {
        for c in 0..cols {
            let _ = write!(out, "{r}_{c} ");
        }
    }
    out.pop();
    out.push('\n');
    for (piece, cells) in PENTOMINOES {
        let mut shapes: Vec<[(i32, i32); 5]> = Vec::new();
        for t in 0..8 {
            let mut shape = cells.map(|(r, c)| {
                let (r, c) = if t & 4 != 0 { (c, r) } else { (r, c) };
                (
                    if t & 1 != 0 { -r } else { r },
                    if t & 2 != 0 { -c } else { c },
                )
            });
            let (r0, c0) = shape
                .iter()
                .fold((i32::MAX, i32::MAX), |(a, b), &(r, c)| (a.min(r), b.min(c)));
            shape
                .iter_mut()
                .for_each(|(r, c)| (*r, *c) = (*r - r0, *c - c0));
            shape.sort_unstable();
            if !shapes.contains(&shape) {
                shapes.push(shape);
            }
        }
        for shape in shapes {
            for (dr, dc) in (0..rows as i32).flat_map(|r| (0..cols as i32).map(move |c| (r, c))) {
                let fits = shape
                    .iter()
                    .all(|&(r, c)| r + dr < rows as i32 && c + dc < cols as i32);
                if fits {
                    out.push(piece);
                    for (r, c) in shape {
                        let _ = write!(out, " {}_{}", r + dr, c + dc);
                    }
                    out.push('\n');
                }
            }
        }
    }
    out
}

/// One input of each kind of search path, for comparing speed per kind: `(name,
/// description)`; [`kind_input`] makes the input. Each takes well under a second.
pub const KINDS: [(&str, &str); 6] = [
    ("queens12", "plain n-queens 12, count all"),
    (
        "diag01_11",
        "queens 11, diagonals as primary 0:1 items (bounds, slack)",
    ),
    (
        "k8_queens9",
        "8 queens on 9x9, every line 0:1 (multiplicities)",
    ),
    (
        "pent3x20",
        "twelve pentominoes into 3x20 (polyomino packing)",
    ),
    (
        "edges2x4",
        "edge matching 2x4, 2 colours, tiles 0:1 (colors, multiplicities)",
    ),
    ("queens12_s1", "queens 12 with random tie breaks (s1)"),
];

/// The input text and extra dlx3 arguments of kind `name` (see [`KINDS`]).
pub fn kind_input(name: &str) -> Option<(String, &'static [&'static str])> {
    Some(match name {
        "queens12" => (queens_dlx(12), &[]),
        "diag01_11" => (queens_diag01_dlx(11), &[]),
        "k8_queens9" => (queens_k_dlx(9, 8), &[]),
        "pent3x20" => (pentominoes_dlx(3, 20), &[]),
        "edges2x4" => (edge_matching_dlx(2, 4, 2), &[]),
        "queens12_s1" => (queens_dlx(12), &["s1"]),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_matching_shape() {
        let text = edge_matching_dlx(2, 2, 2);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2 + 4 * 16);
        assert!(lines[1].starts_with("x0y0 x0y1 x1y0 x1y1 0:1|t0 "));
        assert!(lines[1].ends_with("| h0_0 h0_1 v0_0 v1_0"));
        // tile 6 = (a, b, b, a): at the top-left cell only its south and east edges matter
        assert!(lines.contains(&"x0y0 t6 h0_0:b v0_0:b"));
        assert!(lines.contains(&"x1y1 t6 h0_1:a v1_0:a"));
    }

    /// The generators' problems have the solution counts known from the literature
    /// (n-queens: OEIS A000170; domino tilings of 4x4 and 6x6: 36 and 6728).
    #[test]
    fn engine_counts_known_problems() {
        for (n, sols) in [(1, 1), (4, 2), (5, 10), (6, 4), (8, 92)] {
            let stats = count(queens_dlx(n).as_bytes(), quiet_settings()).expect("queens");
            assert_eq!(stats.count, sols, "queens {n}");
        }
        let stats = count(dominoes_dlx(4, 4).as_bytes(), quiet_settings()).expect("dominoes");
        assert_eq!(stats.count, 36);
        let stats = count(dominoes_dlx(6, 6).as_bytes(), quiet_settings()).expect("dominoes");
        assert_eq!(stats.count, 6728);
        // 8x8 with exactly 8 queens among 0:1 lines = the 92 solutions again
        let stats = count(queens_k_dlx(8, 8).as_bytes(), quiet_settings()).expect("k-queens");
        assert_eq!(stats.count, 92);
    }

    /// Pentominoes into 3x20: the X's positions and the 8 packings (2 up to the board's
    /// symmetries).
    #[test]
    fn pentominoes_pack_3x20() {
        let text = pentominoes_dlx(3, 20);
        assert!(text.starts_with("F I L N P T U V W X Y Z 0_0 0_1 "));
        // X fits only in the middle row: 18 positions, one orientation.
        assert_eq!(text.lines().filter(|l| l.starts_with('X')).count(), 18);
        let stats = count(text.as_bytes(), quiet_settings()).expect("pentominoes");
        assert_eq!(stats.count, 8);
        // Every kind of input parses and has solutions.
        for (name, _) in KINDS {
            assert!(kind_input(name).is_some(), "{name}");
        }
    }

    /// Edge matching with one colour has a single tile, usable once: only a 1x1 grid can be
    /// filled. With two colours the count follows by hand.
    #[test]
    fn edge_matching_with_one_colour() {
        assert_eq!(
            count(edge_matching_dlx(1, 1, 1).as_bytes(), quiet_settings()).map(|s| s.count),
            Ok(1)
        );
        assert_eq!(
            count(edge_matching_dlx(1, 2, 1).as_bytes(), quiet_settings()).map(|s| s.count),
            Ok(0)
        );
        // 2 colours, 1x2: the shared edge has 2 colours; the left tile is one of 8 with that
        // east colour, the right one of 8 with that west colour, and they must differ
        // (each tile at most once): 2 * (8*8 - 4) = 120 (4 tiles have east == west == c).
        assert_eq!(
            count(edge_matching_dlx(1, 2, 2).as_bytes(), quiet_settings()).map(|s| s.count),
            Ok(120)
        );
    }

    #[test]
    fn dominoes_shape() {
        assert_eq!(
            dominoes_dlx(2, 2),
            "0_0 0_1 1_0 1_1\n0_0 0_1\n0_0 1_0\n0_1 1_1\n1_0 1_1\n"
        );
        let big = dominoes_dlx(90, 100);
        assert_eq!(big.lines().next().map(|l| l.split(' ').count()), Some(9000));
        assert_eq!(big.lines().count(), 1 + 89 * 100 + 90 * 99);
    }
}
