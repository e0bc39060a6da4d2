use super::block_sum;
use crate::order::{AtomicRef, Device, Relaxed};
use crate::{shared, thread};

/// Sums `input[0..n]` grid-stride into one partial sum per block,
/// `out[block]`: the first phase of a device-wide sum as its own launch.
///
/// A device-wide phase boundary is the end of a kernel: every block of the
/// first launch has finished, and its writes are visible, before the next
/// launch on the stream begins. So the second phase is the same kernel again,
/// one block over the partial sums. The page: "a device-wide phase is
/// normally expressed as a separate kernel launch".
///
/// # Launch
///
/// Any grid of a power-of-two `block`, with `block * 4` bytes of dynamic
/// shared memory; `out` holds one word per block.
///
/// # Thread mapping
///
/// Thread `i` adds `input[i], input[i + grid * block], ...`; the block's
/// tree sum; thread 0 writes it.
///
/// # Safety
///
/// `input` must hold `n` values and `out` one word per block; the launch
/// must provide the shared bytes.
#[kernel(layout::pitfall::SUM_PARAMS)]
pub unsafe fn pitfall_phase_partials(input: *const u32, n: usize, out: *mut u32) {
    let local = shared::dynamic_shared::<u32>();
    // SAFETY: forwarded; every thread of the block calls it.
    let sum = unsafe { block_partial(input, n, local) };
    if thread::thread_idx_x() == 0 {
        // SAFETY: `out` holds one word per block.
        unsafe { out.add(thread::block_idx_x() as usize).write(sum) };
    }
}

/// The block's grid-stride share of `input[0..n]`, summed through `local`.
/// The three device-phase kernels share it, so they differ only in how the
/// partial sums meet.
///
/// # Safety
///
/// Every thread of the block must call it; `input` must hold `n` values and
/// `local` `block` words (`block` a power of two).
#[inline(always)]
pub(super) unsafe fn block_partial(input: *const u32, n: usize, local: *mut u32) -> u32 {
    let stride = thread::grid_dim_x() as usize * thread::block_dim_x() as usize;
    let mut i = thread::index_1d();
    let mut sum = 0u32;
    while i < n {
        // SAFETY: `i < n`.
        sum = sum.wrapping_add(unsafe { *input.add(i) });
        i += stride;
    }
    // SAFETY: `tid < block`, inside `local`.
    unsafe { local.add(thread::thread_idx_x() as usize).write(sum) };
    // SAFETY: every thread of the block reaches it (the caller's contract).
    unsafe { thread::sync_threads() };
    // SAFETY: as above; every slot written and published by the barrier.
    unsafe { block_sum(local) }
}

/// Adds the `grid` partial sums at `partials` in block order into `out[0]`:
/// the second phase of the one-launch kernels, run by one thread once the
/// partials are published to it.
///
/// # Safety
///
/// `partials` must hold `grid` words and `out` one.
#[inline(always)]
pub(super) unsafe fn combine(partials: *const u32, grid: u32, out: *mut u32) {
    let mut total = 0u32;
    for b in 0..grid as usize {
        // SAFETY: `b < grid`, inside the partials.
        let partial = unsafe { AtomicRef::<u32, Device>::from_ptr(partials.add(b).cast_mut()) };
        total = total.wrapping_add(partial.load(Relaxed));
    }
    // SAFETY: `out` holds one word.
    unsafe { out.write(total) };
}
