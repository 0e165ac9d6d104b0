//! The `xcover-solver` crate against the `xcover` command it stands beside: the grid
//! checker on the repository's example grid and mask (`examples/grid.txt`,
//! `examples/grid.mask`, as the README runs them), and the Sudoku solver and counter on
//! puzzles derived from the shared 17-clue list; same puzzles, same answers, line by line.
use xcover_solver::gridcheck::GridCheck;
use xcover_solver::sudoku::{self, Grid, Puzzle};

mod common;
use common::{gridcheck, sudoku17, xcover, Rng};

fn example(name: &str) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/");
    std::fs::read_to_string(format!("{path}{name}")).unwrap()
}

#[test]
fn gridcheck_finds_the_commands_puzzles_on_the_example_grid() {
    let grid_text = example("grid.txt");
    let mask = example("grid.mask");
    let grid = Grid::parse(&grid_text).unwrap();
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/grid.txt");
    for (clues, minimal) in [(17, false), (18, true), (18, false)] {
        let clue_arg = clues.to_string();
        let mut args = vec!["--clues", &clue_arg, "--mask", mask.trim(), "--file", file];
        if minimal {
            args.push("--minimal");
        }
        let out = gridcheck(&args).output().unwrap();
        assert!(out.status.success(), "{}", common::stderr(&out));
        let command: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        assert!(
            !command.is_empty(),
            "{clues} clues: the command finds puzzles"
        );
        for threads in [1, 2] {
            let found: Vec<String> = GridCheck::new(&grid)
                .clues(clues)
                .mask(&mask)
                .unwrap()
                .minimal(minimal)
                .threads(threads)
                .puzzles()
                .unwrap()
                .iter()
                .map(Puzzle::to_string)
                .collect();
            assert_eq!(
                found, command,
                "{clues} clues, minimal {minimal}, {threads} threads"
            );
        }
    }
}

#[test]
fn sudoku_answers_as_the_command_does() {
    let Some(list) = sudoku17() else {
        eprintln!("skipped: the shared 17-clue list is not beside the repository");
        return;
    };
    // The 17s, some with a clue dropped (several solutions), some with a clue changed
    // (often none).
    let mut rng = Rng(38);
    let mut puzzles = Vec::new();
    for line in list.iter().take(60) {
        puzzles.push(line.clone());
        let mut cells: Vec<u8> = line.bytes().collect();
        let givens: Vec<usize> = (0..81).filter(|&i| cells[i] != b'0').collect();
        let i = givens[rng.below(givens.len())];
        let old = cells[i];
        cells[i] = b'0';
        puzzles.push(String::from_utf8(cells.clone()).unwrap());
        cells[i] = b'1' + (old - b'0') % 9;
        puzzles.push(String::from_utf8(cells).unwrap());
    }
    let input = puzzles.join("\n") + "\n";
    let solved = xcover(&["sudoku", "solve"], &input);
    let counted = xcover(&["sudoku", "count", "--limit", "5"], &input);
    let solved = String::from_utf8(solved.stdout).unwrap();
    let counted = String::from_utf8(counted.stdout).unwrap();
    let (solved, counted): (Vec<&str>, Vec<&str>) =
        (solved.lines().collect(), counted.lines().collect());
    assert_eq!(
        (solved.len(), counted.len()),
        (puzzles.len(), puzzles.len())
    );
    let mut kinds = [0; 3];
    for (i, text) in puzzles.iter().enumerate() {
        let p = Puzzle::parse(text).unwrap();
        let mine = match (sudoku::solve(&p), sudoku::count(&p, 2)) {
            (Some(grid), 1) => grid.to_string(),
            (None, _) => "no solution".to_string(),
            _ => "multiple solutions".to_string(),
        };
        assert_eq!(mine, solved[i], "{text}");
        kinds
            [usize::from(mine == "no solution") + 2 * usize::from(mine == "multiple solutions")] +=
            1;
        let count = sudoku::count(&p, 6);
        let mine = if count > 5 {
            counted[i].to_string()
        } else {
            count.to_string()
        };
        assert_eq!(mine, counted[i], "{text}");
        if count > 5 {
            assert!(counted[i].starts_with("more than 5"), "{text}");
        }
    }
    assert!(
        kinds.iter().all(|&k| k > 0),
        "every answer occurs: {kinds:?}"
    );
}
