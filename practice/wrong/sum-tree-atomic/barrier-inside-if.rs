//! Puzzle 3, `sum-tree-atomic`, a typical wrong answer: a barrier every
//! step, inside `if tid < half`, where only the threads that add reach it.
//! Two barriers in the text, and the threads above `half` never wait at the
//! second.

use device::order::{AtomicRef, Device, Relaxed};
use device::{shared, thread};

/// Sums `input[0..n]` into `*total`, its step barrier inside the step.
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
            // SAFETY: inside the tile.
            unsafe { *tile.add(tid) += *tile.add(tid + half) };
            // SAFETY: wrong on purpose: the threads above `half` skip it.
            unsafe { thread::sync_threads() };
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
