//! Puzzle 2, `sum-shared-atomic`: a solution.

use device::order::{AtomicRef, Block, Device, Relaxed};
use device::{shared, thread};

/// Sums `input[0..n]` into `*total` through a shared accumulator per block.
///
/// # Launch
///
/// `ceil(n / block)` blocks of any `block` threads, 4 bytes of dynamic
/// shared memory; `*total` is zero before the launch.
///
/// # Safety
///
/// `input` points to `n` floats and `total` to one, both in global memory.
#[kernel]
pub unsafe fn sum_shared_atomic(input: *const f32, total: *mut f32, n: usize) {
    let block_sum = shared::dynamic_shared::<f32>();
    let first = thread::thread_idx_x() == 0;
    let i = thread::index_1d();

    if first {
        // SAFETY: the launch provides the block's one shared f32.
        unsafe { block_sum.write(0.0) };
    }
    // SAFETY: every thread of the block reaches it: the zero is in place
    // before any add.
    unsafe { thread::sync_threads() };

    if i < n {
        // SAFETY: the block's f32 in shared memory. Only this block's threads
        // add to it, so block scope (`atomicAdd_block`) is enough.
        let accumulator = unsafe { AtomicRef::<f32, Block>::from_shared(block_sum) };
        // SAFETY: `i < n` keeps the read in bounds.
        accumulator.add(unsafe { *input.add(i) }, Relaxed);
    }
    // SAFETY: every thread reaches it: every add has landed before the read.
    unsafe { thread::sync_threads() };

    if first {
        // SAFETY: `total` is one f32 in global memory, added to by every block.
        let total = unsafe { AtomicRef::<f32, Device>::from_global(total) };
        // SAFETY: after the barrier the block's sum is final.
        total.add(unsafe { block_sum.read() }, Relaxed);
    }
}
