//! What puzzle 6 calls and does not write: one warp's sum of one chunk, in
//! a fixed order. The puzzle's stub, its solution and its wrong answers all
//! call this one copy.

use layout::sum::deterministic::CHUNK;

use device::{thread, warp};

/// The sum of chunk `chunk` of `input[0..n]`, in every lane of the calling
/// warp, in a fixed order: lane `l` adds elements `l`, `l + 32`, `l + 64`,
/// ... of the chunk in turn, then the 32 lane sums meet in a fixed
/// butterfly (16, 8, 4, 2, 1).
///
/// # Safety
///
/// All 32 lanes of the warp call it together, with the same `chunk`;
/// `input` holds `n` floats.
#[inline(always)]
pub unsafe fn chunk_sum(input: *const f32, n: usize, chunk: usize) -> f32 {
    let lane = (thread::thread_idx_x() % warp::WARP_SIZE) as usize;
    let end = n.min((chunk + 1) * CHUNK);
    let mut i = chunk * CHUNK + lane;
    let mut sum = 0.0f32;
    while i < end {
        // SAFETY: `i < end <= n`.
        sum += unsafe { *input.add(i) };
        i += warp::WARP_SIZE as usize;
    }
    let mut mask = warp::WARP_SIZE / 2;
    while mask > 0 {
        // SAFETY: the caller's whole warp is here.
        sum += unsafe { warp::shfl_xor_f32(sum, mask) };
        mask /= 2;
    }
    sum
}
