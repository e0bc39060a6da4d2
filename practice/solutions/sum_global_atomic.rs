//! Puzzle 1, `sum-global-atomic`: a solution.

use device::order::{AtomicRef, Device, Relaxed};
use device::thread;

/// Sums `input[0..n]` into `*total` with one atomic add per element.
///
/// # Launch
///
/// `ceil(n / block)` blocks of any `block` threads; `*total` is zero before
/// the launch.
///
/// # Safety
///
/// `input` points to `n` floats and `total` to one, both in global memory.
#[kernel]
pub unsafe fn sum_global_atomic(input: *const f32, total: *mut f32, n: usize) {
    // SAFETY: `total` is one f32 in global memory. `atomicAdd` is a relaxed
    // add at device scope: every thread of the grid adds to this word.
    let total = unsafe { AtomicRef::<f32, Device>::from_global(total) };
    let i = thread::index_1d();
    if i < n {
        // SAFETY: `i < n` keeps the read inside the input.
        total.add(unsafe { *input.add(i) }, Relaxed);
    }
}
