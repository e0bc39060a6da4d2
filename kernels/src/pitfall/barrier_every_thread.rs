use super::block_sum;
use crate::{shared, thread};

/// Sums each block's values of `input[0..n]` into `out[block]`, every thread
/// at every barrier: the fix of [`super::pitfall_barrier_in_bounds_check`].
///
/// A thread past `n` has no input, but it still has a slot in the tile and a
/// place at the barrier: it stores the sum's identity, zero, and waits with
/// the rest. The bounds check guards only the load.
///
/// # Launch
///
/// Grid `ceil(n / block)` blocks of a power-of-two `block`, with `block * 4`
/// bytes of dynamic shared memory. `out` holds one word per block.
///
/// # Thread mapping
///
/// Thread `i` stores `input[i]` (or 0 if `i >= n`) in slot `t` of its
/// block's tile; the tree sum; thread 0 writes the block's sum.
///
/// # Safety
///
/// `input` must hold `n` values and `out` one word per block; the launch
/// must provide `block * 4` bytes of shared memory.
#[kernel(layout::pitfall::SUM_PARAMS)]
pub unsafe fn pitfall_barrier_every_thread(input: *const u32, n: usize, out: *mut u32) {
    let local = shared::dynamic_shared::<u32>();
    let i = thread::index_1d();
    let tid = thread::thread_idx_x();
    // SAFETY: the load only for `i < n`.
    let value = if i < n { unsafe { *input.add(i) } } else { 0 };
    // SAFETY: `tid < block` is inside the tile.
    unsafe { local.add(tid as usize).write(value) };
    // SAFETY: outside every branch: every thread of the block reaches it.
    unsafe { thread::sync_threads() };
    // SAFETY: every thread calls it, with every slot written and published
    // by the barrier above.
    let sum = unsafe { block_sum(local) };
    if tid == 0 {
        // SAFETY: `out` holds one word per block.
        unsafe { out.add(thread::block_idx_x() as usize).write(sum) };
    }
}
