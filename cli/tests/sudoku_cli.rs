//! `xcover sudoku solve|count` through the real binary, on puzzles of the shared 17-clue list
//! (`../shared/data/sudoku17.txt` beside the repository; never copied into it).
mod common;
use common::{sudoku17, xcover};

/// Every row, column and box of an 81-digit string is a permutation of 1..9.
fn is_valid_grid(s: &str) -> bool {
    let d: Vec<u8> = s.bytes().collect();
    if d.len() != 81 || d.iter().any(|b| !(b'1'..=b'9').contains(b)) {
        return false;
    }
    (0..9).all(|h| {
        let row: Vec<u8> = (0..9).map(|i| d[h * 9 + i]).collect();
        let col: Vec<u8> = (0..9).map(|i| d[i * 9 + h]).collect();
        let bx: Vec<u8> = (0..9)
            .map(|i| d[(h / 3 * 3 + i / 3) * 9 + h % 3 * 3 + i % 3])
            .collect();
        [row, col, bx].iter().all(|u| {
            let mut u = u.clone();
            u.sort_unstable();
            u == b"123456789"
        })
    })
}

#[test]
fn solve_prints_valid_solutions_keeping_the_givens() {
    let Some(lines) = sudoku17() else {
        return;
    };
    let sample: Vec<&String> = lines.iter().step_by(97).take(500).collect();
    let input: String = sample.iter().map(|l| format!("{l}\n")).collect();
    let out = xcover(&["sudoku", "solve"], &input);
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let solutions: Vec<&str> = stdout.lines().collect();
    assert_eq!(solutions.len(), sample.len());
    for (puzzle, solution) in sample.iter().zip(&solutions) {
        assert!(is_valid_grid(solution), "{puzzle} -> {solution}");
        for (p, s) in puzzle.bytes().zip(solution.bytes()) {
            assert!(p == b'0' || p == b'.' || p == s, "{puzzle} -> {solution}");
        }
    }
}

/// A `count` line as a number, or `None` for the line of a count stopped at `limit`.
fn count_value(line: &str, limit: u32) -> Option<u32> {
    let stopped =
        format!("more than {limit} (stopped at the limit; raise it with --limit N, 0 for none)");
    if line == stopped {
        return None;
    }
    Some(
        line.parse()
            .unwrap_or_else(|_| panic!("not a count: {line}")),
    )
}

#[test]
fn count_gives_one_for_17s_and_more_for_16s() {
    let Some(lines) = sudoku17() else {
        return;
    };
    let mut input = String::new();
    for l in lines.iter().step_by(1001).take(40) {
        input.push_str(l);
        input.push('\n');
        // The same puzzle with its first given removed: a 16 from a 17 is never unique.
        let first = l.bytes().position(|b| b != b'0').unwrap();
        let mut sixteen = l.clone().into_bytes();
        sixteen[first] = b'.';
        input.push_str(std::str::from_utf8(&sixteen).unwrap());
        input.push('\n');
    }
    let out = xcover(&["sudoku", "count", "--limit", "50"], &input);
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let counts: Vec<Option<u32>> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| count_value(l, 50))
        .collect();
    assert_eq!(counts.len(), 80);
    for pair in counts.chunks(2) {
        assert_eq!(pair[0], Some(1));
        if let Some(n) = pair[1] {
            assert!((2..=50).contains(&n), "{pair:?}");
        }
    }
}

/// A count equal to the limit is printed as the count; one more solution than the limit
/// gives the `more than` line, never a number.
#[test]
fn count_at_the_limit_is_exact_and_past_it_is_no_number() {
    // The 16s of a 17-clue puzzle (one given removed each): several solutions each.
    const P17: &str =
        "000000010400000000020000000000050407008000300001090000300400200050100000000806000";
    let sixteens: Vec<String> = (0..81)
        .filter(|&i| P17.as_bytes()[i] != b'0')
        .map(|i| format!("{}0{}", &P17[..i], &P17[i + 1..]))
        .collect();
    assert_eq!(sixteens.len(), 17);
    let input: String = sixteens.iter().map(|s| format!("{s}\n")).collect();
    let out = xcover(&["sudoku", "count", "--limit", "0"], &input);
    assert!(out.status.success());
    let exact: Vec<u32> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(exact.len(), sixteens.len());
    for (sixteen, &n) in sixteens.iter().zip(&exact) {
        assert!(n >= 2, "{sixteen}: {n}");
        let at = |limit: u32| {
            let out = xcover(
                &["sudoku", "count", "--limit", &limit.to_string()],
                &format!("{sixteen}\n"),
            );
            assert!(out.status.success());
            count_value(String::from_utf8(out.stdout).unwrap().trim_end(), limit)
        };
        assert_eq!(at(n), Some(n), "{sixteen}");
        assert_eq!(at(n - 1), None, "{sixteen}");
    }
}

/// An empty grid has far more solutions than the default limit: the line says so.
#[test]
fn count_of_an_empty_grid_is_not_the_default_limit() {
    let out = xcover(&["sudoku", "count"], &format!("{}\n", ".".repeat(81)));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "more than 1000000 (stopped at the limit; raise it with --limit N, 0 for none)\n"
    );
}

#[test]
fn bad_lines_name_their_line_and_fail() {
    let Some(lines) = sudoku17() else {
        return;
    };
    let mut bad_char = lines[0].clone().into_bytes();
    bad_char[40] = b'x';
    let input = format!(
        "{}\n{}\n\n{}\n",
        lines[0],
        String::from_utf8(bad_char).unwrap(),
        &lines[1][..80]
    );
    for args in [&["sudoku", "solve"][..], &["sudoku", "count"][..]] {
        let out = xcover(args, &input);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("line 2: character 41 (row 5, column 5): unexpected `x`"),
            "{stderr}"
        );
        assert!(
            stderr.contains("line 4: expected 81 characters, found 80"),
            "{stderr}"
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        let rows: Vec<&str> = stdout.lines().collect();
        assert_eq!(rows.len(), 3);
        assert_eq!(&rows[1..], ["error", "error"]);
    }
}

#[test]
fn solve_flags_multiple_and_no_solutions() {
    let out = xcover(
        &["sudoku", "solve"],
        &format!("{}\n11{}\n", ".".repeat(81), ".".repeat(79)),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "multiple solutions\nno solution\n"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("line 1: more than one solution") && stderr.contains("line 2: no solution")
    );
}

#[test]
fn usage_errors_exit_2() {
    let out = xcover(&["sudoku", "frobnicate"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = xcover(&["sudoku", "count", "--limit", "-3"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = xcover(&["sudoku", "--help"], "");
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("solve"));
}
