//! Puzzle 1, `sum-global-atomic`, a typical wrong answer: a plain `+=`.
//! Two threads can load the same old total, and one of the two adds is lost.

use device::thread;

/// Sums `input[0..n]` into `*total`, losing updates.
///
/// # Safety
///
/// As the puzzle's.
#[kernel(layout::sum::PARAMS)]
pub unsafe fn sum_global_atomic(input: *const f32, total: *mut f32, n: usize) {
    let i = thread::index_1d();
    if i < n {
        // SAFETY: in bounds; but the load, add and store are three steps.
        unsafe { *total += *input.add(i) };
    }
}
