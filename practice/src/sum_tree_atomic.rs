//! Puzzle 3, `sum-tree-atomic`: a tree in shared memory, one atomic a block.
//!
//! Each thread writes its element into a tile of shared memory; then, for
//! `half = block / 2, block / 4, ..., 1`, the threads below `half` add the
//! element `half` places up into their own. After the last step `tile[0]`
//! holds the block's sum, and thread 0 adds it to the global total. Every
//! step reads what the step before wrote, in other threads' slots, so every
//! step ends at a barrier that every thread of the block reaches.
//!
//! Check: `cargo xtask practice check sum-tree-atomic`.
//! Stuck: `cargo xtask practice hint sum-tree-atomic`.

#[allow(unused_imports)]
use device::order::{AtomicRef, Device, Relaxed};
#[allow(unused_imports)]
use device::{shared, thread};

/// Sums `input[0..n]` into `*total` with a shared-memory tree per block.
///
/// # Launch
///
/// `ceil(n / block)` blocks of a power-of-two `block` threads, `block * 4`
/// bytes of dynamic shared memory (the tile); `*total` is zero before the
/// launch.
///
/// # Safety
///
/// `input` points to `n` floats and `total` to one, both in global memory.
#[kernel(layout::sum::PARAMS)]
pub unsafe fn sum_tree_atomic(input: *const f32, total: *mut f32, n: usize) {
    let tile = shared::dynamic_shared::<f32>();
    let tid = thread::thread_idx_x() as usize;
    let i = thread::index_1d();
    // TODO: write `input[i]` (or 0.0 past the end) to `tile[tid]`, halve
    // `half` from `block / 2` down to 1 adding `tile[tid + half]` into
    // `tile[tid]` below it, and let thread 0 add `tile[0]` to `*total`.
    let _ = (input, total, n, tile, tid, i);
}
