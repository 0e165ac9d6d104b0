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
//! Build: `cargo build -p xcover-ffi --release` -> `target/release/libxcover.a`.
//! Test: `cargo test -p xcover-ffi --features std` (the `std` feature drops this crate's
//! panic handler and the `panic = "abort"` check, which the test harness cannot meet).
#![no_std]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

#[cfg(any(feature = "std", test))]
extern crate std;

// A panic must never unwind into C. The workspace profiles set `panic = "abort"`; a no_std
// build of the library with unwinding would need `eh_personality` and could leak unwinding
// symbols into libxcover.a, so refuse to build it. (rustdoc is not given the profile's
// panic strategy, and generates no code: `cargo doc` is let through.)
#[cfg(all(not(panic = "abort"), not(feature = "std"), not(test), not(doc)))]
compile_error!("xcover-ffi must be built with panic = \"abort\" (set in the workspace profiles)");

// The library never allocates, and a no_std staticlib that links `alloc` has no allocator
// and does not link. Cargo turns on xcover-core's `alloc` feature for every package of one
// build when one of them (the CLI, the benches) asks for it: say so plainly instead of
// rustc's "no global memory allocator found".
#[cfg(not(any(feature = "std", test, doc)))]
const _: () = assert!(
    !xcover_core::ALLOC_FEATURE,
    "build libxcover.a on its own (cargo build --release -p xcover-ffi): built together with \
     xcover-cli or xcover-benches, xcover-core has its alloc feature, which the library must \
     never link"
);

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

/// The precompiled `core` that ships with stable Rust was built for unwinding, and its
/// objects keep a reference to the personality routine in their unwind tables
/// (`DW.ref.rust_eh_personality`). With `panic = "abort"` nothing ever unwinds, so the
/// routine is never called; this empty definition resolves the reference so that a C program
/// links libxcover.a without any Rust runtime. (Not exported in the header.)
#[cfg(not(any(feature = "std", test)))]
#[no_mangle]
pub extern "C" fn rust_eh_personality() {}

/// No unwinding and no formatting: a panic here is a bug (all errors are statuses). The
/// reaction is to stop at once with the CPU's "undefined instruction" trap (SIGILL on a host,
/// a HardFault/exception on a microcontroller), which needs no symbol from libc or a Rust
/// runtime; a spinning loop would leave a C caller hung instead. Architectures without a
/// known trap instruction spin.
#[cfg(not(any(feature = "std", test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    trap()
}

/// Stops the program with the undefined-instruction trap.
#[cfg(all(
    not(any(feature = "std", test)),
    any(target_arch = "x86", target_arch = "x86_64")
))]
fn trap() -> ! {
    // SAFETY: `ud2` only raises the invalid-opcode exception; it touches no memory or stack.
    unsafe { core::arch::asm!("ud2", options(noreturn, nomem, nostack)) }
}

/// Stops the program with the undefined-instruction trap.
#[cfg(all(
    not(any(feature = "std", test)),
    any(target_arch = "arm", target_arch = "aarch64")
))]
fn trap() -> ! {
    // SAFETY: `udf #0` only raises the undefined-instruction exception; no memory, no stack.
    unsafe { core::arch::asm!("udf #0", options(noreturn, nomem, nostack)) }
}

/// Stops the program with the illegal-instruction trap.
#[cfg(all(
    not(any(feature = "std", test)),
    any(target_arch = "riscv32", target_arch = "riscv64")
))]
fn trap() -> ! {
    // SAFETY: `unimp` only raises the illegal-instruction exception; no memory, no stack.
    unsafe { core::arch::asm!("unimp", options(noreturn, nomem, nostack)) }
}

/// No known trap instruction: spin.
#[cfg(all(
    not(any(feature = "std", test)),
    not(any(
        target_arch = "x86",
        target_arch = "x86_64",
        target_arch = "arm",
        target_arch = "aarch64",
        target_arch = "riscv32",
        target_arch = "riscv64"
    ))
))]
fn trap() -> ! {
    loop {
        core::hint::spin_loop();
    }
}
