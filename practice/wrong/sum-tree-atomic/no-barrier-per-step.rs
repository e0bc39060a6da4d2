//! Puzzle 3, `sum-tree-atomic`, a typical wrong answer: one barrier after the
//! load and none between the steps, so a step can read a slot that another
//! thread's previous step has not written yet.

use device::order::{AtomicRef, Device, Relaxed};
use device::{shared, thread};

/// Sums `input[0..n]` into `*total`, racing between the tree's steps.
///
/// # Safety
///
/// As the puzzle's.
#[kernel(layout::sum::PARAMS)]
pub unsafe fn sum_tree_atomic(input: *const f32, total: *mut f32, n: usize) {
    let tile = shared::dynamic_shared::<f32>();
    let tid = thread::thread_idx_x() as usize;
    let i = thread::index_1d();
    // SAFETY: inside the tile; the read is guarded.
    unsafe { tile.add(tid).write(if i < n { *input.add(i) } else { 0.0 }) };
    // SAFETY: every thread reaches it.
    unsafe { thread::sync_threads() };
    let mut half = thread::block_dim_x() as usize / 2;
    while half > 0 {
        if tid < half {
            // SAFETY: inside the tile, but the other thread's slot may be
            // from the step before last.
            unsafe { *tile.add(tid) += *tile.add(tid + half) };
        }
        half /= 2;
    }
    if tid == 0 {
        // SAFETY: one global f32.
        let total = unsafe { AtomicRef::<f32, Device>::from_global(total) };
        // SAFETY: inside the tile.
        total.add(unsafe { tile.read() }, Relaxed);
    }
}
