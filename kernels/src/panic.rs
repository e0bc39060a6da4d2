//! What a kernel does if Rust code panics: trap, which the driver reports to
//! the host as `CUDA_ERROR_ILLEGAL_INSTRUCTION` on the next synchronising call.
//!
//! The kernels index raw pointers and never call a panicking API, so the PTX
//! tests check that no panic path survives optimisation; this handler exists
//! because `no_std` requires one.

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: `trap` aborts the kernel; it has no preconditions.
    unsafe { core::arch::nvptx::trap() }
}
