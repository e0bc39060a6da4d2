//! Puzzle 5, a typical wrong answer: the warp sums meet in one shared
//! accumulator by atomic adds, puzzle 2's idea, instead of warp 0's
//! shuffles: correct, and the order of the adds is the hardware's.

use device::order::{AtomicRef, Device, Relaxed};
use device::{shared, thread, warp};

/// Sums `input[0..n]` into `*total`: warp shuffles, the warp sums through
/// shared memory, one global atomic per block.
///
/// # Launch
///
/// `ceil(n / block)` blocks of `block` threads (a multiple of 32),
/// `block / 32 * 4` bytes of dynamic shared memory (one `f32` a warp);
/// `*total` is zero before the launch.
///
/// # Safety
///
/// `input` points to `n` floats and `total` to one, both in global memory.
#[kernel(layout::sum::PARAMS)]
pub unsafe fn sum_warp_shuffle(input: *const f32, total: *mut f32, n: usize) {
    let warp_sums = shared::dynamic_shared::<f32>();
    let i = thread::index_1d();
    let tid = thread::thread_idx_x();
    let (lane, warp_id) = (tid % warp::WARP_SIZE, tid / warp::WARP_SIZE);
    // ANCHOR: todo
    // SAFETY: the load only for `i < n`.
    let value = if i < n { unsafe { *input.add(i) } } else { 0.0 };
    // SAFETY: every lane of every warp calls it.
    let mine = unsafe { warp_sum(value) };
    if tid == 0 {
        // SAFETY: word 0 of the shared words; nobody else writes it yet.
        unsafe { warp_sums.write(0.0) };
    }
    // SAFETY: outside every branch.
    unsafe { thread::sync_threads() };
    if lane == 0 {
        // SAFETY: word 0 of the shared words.
        let block_sum = unsafe { AtomicRef::<f32, Device>::from_shared(warp_sums) };
        block_sum.add(mine, Relaxed);
    }
    // SAFETY: outside every branch.
    unsafe { thread::sync_threads() };
    let _ = warp_id;
    if tid == 0 {
        // SAFETY: `total` is one f32 in global memory.
        let total = unsafe { AtomicRef::<f32, Device>::from_global(total) };
        // SAFETY: word 0, final after the barrier.
        total.add(unsafe { warp_sums.read() }, Relaxed);
    }
    // ANCHOR_END: todo
}

/// `value` summed over the warp, in every lane: five butterfly steps.
///
/// # Safety
///
/// All 32 lanes of the warp call it together.
#[inline(always)]
unsafe fn warp_sum(mut value: f32) -> f32 {
    let mut mask = warp::WARP_SIZE / 2;
    while mask > 0 {
        // SAFETY: the caller's whole warp is here.
        value += unsafe { warp::shfl_xor_f32(value, mask) };
        mask /= 2;
    }
    value
}
