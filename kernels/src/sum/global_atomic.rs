use crate::order::{AtomicRef, Device, Relaxed};
use crate::thread;

/// Sums `input[0..n]` into `*total` with one global atomic add per element:
/// the naive kernel, and the one the "atomics take turns" folklore is about.
///
/// # Launch
///
/// Grid `ceil(n / block)` blocks of any `block` threads; no shared memory.
/// `*total` must be zeroed before the launch: the kernel adds into it.
///
/// # Thread mapping
///
/// Thread `i = blockIdx.x * blockDim.x + threadIdx.x` reads `input[i]` and
/// adds it to `*total`; threads with `i >= n` do nothing. Every one of the `n`
/// adds goes to the same address, so all of them contend for one location in
/// the L2 cache, however the grid is cut up.
///
/// # Safety
///
/// `input` must point to `n` readable `f32` in global memory and `total` to
/// one writable, 4-byte aligned `f32` in global memory.
#[kernel]
pub unsafe fn sum_global_atomic(input: *const f32, total: *mut f32, n: usize) {
    // SAFETY: `total` is one f32 in global memory by the launch contract.
    // `atomicAdd` is a relaxed add at device scope.
    let total = unsafe { AtomicRef::<f32, Device>::from_global(total) };
    let i = thread::index_1d();
    if i < n {
        // SAFETY: `i < n` keeps the read inside the input the caller provided.
        total.add(unsafe { *input.add(i) }, Relaxed);
    }
}
