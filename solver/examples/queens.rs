//! The n-queens problem built in code: count its solutions on every core, and draw the
//! first one. `cargo run -p xcover-solver --example queens -- 10`
use xcover_solver::{Entry, Error, Problem};

/// n queens on an n x n board, none attacking another: every row and column holds one
/// queen (primary items), every diagonal at most one (secondary items).
fn queens(n: usize) -> Result<Problem, Error> {
    let mut b = Problem::builder();
    for i in 0..n {
        b = b.primary(format!("row {i}")).primary(format!("column {i}"));
    }
    for d in 0..2 * n - 1 {
        b = b
            .secondary(format!("diagonal {d}"))
            .secondary(format!("antidiagonal {d}"));
    }
    for r in 0..n {
        for c in 0..n {
            b = b.option([
                Entry::new(format!("row {r}")),
                Entry::new(format!("column {c}")),
                Entry::new(format!("diagonal {}", r + c)),
                Entry::new(format!("antidiagonal {}", n - 1 + r - c)),
            ]);
        }
    }
    b.build()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = match std::env::args().nth(1) {
        Some(arg) => arg
            .parse()
            .map_err(|_| format!("not a board size: {arg}"))?,
        None => 8,
    };
    if n == 0 {
        return Err("the board needs at least one square".into());
    }
    let problem = queens(n)?;
    let stats = problem.solver().threads(0).run()?;
    println!(
        "{n} queens: {} solutions ({} mems, {} nodes)",
        stats.solutions, stats.mems, stats.nodes
    );
    if let Some(first) = problem.solutions().next() {
        // Option r * n + c puts a queen on row r, column c.
        let mut board = vec![vec!['.'; n]; n];
        for &option in first?.options() {
            board[option / n][option % n] = 'Q';
        }
        for row in board {
            println!("{}", row.into_iter().collect::<String>());
        }
    }
    Ok(())
}
