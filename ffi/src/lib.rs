//! C ABI for xcover (placeholder).
#![no_std]
#[cfg(not(feature = "std"))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! { loop {} }
