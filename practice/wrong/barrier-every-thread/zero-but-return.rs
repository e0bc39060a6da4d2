//! Puzzle 9, a typical wrong answer: the threads past `n` now write their
//! zero, and then still return before the barrier.

use device::{shared, thread};

/// Sums each block's values of `input[0..n]` into `out[block]`.
///
/// # Safety
///
/// As the puzzle's.
#[kernel(layout::pitfall::SUM_PARAMS)]
pub unsafe fn barrier_every_thread(input: *const u32, n: usize, out: *mut u32) {
    let tile = shared::dynamic_shared::<u32>();
    let i = thread::index_1d();
    let tid = thread::thread_idx_x();
    if i >= n {
        // SAFETY: `tid < block` is inside the tile.
        unsafe { tile.add(tid as usize).write(0) };
        return;
    }
    // SAFETY: `i < n`, and `tid < block` is inside the tile.
    unsafe { tile.add(tid as usize).write(*input.add(i)) };
    // SAFETY: wrong on purpose: the threads past `n` have left.
    unsafe { thread::sync_threads() };
    // SAFETY: as the puzzle's.
    let sum = unsafe { crate::tree::block_sum(tile) };
    if tid == 0 {
        // SAFETY: `out` holds one word per block.
        unsafe { out.add(thread::block_idx_x() as usize).write(sum) };
    }
}
