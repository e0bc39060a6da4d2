//! Puzzle 2, `sum-shared-atomic`: a private accumulator per block.
//!
//! Each block adds its elements into one float in its own shared memory, and
//! then one thread adds the block's sum to the global total: the grid's one
//! address sees one add per block instead of one per element. Two barriers
//! keep the phases apart: the accumulator is zeroed before anyone adds to
//! it, and every add has landed before thread 0 reads it. An atomic makes
//! no thread wait; only a barrier does.
//!
//! Check: `cargo xtask practice check sum-shared-atomic`.
//! Stuck: `cargo xtask practice hint sum-shared-atomic`.

#[allow(unused_imports)]
use device::order::{AtomicRef, Block, Device, Relaxed};
#[allow(unused_imports)]
use device::{shared, thread};

/// Sums `input[0..n]` into `*total` through a shared accumulator per block.
///
/// # Launch
///
/// `ceil(n / block)` blocks of any `block` threads, 4 bytes of dynamic
/// shared memory (`shared::dynamic_shared::<f32>()` is the block's one
/// float); `*total` is zero before the launch.
///
/// # Safety
///
/// `input` points to `n` floats and `total` to one, both in global memory.
#[kernel(layout::sum::PARAMS)]
pub unsafe fn sum_shared_atomic(input: *const f32, total: *mut f32, n: usize) {
    let block_sum = shared::dynamic_shared::<f32>();
    let i = thread::index_1d();
    // TODO: thread 0 zeroes `*block_sum`; every thread with `i < n` adds
    // `input[i]` to it; thread 0 adds the block's sum to `*total`. Put a
    // barrier (`thread::sync_threads()`) wherever one phase must finish
    // before the next begins.
    let _ = (input, total, n, i, block_sum);
}
