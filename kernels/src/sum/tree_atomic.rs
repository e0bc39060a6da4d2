use crate::order::{AtomicRef, Device, Relaxed};
use crate::{shared, thread};

/// Sums `input[0..n]` into `*total` with a shared-memory tree reduction per
/// block and one global add per block: no atomics at all inside the block.
///
/// # Launch
///
/// Grid `ceil(n / block)` blocks of `block` threads, where `block` is a power
/// of two, with **`block * 4` bytes** of dynamic shared memory (one `f32` per
/// thread). `*total` must be zeroed before the launch.
///
/// # Thread mapping
///
/// Thread `t` of a block loads `input[i]` (or 0 past the end) into `tile[t]`.
/// Then `log2(block)` halving steps: in each, the threads `t < half` add
/// `tile[t + half]` into `tile[t]`, and a barrier ends the step so the next
/// step reads finished sums. Thread 0 adds `tile[0]`, the block's total, to
/// `*total`.
///
/// Every thread executes every barrier, including the ones whose step it sits
/// out, so the barriers sit outside the `t < half` branch. The addition order
/// within a block is fixed by the algorithm; only the order of the per-block
/// global adds is chosen by the hardware.
///
/// # Safety
///
/// `input` must point to `n` readable `f32` in global memory, `total` to one
/// writable `f32` in global memory; `block` must be a power of two and the
/// launch must provide `block * 4` bytes of dynamic shared memory.
#[kernel(layout::sum::PARAMS)]
pub unsafe fn sum_tree_atomic(input: *const f32, total: *mut f32, n: usize) {
    let tile = shared::dynamic_shared::<f32>();
    let tid = thread::thread_idx_x() as usize;
    let i = thread::index_1d();

    // SAFETY: `tid < block` and the launch provides `block` f32 of shared
    // memory; the read is guarded by `i < n`.
    unsafe { tile.add(tid).write(if i < n { *input.add(i) } else { 0.0 }) };
    // SAFETY: reached by every thread of the block.
    unsafe { thread::sync_threads() };

    let mut half = thread::block_dim_x() as usize / 2;
    while half > 0 {
        if tid < half {
            // SAFETY: `tid + half < block`, inside the shared tile; the
            // previous barrier made both operands final.
            unsafe { *tile.add(tid) += *tile.add(tid + half) };
        }
        // SAFETY: outside the branch, so every thread reaches it each step.
        unsafe { thread::sync_threads() };
        half /= 2;
    }

    if tid == 0 {
        // SAFETY: `total` is one f32 in global memory by the contract.
        let total = unsafe { AtomicRef::<f32, Device>::from_global(total) };
        // SAFETY: the last barrier made `tile[0]` final.
        total.add(unsafe { tile.read() }, Relaxed);
    }
}
