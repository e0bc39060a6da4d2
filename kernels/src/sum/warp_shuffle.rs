use super::block;
use crate::order::{AtomicRef, Device, Relaxed};
use crate::{shared, thread};

/// Sums `input[0..n]` into `*total` hierarchically: warp shuffles, then warp
/// sums through shared memory, then one global atomic per block.
///
/// Same mapping as the page's kernels (one element per thread), so it differs
/// from [`sum_tree_atomic`](super::sum_tree_atomic) only in how a block adds
/// up: five register exchanges per warp and one barrier, instead of
/// `log2(block)` shared-memory steps with a barrier each.
///
/// # Launch
///
/// Grid `ceil(n / block)` blocks of `block` threads (a multiple of 32), with
/// **`block / 32 * 4` bytes** of dynamic shared memory (one `f32` per warp).
/// `*total` zeroed before the launch.
///
/// # Thread mapping
///
/// Thread `i` contributes `input[i]` (0 past the end); thread 0 of each block
/// adds the block's sum to `*total`.
///
/// # Safety
///
/// `input` must point to `n` readable `f32` and `total` to one writable `f32`,
/// both in global memory; the launch must provide the shared bytes above.
#[kernel(layout::sum::PARAMS)]
pub unsafe fn sum_warp_shuffle(input: *const f32, total: *mut f32, n: usize) {
    let i = thread::index_1d();
    // SAFETY: guarded by `i < n`.
    let value = if i < n { unsafe { *input.add(i) } } else { 0.0 };
    // SAFETY: every thread of the block calls it; the launch provides one
    // shared f32 per warp (the contract above), and nothing else uses it.
    let block_sum = unsafe { block::sum_f32(value, shared::dynamic_shared::<f32>()) };
    if thread::thread_idx_x() == 0 {
        // SAFETY: `total` is one f32 in global memory by the contract.
        let total = unsafe { AtomicRef::<f32, Device>::from_global(total) };
        total.add(block_sum, Relaxed);
    }
}
