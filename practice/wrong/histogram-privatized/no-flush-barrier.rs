//! Puzzle 8, `histogram-privatized`, a typical wrong answer: the barrier
//! between the increments and the copy out is missing, so a thread may copy
//! a bin before the other threads' increments of it land.

use device::order::{AtomicRef, Device, Relaxed};
use device::{shared, thread};

/// Counts `input[0..n]` into `bins`, copying bins out too early.
///
/// # Safety
///
/// As the puzzle's.
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
        // SAFETY: `i < n`; the value is a bin index by the contract.
        unsafe { AtomicRef::<u32, Device>::from_shared(local.add(*input.add(i) as usize)).add(1, Relaxed) };
    }
    let mut b = tid;
    while b < num_bins {
        // SAFETY: `b < num_bins` indexes both histograms; the barrier made the
        // block's increments of `local[b]` complete.
        unsafe {
            AtomicRef::<u32, Device>::from_global(bins.add(b as usize)).add(local.add(b as usize).read(), Relaxed)
        };
        b += stride;
    }
}
