//! The CLI's UA files: a saved and reloaded list scans the same, and a set that is no UA
//! of the grid is refused with its line number.
mod common;

use std::collections::BTreeSet;

use common::{grid_of, sudoku17, Pick, Rng};
use xcover_cli::gridcheck::{runner, ua_source};
use xcover_core::gridcheck::scan::{ClueMask, ScanOptions};
use xcover_core::gridcheck::{Cells, Grid};

/// Random pseudo-puzzles for the tests' UA lists (a pruning device only).
const TEST_UA_RANDOM: u32 = 100;

fn scan_set(grid: &Grid, uas: &[Cells], options: &ScanOptions) -> BTreeSet<Cells> {
    let scanned = runner::scan_puzzles(grid, uas, options, 2).expect("scan runs");
    scanned.puzzles.into_iter().collect()
}

#[test]
fn loaded_ua_list_gives_same_results_and_wrong_ua_is_refused() {
    let Some(lines) = sudoku17() else { return };
    let (puzzle, grid) = grid_of(&lines[3]);
    let mut rng = Rng(5);
    let forced = rng.pick(puzzle.givens(), 11);
    let generated = ua_source::generate(&grid, TEST_UA_RANDOM, 11, forced).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ua.txt");
    ua_source::save(&path, &generated).unwrap();
    let loaded = ua_source::load(&path, &grid, 1 << 30).unwrap();
    assert_eq!(loaded, generated);
    let mut opts = ScanOptions::new(17);
    opts.mask = ClueMask {
        givens: forced,
        empties: Cells::EMPTY,
    };
    let from_generated = scan_set(&grid, &generated, &opts);
    let from_loaded = scan_set(&grid, &loaded, &opts);
    assert_eq!(from_generated, from_loaded);
    assert!(from_loaded.contains(&puzzle.givens()));
    // A set that is not a UA: the cells of one row (blanking a row leaves one solution).
    let mut text = std::fs::read_to_string(&path).unwrap();
    let row: String = (0..81).map(|c| if c < 9 { '1' } else { '0' }).collect();
    text.push_str(&row);
    text.push('\n');
    std::fs::write(&path, text).unwrap();
    let err = ua_source::load(&path, &grid, 1 << 30)
        .unwrap_err()
        .to_string();
    assert!(err.contains("not an unavoidable set"), "{err}");
    assert!(
        err.contains(&format!("line {}", generated.len() + 1)),
        "{err}"
    );
    // `{rc,...}` lines are read too.
    std::fs::write(&path, "{11,12,13,14,15,16,17,18,19}\n").unwrap();
    assert!(ua_source::load(&path, &grid, 1 << 30).is_err());
}
