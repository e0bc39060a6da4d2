use layout::sum::deterministic::{CHUNK, MAX_SEGMENTS, SEGMENT};

use crate::{atomic, global, order, shared, thread, warp};

/// Sums `input[0..n]` into `*total` with an addition order fixed by `n`
/// alone: the same bits on every run, for every block size and grid size.
///
/// An atomic sum's order is chosen by the hardware. Here the order is chosen
/// by the data layout: the input is cut into chunks of [`CHUNK`] floats, each
/// chunk is summed in a fixed lane pattern (`lane_sum`: per lane, eight batch
/// sums joined by a fixed tree, then a butterfly over the lanes), and the
/// chunk sums are combined in the same pattern, in segments of [`SEGMENT`].
/// *Which* warp or block does a chunk, or a batch of it, never enters the
/// arithmetic.
///
/// # Launch
///
/// Any grid of `block` threads (a multiple of 32), with **4096 bytes**
/// ([`SHARED_BYTES`](layout::sum::deterministic::SHARED_BYTES)) of dynamic
/// shared memory: the batch sums of the block's chunks in step 1, then up to
/// [`MAX_SEGMENTS`] segment sums, whose first word holds the block's "last
/// block" flag before them. `partials` must hold `ceil(n / CHUNK)` floats;
/// `counter` one `u32`, zero before the first launch (each launch leaves it
/// zero). `n` at most [`MAX_N`](layout::sum::deterministic::MAX_N) = 2^33.
/// The host's grid is one chunk per eight warps, capped at the blocks that
/// fit on the device ([`layout::sum::DETERMINISTIC`]).
///
/// # Thread mapping
///
/// 1. Each chunk's sum, in one of two ways with the same additions. Lane `l`
///    of a chunk's sum adds float4 number `l + 32k` for `k` in batches of 8
///    (`k = 0..8`, `8..16`, ... `56..64`), each batch in order from `+0.0`,
///    joins the eight batch sums by a fixed tree, and the warp's butterfly
///    sum combines the lanes.
///    - **Fewer chunks than warps** (small and mid sizes): block `β` takes
///      chunks `β·g ..` (`g` = warps / 8, at least 1, chunks at a time, the
///      grid striding on); its warps take one batch each, store the 32 lane
///      sums in shared memory, meet at a barrier, and warp `i` joins chunk
///      `i`'s batches. A chunk's eight batches load in parallel.
///    - **Otherwise** (large sizes): warp `w` of the grid sums chunks `w, w +
///      W, ...` (`W` warps in all) batch after batch, with no barrier.
///
///    Lane 0 stores `partials[chunk]`. With a single chunk (`n <= CHUNK`) the
///    kernel ends here: lane 0 stores `sum + 0.0` into `total`, the bits the
///    two phases below would give. With a single block, the block's barrier
///    replaces steps 2 and 3's fences and ticket.
/// 2. **Fence, then ticket.** Every lane 0 that stored a partial executes
///    `fence.acq_rel.gpu`, the block meets at a barrier, and thread 0 takes a
///    ticket with `atom.global.add.u32` on `counter`. The fence is what makes
///    the partials visible to whichever block draws the last ticket: the
///    atomic is relaxed and orders nothing by itself (the pitfall the first
///    page ends on).
/// 3. The block that draws ticket `gridDim.x - 1` knows every other block has
///    fenced its partials. Its thread 0 fences again (the acquire side),
///    a barrier passes that on to the block, and the block sums the partials:
///    each warp takes segments of [`SEGMENT`] chunk sums in the lane pattern,
///    writes segment sums to shared memory, and warp 0 sums those in the lane
///    pattern. Thread 0 stores the result (a plain store: there is exactly one
///    writer) and resets `counter` to 0.
///
/// # Safety
///
/// `input` must point to `n` readable `f32` that nothing writes during the
/// launch; `total`, `partials` and `counter` as above, all in global memory.
/// `partials` must be 16-byte aligned (any device allocation is: the driver
/// aligns them to 256 bytes): the final pass reads it as float4s.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn sum_deterministic(
    input: *const f32,
    total: *mut f32,
    n: usize,
    partials: *mut f32,
    counter: *mut u32,
) {
    let tid = thread::thread_idx_x();
    let lane = tid % warp::WARP_SIZE;
    let warps_per_block = thread::block_dim_x() / warp::WARP_SIZE;
    let grid_warps = thread::grid_dim_x() as usize * warps_per_block as usize;
    let chunks = n.div_ceil(CHUNK);

    let mut stored = false;
    if chunks < grid_warps {
        // Fewer chunks than warps: a warp per chunk would leave warps idle
        // and load each chunk in eight dependent batches. Instead each block
        // takes `group` chunks at a time and its warps one batch each, then
        // the chunk's eight batch sums meet in shared memory. Same additions.
        let group = (warps_per_block as usize / BATCHES).max(1);
        let units = group * BATCHES;
        let warp_id = (tid / warp::WARP_SIZE) as usize;
        let batch_sums = shared::dynamic_shared::<f32>();
        let mut first = thread::block_idx_x() as usize * group;
        // `first` is the same for the whole block, so every thread meets
        // both barriers the same number of times.
        while first < chunks {
            let mut unit = warp_id;
            while unit < units {
                let chunk = first + unit / BATCHES;
                let sum = if chunk < chunks {
                    // SAFETY: the whole warp is here; `chunk < chunks`.
                    unsafe { chunk_batch_sum(input, n, chunk, lane, unit % BATCHES) }
                } else {
                    0.0
                };
                // SAFETY: `unit * 32 + lane < group * 8 * 32 <= 1024` floats,
                // inside the launch's 4096 bytes.
                unsafe { batch_sums.add(unit * warp::WARP_SIZE as usize + lane as usize).write(sum) };
                unit += warps_per_block as usize;
            }
            // SAFETY: reached by every thread of the block.
            unsafe { thread::sync_threads() };
            let chunk = first + warp_id;
            if warp_id < group && chunk < chunks {
                // SAFETY: written before the barrier, inside the 4096 bytes.
                let p = core::array::from_fn(|b| unsafe {
                    batch_sums.add(((warp_id * BATCHES) + b) * warp::WARP_SIZE as usize + lane as usize).read()
                });
                // SAFETY: the whole warp is here (the condition is per warp).
                let sum = unsafe { warp::sum_f32(join(p)) };
                if lane == 0 {
                    // As in the warp-per-chunk loop below: one chunk needs no
                    // second phase.
                    let (to, value) = if chunks == 1 { (total, sum + 0.0) } else { (partials.wrapping_add(chunk), sum) };
                    // SAFETY: `total` is one global f32, `partials` holds
                    // `chunks` floats, by the contract.
                    unsafe { to.write(value) };
                    stored = true;
                }
            }
            // SAFETY: reached by every thread of the block; it keeps the next
            // round's batch sums from overwriting this round's.
            unsafe { thread::sync_threads() };
            first += thread::grid_dim_x() as usize * group;
        }
    }
    let mut chunk = thread::index_1d() / warp::WARP_SIZE as usize;
    while chunks >= grid_warps && chunk < chunks {
        // SAFETY: the whole warp is in this loop (`chunk` is per warp), and
        // `chunk < ceil(n / CHUNK)`.
        let sum = unsafe { chunk_sum(input, n, chunk, lane) };
        if chunks == 1 {
            // One chunk: the second phase would add only zeros to this sum.
            // Every such addition returns its other operand, except that the
            // first turns -0.0 into +0.0 (and any NaN into the canonical one),
            // so `sum + 0.0` is the two-phase result bit for bit, with no
            // partials, fence, ticket or second pass.
            if lane == 0 {
                // SAFETY: `total` is a global f32 by the contract; exactly one
                // warp owns the one chunk.
                unsafe { total.write(sum + 0.0) };
            }
            return;
        }
        if lane == 0 {
            // SAFETY: `chunk < chunks`, the length of `partials`.
            unsafe { partials.add(chunk).write(sum) };
            stored = true;
        }
        chunk += grid_warps;
    }
    if chunks <= 1 {
        // No chunk at all (n = 0) sums to +0.0; one chunk was written above.
        if chunks == 0 && tid == 0 && thread::block_idx_x() == 0 {
            // SAFETY: as above.
            unsafe { total.write(0.0) };
        }
        return;
    }

    let is_last = shared::dynamic_shared::<u32>();
    if thread::grid_dim_x() == 1 {
        // A grid of one block is its own last block: the barrier below makes
        // every lane 0's partial visible to the whole block (`bar.sync`
        // orders the block's memory accesses), so neither the device-scope
        // fences nor the ticket are needed, and the sums are the same.
        // SAFETY: reached by every thread of the block.
        unsafe { thread::sync_threads() };
        // SAFETY: the whole block is here.
        unsafe { combine(partials, chunks, total, counter) };
        return;
    }

    // Release side: order this thread's partial stores before anything it or
    // its block does next, at device scope.
    if stored {
        order::fence_acq_rel_gpu();
    }
    // SAFETY: reached by every thread of the block.
    unsafe { thread::sync_threads() };
    if tid == 0 {
        // SAFETY: `counter` is a global u32 by the contract.
        let ticket = unsafe { atomic::global_fetch_add_u32(counter, 1) };
        let last = ticket == thread::grid_dim_x() - 1;
        if last {
            // Acquire side: every other block fenced before its ticket.
            order::fence_acq_rel_gpu();
        }
        // SAFETY: the launch provides at least 4 bytes of shared memory.
        unsafe { is_last.write(u32::from(last)) };
    }
    // SAFETY: reached by every thread of the block.
    unsafe { thread::sync_threads() };
    // SAFETY: written by thread 0 before the barrier.
    if unsafe { is_last.read() } == 0 {
        return;
    }
    // The flag has been read by every thread; the barrier keeps its word free
    // before it is reused for the segment sums.
    // SAFETY: the whole block took this branch (the flag is per block).
    unsafe { thread::sync_threads() };
    // SAFETY: the whole block is here, after every partial is visible to it.
    unsafe { combine(partials, chunks, total, counter) };
}

/// The second phase, by the one block that sees every partial: segment sums
/// into shared memory, then warp 0 sums those and stores the result.
///
/// # Safety
///
/// The whole block calls it, once every one of `partials[0..chunks]` is
/// visible to it; `chunks <= SEGMENT * MAX_SEGMENTS`; `total` and `counter`
/// as in [`sum_deterministic`]; the launch's shared memory holds
/// [`MAX_SEGMENTS`] floats and no thread still reads its first word.
#[inline(always)]
unsafe fn combine(partials: *mut f32, chunks: usize, total: *mut f32, counter: *mut u32) {
    let tid = thread::thread_idx_x();
    let lane = tid % warp::WARP_SIZE;
    let warps_per_block = thread::block_dim_x() / warp::WARP_SIZE;
    let segment_sums = shared::dynamic_shared::<f32>();
    let segments = chunks.div_ceil(SEGMENT);
    let mut segment = (tid / warp::WARP_SIZE) as usize;
    while segment < segments {
        // SAFETY: the whole warp is here (`segment` is per warp); the reader
        // stays inside `partials[0..chunks]`.
        let sum = unsafe { lane_sum(&Segment { partials, chunks, segment }, lane) };
        if lane == 0 {
            // SAFETY: `segment < segments <= MAX_SEGMENTS`, 4096 bytes.
            unsafe { segment_sums.add(segment).write(sum) };
        }
        segment += warps_per_block as usize;
    }
    // SAFETY: the whole block is in this branch.
    unsafe { thread::sync_threads() };

    if tid < warp::WARP_SIZE {
        // SAFETY: all of warp 0 is here; the reader stays in `[0, segments)`.
        let result = unsafe { lane_sum(&SegmentSums { values: segment_sums, len: segments }, lane) };
        if tid == 0 {
            // SAFETY: `total` and `counter` are global by the contract.
            unsafe {
                total.write(result);
                counter.write(0);
            }
        }
    }
}

/// A list of `4 * QUADS` floats that [`lane_sum`] adds in its fixed order.
trait Quads<const QUADS: usize> {
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
}

/// Quads one lane loads before it adds any of them: eight independent 16-byte
/// loads in flight per lane, so the loop is bound by bandwidth, not by the
/// latency of one load at a time.
const BATCH: usize = 8;

/// Batches in a chunk: a lane's 64 quads of a chunk, [`BATCH`] at a time.
const BATCHES: usize = CHUNK / 4 / (warp::WARP_SIZE as usize * BATCH);

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
unsafe fn batch_sum<const QUADS: usize>(list: &impl Quads<QUADS>, lane: u32, batch: usize) -> f32 {
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
fn join(p: [f32; BATCHES]) -> f32 {
    ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]))
}

/// The sum of a list of `4 * QUADS` floats by one warp, in a fixed order:
/// each lane's batch sums ([`batch_sum`]), joined by [`join`], then the
/// warp's butterfly sum combines the lanes. Missing floats are 0.0, so a
/// short list sums exactly as if padded; batches past
/// [`Quads::live_quads`] are not loaded at all.
///
/// # Safety
///
/// All 32 lanes of the warp must call it with the same list; `QUADS` must be
/// a multiple of `32 * BATCH`, at most `32 * BATCH * BATCHES`.
#[inline(always)]
unsafe fn lane_sum<const QUADS: usize>(list: &impl Quads<QUADS>, lane: u32) -> f32 {
    let per_batch = warp::WARP_SIZE as usize * BATCH;
    let live = list.live_quads().min(QUADS);
    // SAFETY: batch `b` is below `QUADS / per_batch`, so its quads are in the list.
    let p = core::array::from_fn(|b| {
        if b < QUADS / per_batch && b * per_batch < live { unsafe { batch_sum(list, lane, b) } } else { 0.0 }
    });
    // SAFETY: the whole warp is here.
    unsafe { warp::sum_f32(join(p)) }
}

/// A whole chunk of a 16-byte aligned input: 128-bit loads, no bounds checks.
struct FullChunk {
    base: *const f32,
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
/// each guarded by the chunk's length. Same additions as [`FullChunk`].
struct PartChunk {
    base: *const f32,
    len: usize,
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

    /// A short chunk ends early: the batches past its last float are zeros.
    #[inline(always)]
    fn live_quads(&self) -> usize {
        let batch = warp::WARP_SIZE as usize * BATCH;
        self.len.div_ceil(4).div_ceil(batch) * batch
    }
}

/// Sums chunk `chunk` of the input with whichever reader fits it.
///
/// # Safety
///
/// The whole warp calls it; `chunk < ceil(n / CHUNK)`.
#[inline(always)]
unsafe fn chunk_sum(input: *const f32, n: usize, chunk: usize, lane: u32) -> f32 {
    let start = chunk * CHUNK;
    // SAFETY: `start < n`.
    let base = unsafe { input.add(start) };
    let len = (n - start).min(CHUNK);
    // SAFETY: forwarded; each reader stays inside `[start, start + len)`.
    unsafe {
        if len == CHUNK && (input as usize).is_multiple_of(16) {
            lane_sum(&FullChunk { base }, lane)
        } else {
            lane_sum(&PartChunk { base, len }, lane)
        }
    }
}

/// Batch `batch` of chunk `chunk`, by one warp, with whichever reader fits
/// the chunk: [`batch_sum`] of it, or `+0.0` for a batch past its end.
///
/// # Safety
///
/// The whole warp calls it; `chunk < ceil(n / CHUNK)`, `batch < BATCHES`.
#[inline(always)]
unsafe fn chunk_batch_sum(input: *const f32, n: usize, chunk: usize, lane: u32, batch: usize) -> f32 {
    let start = chunk * CHUNK;
    // SAFETY: `start < n`.
    let base = unsafe { input.add(start) };
    let len = (n - start).min(CHUNK);
    // SAFETY: forwarded; each reader stays inside `[start, start + len)`.
    unsafe {
        if len == CHUNK && (input as usize).is_multiple_of(16) {
            batch_sum(&FullChunk { base }, lane, batch)
        } else {
            let part = PartChunk { base, len };
            if batch * warp::WARP_SIZE as usize * BATCH < part.live_quads() { batch_sum(&part, lane, batch) } else { 0.0 }
        }
    }
}

/// Four floats as one 16-byte aligned value, so a plain read of it is one
/// `ld.v4.f32`.
#[repr(C, align(16))]
struct Quad([f32; 4]);

/// Segment `segment` of the chunk sums: [`SEGMENT`] floats at a 4 KiB
/// boundary of `partials`, read with plain (coherent) loads, since they were
/// written during this launch, which the `.nc` path does not see. `partials`
/// is 16-byte aligned by the kernel's `# Safety` contract.
struct Segment {
    partials: *const f32,
    chunks: usize,
    segment: usize,
}

impl Quads<{ SEGMENT / 4 }> for Segment {
    #[inline(always)]
    unsafe fn quad(&self, q: usize) -> [f32; 4] {
        let first = self.segment * SEGMENT + 4 * q;
        if first + 4 <= self.chunks {
            // SAFETY: in bounds; `partials` is 16-byte aligned (the kernel's
            // `# Safety`) and `first` a multiple of 4, so the read is aligned.
            unsafe { (self.partials.add(first) as *const Quad).read().0 }
        } else {
            core::array::from_fn(|j| {
                // SAFETY: guarded by the number of chunks.
                if first + j < self.chunks { unsafe { *self.partials.add(first + j) } } else { 0.0 }
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
