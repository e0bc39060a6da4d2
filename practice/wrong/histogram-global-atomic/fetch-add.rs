//! Puzzle 7, a typical wrong answer: `fetch_add`, whose old count nobody
//! reads: correct, and it asks for a round trip the kernel does not use.

use device::order::{AtomicRef, Device, Relaxed};
use device::thread;

/// Counts `input[0..n]` into `bins`, one atomic increment per value.
///
/// # Launch
///
/// `ceil(n / block)` blocks of any `block` threads, no shared memory;
/// `bins` zeroed before the launch.
///
/// # Safety
///
/// `input` holds `n` values, each less than the number of `bins`; `bins`
/// holds that many counters in global memory.
#[kernel(layout::histogram::GLOBAL_PARAMS)]
pub unsafe fn histogram_global_atomic(input: *const u32, n: usize, bins: *mut u32) {
    let i = thread::index_1d();
    // ANCHOR: todo
    if i < n {
        // SAFETY: `i < n`, and every value indexes a bin.
        let bin = unsafe { AtomicRef::<u32, Device>::from_global(bins.add(*input.add(i) as usize)) };
        let _old = bin.fetch_add(1, Relaxed);
    }
    // ANCHOR_END: todo
}
