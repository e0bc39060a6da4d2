use crate::order::{AtomicRef, Device, Relaxed};
use crate::thread;

/// Counts `input[0..n]` into `bins` with one global atomic increment per
/// element.
///
/// # Launch
///
/// Grid `ceil(n / block)` blocks of any `block` threads; no shared memory.
/// `bins` zeroed before the launch.
///
/// # Thread mapping
///
/// Thread `i` increments `bins[input[i]]`. Elements with the same value
/// contend for one address in L2; the input's distribution decides how much.
///
/// # Safety
///
/// `input` must hold `n` values, each less than the number of `bins`, and
/// `bins` must be writable `u32` in global memory.
#[kernel(layout::histogram::GLOBAL_PARAMS)]
pub unsafe fn histogram_global_atomic(input: *const u32, n: usize, bins: *mut u32) {
    let i = thread::index_1d();
    if i < n {
        // SAFETY: `i < n`, and every value indexes a bin by the contract.
        let bin = unsafe { AtomicRef::<u32, Device>::from_global(bins.add(*input.add(i) as usize)) };
        bin.add(1, Relaxed);
    }
}
