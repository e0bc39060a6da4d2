//! The documented order of the additions, written once: a list of floats is
//! read as quads, each lane adds its quads batch by batch ([`batch_sum`]),
//! joins its eight batch sums by a fixed tree ([`join`]), and the warp's
//! butterfly combines the lanes ([`lane_sum`]). Every chunk sum, segment sum
//! and the final sum of [`sum_deterministic`](super::sum_deterministic) is a
//! [`lane_sum`] of some [`Quads`] reader, so which warp or block reads the
//! floats never enters the arithmetic.

use layout::sum::deterministic::CHUNK;

use crate::warp;

/// A list of `4 * QUADS` floats that [`lane_sum`] adds in its fixed order.
pub(super) trait Quads<const QUADS: usize> {
    /// Floats `4q..4q + 4` of the list (0.0 for any past its end).
    ///
    /// # Safety
    ///
    /// `q < QUADS`.
    unsafe fn quad(&self, q: usize) -> [f32; 4];

    /// Quads from which on every quad is 0.0 (a multiple of `32 * BATCH`
    /// or `QUADS`): [`lane_sum`] stops there. Adding `+0.0` to a lane's
    /// running sum never changes its bits (the sum starts at `+0.0`, so it is
    /// never `-0.0`), so stopping early gives the same result.
    fn live_quads(&self) -> usize {
        QUADS
    }

    /// Batch `batch` of the list by one warp ([`batch_sum`]); a reader may
    /// hand a batch to a faster reader of the same values.
    ///
    /// # Safety
    ///
    /// As for [`batch_sum`].
    #[inline(always)]
    unsafe fn batch(&self, lane: u32, batch: usize) -> f32
    where
        Self: Sized,
    {
        // SAFETY: forwarded.
        unsafe { batch_sum(self, lane, batch) }
    }
}

/// Quads one lane loads before it adds any of them: eight independent 16-byte
/// loads in flight per lane, so the loop is bound by bandwidth, not by the
/// latency of one load at a time.
pub(super) const BATCH: usize = 8;

/// Batches in a chunk: a lane's 64 quads of a chunk, [`BATCH`] at a time.
pub(super) const BATCHES: usize = CHUNK / 4 / (warp::WARP_SIZE as usize * BATCH);

const _: () = assert!(BATCHES == 8, "join() joins eight batch sums");

/// Batch `batch` of a list by one warp: lane `l` adds quads `l + 32k` for
/// `k = BATCH * batch ..` [`BATCH`] of them, in order, each quad as
/// `(x + y) + (z + w)`, starting from `+0.0`. The loads are issued first;
/// the additions keep the order.
///
/// # Safety
///
/// `lane + 32 * (BATCH * (batch + 1) - 1) < QUADS`.
#[inline(always)]
pub(super) unsafe fn batch_sum<const QUADS: usize>(list: &impl Quads<QUADS>, lane: u32, batch: usize) -> f32 {
    let lanes = warp::WARP_SIZE as usize;
    let first = batch * BATCH;
    // SAFETY: `lane + lanes * (first + j) < QUADS` for every `j < BATCH`.
    let quads: [[f32; 4]; BATCH] = core::array::from_fn(|j| unsafe { list.quad(lane as usize + lanes * (first + j)) });
    let mut acc = 0.0f32;
    // An index loop, not `for q in quads`: the array's by-value iterator
    // would be built in local memory, which costs a round trip per quad.
    #[allow(clippy::needless_range_loop)]
    for j in 0..BATCH {
        let [x, y, z, w] = quads[j];
        acc += (x + y) + (z + w);
    }
    acc
}

/// A lane's eight batch sums joined by a fixed tree:
/// `((p0 + p1) + (p2 + p3)) + ((p4 + p5) + (p6 + p7))`. A missing batch is
/// `+0.0`, and a batch sum is never `-0.0` (it starts at `+0.0`), so joining
/// zeros leaves the others' bits alone: a list of one batch joins to that
/// batch's sum.
#[inline(always)]
pub(super) fn join(p: [f32; BATCHES]) -> f32 {
    let mut tree = Join::default();
    // An index loop: the array's by-value iterator would live in local memory.
    #[allow(clippy::needless_range_loop)]
    for b in 0..BATCHES {
        tree.push(b, p[b]);
    }
    tree.result()
}

/// [`join`]'s tree fed one batch sum at a time, in order: the same additions,
/// carried in three floats. A loop over the batches that fills an array of
/// eight instead leaves the array in local memory (ptxas does not unroll the
/// loop): a store and a reload per chunk, local-memory traffic beside the
/// input's in a kernel that is bound by memory bandwidth.
#[derive(Default)]
struct Join {
    /// `p(b - 1)` while `b` is odd.
    pending: f32,
    /// `p0 + p1`, then `p4 + p5`.
    pair: f32,
    /// `(p0 + p1) + (p2 + p3)`, then the whole tree.
    half: f32,
}

impl Join {
    /// Takes batch sum `b`; `b` runs from 0 to 7, in order.
    #[inline(always)]
    fn push(&mut self, b: usize, value: f32) {
        if b.is_multiple_of(2) {
            self.pending = value;
            return;
        }
        let pair = self.pending + value;
        if b % 4 == 1 {
            self.pair = pair;
            return;
        }
        let quad = self.pair + pair;
        self.half = if b == 3 { quad } else { self.half + quad };
    }

    /// The tree, once all eight batch sums are in.
    #[inline(always)]
    fn result(&self) -> f32 {
        self.half
    }
}

/// The sum of a list of `4 * QUADS` floats by one warp, in a fixed order:
/// each lane's batch sums ([`batch_sum`]), joined by [`join`]'s tree, then
/// the warp's butterfly sum combines the lanes. Missing floats are 0.0, so a
/// short list sums exactly as if padded; batches past
/// [`Quads::live_quads`] are not loaded at all.
///
/// # Safety
///
/// All 32 lanes of the warp must call it with the same list; `QUADS` must be
/// a multiple of `32 * BATCH`, at most `32 * BATCH * BATCHES`.
#[inline(always)]
pub(super) unsafe fn lane_sum<const QUADS: usize>(list: &(impl Quads<QUADS> + Sized), lane: u32) -> f32 {
    let per_batch = warp::WARP_SIZE as usize * BATCH;
    let live = list.live_quads().min(QUADS);
    let mut tree = Join::default();
    for b in 0..BATCHES {
        // SAFETY: batch `b` is below `QUADS / per_batch`, so its quads are in
        // the list.
        let value = if b < QUADS / per_batch && b * per_batch < live { unsafe { list.batch(lane, b) } } else { 0.0 };
        tree.push(b, value);
    }
    // SAFETY: the whole warp is here.
    unsafe { warp::sum_f32(tree.result()) }
}
