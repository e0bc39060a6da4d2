//! Puzzle 9, `barrier-every-thread`: a solution.

use device::{shared, thread};

/// Sums each block's values of `input[0..n]` into `out[block]`.
///
/// # Launch
///
/// `ceil(n / block)` blocks of a power-of-two `block` threads, `block * 4`
/// bytes of dynamic shared memory; `out` holds one word per block.
///
/// # Safety
///
/// `input` holds `n` values and `out` one word per block.
#[kernel(layout::pitfall::SUM_PARAMS)]
pub unsafe fn barrier_every_thread(input: *const u32, n: usize, out: *mut u32) {
    let tile = shared::dynamic_shared::<u32>();
    let i = thread::index_1d();
    let tid = thread::thread_idx_x();
    // ANCHOR: todo
    // A thread past `n` has no input, but it has a slot and a place at the
    // barrier: it writes the sum's identity, 0, and waits with the rest. The
    // bounds check guards only the load.
    // SAFETY: the load only for `i < n`.
    let value = if i < n { unsafe { *input.add(i) } } else { 0 };
    // SAFETY: `tid < block` is inside the tile.
    unsafe { tile.add(tid as usize).write(value) };
    // SAFETY: outside every branch: every thread of the block reaches it.
    unsafe { thread::sync_threads() };
    // ANCHOR_END: todo
    // SAFETY: every slot written and published by the barrier above.
    let sum = unsafe { crate::tree::block_sum(tile) };
    if tid == 0 {
        // SAFETY: `out` holds one word per block.
        unsafe { out.add(thread::block_idx_x() as usize).write(sum) };
    }
}
