//! Puzzle 3, `sum-tree-atomic`: a solution.

use device::order::{AtomicRef, Device, Relaxed};
use device::{shared, thread};

/// Sums `input[0..n]` into `*total` with a shared-memory tree per block.
///
/// # Launch
///
/// `ceil(n / block)` blocks of a power-of-two `block` threads, `block * 4`
/// bytes of dynamic shared memory; `*total` is zero before the launch.
///
/// # Safety
///
/// `input` points to `n` floats and `total` to one, both in global memory.
#[kernel]
pub unsafe fn sum_tree_atomic(input: *const f32, total: *mut f32, n: usize) {
    let tile = shared::dynamic_shared::<f32>();
    let tid = thread::thread_idx_x() as usize;
    let i = thread::index_1d();

    // SAFETY: `tid < block`, inside the tile; the read is guarded by `i < n`.
    unsafe { tile.add(tid).write(if i < n { *input.add(i) } else { 0.0 }) };
    // SAFETY: every thread of the block reaches it.
    unsafe { thread::sync_threads() };

    let mut half = thread::block_dim_x() as usize / 2;
    while half > 0 {
        if tid < half {
            // SAFETY: `tid + half < block`; the barrier made both final.
            unsafe { *tile.add(tid) += *tile.add(tid + half) };
        }
        // SAFETY: outside the branch, so every thread reaches it each step.
        unsafe { thread::sync_threads() };
        half /= 2;
    }

    if tid == 0 {
        // SAFETY: `total` is one f32 in global memory.
        let total = unsafe { AtomicRef::<f32, Device>::from_global(total) };
        // SAFETY: the last barrier made `tile[0]` final.
        total.add(unsafe { tile.read() }, Relaxed);
    }
}
