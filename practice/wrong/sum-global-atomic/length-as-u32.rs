//! Puzzle 1, `sum-global-atomic`, a typical wrong answer: `n` as a `u32`.
//! The host passes a 64-bit `usize`, so the kernel would read a length of
//! the wrong width; `#[kernel(layout::sum::PARAMS)]` makes it a build error
//! that shows both signatures.

use device::order::{AtomicRef, Device, Relaxed};
use device::thread;

/// Sums `input[0..n]` into `*total`, with the wrong type of `n`.
///
/// # Safety
///
/// As the puzzle's.
#[kernel(layout::sum::PARAMS)]
pub unsafe fn sum_global_atomic(input: *const f32, total: *mut f32, n: u32) {
    // SAFETY: `total` is one f32 in global memory.
    let total = unsafe { AtomicRef::<f32, Device>::from_global(total) };
    let i = thread::index_1d();
    if i < n as usize {
        // SAFETY: in bounds.
        total.add(unsafe { *input.add(i) }, Relaxed);
    }
}
