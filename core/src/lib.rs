//! # xcover-core
//!
//! Allocation-free, `#![no_std]` engines for exact-cover problems:
//!
//! * [`gb_flip`]: Knuth's portable random number generator from the Stanford GraphBase;
//! * [`dlx3`]: Knuth's DLX3 — exact cover with item multiplicities and color controls
//!   (Algorithm M of TAOCP 7.2.2.1), as a resumable state machine over storage the caller owns;
//! * [`gridcheck`]: a Sudoku grid checker that finds every N-clue puzzle with a unique
//!   solution inside a solution grid;
//! * [`sink`]: the byte sink every engine writes its text to.
//!
//! Nothing here allocates: every capacity is chosen by the caller, either as const generics
//! (usable in a `static`) or as borrowed slices (what the C ABI hands in). A capacity that is
//! too small is reported as an error value, never a panic.
#![no_std]
#![deny(missing_docs)]
#![deny(unsafe_code)]

#[cfg(test)]
extern crate std;

pub mod dlx3;
pub mod gb_flip;
pub mod gridcheck;
pub mod sink;
