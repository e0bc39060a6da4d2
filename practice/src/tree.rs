//! The block's tree sum over a tile of shared memory, which puzzle 7 calls
//! after its first barrier; this file is not a puzzle.

use device::thread;

/// The sum of the block's `block_dim_x()` words at `tile`, by halves: at
/// each step the threads below `stride` add the word `stride` places up into
/// their own, then the block meets at a barrier. Every thread gets the sum.
///
/// # Safety
///
/// Every thread of the block calls it, with every word of `tile` written and
/// published by a barrier; the block is a power of two.
#[inline(always)]
pub unsafe fn block_sum(tile: *mut u32) -> u32 {
    let tid = thread::thread_idx_x();
    let mut stride = thread::block_dim_x() / 2;
    while stride > 0 {
        if tid < stride {
            // SAFETY: `tid + stride < block`, inside the tile.
            unsafe {
                let sum = tile.add(tid as usize).read().wrapping_add(tile.add((tid + stride) as usize).read());
                tile.add(tid as usize).write(sum);
            }
        }
        // SAFETY: outside the branch: every thread reaches it, every step.
        unsafe { thread::sync_threads() };
        stride /= 2;
    }
    // SAFETY: word 0 is in the tile; the last barrier published it.
    unsafe { tile.read() }
}
