//! Puzzle 3, `sum-tree-atomic`, a typical wrong answer: the block's sum by
//! shared atomics, puzzle 2's way. The total is right, but the point of the
//! tree is an addition order the algorithm fixes and no atomic in the block.

use device::order::{AtomicRef, Block, Device, Relaxed};
use device::{shared, thread};

/// Sums `input[0..n]` into `*total` through a shared atomic per element.
///
/// # Safety
///
/// As the puzzle's.
#[kernel(layout::sum::PARAMS)]
pub unsafe fn sum_tree_atomic(input: *const f32, total: *mut f32, n: usize) {
    let tile = shared::dynamic_shared::<f32>();
    let tid = thread::thread_idx_x() as usize;
    let i = thread::index_1d();
    if tid == 0 {
        // SAFETY: inside the tile.
        unsafe { tile.write(0.0) };
    }
    // SAFETY: every thread reaches it.
    unsafe { thread::sync_threads() };
    if i < n {
        // SAFETY: the tile is shared.
        let accumulator = unsafe { AtomicRef::<f32, Block>::from_shared(tile) };
        // SAFETY: in bounds.
        accumulator.add(unsafe { *input.add(i) }, Relaxed);
    }
    // SAFETY: every thread reaches it.
    unsafe { thread::sync_threads() };
    if tid == 0 {
        // SAFETY: one global f32.
        let total = unsafe { AtomicRef::<f32, Device>::from_global(total) };
        // SAFETY: final after the barrier.
        total.add(unsafe { tile.read() }, Relaxed);
    }
}
