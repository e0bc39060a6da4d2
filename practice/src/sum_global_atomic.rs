//! Puzzle 1, `sum-global-atomic`: one atomic add per element.
//!
//! Every thread adds its element of `input` to one float in global memory.
//! Thousands of threads add to that one address at once, and a plain `+=`
//! (a load, an add, a store) lets two of them read the same old value and
//! lose an update. An atomic add cannot: CUDA writes it `atomicAdd(total, x)`.
//!
//! Check: `cargo xtask practice check sum-global-atomic`.
//! Stuck: `cargo xtask practice hint sum-global-atomic`.

#[allow(unused_imports)]
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
#[kernel(layout::sum::PARAMS)]
pub unsafe fn sum_global_atomic(input: *const f32, total: *mut f32, n: usize) {
    let i = thread::index_1d();
    if i < n {
        // TODO: add `input[i]` to `*total`, so that no other thread's add is lost.
        let _ = (input, total);
    }
}
