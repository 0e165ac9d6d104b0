//! `xcover sudoku solve|count`: Sudoku puzzles on stdin, one per line.
//!
//! A puzzle line is 81 characters: `1`..`9` for a given, `0` or `.` for an empty cell
//! (surrounding whitespace and blank lines are ignored). Every non-blank input line gives
//! exactly one output line, so outputs stay aligned with inputs:
//!
//! * `solve`: the 81-digit solution, or `no solution`, `multiple solutions`, `error`;
//! * `count`: the number of solutions, or `more than N (stopped at the limit; ...)` when
//!   there are more than the `--limit` N, or `error`.
//!
//! Details (with the 1-based line number) go to stderr. The exit status is 0 when every line
//! was fine, 1 if any line was bad (unreadable, or for `solve` not exactly one solution),
//! 2 for a usage error.
use std::ffi::OsString;
use std::io::{self, Read, Write};

use clap::{Parser, Subcommand};

use crate::error::{CliError, Kind};
use xcover_solver::sudoku::{self, Puzzle};

/// Solve or count Sudoku puzzles read from stdin, one 81-character puzzle per line
/// (`1`-`9` givens, `0` or `.` empty).
#[derive(Parser, Debug)]
#[command(
    name = "xcover sudoku",
    version,
    after_help = "Exit status: 0 every line fine; 1 some line bad (unreadable, or for solve \
        not exactly one solution) or an I/O error; 2 usage error."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print each puzzle's solution (or `no solution` / `multiple solutions`).
    Solve,
    /// Print each puzzle's number of solutions, or `more than N (stopped at the limit; ...)`
    /// when it has more than the limit N.
    Count {
        /// Stop counting past this many solutions (0 = no limit: may take very long on
        /// puzzles with few givens).
        #[arg(long, default_value_t = 1_000_000)]
        limit: u32,
    },
}

/// Runs `xcover sudoku ARGS` (`args` excludes the program and subcommand names).
/// Returns the process exit status.
pub fn main(args: Vec<OsString>) -> i32 {
    match sudoku(args) {
        Ok(()) => 0,
        Err(e) => e.report("xcover sudoku"),
    }
}

/// The work of [`main`].
fn sudoku(args: Vec<OsString>) -> Result<(), CliError> {
    let cli = Cli::try_parse_from(std::iter::once(OsString::from("xcover sudoku")).chain(args))?;
    let mut input = Vec::new();
    io::stdin()
        .lock()
        .read_to_end(&mut input)
        .map_err(|e| CliError::failure(format!("cannot read stdin: {e}")))?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut err = io::stderr().lock();
    match run(&cli.command, &input, &mut out, &mut err).and_then(|ok| {
        out.flush()?;
        Ok(ok)
    }) {
        Ok(true) => Ok(()),
        // Each bad line is reported on stderr as it is met.
        Ok(false) => Err(CliError::quiet(Kind::Failure)),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(CliError::quiet(Kind::Failure)),
        Err(e) => Err(CliError::failure(format!("cannot write output: {e}"))),
    }
}

/// Processes every line of `input`; returns whether every line was fine.
fn run(
    command: &Command,
    input: &[u8],
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<bool> {
    let mut all_fine = true;
    for (index, raw) in input.split(|&b| b == b'\n').enumerate() {
        let line_number = index + 1;
        let line = raw.trim_ascii();
        if line.is_empty() {
            continue;
        }
        let puzzle = match Puzzle::parse_bytes(line) {
            Ok(p) => p,
            Err(e) => {
                writeln!(err, "xcover sudoku: line {line_number}: {e}")?;
                writeln!(out, "error")?;
                all_fine = false;
                continue;
            }
        };
        match command {
            Command::Solve => match sudoku::solve_counting(&puzzle, 2) {
                (Some(solution), 1) => {
                    // The digits as bytes: the grid's `Display` goes through the
                    // formatter a character at a time.
                    let mut line = [b'\n'; 82];
                    for (c, &d) in line.iter_mut().zip(solution.digits()) {
                        *c = b'0' + d;
                    }
                    out.write_all(&line)?;
                }
                (None, _) => {
                    writeln!(err, "xcover sudoku: line {line_number}: no solution")?;
                    writeln!(out, "no solution")?;
                    all_fine = false;
                }
                _ => {
                    writeln!(
                        err,
                        "xcover sudoku: line {line_number}: more than one solution"
                    )?;
                    writeln!(out, "multiple solutions")?;
                    all_fine = false;
                }
            },
            Command::Count { limit } => writeln!(out, "{}", count_line(&puzzle, *limit))?,
        }
    }
    Ok(all_fine)
}

/// The `count` output for `puzzle`: the number of solutions when it is at most `limit`
/// (0: no limit), else a line no script can take for a count.
fn count_line(puzzle: &Puzzle, limit: u32) -> String {
    // Counting one solution past the limit tells an exact count of `limit` from a cut-off.
    let probe = if limit == 0 {
        0
    } else {
        limit.saturating_add(1)
    };
    let counted = sudoku::count(puzzle, probe);
    if limit != 0 && counted > limit {
        format!("more than {limit} (stopped at the limit; raise it with --limit N, 0 for none)")
    } else if counted == u32::MAX {
        // The solver's counter saturates there.
        format!("at least {counted} (the largest count kept)")
    } else {
        counted.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P17: &str =
        "000000010400000000020000000000050407008000300001090000300400200050100000000806000";
    const S17: &str =
        "693784512487512936125963874932651487568247391741398625319475268856129743274836159";

    fn run_text(command: Command, input: &str) -> (bool, String, String) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let ok = run(&command, input.as_bytes(), &mut out, &mut err).unwrap();
        (
            ok,
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    #[test]
    fn solve_good_bad_and_ambiguous_lines() {
        let sixteen = format!("0{}", &P17[1..]).replacen('1', "0", 1);
        let input = format!("{P17}\r\n\n12x\n{sixteen}\n");
        let (ok, out, err) = run_text(Command::Solve, &input);
        assert!(!ok);
        assert_eq!(out, format!("{S17}\nerror\nmultiple solutions\n"));
        assert!(
            err.contains("line 3: expected 81 characters, found 3"),
            "{err}"
        );
        assert!(err.contains("line 4: more than one solution"), "{err}");
        let (ok, out, _) = run_text(Command::Solve, &format!("{P17}\n"));
        assert!(ok);
        assert_eq!(out, format!("{S17}\n"));
    }

    #[test]
    fn solve_reports_no_solution() {
        let clash = format!("55{}", "0".repeat(79));
        let (ok, out, err) = run_text(Command::Solve, &clash);
        assert!(!ok);
        assert_eq!(out, "no solution\n");
        assert!(err.contains("line 1: no solution"));
    }

    #[test]
    fn count_with_limit() {
        let empty = ".".repeat(81);
        let (ok, out, _) = run_text(Command::Count { limit: 7 }, &format!("{empty}\n{P17}\n"));
        assert!(ok);
        assert_eq!(
            out,
            "more than 7 (stopped at the limit; raise it with --limit N, 0 for none)\n1\n"
        );
        // A count equal to the limit is exact: the probe past the limit finds nothing.
        let (ok, out, _) = run_text(Command::Count { limit: 1 }, &format!("{P17}\n"));
        assert!(ok);
        assert_eq!(out, "1\n");
        let (ok, out, err) = run_text(Command::Count { limit: 7 }, &"9".repeat(82));
        assert!(!ok);
        assert_eq!(out, "error\n");
        assert!(err.contains("line 1: expected 81 characters, found 82"));
    }
}
