//! Puzzle 9, a typical wrong answer: the load and the barrier both inside
//! the bounds check. The threads past `n` skip the barrier as surely as if
//! they had returned.

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
    if i < n {
        // SAFETY: `i < n`, and `tid < block` is inside the tile.
        unsafe { tile.add(tid as usize).write(*input.add(i)) };
        // SAFETY: wrong on purpose: only the threads below `n` arrive.
        unsafe { thread::sync_threads() };
    }
    // SAFETY: as the puzzle's.
    let sum = unsafe { crate::tree::block_sum(tile) };
    if tid == 0 {
        // SAFETY: `out` holds one word per block.
        unsafe { out.add(thread::block_idx_x() as usize).write(sum) };
    }
}
