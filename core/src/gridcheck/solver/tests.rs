//! Solver unit tests on known puzzles (the cross-check against an independent solver on
//! hundreds of puzzles lives in `cli/tests/sudoku_crosscheck.rs`).
use super::difference::grid_words;
use super::*;
use crate::gridcheck::cells::Cells;
use crate::gridcheck::grid::tests::GRID_A;
use crate::gridcheck::grid::Grid;
use crate::gridcheck::puzzle::Puzzle;
use core::ops::ControlFlow;
use std::vec::Vec;

/// Three 17-clue puzzles of the public list and their solutions.
const KNOWN: [(&[u8], &[u8]); 3] = [
    (
        b"000000010400000000020000000000050407008000300001090000300400200050100000000806000",
        GRID_A,
    ),
    (
        b"000000021005080000600000000000670300120000500400000000000201040003000000080000000",
        b"874356921315982467692417853958674312126893574437125689569231748243768195781549236",
    ),
    (
        b"000000102000300700000809000000500080200060000100000000000010600080040000030000070",
        b"895476132426351798317829546964537281278164359153982467549718623782643915631295874",
    ),
];

fn puzzle(text: &[u8]) -> Puzzle {
    Puzzle::parse(text).unwrap()
}

/// Whether `digits` is a valid grid that keeps every given of `p`.
fn is_solution_of(digits: &[u8; 81], p: &Puzzle) -> bool {
    Grid::from_digits(*digits).is_ok()
        && (0..81).all(|c| p.digit(c) == 0 || p.digit(c) == digits[c as usize])
}

#[test]
fn known_17s_are_unique_and_solved() {
    for (text, solution) in KNOWN {
        let p = puzzle(text);
        assert_eq!(count_solutions(&p, 2), 1);
        assert_eq!(count_solutions(&p, 0), 1);
        let s = solve(&p).unwrap();
        assert_eq!(&s[..], &Grid::parse(solution).unwrap().digits()[..]);
        assert_eq!(solve_and_count(&p, 2), (Some(s), 1));
        let g = Grid::parse(solution).unwrap();
        assert!(is_unique_with_grid(&g, p.givens()));
    }
}

#[test]
fn dropping_a_clue_gives_several_solutions() {
    for (text, solution) in KNOWN {
        let p = puzzle(text);
        let g = Grid::parse(solution).unwrap();
        for cell in p.givens().iter() {
            let mut q = p;
            q.set(cell, 0);
            assert_eq!(count_solutions(&q, 2), 2);
            assert_eq!(solve_and_count(&q, 2).1, 2);
            assert_eq!(solve_and_count(&q, 1).1, 1);
            assert_eq!(solve_and_count(&q, 5).1, count_solutions(&q, 5));
            assert!(!is_unique_with_grid(&g, q.givens()));
            // Up to 300 solutions: all valid, distinct, keeping the givens; the grid is the
            // first one when it is the known solution.
            let n = count_solutions(&q, 300);
            assert!(n >= 2, "a 16 from a 17 is never unique");
            let mut seen: Vec<[u8; 81]> = Vec::new();
            let visited = for_each_solution(&q, Some(&g), &mut |s| {
                seen.push(*s);
                if seen.len() == 300 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            assert_eq!(visited as usize, seen.len());
            assert_eq!(seen.len() as u32, n);
            assert_eq!(&seen[0], g.digits());
            assert!(seen.iter().all(|s| is_solution_of(s, &q)));
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len() as u32, n);
        }
    }
}

#[test]
fn empty_and_nearly_empty_puzzles_hit_the_limit() {
    assert_eq!(count_solutions(&Puzzle::EMPTY, 1000), 1000);
    let s = solve(&Puzzle::EMPTY).unwrap();
    assert!(Grid::from_digits(s).is_ok());
    let mut stopped_after = 0;
    let visited = for_each_solution(&Puzzle::EMPTY, None, &mut |_| {
        stopped_after += 1;
        if stopped_after == 5 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!(visited, 5);
}

#[test]
fn full_grid_has_one_solution() {
    let g = Grid::parse(GRID_A).unwrap();
    assert_eq!(count_solutions(&Puzzle::from_grid(&g, Cells::ALL), 0), 1);
    assert!(is_unique_with_grid(&g, Cells::ALL));
    assert!(!is_unique_with_grid(&g, Cells::EMPTY));
}

#[test]
fn invalid_puzzles_have_no_solution() {
    // Two 5s in row 1.
    let mut text = [b'0'; 81];
    text[0] = b'5';
    text[8] = b'5';
    assert_eq!(count_solutions(&puzzle(&text), 0), 0);
    assert_eq!(solve(&puzzle(&text)), None);
    assert_eq!(solve_and_count(&puzzle(&text), 2), (None, 0));
    // Two 5s in column 1, different bands.
    let mut text = [b'0'; 81];
    text[0] = b'5';
    text[72] = b'5';
    assert_eq!(count_solutions(&puzzle(&text), 0), 0);
    // Two 5s in box 1, different rows and columns.
    let mut text = [b'0'; 81];
    text[0] = b'5';
    text[10] = b'5';
    assert_eq!(count_solutions(&puzzle(&text), 0), 0);
    // No clash among givens, but cell r1c1 has no candidate: 1..8 in row 1, 9 in column 1.
    let mut text = [b'0'; 81];
    for (c, d) in (1..9).zip(b'1'..=b'8') {
        text[c] = d;
    }
    text[36] = b'9';
    assert_eq!(count_solutions(&puzzle(&text), 0), 0);
    // A 17 with one given changed to a digit the solution does not have there.
    let (text, _) = KNOWN[0];
    let mut p = puzzle(text);
    let cell = p.givens().lowest().unwrap();
    p.set(cell, p.digit(cell) % 9 + 1);
    let n = count_solutions(&p, 0);
    let mut all_valid = true;
    for_each_solution(&p, None, &mut |s| {
        all_valid &= is_solution_of(s, &p);
        ControlFlow::Continue(())
    });
    assert!(all_valid);
    assert!(n != 1 || solve(&p).is_some());
}

#[test]
fn grid_awareness_does_not_change_counts() {
    let (text, solution) = KNOWN[1];
    let p = puzzle(text);
    let g = Grid::parse(solution).unwrap();
    // Blank 4 digits of the grid: many solutions; with or without the known grid the
    // enumeration finds the same set.
    let mut givens = Cells::ALL;
    for d in 1..=4 {
        givens -= g.cells_of_digit(d);
    }
    let q = Puzzle::from_grid(&g, givens);
    let mut with: Vec<[u8; 81]> = Vec::new();
    let mut without: Vec<[u8; 81]> = Vec::new();
    for_each_solution(&q, Some(&g), &mut |s| {
        with.push(*s);
        ControlFlow::Continue(())
    });
    for_each_solution(&q, None, &mut |s| {
        without.push(*s);
        ControlFlow::Continue(())
    });
    assert!(with.len() > 1);
    assert_eq!(&with[0], g.digits());
    with.sort_unstable();
    without.sort_unstable();
    assert_eq!(with, without);
    let _ = p;
}

#[test]
fn start_board_rejects_clashing_givens() {
    use super::board::Board;
    // Same digit twice in a row, a column, a box; one cell with two digits.
    for givens in [
        [(0u8, 5u8), (8, 5)],
        [(0, 5), (72, 5)],
        [(0, 5), (10, 5)],
        [(40, 1), (40, 2)],
    ] {
        assert!(
            Board::with_givens(givens.into_iter()).is_none(),
            "{givens:?}"
        );
    }
    // The same given twice, and out-of-range entries, are harmless.
    assert!(
        Board::with_givens([(40u8, 3u8), (40, 3), (81, 1), (3, 0), (4, 10)].into_iter()).is_some()
    );
    // Built at once or placed one by one: the same candidates.
    let p = puzzle(KNOWN[2].0);
    let at_once = Board::with_givens(p.givens().iter().map(|c| (c, p.digit(c)))).unwrap();
    let mut one_by_one = Board::EMPTY;
    for c in p.givens().iter() {
        assert!(one_by_one.place(p.digit(c) as usize - 1, c as usize));
    }
    assert_eq!(at_once.cand, one_by_one.cand);
    assert_eq!(at_once.unsolved, one_by_one.unsolved);
}

#[test]
fn small_stack_reports_overflow_instead_of_a_wrong_count() {
    use super::search::{Search, FULL_DEPTH};
    let mut tiny = Search::<2>::new(core::iter::empty(), None);
    let n = tiny.count(10);
    assert!(
        tiny.overflowed(),
        "the empty puzzle needs more than two pending guesses"
    );
    assert!(n < 10);
    let mut full = Search::<FULL_DEPTH>::new(core::iter::empty(), None);
    assert_eq!(full.count(10), 10);
    assert!(!full.overflowed());
    // The public calls fall back to the full stack.
    assert_eq!(count_solutions(&Puzzle::EMPTY, 10), 10);
}

#[test]
fn overflowed_search_resumes_on_a_larger_stack() {
    use super::search::{Search, FULL_DEPTH};
    // The first 40 solutions of the empty puzzle, on the full stack from the start.
    let mut full = Search::<FULL_DEPTH>::new(core::iter::empty(), None);
    let mut expected: Vec<[u8; 81]> = Vec::new();
    while expected.len() < 40 && full.advance() {
        expected.push(full.solution());
    }
    // A 3-entry stack overflows before the first solution; a 12-entry stack, then the full
    // one, each go on from there: the same solutions in the same order, none twice.
    let mut tiny = Search::<3>::new(core::iter::empty(), None);
    let mut got: Vec<[u8; 81]> = Vec::new();
    while tiny.advance() {
        got.push(tiny.solution());
    }
    assert!(tiny.overflowed());
    let mut same = Search::<3>::idle();
    assert!(!same.take_over(&tiny), "no larger");
    let mut middle = Search::<12>::idle();
    assert!(middle.take_over(&tiny));
    while got.len() < 40 && middle.advance() {
        got.push(middle.solution());
    }
    if middle.overflowed() {
        let mut rest = Search::<FULL_DEPTH>::idle();
        assert!(rest.take_over(&middle));
        while got.len() < 40 && rest.advance() {
            got.push(rest.solution());
        }
    }
    assert_eq!(got, expected);
    // A search that did not overflow cannot be taken over.
    let g = Grid::parse(GRID_A).unwrap();
    let digits = g.digits();
    let mut whole = Search::<3>::new((0..81u8).map(|c| (c, digits[c as usize])), None);
    assert_eq!(whole.count(0), 1);
    assert!(!whole.overflowed());
    let mut idle = Search::<12>::idle();
    assert!(!idle.take_over(&whole));
    assert!(!idle.advance(), "an idle search has nothing to find");
}

/// A small deterministic generator (xorshift64*) for the randomised tests.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// `count` distinct random cells.
fn random_cells(rng: &mut Rng, count: u32) -> Cells {
    let mut cells = Cells::EMPTY;
    while cells.len() < count {
        cells.insert(rng.below(81) as u8);
    }
    cells
}

/// A random grid equivalent to one of the known solutions: digits relabelled, bands and
/// rows within bands shuffled, maybe transposed.
fn random_grid(rng: &mut Rng) -> Grid {
    let base = Grid::parse(KNOWN[rng.below(3) as usize].1).unwrap();
    let mut relabel: [u8; 10] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    for i in (2..10).rev() {
        relabel.swap(i, 1 + rng.below(i as u64) as usize);
    }
    let mut rows: [usize; 9] = [0; 9];
    let mut bands = [0usize, 1, 2];
    bands.swap(2, rng.below(3) as usize);
    bands.swap(1, rng.below(2) as usize);
    for (b, &band) in bands.iter().enumerate() {
        let mut within = [0usize, 1, 2];
        within.swap(2, rng.below(3) as usize);
        within.swap(1, rng.below(2) as usize);
        for r in 0..3 {
            rows[b * 3 + r] = band * 3 + within[r];
        }
    }
    let transpose = rng.below(2) == 1;
    let mut digits = [0u8; 81];
    for (cell, digit) in digits.iter_mut().enumerate() {
        let (r, c) = (rows[cell / 9], cell % 9);
        let (r, c) = if transpose { (c, r) } else { (r, c) };
        *digit = relabel[base.digits()[r * 9 + c] as usize];
    }
    Grid::from_digits(digits).unwrap()
}

#[test]
fn known_solution_path_agrees_with_counting_to_two() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut unique, mut several) = (0, 0);
    for _ in 0..3000 {
        let grid = random_grid(&mut rng);
        // 22..=50 clues: from mostly several solutions to mostly unique.
        let clues = 22 + rng.below(29) as u32;
        let givens = random_cells(&mut rng, clues);
        let expected = count_solutions(&Puzzle::from_grid(&grid, givens), 2) == 1;
        assert_eq!(
            is_unique_with_grid(&grid, givens),
            expected,
            "grid {:?} givens {:?}",
            grid.digits(),
            givens
        );
        if expected {
            unique += 1;
        } else {
            several += 1;
        }
    }
    // Both answers must be well represented for the comparison to mean something.
    assert!(
        unique > 500 && several > 500,
        "{unique} unique, {several} not"
    );
    // The known 17s and their 16s, with the search's own grids.
    for (text, solution) in KNOWN {
        let p = puzzle(text);
        let g = Grid::parse(solution).unwrap();
        assert!(super::unique::is_unique(&g, p.givens()));
        for cell in p.givens().iter() {
            assert!(!super::unique::is_unique(
                &g,
                p.givens() - Cells::single(cell)
            ));
        }
    }
}

#[test]
fn two_digits_claiming_one_cell_in_a_round_is_a_contradiction() {
    use super::board::{Board, Status};
    // Digits 1 and 2 may only go on r1c1 in row 1: both are hidden singles on the same cell
    // in the first round of the band rule.
    let mut board = Board::EMPTY;
    for d in 0..2 {
        for cell in 1..9 {
            board.forbid(d, cell);
        }
    }
    assert_eq!(board.propagate(), Status::Contradiction);
    // Only digit 1 restricted that way: r1c1 = 1 and the board stays open.
    let mut board = Board::EMPTY;
    for cell in 1..9 {
        board.forbid(0, cell);
    }
    assert_eq!(board.propagate(), Status::Open);
    assert!(board.allows(0, 0));
    assert!((1..9).all(|d| !board.allows(d, 0)));
}

#[test]
fn grid_start_board_matches_the_general_one() {
    use super::board::Board;
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for _ in 0..500 {
        let grid = random_grid(&mut rng);
        let clues = rng.below(82) as u32;
        let givens = random_cells(&mut rng, clues);
        let digits = grid.digits();
        let general = Board::with_givens(givens.iter().map(|c| (c, digits[c as usize])))
            .expect("a grid's digits never clash");
        let from_grid = Board::with_grid_givens(&grid, givens);
        assert_eq!(from_grid.cand, general.cand, "{givens:?}");
        assert_eq!(from_grid.unsolved, general.unsolved);
    }
}

#[test]
fn open_boards_have_no_singles_left() {
    use super::board::{word, Board, Status};
    // Whatever path led to it (new board, guesses, forbidden digits), a board that
    // propagation leaves open has no unplaced cell with one candidate and no digit with one
    // possible cell left in a column: the singles checks skip unchanged words only.
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let mut open = 0;
    for _ in 0..400 {
        let grid = random_grid(&mut rng);
        let clues = 18 + rng.below(12) as u32;
        let digits = grid.digits();
        let givens = random_cells(&mut rng, clues);
        let mut board = Board::with_grid_givens(&grid, givens);
        for _ in 0..6 {
            if board.propagate() != Status::Open {
                break;
            }
            open += 1;
            for b in 0..3 {
                for p in 0..27 {
                    if board.unsolved[b] >> p & 1 == 1 {
                        let n = (0..9).filter(|&d| board.cand[word(d, b)] >> p & 1 == 1);
                        assert!(n.count() >= 2, "naked single left at {}", b * 27 + p);
                    }
                }
            }
            for d in 0..9 {
                for c in 0..9 {
                    let cells = (0..81).filter(|&cell| cell % 9 == c && board.allows(d, cell));
                    let unplaced = cells
                        .clone()
                        .filter(|&cell| board.unsolved[cell / 27] >> (cell % 27) & 1 == 1);
                    if cells.count() == 1 {
                        assert_eq!(unplaced.count(), 0, "column single left: digit {d}");
                    }
                }
            }
            // Go on like the search: forbid or place a candidate (the grid's digit while it
            // is one) on an open cell.
            let cell = board.guess_cell().unwrap();
            let grid_digit = digits[cell] as usize - 1;
            let d = if board.allows(grid_digit, cell) {
                grid_digit
            } else {
                board.first_candidate(cell).unwrap()
            };
            if rng.below(2) == 0 {
                board.forbid(d, cell);
            } else {
                assert!(board.place(d, cell));
            }
        }
    }
    assert!(open > 300, "{open} open boards checked");
}

#[test]
fn differences_are_the_cells_that_lost_the_grid_digit() {
    let grid = Grid::parse(GRID_A).unwrap();
    let words = grid_words(&grid);
    let mut board = board::Board::EMPTY;
    assert_eq!(board.differences(&words), 0);
    // Forbid the grid's digit on a spread of cells: every digit (so every word of a band,
    // digit 9 included) and every band is hit.
    let mut expected = 0u128;
    for cell in (0..81).step_by(7) {
        let d = grid.digits()[cell] as usize - 1;
        board.forbid(d, cell);
        expected |= 1 << cell;
        // Another digit lost elsewhere changes nothing.
        let other = (cell + 3) % 81;
        board.forbid(grid.digits()[other] as usize % 9, other);
        assert_eq!(board.differences(&words), expected, "after cell {cell}");
    }
}

#[test]
fn for_each_difference_asks_the_same_prune_question_once_between_finds() {
    // A sink that prunes nothing and counts the questions repeated since the last find
    // (`prune` takes `&self`, hence the cell).
    struct Record {
        last_asked: core::cell::Cell<Option<Cells>>,
        repeated: core::cell::Cell<u32>,
        found: u64,
    }
    impl DifferenceSink for Record {
        fn prune(&self, cells: Cells) -> bool {
            if self.last_asked.replace(Some(cells)) == Some(cells) {
                self.repeated.set(self.repeated.get() + 1);
            }
            false
        }
        fn found(&mut self, _: Cells) -> ControlFlow<()> {
            self.found += 1;
            self.last_asked.set(None);
            ControlFlow::Continue(())
        }
    }
    let grid = Grid::parse(GRID_A).unwrap();
    let blanks = grid.cells_of_digit(1) | grid.cells_of_digit(2) | grid.cells_of_digit(3);
    let mut record = Record {
        last_asked: None.into(),
        repeated: 0.into(),
        found: 0,
    };
    let passed = for_each_difference(&grid, blanks.complement(), &mut record);
    assert!(passed > 1);
    assert_eq!(record.found, passed);
    assert_eq!(record.repeated.get(), 0);
}

#[test]
fn for_each_difference_goes_on_past_its_short_stack() {
    // A pseudo-puzzle whose search goes deeper than the short stack the enumeration starts
    // on: the differences passed are those of every other solution, in the order of a
    // search on the full stack from the start.
    use super::difference::SHORT_DEPTH;
    use super::search::{Search, FULL_DEPTH};
    struct Collect(Vec<Cells>);
    impl DifferenceSink for Collect {
        fn prune(&self, _: Cells) -> bool {
            false
        }
        fn found(&mut self, diff: Cells) -> ControlFlow<()> {
            self.0.push(diff);
            ControlFlow::Continue(())
        }
    }
    let grid = Grid::parse(GRID_A).unwrap();
    let blanks = (1..=5).fold(Cells::EMPTY, |acc, d| acc | grid.cells_of_digit(d));
    let givens = || {
        blanks
            .complement()
            .iter()
            .map(|c| (c, grid.digits()[c as usize]))
    };
    let mut short = Search::<SHORT_DEPTH>::new(givens(), Some(grid.digits()));
    while short.advance() {}
    assert!(
        short.overflowed(),
        "the case must need more than the short stack"
    );
    let words = grid_words(&grid);
    let mut full = Search::<FULL_DEPTH>::new(givens(), Some(grid.digits()));
    let mut expected = Vec::new();
    while full.advance() {
        let diff = Cells(full.board().differences(&words));
        if !diff.is_empty() {
            expected.push(diff);
        }
    }
    assert!(!full.overflowed() && expected.len() > 1);
    let mut collect = Collect(Vec::new());
    let passed = for_each_difference(&grid, blanks.complement(), &mut collect);
    assert_eq!(passed, expected.len() as u64);
    assert_eq!(collect.0, expected);
}

#[test]
fn for_each_difference_keeps_the_grid_digit_where_the_sink_says() {
    // A sink that prunes nothing and names fixed sets of cells: cells that must keep the
    // grid's digit, and cells to guess on first. Exactly the solutions that keep the
    // grid's digit on the first are passed (those of a plain search, less the ones that
    // change one of them), each once; the second changes the order, not the solutions.
    struct Keep {
        keep: Cells,
        try_first: Cells,
        found: Vec<Cells>,
    }
    impl DifferenceSink for Keep {
        fn prune(&self, _: Cells) -> bool {
            false
        }
        fn keep_or_prune(&self, _: Cells) -> Option<(Cells, Cells)> {
            Some((self.keep, self.try_first))
        }
        fn found(&mut self, diff: Cells) -> ControlFlow<()> {
            self.found.push(diff);
            ControlFlow::Continue(())
        }
    }
    let grid = Grid::parse(GRID_A).unwrap();
    let blanks = (1..=4).fold(Cells::EMPTY, |acc, d| acc | grid.cells_of_digit(d));
    let run = |keep: Cells, try_first: Cells| {
        let mut sink = Keep {
            keep,
            try_first,
            found: Vec::new(),
        };
        let passed = for_each_difference(&grid, blanks.complement(), &mut sink);
        assert_eq!(passed, sink.found.len() as u64);
        sink.found
    };
    let all = run(Cells::EMPTY, Cells::EMPTY);
    // The blank cells of the last band first.
    let last_band = Cells(Cells::ALL.0 >> 54 << 54) & blanks;
    let sorted = |mut found: Vec<Cells>| {
        found.sort();
        found
    };
    let reordered = run(Cells::EMPTY, last_band);
    assert_ne!(reordered, all);
    assert_eq!(sorted(reordered), sorted(all.clone()));
    // A cell of the first difference and one of the last, and a given (already placed:
    // nothing to do there).
    let cell_of = |d: Cells| d.lowest().map_or(Cells::EMPTY, Cells::single);
    let keep = cell_of(all[0]) | cell_of(all[all.len() - 1]) | cell_of(blanks.complement());
    let expected: Vec<Cells> = all
        .iter()
        .copied()
        .filter(|d| d.is_disjoint(keep))
        .collect();
    assert!(expected.len() > 1 && expected.len() < all.len());
    assert_eq!(sorted(run(keep, Cells::EMPTY)), sorted(expected.clone()));
    assert_eq!(sorted(run(keep, last_band)), sorted(expected));
}
