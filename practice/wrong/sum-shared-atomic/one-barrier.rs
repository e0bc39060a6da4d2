//! Puzzle 2, `sum-shared-atomic`, a typical wrong answer: the barrier after
//! the adds is missing, so thread 0 may read the block's sum before the
//! other threads' adds land. The atomic adds do not make thread 0 wait.

use device::order::{AtomicRef, Block, Device, Relaxed};
use device::{shared, thread};

/// Sums `input[0..n]` into `*total`, reading the block's sum too early.
///
/// # Safety
///
/// As the puzzle's.
#[kernel(layout::sum::PARAMS)]
pub unsafe fn sum_shared_atomic(input: *const f32, total: *mut f32, n: usize) {
    let block_sum = shared::dynamic_shared::<f32>();
    let first = thread::thread_idx_x() == 0;
    let i = thread::index_1d();
    if first {
        // SAFETY: the block's one shared f32.
        unsafe { block_sum.write(0.0) };
    }
    // SAFETY: every thread reaches it.
    unsafe { thread::sync_threads() };
    if i < n {
        // SAFETY: the block's shared f32.
        let accumulator = unsafe { AtomicRef::<f32, Block>::from_shared(block_sum) };
        // SAFETY: in bounds.
        accumulator.add(unsafe { *input.add(i) }, Relaxed);
    }
    if first {
        // SAFETY: one global f32.
        let total = unsafe { AtomicRef::<f32, Device>::from_global(total) };
        // SAFETY: the block's shared f32, read with no barrier before it.
        total.add(unsafe { block_sum.read() }, Relaxed);
    }
}
