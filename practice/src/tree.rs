//! The block's tree sum over a tile of shared memory, which puzzle 9 calls
//! after its first barrier, and a block's grid-stride partial sum, which
//! puzzle 11 starts from; this file is not a puzzle.

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

/// The block's grid-stride share of `input[0..n]`: thread `i` adds
/// `input[i]`, `input[i + grid * block]`, ...; then the tree over `tile`.
/// Puzzle 11 calls it; every thread gets the block's sum.
///
/// # Safety
///
/// Every thread of the block calls it; `input` holds `n` values and `tile`
/// `block` words of shared memory, `block` a power of two.
#[inline(always)]
pub unsafe fn block_partial(input: *const u32, n: usize, tile: *mut u32) -> u32 {
    let stride = thread::grid_dim_x() as usize * thread::block_dim_x() as usize;
    let mut i = thread::index_1d();
    let mut sum = 0u32;
    while i < n {
        // SAFETY: `i < n`.
        sum = sum.wrapping_add(unsafe { *input.add(i) });
        i += stride;
    }
    // SAFETY: `tid < block`, inside the tile.
    unsafe { tile.add(thread::thread_idx_x() as usize).write(sum) };
    // SAFETY: every thread of the block reaches it, as the caller
    // guarantees.
    unsafe { thread::sync_threads() };
    // SAFETY: every slot written and published by the barrier.
    unsafe { block_sum(tile) }
}
