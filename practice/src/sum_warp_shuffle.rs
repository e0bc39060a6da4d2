//! Puzzle 5, `sum-warp-shuffle`: a block's sum in registers, warp by warp.
//!
//! Puzzle 3's tree takes `log2(block)` steps through shared memory, each
//! ending at a barrier. The 32 lanes of a warp can instead trade registers
//! directly: `shfl.sync.bfly` (`__shfl_xor_sync`) gives each lane the value
//! of the lane whose index differs in one bit, and five such steps (16, 8,
//! 4, 2, 1) leave the warp's sum in every lane. Then lane 0 of each warp
//! writes its warp's sum to shared memory, the block meets at one barrier,
//! and warp 0 adds the warp sums the same way. Thread 0 adds the block's sum
//! to the global total.
//!
//! Check: `cargo xtask practice check sum-warp-shuffle`.
//! Stuck: `cargo xtask practice hint sum-warp-shuffle`.

#[allow(unused_imports)]
use device::order::{AtomicRef, Device, Relaxed};
#[allow(unused_imports)]
use device::{shared, thread, warp};

/// Sums `input[0..n]` into `*total`: warp shuffles, the warp sums through
/// shared memory, one global atomic per block.
///
/// # Launch
///
/// `ceil(n / block)` blocks of `block` threads (a multiple of 32),
/// `block / 32 * 4` bytes of dynamic shared memory (one `f32` a warp);
/// `*total` is zero before the launch.
///
/// # Safety
///
/// `input` points to `n` floats and `total` to one, both in global memory.
#[kernel(layout::sum::PARAMS)]
pub unsafe fn sum_warp_shuffle(input: *const f32, total: *mut f32, n: usize) {
    let warp_sums = shared::dynamic_shared::<f32>();
    let i = thread::index_1d();
    let tid = thread::thread_idx_x();
    let (lane, warp_id) = (tid % warp::WARP_SIZE, tid / warp::WARP_SIZE);
    // ANCHOR: todo
    // TODO: each lane's value is `input[i]`, or 0.0 past the end. Sum it over
    // the warp with `unsafe { warp::shfl_xor_f32(value, mask) }` for mask =
    // 16, 8, 4, 2, 1; lane 0 writes the warp's sum to `warp_sums[warp_id]`;
    // a barrier; warp 0 sums the warp sums the same way (0.0 for a lane past
    // the block's warps), and thread 0 adds the result to `*total`.
    let _ = (input, total, n, warp_sums, i, lane, warp_id);
    // ANCHOR_END: todo
}
