//! Step 3, the combine: the block that holds every chunk sum adds them in the
//! documented order, a segment of [`SEGMENT`] chunk sums per warp, then the
//! segment sums by warp 0, and stores the result. The readers here read the
//! chunk sums from `partials` (or shared memory) and the segment sums from
//! shared memory.

use layout::sum::deterministic::{MAX_SEGMENTS, SEGMENT};

use super::addition_order::{Quads, lane_sum};
use super::ticket::finish;
use crate::{shared, thread, warp};

/// The combine, by the one block that holds every chunk sum: segment sums
/// into shared memory, then warp 0 sums those, stores the result and resets
/// the ticket.
///
/// # Safety
///
/// The whole block calls it, once every one of `sums[0..chunks]` is visible
/// to it; `sums` is 16-byte aligned, in global or shared memory, and does not
/// overlap the first 4096 bytes of shared memory; `chunks <= SEGMENT *
/// MAX_SEGMENTS`; `total` and `ticket` as in
/// [`sum_deterministic`](super::sum_deterministic); no thread still reads
/// the first 4096 bytes of shared memory.
#[inline(always)]
pub(super) unsafe fn combine(sums: *const f32, chunks: usize, total: *mut f32, ticket: *mut u32) {
    let tid = thread::thread_idx_x();
    let lane = tid % warp::WARP_SIZE;
    let segments = chunks.div_ceil(SEGMENT);
    if segments == 1 {
        // One segment (up to `SEGMENT` chunks, n <= 2^23): the sum of the
        // segment sums would add only zeros to it, so, as for one chunk,
        // `sum + 0.0` is the result bit for bit, with no second pass and no
        // barrier.
        if tid < warp::WARP_SIZE {
            // SAFETY: all of warp 0 is here; the reader stays inside
            // `sums[0..chunks]`.
            let sum = unsafe { lane_sum(&Segment { sums, chunks, segment: 0 }, lane) };
            if tid == 0 {
                // SAFETY: as below.
                unsafe { finish(total, sum + 0.0, ticket) };
            }
        }
        return;
    }
    let warps_per_block = thread::block_dim_x() / warp::WARP_SIZE;
    let segment_sums = shared::dynamic_shared::<f32>();
    let mut segment = (tid / warp::WARP_SIZE) as usize;
    while segment < segments {
        // SAFETY: the whole warp is here (`segment` is per warp); the reader
        // stays inside `sums[0..chunks]`.
        let sum = unsafe { lane_sum(&Segment { sums, chunks, segment }, lane) };
        if lane == 0 {
            // SAFETY: `segment < segments <= MAX_SEGMENTS`, 4096 bytes.
            unsafe { segment_sums.add(segment).write(sum) };
        }
        segment += warps_per_block as usize;
    }
    // SAFETY: the whole block is here.
    unsafe { thread::sync_threads() };

    if tid < warp::WARP_SIZE {
        // SAFETY: all of warp 0 is here; the reader stays in `[0, segments)`.
        let result = unsafe { lane_sum(&SegmentSums { values: segment_sums, len: segments }, lane) };
        if tid == 0 {
            // SAFETY: as below.
            unsafe { finish(total, result, ticket) };
        }
    }
}

/// Four floats as one 16-byte aligned value, so a plain read of it is one
/// `ld.v4.f32`.
#[repr(C, align(16))]
pub(super) struct Quad(pub(super) [f32; 4]);

/// Segment `segment` of the chunk sums: [`SEGMENT`] floats at a 4 KiB
/// boundary of `sums`, read with plain (coherent) loads, since they were
/// written during this launch, which the `.nc` path does not see. `sums` is
/// 16-byte aligned (global `partials` by the kernel's `# Safety` contract,
/// or shared memory at a 4096-byte offset) and may be in either space: the
/// loads are generic.
struct Segment {
    sums: *const f32,
    chunks: usize,
    segment: usize,
}

impl Quads<{ SEGMENT / 4 }> for Segment {
    #[inline(always)]
    unsafe fn quad(&self, q: usize) -> [f32; 4] {
        let first = self.segment * SEGMENT + 4 * q;
        if first + 4 <= self.chunks {
            // SAFETY: in bounds; `sums` is 16-byte aligned and `first` a
            // multiple of 4, so the read is aligned.
            unsafe { (self.sums.add(first) as *const Quad).read().0 }
        } else {
            core::array::from_fn(|j| {
                // SAFETY: guarded by the number of chunks.
                if first + j < self.chunks { unsafe { *self.sums.add(first + j) } } else { 0.0 }
            })
        }
    }
}

/// The segment sums in shared memory: up to [`MAX_SEGMENTS`] floats.
struct SegmentSums {
    values: *const f32,
    len: usize,
}

impl Quads<{ MAX_SEGMENTS / 4 }> for SegmentSums {
    #[inline(always)]
    unsafe fn quad(&self, q: usize) -> [f32; 4] {
        core::array::from_fn(|j| {
            let k = 4 * q + j;
            // SAFETY: `k < len <= MAX_SEGMENTS`, inside the 4096 bytes.
            if k < self.len { unsafe { *self.values.add(k) } } else { 0.0 }
        })
    }
}
