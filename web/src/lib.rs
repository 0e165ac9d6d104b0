//! xcover's two engines, DLX3 and the Sudoku grid checker, as a WebAssembly module for the
//! browser page in `web/www/` (built by `make web`).
//!
//! The ABI is thin and owns its memory: JavaScript never hands the module an address. It
//! asks for an inbox of `n` bytes ([`buffers::xc_inbox`]), writes its text there, and
//! calls an engine's step; the module writes what the engine prints into its two output
//! buffers, whose offsets and lengths JavaScript reads back and then drains. Everything
//! else crosses as integers. Every engine's life (its stages, steps, counters, messages)
//! is core's; this crate only projects it:
//!
//! * [`dlx3`]: Knuth's arguments, the matrix, the search in mem budgets, the closing
//!   reports, byte for byte what `xcover dlx3` prints;
//! * [`sudoku`]: solve and count one puzzle;
//! * [`gridcheck`]: a grid, a clue count and a mask, the UA, the preparation and the
//!   chunks in step budgets, each puzzle printed as `xcover gridcheck` prints it.
//!
//! Why not `libxcover.a`'s C ABI compiled in: it takes raw pointers into buffers the caller
//! lays out, and streams output through C function pointers; JavaScript would have to do
//! that pointer arithmetic in the module's memory and the module would need C-callable
//! glue for the sinks. Here the module lays out its own memory in safe Rust over
//! `xcover-core` (its only `unsafe` is the exported names and the one global cell), and
//! JavaScript only indexes what it is given.
//!
//! One instance, one run: the page's worker instantiates the compiled module afresh for
//! every run, so a run's storage is leaked into `'static` (the engines borrow it) and
//! freed with the instance.
// no_std in the browser; the host build (unit tests, clippy) has std's allocator and
// panic handler.
#![cfg_attr(target_arch = "wasm32", no_std)]
#![deny(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;

pub mod buffers;
pub mod dlx3;
pub mod gridcheck;
mod state;
pub mod sudoku;
#[cfg(test)]
mod tests;

/// The allocator Rust's std uses on wasm32: pages come from `memory.grow`.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: dlmalloc::GlobalDlmalloc = dlmalloc::GlobalDlmalloc;

/// A panic traps the instance (the worker reports it and drops the instance); nothing
/// in this crate panics on any input, and allocation failures of user-sized storage are
/// refused with a message before they happen.
#[cfg(target_arch = "wasm32")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}
