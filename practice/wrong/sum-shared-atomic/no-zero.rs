//! Puzzle 2, `sum-shared-atomic`, a typical wrong answer: the block's
//! accumulator is never reset to 0. Shared memory is not zeroed at a block's
//! start: it holds what the last block on that SM left, so the block's sum
//! starts from garbage. The accumulator must be reset before every use, as a
//! timed loop's accumulator must be before every launch.

use device::order::{AtomicRef, Block, Device, Relaxed};
use device::{shared, thread};

/// Sums `input[0..n]` into `*total`, from an accumulator never zeroed.
///
/// # Safety
///
/// As the puzzle's.
#[kernel(layout::sum::PARAMS)]
pub unsafe fn sum_shared_atomic(input: *const f32, total: *mut f32, n: usize) {
    let block_sum = shared::dynamic_shared::<f32>();
    let first = thread::thread_idx_x() == 0;
    let i = thread::index_1d();
    // SAFETY: every thread reaches it.
    unsafe { thread::sync_threads() };
    if i < n {
        // SAFETY: the block's shared f32.
        let accumulator = unsafe { AtomicRef::<f32, Block>::from_shared(block_sum) };
        // SAFETY: in bounds.
        accumulator.add(unsafe { *input.add(i) }, Relaxed);
    }
    // SAFETY: every thread reaches it.
    unsafe { thread::sync_threads() };
    if first {
        // SAFETY: one global f32.
        let total = unsafe { AtomicRef::<f32, Device>::from_global(total) };
        // SAFETY: the block's shared f32, after every add.
        total.add(unsafe { block_sum.read() }, Relaxed);
    }
}
