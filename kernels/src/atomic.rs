//! Read-modify-write operations on one address.
//!
//! Each function is the Rust spelling of one CUDA `atomicAdd` whose result is
//! unused, and emits the PTX `red` ("reduction") instruction that nvcc emits
//! for it. What an atomic promises is narrow, and every doc here says it:
//!
//! * **Atomicity**: concurrent updates of the *same address* are not lost.
//! * **No ordering**: with no `.sem` qualifier PTX defines the operation as
//!   `.relaxed`. It publishes no other store, and orders nothing around it.
//! * **No waiting**: no thread waits for any other; that is a barrier's job
//!   (`thread::sync_threads`).
//!
//! Rust pointers are generic addresses. The `.global` and `.shared` forms need
//! an address in that state space's own window, so each wrapper converts with
//! `cvta.to.global` or `cvta.to.shared` first; passing a pointer into the
//! other space is undefined behaviour that `ptxas` cannot catch, which is why
//! the space is part of each function's name and safety contract.

use core::arch::asm;

// ANCHOR: global_add_f32
/// Adds `value` to the `f32` at `address` in global memory (`atomicAdd` on a
/// global pointer, result unused).
///
/// Emits `cvta.to.global.u64` then `red.global.add.f32`: relaxed, `.gpu`
/// scope, round-to-nearest. Concurrent adds to one address are all applied,
/// in an order the hardware picks, so a float total can differ in its last
/// bits from run to run.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `f32` in global memory.
#[inline(always)]
pub unsafe fn global_add_f32(address: *mut f32, value: f32) {
    // SAFETY: the caller guarantees a valid, aligned global address.
    unsafe {
        asm!(
            "cvta.to.global.u64 {a}, {a};",
            "red.global.add.f32 [{a}], {v};",
            a = inout(reg64) address => _,
            v = in(reg32) value,
            options(nostack),
        );
    }
}
// ANCHOR_END: global_add_f32

/// Adds `value` to the `f32` at `address` in this block's shared memory
/// (`atomicAdd` on a `__shared__` float, result unused).
///
/// Emits `cvta.to.shared.u64` then `red.shared.add.f32`: relaxed, applied
/// to the block's own copy of shared memory. Whether the hardware does this
/// in one instruction or in a compare-and-swap loop depends on the
/// architecture: the README shows the SASS `ptxas` makes of it.
///
/// # Safety
///
/// `address` must be a generic pointer to a live, 4-byte aligned `f32` in
/// this block's shared memory (for example from `shared::dynamic_shared`).
#[inline(always)]
pub unsafe fn shared_add_f32(address: *mut f32, value: f32) {
    // SAFETY: the caller guarantees a valid, aligned shared-memory address.
    unsafe {
        asm!(
            "cvta.to.shared.u64 {a}, {a};",
            "red.shared.add.f32 [{a}], {v};",
            a = inout(reg64) address => _,
            v = in(reg32) value,
            options(nostack),
        );
    }
}

/// Adds `value` to the `u32` at `address` in global memory (`atomicAdd` on
/// an `unsigned int*` in global memory, result unused).
///
/// Emits `cvta.to.global.u64` then `red.global.add.u32`: relaxed, `.gpu`
/// scope. Integer addition is associative, so the final count does not depend
/// on the order in which concurrent adds land.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32` in global memory.
#[inline(always)]
pub unsafe fn global_add_u32(address: *mut u32, value: u32) {
    // SAFETY: the caller guarantees a valid, aligned global address.
    unsafe {
        asm!(
            "cvta.to.global.u64 {a}, {a};",
            "red.global.add.u32 [{a}], {v};",
            a = inout(reg64) address => _,
            v = in(reg32) value,
            options(nostack),
        );
    }
}

/// Adds `value` to the `u32` at `address` in this block's shared memory.
///
/// Emits `cvta.to.shared.u64` then `red.shared.add.u32`: relaxed, block-local.
/// Since Maxwell this is a native shared-memory atomic (`ATOMS.ADD` in SASS).
///
/// # Safety
///
/// `address` must be a generic pointer to a live, 4-byte aligned `u32` in
/// this block's shared memory.
#[inline(always)]
pub unsafe fn shared_add_u32(address: *mut u32, value: u32) {
    // SAFETY: the caller guarantees a valid, aligned shared-memory address.
    unsafe {
        asm!(
            "cvta.to.shared.u64 {a}, {a};",
            "red.shared.add.u32 [{a}], {v};",
            a = inout(reg64) address => _,
            v = in(reg32) value,
            options(nostack),
        );
    }
}

/// Adds `value` to the `u32` at `address` in global memory and returns the
/// value it replaced (`atomicAdd` whose result is used).
///
/// Emits `cvta.to.global.u64` then `atom.global.add.u32`: relaxed, `.gpu`
/// scope. Each caller gets a distinct old value, which is how the
/// deterministic sum's blocks take tickets to find the last one.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32` in global memory.
#[inline(always)]
pub unsafe fn global_fetch_add_u32(address: *mut u32, value: u32) -> u32 {
    let old;
    // SAFETY: the caller guarantees a valid, aligned global address.
    unsafe {
        asm!(
            "cvta.to.global.u64 {a}, {a};",
            "atom.global.add.u32 {old}, [{a}], {v};",
            a = inout(reg64) address => _,
            old = out(reg32) old,
            v = in(reg32) value,
            options(nostack),
        );
    }
    old
}

/// Increments the `u32` at `address` in global memory, wrapping to 0 past
/// `limit`, and returns the value it replaced (`atomicInc`).
///
/// Emits `cvta.to.global.u64` then `atom.global.inc.u32`: relaxed, `.gpu`
/// scope; the new value is `old >= limit ? 0 : old + 1`. An add of a
/// constant is different in the machine code: `ptxas` turns it into a
/// warp-aggregated atomic whose result one lane shuffles to the others at
/// once (`SHFL.IDX` right behind the `ATOMG`, so the warp waits out the
/// atomic's round trip there), and it does the same to an `inc` whose
/// limit is `u32::MAX`, which is an add of 1. With a limit it cannot know,
/// `inc` stays one `ATOMG.E.INC` whose result is waited for only where it
/// is read.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32` in global memory.
#[inline(always)]
pub unsafe fn global_fetch_inc_u32(address: *mut u32, limit: u32) -> u32 {
    let old;
    // SAFETY: the caller guarantees a valid, aligned global address.
    unsafe {
        asm!(
            "cvta.to.global.u64 {a}, {a};",
            "atom.global.inc.u32 {old}, [{a}], {l};",
            a = inout(reg64) address => _,
            old = out(reg32) old,
            l = in(reg32) limit,
            options(nostack),
        );
    }
    old
}

/// Adds `value` to the `i64` at `address` in global memory (`atomicAdd` on an
/// `unsigned long long*`, result unused).
///
/// Emits `cvta.to.global.u64` then `red.global.add.u64`: relaxed, `.gpu`
/// scope. Two's-complement addition is the same operation for signed and
/// unsigned words, so this adds signed limbs exactly as long as the true total
/// fits in 64 bits, whatever the order the adds land in.
///
/// # Safety
///
/// `address` must point to a live, 8-byte aligned `i64` in global memory.
#[inline(always)]
pub unsafe fn global_add_i64(address: *mut i64, value: i64) {
    // SAFETY: the caller guarantees a valid, aligned global address.
    unsafe {
        asm!(
            "cvta.to.global.u64 {a}, {a};",
            "red.global.add.u64 [{a}], {v};",
            a = inout(reg64) address => _,
            v = in(reg64) value,
            options(nostack),
        );
    }
}

/// ORs `value` into the `u32` at `address` in global memory (`atomicOr`,
/// result unused).
///
/// Emits `cvta.to.global.u64` then `red.global.or.b32`: relaxed, `.gpu` scope.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32` in global memory.
#[inline(always)]
pub unsafe fn global_or_u32(address: *mut u32, value: u32) {
    // SAFETY: the caller guarantees a valid, aligned global address.
    unsafe {
        asm!(
            "cvta.to.global.u64 {a}, {a};",
            "red.global.or.b32 [{a}], {v};",
            a = inout(reg64) address => _,
            v = in(reg32) value,
            options(nostack),
        );
    }
}

/// Writes `value` to the 64-bit word at `address` in global memory and
/// returns the word it replaced (`atomicExch`).
///
/// Emits `cvta.to.global.u64` then `atom.global.exch.b64`: relaxed, `.gpu`
/// scope, performed at the point of coherence, so it reads the latest value
/// of the word whatever this SM's L1 holds.
///
/// # Safety
///
/// `address` must point to a live, 8-byte aligned 64-bit word in global memory.
#[inline(always)]
pub unsafe fn global_exchange_i64(address: *mut i64, value: i64) -> i64 {
    let old;
    // SAFETY: the caller guarantees a valid, aligned global address.
    unsafe {
        asm!(
            "cvta.to.global.u64 {a}, {a};",
            "atom.global.exch.b64 {old}, [{a}], {v};",
            a = inout(reg64) address => _,
            old = out(reg64) old,
            v = in(reg64) value,
            options(nostack),
        );
    }
    old
}

/// Writes `value` to the `u32` at `address` in global memory and returns the
/// value it replaced (`atomicExch`).
///
/// Emits `cvta.to.global.u64` then `atom.global.exch.b32`: relaxed, `.gpu`
/// scope.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32` in global memory.
#[inline(always)]
pub unsafe fn global_exchange_u32(address: *mut u32, value: u32) -> u32 {
    let old;
    // SAFETY: the caller guarantees a valid, aligned global address.
    unsafe {
        asm!(
            "cvta.to.global.u64 {a}, {a};",
            "atom.global.exch.b32 {old}, [{a}], {v};",
            a = inout(reg64) address => _,
            old = out(reg32) old,
            v = in(reg32) value,
            options(nostack),
        );
    }
    old
}
