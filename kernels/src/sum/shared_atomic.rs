use crate::order::{AtomicRef, Device, Relaxed};
use crate::{shared, thread};

/// Sums `input[0..n]` into `*total` through a per-block accumulator in shared
/// memory: one shared atomic add per element, then one global add per block.
///
/// This is privatization: the block's threads still all hit one address, but
/// it is a shared-memory address private to the block, and the grid-wide
/// accumulator sees `n / block` adds instead of `n`.
///
/// # Launch
///
/// Grid `ceil(n / block)` blocks of any `block` threads, with **4 bytes** of
/// dynamic shared memory (the block's one `f32` accumulator). `*total` must be
/// zeroed before the launch.
///
/// # Thread mapping
///
/// Thread 0 zeroes the accumulator; a barrier publishes that store to the
/// block. Thread `i` adds `input[i]` (if `i < n`) to the accumulator. A second
/// barrier makes every thread's add complete and visible before thread 0 reads
/// the block's sum and adds it to `*total`.
///
/// Both barriers are needed, and atomicity supplies neither: without the first
/// a thread's add could land before the zeroing store; without the second
/// thread 0 could read the accumulator before the block's adds arrive.
///
/// # Safety
///
/// `input` must point to `n` readable `f32` in global memory and `total` to
/// one writable `f32` in global memory; the launch must provide at least 4
/// bytes of dynamic shared memory.
#[kernel(layout::sum::PARAMS)]
pub unsafe fn sum_shared_atomic(input: *const f32, total: *mut f32, n: usize) {
    let block_sum = shared::dynamic_shared::<f32>();
    let tid = thread::thread_idx_x();
    let i = thread::index_1d();

    if tid == 0 {
        // SAFETY: the launch provides 4 bytes of shared memory for this f32.
        unsafe { block_sum.write(0.0) };
    }
    // SAFETY: every thread of the block reaches both barriers; the bounds
    // check below skips only the add, never a barrier.
    unsafe { thread::sync_threads() };

    if i < n {
        // SAFETY: `block_sum` is the block's f32 in shared memory. The page's
        // `atomicAdd` on a `__shared__` float is device scope, like every
        // `atomicAdd`; `atomicAdd_block` would be `Block`.
        let accumulator = unsafe { AtomicRef::<f32, Device>::from_shared(block_sum) };
        // SAFETY: `i < n` keeps the read in bounds.
        accumulator.add(unsafe { *input.add(i) }, Relaxed);
    }
    // SAFETY: as above, reached by every thread of the block.
    unsafe { thread::sync_threads() };

    if tid == 0 {
        // SAFETY: `total` is one f32 in global memory by the contract.
        let total = unsafe { AtomicRef::<f32, Device>::from_global(total) };
        // SAFETY: after the barrier every add to `block_sum` has completed and
        // is visible to thread 0.
        total.add(unsafe { block_sum.read() }, Relaxed);
    }
}
