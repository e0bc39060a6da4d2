use crate::order::{AtomicRef, Device, Relaxed};
use crate::{shared, thread};

/// Counts `input[0..n]` into `bins` through a private copy of the histogram
/// in each block's shared memory: the r/CUDA poster's kernel, with both of
/// its barriers.
///
/// # Launch
///
/// Grid `ceil(n / block)` blocks of any `block` threads, with
/// **`num_bins * 4` bytes** of dynamic shared memory. `bins` (`num_bins`
/// counters) zeroed before the launch.
///
/// # Thread mapping
///
/// 1. The block's threads zero the shared bins together, thread `t` taking
///    bins `t, t + block, ...`.
/// 2. Barrier: without it a thread could increment a bin another thread has
///    not zeroed yet. Atomicity does not order the zeroing store before the
///    increment; the barrier does.
/// 3. Thread `i` increments `local[input[i]]` with a shared atomic
///    (`red.shared.add.u32`, a native `ATOMS.ADD` since Maxwell).
/// 4. Barrier: without it thread `t` could copy bin `b` out before the other
///    threads' increments of `b` land.
/// 5. Thread `t` adds bins `t, t + block, ...` to the global histogram: one
///    global atomic per bin per block.
///
/// # Safety
///
/// `input` must hold `n` values, each less than `num_bins`; `bins` must hold
/// `num_bins` writable `u32` in global memory; the launch must provide
/// `num_bins * 4` bytes of shared memory.
#[kernel(layout::histogram::PRIVATIZED_PARAMS)]
pub unsafe fn histogram_privatized(input: *const u32, n: usize, bins: *mut u32, num_bins: u32) {
    let local = shared::dynamic_shared::<u32>();
    let tid = thread::thread_idx_x();
    let stride = thread::block_dim_x();
    let i = thread::index_1d();

    let mut b = tid;
    while b < num_bins {
        // SAFETY: `b < num_bins`, inside the shared bins the launch provides.
        unsafe { local.add(b as usize).write(0) };
        b += stride;
    }
    // SAFETY: reached by every thread of the block.
    unsafe { thread::sync_threads() };

    if i < n {
        // SAFETY: `i < n`; the value is a bin index by the contract, so the
        // bin is one of this block's shared counters. `atomicAdd` on a
        // `__shared__` counter is device scope, as every `atomicAdd` is.
        let bin = unsafe { AtomicRef::<u32, Device>::from_shared(local.add(*input.add(i) as usize)) };
        bin.add(1, Relaxed);
    }
    // SAFETY: reached by every thread of the block.
    unsafe { thread::sync_threads() };

    let mut b = tid;
    while b < num_bins {
        // SAFETY: `b < num_bins` indexes both histograms; the barrier made the
        // block's increments of `local[b]` complete.
        let (total, count) =
            unsafe { (AtomicRef::<u32, Device>::from_global(bins.add(b as usize)), local.add(b as usize).read()) };
        total.add(count, Relaxed);
        b += stride;
    }
}
