//! Puzzle 7, a typical wrong answer: `+= 1`, a load, an add and a store;
//! two threads counting one value both load the old count, and one
//! increment is lost.

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
        // SAFETY: `i < n`, and every value indexes a bin. Wrong on purpose:
        // a load, an add and a store, which two threads can interleave.
        unsafe { *bins.add(*input.add(i) as usize) += 1 };
    }
    // ANCHOR_END: todo
}
