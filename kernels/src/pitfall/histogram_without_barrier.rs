//! The r/CUDA poster's histogram with one of its two barriers left out.

use crate::order::{AtomicRef, Device, Relaxed};
use crate::{shared, thread};

/// `histogram_privatized` without the barrier after the zeroing (when
/// `ZEROING_BARRIER` is false) or without the one before the flush.
///
/// # Safety
///
/// As `histogram_privatized`'s.
#[inline(always)]
unsafe fn histogram<const ZEROING_BARRIER: bool, const FLUSH_BARRIER: bool>(
    input: *const u32,
    n: usize,
    bins: *mut u32,
    num_bins: u32,
) {
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
    if ZEROING_BARRIER {
        // SAFETY: reached by every thread of the block.
        unsafe { thread::sync_threads() };
    }
    if i < n {
        // SAFETY: `i < n`; the value is a bin index by the contract.
        unsafe { AtomicRef::<u32, Device>::from_shared(local.add(*input.add(i) as usize)).add(1, Relaxed) };
    }
    if FLUSH_BARRIER {
        // SAFETY: reached by every thread of the block.
        unsafe { thread::sync_threads() };
    }
    let mut b = tid;
    while b < num_bins {
        // SAFETY: `b < num_bins` indexes both histograms. Without the flush
        // barrier this read races other threads' increments, and without the
        // zeroing barrier the zeroing store above races them: data races in
        // the PTX memory model's terms, which is the mistake shown. Each is a
        // whole 32-bit shared word read or written, so the result is a wrong
        // count, never a torn word.
        unsafe {
            AtomicRef::<u32, Device>::from_global(bins.add(b as usize))
                .add(local.add(b as usize).read_volatile(), Relaxed)
        };
        b += stride;
    }
}

/// Counts `input[0..n]` into `bins` through shared bins, **without the
/// barrier between zeroing and counting**: a thread that has zeroed its own
/// bins goes straight to its increment, and the bin it increments may be
/// zeroed afterwards by the thread that owns it, wiping the count out. The page: "one group of threads
/// zeroes the shared bins and another adds into them, and atomicity
/// publishes neither group's stores to the other."
///
/// # Launch
///
/// As `histogram_privatized`: grid `ceil(n / block)`, `num_bins * 4` bytes
/// of dynamic shared memory, `bins` zeroed.
///
/// # Thread mapping
///
/// As `histogram_privatized`, one barrier fewer.
///
/// # Safety
///
/// As `histogram_privatized`.
#[kernel(layout::pitfall::HISTOGRAM_PARAMS)]
pub unsafe fn pitfall_histogram_no_zeroing_barrier(input: *const u32, n: usize, bins: *mut u32, num_bins: u32) {
    // SAFETY: forwarded.
    unsafe { histogram::<false, true>(input, n, bins, num_bins) }
}

/// Counts `input[0..n]` into `bins` through shared bins, **without the
/// barrier between the shared and the global atomics**, the one the r/CUDA
/// poster asked about: thread `t` copies bin `t` out as soon as its own
/// increment is done, whether or not the other warps' increments of that
/// bin have landed. Each atomic is indivisible; none waits for another.
///
/// # Launch
///
/// As `histogram_privatized`.
///
/// # Thread mapping
///
/// As `histogram_privatized`, one barrier fewer.
///
/// # Safety
///
/// As `histogram_privatized`.
#[kernel(layout::pitfall::HISTOGRAM_PARAMS)]
pub unsafe fn pitfall_histogram_no_flush_barrier(input: *const u32, n: usize, bins: *mut u32, num_bins: u32) {
    // SAFETY: forwarded.
    unsafe { histogram::<true, false>(input, n, bins, num_bins) }
}
