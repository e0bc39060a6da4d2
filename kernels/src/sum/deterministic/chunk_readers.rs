//! The readers of the input: each gives [`lane_sum`](super::addition_order::lane_sum)
//! and [`batch_sum`] one chunk's floats as quads. A whole chunk of an aligned
//! input is read with 128-bit loads and no bounds; the short last chunk, and
//! every chunk of a misaligned input, with guarded scalar loads. Both give the
//! same values, so the same additions.

use layout::sum::deterministic::CHUNK;

use super::addition_order::{BATCH, Quads, batch_sum};
use crate::{global, warp};

/// A whole chunk of a 16-byte aligned input: 128-bit loads, no bounds checks.
pub(super) struct FullChunk {
    pub(super) base: *const f32,
}

impl Quads<{ CHUNK / 4 }> for FullChunk {
    #[inline(always)]
    unsafe fn quad(&self, q: usize) -> [f32; 4] {
        // SAFETY: the chunk is whole and aligned (checked by the caller), and
        // `q < CHUNK / 4`.
        unsafe { global::load_f32x4(self.base.add(4 * q)) }
    }
}

/// The last, short chunk, or any chunk of a misaligned input: scalar loads,
/// each guarded by the chunk's length, except that a batch lying wholly
/// inside an aligned chunk goes to [`FullChunk`]'s 128-bit loads (an input
/// of 4096 floats is four such batches). Same values, so the same additions.
struct PartChunk {
    base: *const f32,
    len: usize,
    /// Whether `base` is 16-byte aligned (the input is, and every chunk
    /// starts a multiple of 16 bytes after it).
    aligned: bool,
}

impl Quads<{ CHUNK / 4 }> for PartChunk {
    #[inline(always)]
    unsafe fn quad(&self, q: usize) -> [f32; 4] {
        core::array::from_fn(|j| {
            let k = 4 * q + j;
            // SAFETY: guarded by the chunk's length.
            if k < self.len { unsafe { *self.base.add(k) } } else { 0.0 }
        })
    }

    #[inline(always)]
    unsafe fn batch(&self, lane: u32, batch: usize) -> f32 {
        let floats = 4 * warp::WARP_SIZE as usize * BATCH;
        // SAFETY: forwarded; a whole batch is inside the chunk, and aligned.
        unsafe {
            if self.aligned && (batch + 1) * floats <= self.len {
                batch_sum(&FullChunk { base: self.base }, lane, batch)
            } else {
                batch_sum(self, lane, batch)
            }
        }
    }

    /// A short chunk ends early: the batches past its last float are zeros.
    #[inline(always)]
    fn live_quads(&self) -> usize {
        let batch = warp::WARP_SIZE as usize * BATCH;
        self.len.div_ceil(4).div_ceil(batch) * batch
    }
}

/// Batch `batch` of chunk `chunk`, by one warp, with whichever reader fits
/// the chunk: [`batch_sum`] of it, or `+0.0` for a batch past its end.
///
/// # Safety
///
/// The whole warp calls it; `chunk < ceil(n / CHUNK)`, `batch < BATCHES`.
#[inline(always)]
pub(super) unsafe fn chunk_batch_sum(input: *const f32, n: usize, chunk: u32, lane: u32, batch: u32) -> f32 {
    let (start, batch) = (chunk as usize * CHUNK, batch as usize);
    // SAFETY: `start < n`.
    let base = unsafe { input.add(start) };
    let len = (n - start).min(CHUNK);
    let aligned = (input as usize).is_multiple_of(16);
    // SAFETY: forwarded; each reader stays inside `[start, start + len)`.
    unsafe {
        if len == CHUNK && aligned {
            batch_sum(&FullChunk { base }, lane, batch)
        } else {
            let part = PartChunk { base, len, aligned };
            if batch * warp::WARP_SIZE as usize * BATCH < part.live_quads() { part.batch(lane, batch) } else { 0.0 }
        }
    }
}
