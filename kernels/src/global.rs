//! Wide loads from global memory.
//!
//! A warp that reads 16 bytes per lane moves 512 bytes per instruction, four
//! times what 4-byte loads move: fewer instructions in flight for the same
//! bytes, which is what a bandwidth-bound kernel needs.

use core::arch::asm;

/// Four consecutive `f32` loaded with one 128-bit load.
///
/// Emits `cvta.to.global.u64` then `ld.global.nc.v4.f32`: a vector load
/// through the read-only (non-coherent) data path, as nvcc emits for a
/// `const float4* __restrict__` read.
///
/// # Safety
///
/// `address` must be 16-byte aligned and point to four readable `f32` in
/// global memory that no thread writes while the kernel runs (the `.nc` path
/// is not coherent with writes made during the kernel).
#[inline(always)]
pub unsafe fn load_f32x4(address: *const f32) -> [f32; 4] {
    let (x, y, z, w): (f32, f32, f32, f32);
    // SAFETY: the caller guarantees a valid, aligned, read-only address.
    unsafe {
        asm!(
            "cvta.to.global.u64 {a}, {a};",
            "ld.global.nc.v4.f32 {{{x}, {y}, {z}, {w}}}, [{a}];",
            a = inout(reg64) address => _,
            x = out(reg32) x,
            y = out(reg32) y,
            z = out(reg32) z,
            w = out(reg32) w,
            options(readonly, nostack),
        );
    }
    [x, y, z, w]
}
