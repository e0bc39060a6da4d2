//! Loads from global memory that must reach the machine code as written.
//!
//! A warp that reads 16 bytes per lane moves 512 bytes per instruction, four
//! times what 4-byte loads move: fewer instructions in flight for the same
//! bytes, which is what a bandwidth-bound kernel needs ([`load_f32x4`]).
//!
//! A load done only for its side effect on the caches (the litmus
//! environment's preload and stress, the publication demo's preload) is a
//! different problem: `ptxas` deletes a weak load whose value nobody reads,
//! whatever `asm!` said, since PTX is its input and not its output. Such a
//! load goes through [`load_b32`] and its value into [`keep_live`], which
//! stores it only when it is a value the lab never writes: the compare is
//! all it costs, and it makes the load live.

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

/// One weak 32-bit load, `ld.global.b32`: it allocates in this SM's L1 (the
/// path a preload wants) and has no ordering at all. Feed its value to
/// [`keep_live`] if nothing else reads it, or `ptxas` removes the load.
///
/// # Safety
///
/// `address` must be a 4-byte aligned, readable word of global memory, in
/// the global window (`cvta.to.global`).
#[inline(always)]
pub unsafe fn load_b32(address: *const u32) -> u32 {
    let value;
    // SAFETY: the caller guarantees a valid, aligned global address.
    unsafe { asm!("ld.global.b32 {v}, [{a}];", v = out(reg32) value, a = in(reg64) address, options(nostack)) };
    value
}

/// Makes `value` live: `setp.eq.u32` against `u32::MAX`, then a store of it
/// to `sink` predicated on that compare. What the lab folds into one is a
/// litmus location's flag (0 to 2), a payload id (0 or 42), or an XOR of stress
/// words, which hold zero or a loop counter below `--stress-iterations`, so
/// the store does not run in practice; and where it could, the sink is a word
/// whose value no result depends on. `ptxas` cannot know any of that, so it
/// keeps every load the value came from. The SASS is an `ISETP` and a
/// predicated `STG`.
///
/// # Safety
///
/// `sink` must be a 4-byte aligned, writable word of global memory, in the
/// global window, that may receive `value` without harm should it be
/// `u32::MAX` after all.
#[inline(always)]
pub unsafe fn keep_live(value: u32, sink: *mut u32) {
    // SAFETY: the caller guarantees the sink; the store is predicated.
    unsafe {
        asm!(
            "{{ .reg .pred %p; setp.eq.u32 %p, {v}, -1; @%p st.global.b32 [{s}], {v}; }}",
            v = in(reg32) value,
            s = in(reg64) sink,
            options(nostack),
        )
    }
}

/// `address` converted to the global window, `cvta.to.global.u64`: the form
/// the explicit `ld.global`/`st.global` of [`load_b32`], [`keep_live`] and
/// the litmus accesses take.
#[inline(always)]
pub fn to_global(address: *mut u32) -> *mut u32 {
    let global;
    // `nomem` is right although a pointer goes in: `cvta` computes an
    // address and dereferences nothing, so no memory access may be assumed.
    #[allow(clippy::pointers_in_nomem_asm_block)]
    // SAFETY: the conversion is arithmetic on the address; it reads nothing.
    unsafe {
        asm!("cvta.to.global.u64 {g}, {a};", g = out(reg64) global, a = in(reg64) address, options(pure, nomem, nostack))
    }
    global
}
