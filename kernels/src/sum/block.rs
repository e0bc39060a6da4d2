//! The block-level combine shared by the faster sums: warp shuffles, then the
//! warp results through shared memory, the order the second page recommends
//! (combine within each warp, then within the block, then one global update).

use crate::{thread, warp};

/// The sum of `value` over every thread of the block, valid in thread 0 only.
///
/// Each warp sums its 32 values with [`warp::sum_f32`]; lane 0 of each warp
/// writes its warp's sum to `warp_sums[warp]`; after a barrier, warp 0 sums
/// those (at most 32) values the same way. Two levels, one barrier, no
/// atomics.
///
/// # Safety
///
/// Every thread of the block must call it with the same `warp_sums` (it
/// contains a barrier and warp shuffles); the block size must be a multiple of
/// 32; `warp_sums` must point to `blockDim.x / 32` writable `f32` of this
/// block's shared memory (a generic pointer to it), which nothing else uses
/// during the call.
#[inline(always)]
pub unsafe fn sum_f32(value: f32, warp_sums: *mut f32) -> f32 {
    let tid = thread::thread_idx_x();
    let (lane, warp_id) = (tid % warp::WARP_SIZE, tid / warp::WARP_SIZE);
    let warps = thread::block_dim_x() / warp::WARP_SIZE;

    // SAFETY: the whole block is here, so every warp is whole.
    let mine = unsafe { warp::sum_f32(value) };
    if lane == 0 {
        // SAFETY: `warp_id < warps`, within the shared bytes provided.
        unsafe { warp_sums.add(warp_id as usize).write(mine) };
    }
    // SAFETY: every thread of the block reaches this barrier.
    unsafe { thread::sync_threads() };

    let mut total = 0.0;
    if warp_id == 0 {
        let partial = if lane < warps {
            // SAFETY: `lane < warps`; the barrier made the value final.
            unsafe { warp_sums.add(lane as usize).read() }
        } else {
            0.0
        };
        // SAFETY: all 32 lanes of warp 0 are here.
        total = unsafe { warp::sum_f32(partial) };
    }
    total
}
