//! Puzzle 7, `histogram-global-atomic`: a histogram, one global atomic a
//! value.
//!
//! Each thread reads one value and increments its bin. Threads whose
//! values are equal increment the same word, so the increment must be
//! atomic, and, as in puzzle 1, nothing reads the old count back. This is
//! the baseline the next puzzle privatizes: run `host histogram` beside it
//! and watch what a skewed input does to it.
//!
//! Check: `cargo xtask practice check histogram-global-atomic`.
//! Stuck: `cargo xtask practice hint histogram-global-atomic`.

#[allow(unused_imports)]
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
    // TODO: for `i < n`, add 1 to `bins[input[i]]` so that no increment is
    // lost when two threads count the same value.
    let _ = (i, input, n, bins);
    // ANCHOR_END: todo
}
