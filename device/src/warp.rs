//! Lane exchange within one warp: shuffles, and the warp sum built on them.
//!
//! A shuffle reads a register of another lane of the same warp, without
//! shared memory and without a barrier. `.sync` with a full member mask makes
//! every lane of the warp meet at the instruction first (all 32 lanes must
//! execute it), which on Volta and later, where the lanes of a warp can
//! diverge, is what makes the exchange well defined.

use core::arch::asm;

/// Lanes in a warp on every NVIDIA GPU so far.
pub const WARP_SIZE: u32 = 32;

/// Every lane of the warp takes part.
pub const FULL_MASK: u32 = 0xffff_ffff;

/// The value of `value` in lane `lane ^ lane_mask`: [`shfl_xor_u32`] for an
/// `f32`, the same `shfl.sync.bfly.b32`.
///
/// # Safety
///
/// As [`shfl_xor_u32`].
#[inline(always)]
pub unsafe fn shfl_xor_f32(value: f32, lane_mask: u32) -> f32 {
    // SAFETY: forwarded from the caller. A shuffle moves bits; reading them
    // as an integer and back changes none.
    f32::from_bits(unsafe { shfl_xor_u32(value.to_bits(), lane_mask) })
}

/// The bits of `value` in lane `lane ^ lane_mask` (a butterfly exchange).
///
/// Emits `shfl.sync.bfly.b32 d, value, lane_mask, 0x1f, 0xffffffff`.
///
/// # Safety
///
/// All 32 lanes of the warp must execute this call together (converged, or
/// reconverged by the `.sync`), with the same `lane_mask`.
#[inline(always)]
pub unsafe fn shfl_xor_u32(value: u32, lane_mask: u32) -> u32 {
    let out: u32;
    // SAFETY: the caller guarantees the whole warp participates.
    unsafe {
        asm!(
            "shfl.sync.bfly.b32 {d}, {v}, {m}, 0x1f, {mask};",
            d = out(reg32) out,
            v = in(reg32) value,
            m = in(reg32) lane_mask,
            mask = in(reg32) FULL_MASK,
            options(nomem, nostack),
        );
    }
    out
}

/// The sum of `value` over the 32 lanes of the warp, returned to every lane.
///
/// Five butterfly steps (lane masks 16, 8, 4, 2, 1). The order of the
/// additions is fixed by the lane numbers alone, so for the same 32 inputs the
/// result is the same bits every time, in every lane.
///
/// # Safety
///
/// All 32 lanes of the warp must call it together.
#[inline(always)]
pub unsafe fn sum_f32(mut value: f32) -> f32 {
    let mut lane_mask = WARP_SIZE / 2;
    while lane_mask > 0 {
        // SAFETY: forwarded from the caller: the whole warp is here.
        value += unsafe { shfl_xor_f32(value, lane_mask) };
        lane_mask /= 2;
    }
    value
}

/// The sum of `value` over the 32 lanes of the warp, returned to every lane,
/// with wrapping two's-complement arithmetic: exact whenever the true sum
/// fits in 64 bits.
///
/// Five butterfly steps, each two `shfl.sync.bfly.b32` (the low and the high
/// half of the word). Integer addition is associative, so unlike
/// [`sum_f32`] the order does not matter to the result.
///
/// # Safety
///
/// All 32 lanes of the warp must call it together.
#[inline(always)]
pub unsafe fn sum_i64(mut value: i64) -> i64 {
    let mut lane_mask = WARP_SIZE / 2;
    while lane_mask > 0 {
        let (low, high) = (value as u32, (value >> 32) as u32);
        // SAFETY: forwarded from the caller: the whole warp is here.
        let (low, high) = unsafe { (shfl_xor_u32(low, lane_mask), shfl_xor_u32(high, lane_mask)) };
        value = value.wrapping_add(((high as u64) << 32 | low as u64) as i64);
        lane_mask /= 2;
    }
    value
}

/// The sum of `value` over the 32 lanes of the warp, returned to every lane,
/// and whether every addition this lane made was exact
/// ([`layout::exact::is_exact_sum`]).
///
/// Five butterfly steps, each two `shfl.sync.bfly.b32` (the halves of the
/// `f64`), one `add.f64` and the two-subtraction check. If every lane's
/// additions were exact, every lane holds the exact sum of the 32 values,
/// whatever the order; the caller votes on the flags to know.
///
/// # Safety
///
/// All 32 lanes of the warp must call it together.
#[inline(always)]
pub unsafe fn sum_f64_checked(mut value: f64) -> (f64, bool) {
    let mut exact = true;
    let mut lane_mask = WARP_SIZE / 2;
    while lane_mask > 0 {
        let bits = value.to_bits();
        let (low, high) = (bits as u32, (bits >> 32) as u32);
        // SAFETY: forwarded from the caller: the whole warp is here.
        let (low, high) = unsafe { (shfl_xor_u32(low, lane_mask), shfl_xor_u32(high, lane_mask)) };
        let other = f64::from_bits((high as u64) << 32 | low as u64);
        let sum = value + other;
        exact &= layout::exact::is_exact_sum(value, other, sum);
        value = sum;
        lane_mask /= 2;
    }
    (value, exact)
}

/// Whether `predicate` holds in any active lane of the warp, returned to every
/// active lane.
///
/// Emits `activemask.b32` then `vote.sync.any.pred` over that mask: only the
/// lanes executing the call take part, so it is safe in a loop that some
/// lanes have already left.
#[inline(always)]
pub fn any(predicate: bool) -> bool {
    let out: u32;
    // SAFETY: `activemask` names exactly the lanes executing this code, which
    // is what `vote.sync` requires of its member mask.
    unsafe {
        asm!(
            // A scope of its own for the temporaries. The closing brace shares
            // the last line: a line holding only `}` ends a function in
            // LLVM's PTX, and tools that read the PTX rely on that.
            "{{ .reg .pred %p_in, %p_out;",
            ".reg .b32 %mask;",
            "activemask.b32 %mask;",
            "setp.ne.u32 %p_in, {v}, 0;",
            "vote.sync.any.pred %p_out, %p_in, %mask;",
            "selp.u32 {o}, 1, 0, %p_out; }}",
            v = in(reg32) predicate as u32,
            o = out(reg32) out,
            options(nomem, nostack),
        );
    }
    out != 0
}

/// Whether `predicate` holds in any lane of the warp, returned to every lane:
/// the full-mask vote.
///
/// Emits `vote.sync.any.pred` with member mask `0xffffffff`. Unlike [`any`],
/// the `.sync` makes all 32 lanes meet at the vote first, so every lane
/// returns the same value even where the compiler left the warp diverged:
/// the vote that must come before a full-mask shuffle whose participation it
/// decides.
///
/// # Safety
///
/// All 32 lanes of the warp must execute this call together (converged, or
/// reconverged by the `.sync`).
#[inline(always)]
pub unsafe fn any_sync(predicate: bool) -> bool {
    let out: u32;
    // SAFETY: the caller guarantees the whole warp participates.
    unsafe {
        asm!(
            // As in `any`: the closing brace shares the last line.
            "{{ .reg .pred %p_in, %p_out;",
            "setp.ne.u32 %p_in, {v}, 0;",
            "vote.sync.any.pred %p_out, %p_in, {mask};",
            "selp.u32 {o}, 1, 0, %p_out; }}",
            v = in(reg32) predicate as u32,
            mask = in(reg32) FULL_MASK,
            o = out(reg32) out,
            options(nomem, nostack),
        );
    }
    out != 0
}

/// The warp barrier, `__syncwarp()`.
///
/// Emits `bar.warp.sync 0xffffffff`. Every lane of the warp waits here until
/// all 32 have arrived, and the memory accesses each lane made before it are
/// ordered before those every lane makes after it: the block barrier's
/// guarantee, for the 32 threads of one warp only. It orders nothing for the
/// other warps of the block, which do not wait for it.
///
/// # Safety
///
/// All 32 lanes of the warp must reach this call, the same number of times.
#[inline(always)]
pub unsafe fn sync() {
    // SAFETY: the caller guarantees the whole warp arrives. No `nomem`: the
    // barrier orders memory, so the compiler must not move accesses across it.
    unsafe { asm!("bar.warp.sync {mask};", mask = in(reg32) FULL_MASK, options(nostack)) }
}
