//! # xcover-ffi: the C ABI of xcover (`libxcover.a`, header `include/xcover.h`)
//!
//! Two APIs: `dlx3_*` (Knuth's DLX3, module [`dlx3`]) and `gridcheck_*` (the Sudoku grid
//! checker, module [`gridcheck`]).
//!
//! Every exported function takes raw pointers from C, checks them (NULL, alignment,
//! lengths), and returns one [`status::xcover_status`]. Nothing allocates: all storage is
//! the caller's buffer, sized with the `*_workspace_size` functions (or the header's
//! `XCOVER_DLX3_WORKSPACE_SIZE` macro for static buffers).
//!
//! This crate is the only place of the project that takes raw pointers from outside and
//! checks them; every `unsafe` block states why it is sound in a `SAFETY:` comment.
//! (`xcover-core` has `unsafe` only in its measured hot path, the unchecked record
//! accessors of `dlx3`, which index its own slices.)
//!
//! This crate is a plain `#![no_std]` library: it has no panic handler and links no
//! allocator. `libxcover.a` is built by the crate in `ffi/staticlib/` (kept out of the
//! workspace, with its own `panic = "abort"` and LTO profile), which links this one and
//! adds the panic handler: `make` at the repository root, or
//! `cargo build --release --manifest-path ffi/staticlib/Cargo.toml --target-dir target`
//! -> `target/release/libxcover.a`. Test: `cargo test -p xcover-ffi`.
#![no_std]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

#[cfg(test)]
extern crate std;

pub mod carve;
pub mod dlx3;
pub mod gridcheck;
pub mod handle;
pub mod raw;
pub mod sink;
pub mod status;

pub use sink::{xcover_write_fn, xcover_writer};
pub use status::{xcover_status, xcover_status_message};

/// The version of the C ABI: bumped when a function signature, a struct layout, a name or
/// a status number changes incompatibly (the README's C ABI section lists the changes).
pub const XCOVER_ABI_VERSION: u32 = 2;

/// Returns [`XCOVER_ABI_VERSION`] of the linked library, for a run-time check against the
/// header the program was compiled with.
#[no_mangle]
pub extern "C" fn xcover_abi_version() -> u32 {
    XCOVER_ABI_VERSION
}
