//! The reader of the chunk sums: a segment of them, wherever they were
//! gathered (global `partials`, or shared memory), for
//! [`lane_sum`](super::addition_order::lane_sum). The base kernel's combine
//! and the cluster route's rank 0 read with it, so both add the chunk sums
//! the same way.

use layout::sum::deterministic::SEGMENT;

use super::addition_order::Quads;

/// Four floats as one 16-byte aligned value, so a plain read of it is one
/// `ld.v4.f32`.
#[repr(C, align(16))]
pub(super) struct Quad(pub(super) [f32; 4]);

/// Segment `segment` of the chunk sums: [`SEGMENT`] floats at a 4 KiB
/// boundary of `sums`, read with plain (coherent) loads, since they were
/// written during this launch, which the `.nc` path does not see. `sums` is
/// 16-byte aligned (global `partials` by the kernel's `# Safety` contract,
/// or shared memory at a 4096-byte offset) and may be in either space: the
/// loads are generic. (The cluster route's chunk sums are in rank 0's shared
/// memory, at a 16-byte aligned offset: one segment.)
pub(super) struct Segment {
    pub(super) sums: *const f32,
    pub(super) chunks: usize,
    pub(super) segment: usize,
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
