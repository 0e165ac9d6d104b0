//! Solve Sudoku puzzles (81 characters a line, `0` or `.` for an empty cell) from the
//! arguments, or a 17-clue puzzle when none is given; then list the 17-clue puzzles of
//! the repository's example grid with its clue mask.
//! `cargo run -p xcover-solver --example sudoku -- PUZZLE...`
use xcover_solver::gridcheck::GridCheck;
use xcover_solver::sudoku::{self, Grid, Puzzle};

const SEVENTEEN: &str =
    "000000010400000000020000000000050407008000300001090000300400200050100000000806000";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut puzzles: Vec<String> = std::env::args().skip(1).collect();
    if puzzles.is_empty() {
        puzzles.push(SEVENTEEN.into());
    }
    for text in &puzzles {
        let puzzle = Puzzle::parse(text)?;
        match (sudoku::solve(&puzzle), sudoku::count(&puzzle, 2)) {
            (Some(grid), 1) => println!("{grid}"),
            (Some(_), _) => println!("multiple solutions"),
            (None, _) => println!("no solution"),
        }
    }
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples");
    let grid = Grid::parse(&std::fs::read_to_string(format!("{dir}/grid.txt"))?)?;
    let mask = std::fs::read_to_string(format!("{dir}/grid.mask"))?;
    let found = GridCheck::new(&grid)
        .clues(17)
        .mask(&mask)?
        .threads(0)
        .puzzles()?;
    println!(
        "17-clue puzzles in examples/grid.txt under examples/grid.mask: {}",
        found.len()
    );
    for p in found {
        println!("{p}");
    }
    Ok(())
}
