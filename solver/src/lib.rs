//! # xcover-solver
//!
//! Exact cover for Rust programs, on the engines of `xcover-core`: Knuth's DLX3 (dancing
//! links with item multiplicities and color controls, Algorithm M of TAOCP 7.2.2.1), a
//! Sudoku solver and a Sudoku grid checker. Storage is sized from the input; solutions
//! come as an iterator; a search runs on as many threads as asked and gives the same
//! solutions in the same order as one.
//!
//! A problem in Knuth's text format (a line of items, then one option per line):
//!
//! ```
//! use xcover_solver::Problem;
//!
//! let problem = Problem::parse("A B C D\nA B\nC D\nA C\nB D\nA D\n")?;
//! for solution in problem.solutions() {
//!     println!("{}\n", solution?); // each option on a line: `A B` then `C D`, ...
//! }
//! assert_eq!(problem.count()?, 2);
//! # Ok::<(), xcover_solver::Error>(())
//! ```
//!
//! The same problem built in code, where names have any length, and a search with
//! limits on two threads:
//!
//! ```
//! use xcover_solver::Problem;
//!
//! let problem = Problem::builder()
//!     .primary("north")
//!     .primary("south")
//!     .primary("east")
//!     .primary("west")
//!     .option(["north", "south"])
//!     .option(["east", "west"])
//!     .option(["north", "east"])
//!     .option(["south", "west"])
//!     .option(["north", "west"])
//!     .build()?;
//! let stats = problem.solver().threads(2).max_solutions(10).run()?;
//! assert_eq!(stats.solutions, 2);
//! # Ok::<(), xcover_solver::Error>(())
//! ```
//!
//! Knuth's `dlx3` program itself, his letter arguments and his text byte for byte (what
//! `xcover dlx3` prints): [`knuth::run`].
//!
//! Sudoku: [`sudoku::solve`], [`sudoku::count`]; every N-clue puzzle with a unique
//! solution inside a solution grid: [`gridcheck::GridCheck`].
//!
//! The driver of a search split into units on worker threads, which the `xcover` command
//! shares: [`units`].
//!
//! Every error is an [`Error`], with the message the `xcover` command prints for the same
//! input (Knuth's, for DLX input) and where it is.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod engine;
mod error;
pub mod gridcheck;
pub mod knuth;
mod problem;
mod solve;
mod stats;
pub mod sudoku;
pub mod units;

pub use error::{Error, ErrorKind, InputError};
pub use problem::{Entry, Item, OptionRef, Problem, ProblemBuilder};
pub use solve::{Solution, Solutions, Solver};
pub use stats::{End, Stats};
