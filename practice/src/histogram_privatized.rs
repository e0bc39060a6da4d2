//! Puzzle 8, `histogram-privatized`: the r/CUDA poster's kernel, with both of
//! its barriers.
//!
//! Each block counts its values into its own copy of the histogram in shared
//! memory, then adds each of its bins to the global histogram once. Several
//! threads increment one bin, so the increments are atomic; but an atomic
//! makes no thread wait, so two phase boundaries need barriers: the bins are
//! zeroed before anyone increments them, and every increment has landed
//! before a bin is copied out.
//!
//! Check: `cargo xtask practice check histogram-privatized`.
//! Stuck: `cargo xtask practice hint histogram-privatized`.

#[allow(unused_imports)]
use device::order::{AtomicRef, Block, Device, Relaxed};
use device::{shared, thread};

/// Counts `input[0..n]` into `bins` through a private histogram per block.
///
/// # Launch
///
/// `ceil(n / block)` blocks of any `block` threads, `num_bins * 4` bytes of
/// dynamic shared memory (`shared::dynamic_shared::<u32>()`, the block's
/// bins); `bins` zeroed before the launch.
///
/// # Safety
///
/// `input` holds `n` values, each less than `num_bins`; `bins` holds
/// `num_bins` counters in global memory.
#[kernel(layout::histogram::PRIVATIZED_PARAMS)]
pub unsafe fn histogram_privatized(input: *const u32, n: usize, bins: *mut u32, num_bins: u32) {
    let local = shared::dynamic_shared::<u32>();
    let i = thread::index_1d();
    // TODO: the block's threads zero `local[0..num_bins]` together (thread
    // `t` takes bins `t, t + block, ...`); each thread with `i < n`
    // increments `local[input[i]]`; then thread `t` adds bins `t, t + block,
    // ...` to `bins`. A barrier wherever one phase must finish before the
    // next begins.
    let _ = (input, n, bins, num_bins, local, i);
}
