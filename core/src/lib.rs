//! # xcover-core
//!
//! Allocation-free, `#![no_std]` engines for exact-cover problems:
//!
//! * [`gb_flip`]: Knuth's portable random number generator from the Stanford GraphBase;
//! * [`dlx3`]: Knuth's DLX3 — exact cover with item multiplicities and color controls
//!   (Algorithm M of TAOCP 7.2.2.1), as a resumable state machine over storage the caller owns;
//! * [`bitcover`]: DLX3's search of a small plain exact cover (at most 512 options) over
//!   bit sets of options, node for node, in fewer instructions;
//! * [`gridcheck`]: a Sudoku grid checker that finds every N-clue puzzle with a unique
//!   solution inside a solution grid;
//! * [`sink`]: the byte sink every engine writes its text to.
//!
//! Nothing here allocates: every capacity is chosen by the caller. Each engine's storage
//! comes in two forms, named as in `heapless` (`Vec` / `VecView`): an owned `Workspace`
//! with const-generic capacities (usable in a `static`), and a `WorkspaceView` of borrowed
//! slices (what the C ABI hands in); a workspace lends a view of itself with
//! `as_mut_view()`. A capacity that is too small is reported as an error value, never a
//! panic. The `alloc` feature, which the C library and firmware never enable, adds a third
//! form for programs with an allocator: `dlx3::HeapWorkspace`, sized from an input.
//!
//! Solving an exact-cover problem and reading each solution's options:
//!
//! ```
//! use core::ops::ControlFlow;
//! use xcover_core::dlx3::{Dlx3, Settings, Workspace};
//! use xcover_core::sink::Discard;
//!
//! // Items A B C D; which options cover each exactly once?
//! let text = b"A B C D\nA B\nC D\nA C\nB D\nA D\n";
//! let mut ws: Workspace<6, 32, 8> = Workspace::new(); // 4 items + 2, nodes, levels
//! let mut engine = Dlx3::new(ws.as_mut_view(), Settings::new())?;
//! engine.read_input(text, &mut Discard)?;
//! let mut solutions = Vec::new();
//! engine.for_each_solution(|solution| {
//!     let options: Vec<u32> = solution.options().map(|o| o.number()).collect();
//!     solutions.push(options);
//!     ControlFlow::<()>::Continue(())
//! })?;
//! assert_eq!(solutions.len(), 2); // {A B, C D} and {A C, B D}
//! assert!(solutions.iter().all(|s| s.len() == 2));
//! # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
//! ```
//!
//! [`Dlx3::visit_solutions`](dlx3::Dlx3::visit_solutions) does the same in budgeted steps
//! (for firmware), and [`Dlx3::run`](dlx3::Dlx3::run) prints as Knuth's program does.
//!
//! The grid checker's entry points are in [`gridcheck`] (a masked scan) and
//! [`gridcheck::solver`].
#![no_std]
#![deny(missing_docs)]
#![deny(unsafe_code)]

#[cfg(test)]
extern crate std;

pub mod bitcover;
pub mod dlx3;
pub mod gb_flip;

pub mod gridcheck;
pub mod sink;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
