//! `libxcover.a`: the C library. Everything it exports (`dlx3_*`, `gridcheck_*`,
//! `xcover_*`) is defined in `xcover-ffi`; a staticlib keeps the `#[no_mangle]` functions of
//! the crates it links, through LTO. What a library without the Rust runtime needs besides
//! lives here, in the one crate that is only ever built as that library: the panic handler
//! and the personality routine. (A test, a fuzz target or a Rust program using
//! `xcover-ffi` brings both with `std`.)
#![no_std]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

// Links the C ABI: the extern name says which crate it is (this crate is `xcover` too).
use xcover_ffi as _;

// A panic must never unwind into C. This crate's profiles set `panic = "abort"`; a no_std
// build with unwinding would need `eh_personality` and could leak unwinding symbols into
// libxcover.a, so refuse to build it. (rustdoc is not given the profile's panic strategy,
// and generates no code: `cargo doc` is let through.)
#[cfg(all(not(panic = "abort"), not(doc)))]
compile_error!(
    "libxcover.a must be built with panic = \"abort\" (set in ffi/staticlib/Cargo.toml)"
);

/// The precompiled `core` that ships with stable Rust was built for unwinding, and its
/// objects keep a reference to the personality routine in their unwind tables
/// (`DW.ref.rust_eh_personality`). With `panic = "abort"` nothing ever unwinds, so the
/// routine is never called; this empty definition resolves the reference so that a C program
/// links libxcover.a without any Rust runtime. (Not exported in the header.)
#[no_mangle]
pub extern "C" fn rust_eh_personality() {}

/// No unwinding and no formatting: a panic here is a bug (all errors are statuses). The
/// reaction is to stop at once with the CPU's "undefined instruction" trap (SIGILL on a host,
/// a HardFault/exception on a microcontroller), which needs no symbol from libc or a Rust
/// runtime; a spinning loop would leave a C caller hung instead. Architectures without a
/// known trap instruction spin.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    trap()
}

/// Stops the program with the undefined-instruction trap.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
fn trap() -> ! {
    // SAFETY: `ud2` only raises the invalid-opcode exception; it touches no memory or stack.
    unsafe { core::arch::asm!("ud2", options(noreturn, nomem, nostack)) }
}

/// Stops the program with the undefined-instruction trap.
#[cfg(any(target_arch = "arm", target_arch = "aarch64"))]
fn trap() -> ! {
    // SAFETY: `udf #0` only raises the undefined-instruction exception; no memory, no stack.
    unsafe { core::arch::asm!("udf #0", options(noreturn, nomem, nostack)) }
}

/// Stops the program with the illegal-instruction trap.
#[cfg(any(target_arch = "riscv32", target_arch = "riscv64"))]
fn trap() -> ! {
    // SAFETY: `unimp` only raises the illegal-instruction exception; no memory, no stack.
    unsafe { core::arch::asm!("unimp", options(noreturn, nomem, nostack)) }
}

/// No known trap instruction: spin.
#[cfg(not(any(
    target_arch = "x86",
    target_arch = "x86_64",
    target_arch = "arm",
    target_arch = "aarch64",
    target_arch = "riscv32",
    target_arch = "riscv64"
)))]
fn trap() -> ! {
    loop {
        core::hint::spin_loop();
    }
}
