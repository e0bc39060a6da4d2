//! Puzzle 2, `sum-shared-atomic`, a typical wrong answer: the sum is right,
//! but every element still goes to the global total, so the shared
//! accumulator privatizes nothing.

use device::order::{AtomicRef, Device, Relaxed};
use device::thread;

/// Sums `input[0..n]` into `*total`, one global add per element.
///
/// # Safety
///
/// As the puzzle's.
#[kernel(layout::sum::PARAMS)]
pub unsafe fn sum_shared_atomic(input: *const f32, total: *mut f32, n: usize) {
    // SAFETY: one global f32.
    let total = unsafe { AtomicRef::<f32, Device>::from_global(total) };
    let i = thread::index_1d();
    if i < n {
        // SAFETY: in bounds.
        total.add(unsafe { *input.add(i) }, Relaxed);
    }
}
