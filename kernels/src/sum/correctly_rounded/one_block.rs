//! The correctly rounded sum's entry for one block of few floats: a straight
//! path from the entry to the store, tested first, with the general kernel's
//! body behind it for any launch the path does not finish.

use layout::exact::Superaccumulator;

use super::straight::{self, QUADS};
#[cfg(doc)]
use super::sum_correctly_rounded;
use crate::thread;

/// The correctly rounded sum of a small input on one block: the same result
/// as [`sum_correctly_rounded`], the `f32` nearest the true sum, by a
/// straight path when every `f64` addition of the block is exact, and by
/// [`sum_correctly_rounded`]'s own body when one is not.
///
/// A launch this small is short enough that its time is the chain after the
/// loads, and the chain starts with no instruction cached: every jump over
/// the general body's limb code is another fetch before the store. The path
/// touches no limb, takes no ticket and sends no atomic. It is an entry of
/// its own, not a test at the top of [`sum_correctly_rounded`], because that
/// test changed `ptxas`'s register choices in the general body, which every
/// larger launch runs (`results/explore/cr-one-block.md`).
///
/// # Launch
///
/// [`sum_correctly_rounded`]'s: the same parameters, shared memory and
/// superaccumulator, under the same contract. The path is taken when the
/// grid is one block, `input` is 16-byte aligned and `n` is at most
/// [`QUADS`] quads a thread ([`takes`]); any other launch runs the general
/// body. The host launches this entry for every launch of the correctly
/// rounded sum that is one block ([`layout::sum::CORRECTLY_ROUNDED_SMALL`]):
/// its small route, of at most 16 floats a thread, and any other the path's
/// test may turn back (a misaligned input, or a grid the device caps at one
/// block).
///
/// # Thread mapping
///
/// On the path, thread `t` of the block's `T` loads quads `t`, `t + T`,
/// `t + 2T` and `t + 3T`, and [`try_sum`] adds them, then the warp's, then
/// the block's, in `f64`, every addition checked exact. Off it, as
/// [`sum_correctly_rounded`].
///
/// # Safety
///
/// [`sum_correctly_rounded`]'s.
#[kernel(layout::sum::SUPERACCUMULATOR_PARAMS)]
pub unsafe fn sum_correctly_rounded_small(input: *const f32, total: *mut f32, n: usize, acc: *mut Superaccumulator) {
    if takes(input, n) {
        // SAFETY: the whole block is here, `takes` holds, and the contract
        // gives the shared memory and `total`.
        if unsafe { try_sum(input, n, total) } {
            return;
        }
        // SAFETY: every thread of the block left the path together (the
        // verdict is the block's), so all of them reach this barrier; the
        // general body may reuse the shared slots only after it.
        unsafe { thread::sync_threads() };
    }
    // SAFETY: the kernel's contract is the general body's.
    unsafe { super::sum(input, total, n, acc, super::Share::Grid) }
}

/// Whether a launch takes the route: one block, a 16-byte aligned input, and
/// no more than [`QUADS`] quads for each thread.
#[inline(always)]
fn takes(input: *const f32, n: usize) -> bool {
    thread::grid_dim_x() == 1 && (input as usize).is_multiple_of(16) && n / 4 <= QUADS * thread::block_dim_x() as usize
}

/// Sums the block's input in `f64` and, if every addition was exact, stores
/// the sum rounded once (`cvt.rn.f32.f64`, the rounding `exact::round` does)
/// in `total` and returns `true`. Otherwise it returns `false` in every
/// thread, having written only shared memory, and the kernel's general path
/// sums the input again from the start.
///
/// Thread `t` of the block's `T` adds quads `t, t + T, t + 2T, t + 3T`
/// ([`straight::thread_sum`]), and the block adds its threads' sums
/// ([`straight::block_sum`]), every addition checked exact. Warp 0's lane 0
/// stores `fl32(sum + 0.0)`: the additions were exact, so `sum` is the true
/// sum, and `+ 0.0` turns a sum of negative zeros into `+0.0`, as the
/// general path and the CPU reference give.
///
/// # Safety
///
/// The whole block calls it once, with [`takes`] true; `input` and `total`
/// as in [`sum_correctly_rounded`](super::sum_correctly_rounded)'s contract;
/// the block's dynamic shared memory holds at least one `f64` per warp. A
/// caller that goes on to use the shared memory after `false` must pass a
/// barrier first: other warps may still be reading the slots.
#[inline(always)]
unsafe fn try_sum(input: *const f32, n: usize, total: *mut f32) -> bool {
    let tid = thread::thread_idx_x();
    let place = straight::Place::of_thread();
    // SAFETY: `takes` found the input aligned and bounded the quads by
    // `QUADS * T` (`T` the block's threads), so a stride of `T` from `tid`
    // covers them; `input` as the contract says.
    let (sum, exact) = unsafe { straight::thread_sum(input, n, tid, thread::block_dim_x()) };
    // SAFETY: the whole block is here; the shared memory holds a slot per
    // warp by the contract.
    let Some(block_sum) = (unsafe { straight::block_sum(place, sum, exact) }) else {
        return false;
    };
    if tid == 0 {
        // SAFETY: `total` is one writable global `f32` by the contract, and
        // thread 0 is its one writer.
        unsafe { total.write((block_sum + 0.0) as f32) };
    }
    true
}
