//! The block mode of step 1: a block sums `group` chunks at a time, its warps
//! one batch each, and the chunk's eight batch sums meet in shared memory.
//! The additions are those of a warp per chunk
//! ([`lane_sum`](super::addition_order::lane_sum)); only who does them
//! differs.

use super::addition_order::{BATCHES, join};
use super::chunk_readers::chunk_batch_sum;
use crate::{shared, thread, warp};

/// The sum of at most one chunk (`n <= CHUNK`), by block 0 alone: the block
/// mode's first round for chunk 0, with nothing to hand on. Its warps take
/// the chunk's batches (a block of fewer than eight warps takes several per
/// warp), store the lane sums in shared memory and meet at a barrier; warp 0
/// joins them and stores `sum + 0.0`, the bits the combine would give: it
/// would add only zeros to the one chunk's sum, and every such addition
/// returns its other operand, except that the first turns -0.0 into +0.0
/// (and any NaN into the canonical one). With `n = 0` every batch is empty
/// and the result is +0.0.
///
/// # Safety
///
/// The whole block calls it once; `input`, `n` and `total` as in
/// [`sum_deterministic`](super::sum_deterministic)'s contract, `n <= CHUNK`.
#[inline(always)]
pub(super) unsafe fn one_chunk(input: *const f32, n: usize, total: *mut f32, lane: u32, warp_id: u32, warps: u32) {
    let round = Round { input, n, chunks: 1, group: 1, lane, warp_id, warps };
    // SAFETY: the whole block is here; with `n = 0` every batch of chunk 0
    // is past its end, so nothing is read.
    if let Some((_, sum)) = unsafe { round.run(0, shared::dynamic_shared::<f32>()) }
        && lane == 0
    {
        // SAFETY: `total` is a global f32 by the contract.
        unsafe { total.write(sum + 0.0) };
    }
}

/// One round of the block mode: the block sums chunks `first ..
/// first + group` (those below `chunks`), its warps a batch each, as many
/// batches per warp as `units = group * 8` needs.
pub(super) struct Round {
    pub(super) input: *const f32,
    pub(super) n: usize,
    pub(super) chunks: u32,
    pub(super) group: u32,
    pub(super) lane: u32,
    pub(super) warp_id: u32,
    /// Warps in the block.
    pub(super) warps: u32,
}

impl Round {
    /// Stores each batch's 32 lane sums in `buffer`, meets at the block's
    /// barrier, and returns, in warp `i < group` whose chunk `first + i`
    /// exists, that chunk and its sum (the eight batch sums joined, then the
    /// butterfly), in every lane.
    ///
    /// # Safety
    ///
    /// The whole block calls it with the same `first`; `buffer` holds
    /// `group * 8 * 32` floats of shared memory that no thread still reads
    /// from an earlier round; the fields as in
    /// [`sum_deterministic`](super::sum_deterministic)'s contract.
    #[inline(always)]
    pub(super) unsafe fn run(&self, first: u32, buffer: *mut f32) -> Option<(u32, f32)> {
        let units = self.group * BATCHES as u32;
        let mut unit = self.warp_id;
        while unit < units {
            let chunk = first + unit / BATCHES as u32;
            let sum = if chunk < self.chunks {
                // SAFETY: the whole warp is here; `chunk < chunks`.
                unsafe { chunk_batch_sum(self.input, self.n, chunk, self.lane, unit % BATCHES as u32) }
            } else {
                0.0
            };
            // SAFETY: `unit * 32 + lane < units * 32`, inside `buffer`.
            unsafe { buffer.add((unit * warp::WARP_SIZE + self.lane) as usize).write(sum) };
            unit += self.warps;
        }
        // SAFETY: reached by every thread of the block.
        unsafe { thread::sync_threads() };
        let chunk = first + self.warp_id;
        if self.warp_id < self.group && chunk < self.chunks {
            // SAFETY: written before the barrier, in this round's buffer.
            let p = core::array::from_fn(|b| unsafe {
                buffer.add(((self.warp_id * BATCHES as u32 + b as u32) * warp::WARP_SIZE + self.lane) as usize).read()
            });
            // SAFETY: the whole warp is here (the condition is per warp).
            Some((chunk, unsafe { warp::sum_f32(join(p)) }))
        } else {
            None
        }
    }
}
