//! Puzzle 9, `barrier-every-thread`: a barrier that every thread reaches.
//!
//! Each block sums its values of `input` with a tree in shared memory and
//! thread 0 writes the block's sum to `out[block]`. The last block has
//! threads past `n`, and as written they return before the block's first
//! barrier. A block barrier (`__syncthreads()`) waits for every thread of
//! the block, and the tree then reads the slots of the threads that left,
//! which nobody wrote: the last block's sum is whatever the previous kernel
//! left in shared memory. Fix the kernel so that every thread reaches every
//! barrier.
//!
//! Check: `cargo xtask practice check barrier-every-thread`.
//! Stuck: `cargo xtask practice hint barrier-every-thread`.

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
    // TODO: the threads past `n` leave here, so they never reach the barrier
    // below, and their slots of `tile` are never written.
    if i >= n {
        return;
    }
    // SAFETY: `i < n`, and `tid < block` is inside the tile.
    unsafe { tile.add(tid as usize).write(*input.add(i)) };
    // SAFETY: meant for every thread of the block.
    unsafe { thread::sync_threads() };
    // ANCHOR_END: todo
    // SAFETY: every slot written and published by the barrier above.
    let sum = unsafe { crate::tree::block_sum(tile) };
    if tid == 0 {
        // SAFETY: `out` holds one word per block.
        unsafe { out.add(thread::block_idx_x() as usize).write(sum) };
    }
}
