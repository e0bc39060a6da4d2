//! Puzzle 1, `sum-global-atomic`, a typical wrong answer: a block-scoped add
//! on a word every block adds to. Block scope promises atomicity only among
//! one block's threads; the lab has no such add on global memory, and the
//! build says so.

use device::order::{AtomicRef, Block, Relaxed};
use device::thread;

/// Sums `input[0..n]` into `*total` at the wrong scope.
///
/// # Safety
///
/// As the puzzle's.
#[kernel(layout::sum::PARAMS)]
pub unsafe fn sum_global_atomic(input: *const f32, total: *mut f32, n: usize) {
    // SAFETY: `total` is one f32 in global memory.
    let total = unsafe { AtomicRef::<f32, Block>::from_global(total) };
    let i = thread::index_1d();
    if i < n {
        // SAFETY: in bounds.
        total.add(unsafe { *input.add(i) }, Relaxed);
    }
}
