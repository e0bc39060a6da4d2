use layout::sum::deterministic::{CHUNK, FULL, HANDOFF_CHUNKS, Handoff, MAX_SEGMENTS, SEGMENT};

use crate::{atomic, global, order, shared, thread, warp};

/// Sums `input[0..n]` into `*total` with an addition order fixed by `n`
/// alone: the same bits on every run, for every block size and grid size.
///
/// An atomic sum's order is chosen by the hardware. Here the order is chosen
/// by the data layout: the input is cut into chunks of [`CHUNK`] floats, each
/// chunk is summed in a fixed lane pattern (`lane_sum`: per lane, eight batch
/// sums joined by a fixed tree, then a butterfly over the lanes), and the
/// chunk sums are combined in the same pattern, in segments of [`SEGMENT`].
/// *Which* warp or block does a chunk, or a batch of it, and *how* the chunk
/// sums reach the block that combines them, never enter the arithmetic.
///
/// # Launch
///
/// Any grid of `block` threads (a multiple of 32), with **8192 bytes**
/// ([`SHARED_BYTES`](layout::sum::deterministic::SHARED_BYTES)) of dynamic
/// shared memory: the block mode's batch sums in two buffers of 32 floats
/// per unit (at most 4096 bytes each), then the segment sums in the first
/// 4096 and the handed-off chunk sums in the second. `partials` must hold
/// `ceil(n / CHUNK)` floats; `handoff` one [`Handoff`], all zero before the
/// first launch (each launch leaves it zero). `n` at most
/// [`MAX_N`](layout::sum::deterministic::MAX_N) = 2^33. The host's grid is
/// one chunk per eight warps, capped at the blocks that fit on the device
/// ([`layout::sum::DETERMINISTIC`]).
///
/// # Thread mapping
///
/// 1. **Each chunk's sum**, in one of two ways with the same additions. Lane
///    `l` of a chunk's sum adds float4 number `l + 32k` for `k` in batches
///    of 8 (`k = 0..8`, `8..16`, ... `56..64`), each batch in order from
///    `+0.0`, joins the eight batch sums by a fixed tree, and the warp's
///    butterfly sum combines the lanes.
///    - **A warp per chunk**, for as many whole rounds of the grid's `W`
///      warps as there are chunks: warp `w` sums chunks `w, w + W, ...`
///      batch after batch, with no barrier.
///    - **A block per chunk**, for the chunks left over (all of them when
///      there are fewer chunks than warps): block `β` takes `g` chunks at a
///      time (`g` = warps / 8, at least 1), its warps one batch each; they
///      store the 32 lane sums in shared memory, meet at a barrier, and warp
///      `i` joins chunk `i`'s batches. A chunk's eight batches load in
///      parallel. Rounds alternate between two buffers, so each takes one
///      barrier, not two. (On the H200 this split measured the same at 2^28
///      as a warp per chunk throughout; it keeps the warp loop to whole,
///      aligned chunks, and a large grid's last round spread over every
///      block.)
///
///    With at most one chunk (`n <= CHUNK`, the kernel's first test), block
///    0 alone sums it in one such round and ends here: its lane 0 stores
///    `sum + 0.0` into `total`, the bits the combine below would give.
/// 2. **The chunk sums meet in one block**, by one of three routes (a
///    function of `n` and the grid, the same for every block):
///    - **One block:** lane 0s store `partials`, the block's barrier makes
///      them visible to the block, and it combines them.
///    - **Handoff** (up to [`HANDOFF_CHUNKS`] chunks): thread 0 of each
///      block takes a *start* ticket with `atom.global.inc.u32` (wrapping
///      to 0 at the last one) before any load, so its latency hides behind
///      them. Lane 0s store `FULL | bits` into the chunk's 64-bit slot with
///      `st.relaxed.gpu.b64`, and the block leaves. The block that drew the last start ticket knows every
///      other block is running, so it may wait for them: each of its threads
///      loads up to eight of its slots with `ld.relaxed.gpu.b64` at once (one
///      round trip to L2 for all of them), spins on any that does not yet
///      show [`FULL`], copies the sums to shared memory, zeros after them to
///      the segment's end, and zeroes the slots. The sum and its flag are
///      one word, read whole (single-copy atomicity), so no fence is needed:
///      there is no *other* data to publish.
///    - **Ticket** (more chunks): lane 0s store `partials`, every one that
///      stored executes `fence.acq_rel.gpu`, and thread 0 takes a *finish*
///      ticket. The fence is what makes the partials visible to whichever
///      block draws the last ticket: the atomic is relaxed and orders
///      nothing by itself (the pitfall the first page ends on). The last
///      block's thread 0 fences again (the acquire side).
///
///    Either ticket's verdict reaches its block through one `bar.red.or`
///    barrier.
/// 3. **Combine.** The block that holds every chunk sum adds them in the
///    lane pattern: each warp takes segments of [`SEGMENT`], writes segment
///    sums to shared memory, and warp 0 sums those in the lane pattern. With
///    one segment (up to [`SEGMENT`] chunks) that second pass would add only
///    zeros, so warp 0's segment sum plus `+0.0` is the result (on the
///    handoff route, read from shared memory in whole quads). Thread 0
///    stores the result (a plain store: there is exactly one writer) and
///    resets the ticket to 0.
///
/// # Safety
///
/// `input` must point to `n` readable `f32` that nothing writes during the
/// launch; `total`, `partials` and `handoff` as above, all in global memory.
/// `partials` must be 16-byte aligned (any device allocation is: the driver
/// aligns them to 256 bytes): the combine reads it as float4s.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn sum_deterministic(
    input: *const f32,
    total: *mut f32,
    n: usize,
    partials: *mut f32,
    handoff: *mut Handoff,
) {
    let tid = thread::thread_idx_x();
    let lane = tid % warp::WARP_SIZE;
    let warp_id = tid / warp::WARP_SIZE;
    let warps_per_block = thread::block_dim_x() / warp::WARP_SIZE;
    let block = thread::block_idx_x();
    let grid = thread::grid_dim_x();
    if n <= CHUNK {
        // At most one chunk: the first thing tested, so a small launch
        // reaches its loads through as few instructions as possible.
        if block == 0 {
            // SAFETY: the whole of block 0 is here; the rest forwarded.
            unsafe { one_chunk(input, n, total, lane, warp_id, warps_per_block) };
        }
        return;
    }
    // Chunk, batch and warp numbers are 32-bit: `n <= 2^33` makes at most
    // 2^20 chunks. The path from the kernel's entry to its first load is the
    // latency a small launch pays before any byte moves, and in 64-bit
    // arithmetic (a 64-bit division among it) it was 170 instructions at
    // 4,096 floats, where CUB's whole kernel executes 77 per warp.
    let chunks = n.div_ceil(CHUNK) as u32;
    let route = Route::of(chunks, grid);
    // SAFETY: `handoff` points to a `Handoff` by the contract; these are
    // field addresses, not reads.
    let (ticket, slots) = unsafe { (&raw mut (*handoff).ticket, &raw mut (*handoff).slots as *mut u64) };
    let sink = Sink { route, partials, slots };

    // The start ticket is taken before any load, so the atomic's round trip
    // (to DRAM, with a cold L2) overlaps the block's own reads. An `inc`
    // that wraps at `grid - 1`, not an add of 1: `ptxas` warp-aggregates an
    // add (and an `inc` with no wrap, which is one) and shuffles its result
    // at once, which held warp 0's loads back for the round trip. The last
    // ticket wraps the counter back to 0.
    let started = if route == Route::Handoff && tid == 0 {
        // SAFETY: `ticket` is a global u32 by the contract.
        unsafe { atomic::global_fetch_inc_u32(ticket, grid - 1) }
    } else {
        0
    };

    // Whether this thread stored a chunk sum (the ticket route fences then).
    let mut stored = false;

    // Step 1, a warp per chunk, for the whole rounds of the grid's warps
    // over whole chunks of an aligned input. The short last chunk, and every
    // chunk of a misaligned input (scalar loads), go to the block mode below.
    let whole_chunks = if (input as usize).is_multiple_of(16) { (n / CHUNK) as u32 } else { 0 };
    // Saturated: a grid of more than 2^32 warps has more warps than chunks,
    // which is all the rounds need to know. (A block of fewer than 32
    // threads has no whole warp; the launch contract rules it out, and the
    // `grid_warps > 0` test keeps a panic path out of the division.)
    let grid_warps = grid.saturating_mul(warps_per_block);
    let warp_chunks =
        if grid_warps > 0 && whole_chunks >= grid_warps { whole_chunks / grid_warps * grid_warps } else { 0 };
    // This warp's number in the grid, in 64 bits (a grid may hold more than
    // 2^32 warps); below `warp_chunks` it fits in 32.
    let grid_warp = thread::index_1d() / warp::WARP_SIZE as usize;
    // The branch weights here and on the route move the warp loop, which
    // only large launches run, aside, so the few hundred instructions a
    // small launch runs lie closer together: every launch starts with no
    // instructions cached, and ncu finds 14 to 33% of a small launch's warp
    // samples waiting for instruction fetch. Measured on the H200 (part7z
    // and part7zb, three rounds each): 4,096 floats cold 4.61 against 4.81
    // us; every other size within the rounds' spread. (A `likely` on a
    // whole chunk's reader as well made ptxas keep 208 bytes of stack.)
    if core::intrinsics::unlikely(grid_warp < warp_chunks as usize) {
        let mut chunk = grid_warp as u32;
        while chunk < warp_chunks {
            // SAFETY: the whole warp is in this loop (`chunk` is per warp);
            // the chunk is whole and the input aligned, so `base` is too.
            let sum = unsafe { lane_sum(&FullChunk { base: input.add(chunk as usize * CHUNK) }, lane) };
            if lane == 0 {
                // SAFETY: `chunk < chunks`; one lane per chunk.
                unsafe { sink.deliver(chunk, sum) };
                stored = true;
            }
            // No overflow: `grid_warps <= whole_chunks <= 2^20` here.
            chunk += grid_warps;
        }
    }

    // Step 1, a block per chunk, for the chunks left: each block takes
    // `group` chunks at a time and its warps one batch each, then the chunk's
    // eight batch sums meet in shared memory. Same additions. The batch sums
    // alternate between two buffers from round to round, so one barrier per
    // round suffices: a warp that writes a buffer again, two rounds later,
    // has passed the barrier of the round between, which the warps that read
    // it reach only after their reads.
    let group = (warps_per_block / BATCHES as u32).max(1);
    let units = group * BATCHES as u32;
    let batch_sums = shared::dynamic_shared::<f32>();
    // In 64 bits: a block number times `group` can pass 2^32 in a huge grid.
    let start = warp_chunks as u64 + block as u64 * group as u64;
    if start < chunks as u64 {
        // `first` is the same for the whole block, so every thread meets the
        // barrier the same number of times.
        let mut first = start as u32;
        let step = grid.saturating_mul(group);
        let mut buffer = batch_sums;
        let round = Round { input, n, chunks, group, lane, warp_id, warps: warps_per_block };
        loop {
            // SAFETY: the whole block is here; `buffer` is one of the two
            // buffers of `units * 32 <= 1024` floats in the 8192 bytes.
            if let Some((chunk, sum)) = unsafe { round.run(first, buffer) } {
                if lane == 0 {
                    // SAFETY: `chunk < chunks`; one lane per chunk.
                    unsafe { sink.deliver(chunk, sum) };
                    stored = true;
                }
            }
            if step >= chunks - first {
                break;
            }
            first += step;
            buffer = if buffer == batch_sums { batch_sums.wrapping_add((units * warp::WARP_SIZE) as usize) } else { batch_sums };
        }
    }

    // Step 2: the chunk sums meet in one block.
    // (An `if` chain, not a `match`: LLVM lowers the `match` to a jump
    // table, an indirect branch the route does not need.)
    if core::intrinsics::likely(route == Route::Handoff) {
        // SAFETY: reached by every thread of the block.
        if !unsafe { thread::sync_threads_or(tid == 0 && started == grid - 1) } {
            return;
        }
        // The last block to start: every other block is running, and
        // none waits for anything, so every slot will fill.
        let gathered = shared::dynamic_shared::<f32>().wrapping_add(MAX_SEGMENTS);
        let stride = thread::block_dim_x();
        let mut first = tid;
        // The whole segment, chunk sums and then zeros: the combine below
        // reads it in whole quads, with no bounds to test.
        while first < SEGMENT as u32 {
            // Thread `t` takes slots `t, t + block, ...`, up to `GATHER` of
            // them per pass, and loads them all before it waits on any: the
            // blocks that started earlier have usually finished, so one
            // round trip to L2 brings most slots in full.
            // SAFETY: `chunk < chunks <= HANDOFF_CHUNKS`, a slot of the
            // `Handoff`.
            let words: [u64; GATHER] = core::array::from_fn(|j| {
                let chunk = first + j as u32 * stride;
                if chunk < chunks { unsafe { order::load_relaxed_gpu_u64(slots.add(chunk as usize)) } } else { FULL }
            });
            // An index loop: the array's by-value iterator would live in
            // local memory.
            #[allow(clippy::needless_range_loop)]
            for j in 0..GATHER {
                let chunk = first + j as u32 * stride;
                if chunk >= SEGMENT as u32 {
                    break;
                }
                // SAFETY: `chunk < SEGMENT`, inside the second 4096 bytes;
                // each slot below `chunks` is read and reset by one thread.
                unsafe {
                    let value = if chunk < chunks {
                        let slot = slots.add(chunk as usize);
                        let mut word = words[j];
                        while word & FULL == 0 {
                            word = order::load_relaxed_gpu_u64(slot);
                        }
                        order::store_relaxed_gpu_u64(slot, 0);
                        // Single-copy atomicity: the low half is the sum that
                        // was stored with the flag, never an older value.
                        f32::from_bits(word as u32)
                    } else {
                        0.0
                    };
                    gathered.add(chunk as usize).write(value);
                }
            }
            first += GATHER as u32 * stride;
        }
        // SAFETY: the whole block took this branch (the verdict is per
        // block).
        unsafe { thread::sync_threads() };
        // One segment (at most `HANDOFF_CHUNKS = SEGMENT` chunks): as in
        // `combine`, its sum plus `+0.0` is the result bit for bit.
        if tid < warp::WARP_SIZE {
            // SAFETY: all of warp 0 is here; the segment is whole in shared
            // memory.
            let sum = unsafe { lane_sum(&SharedSegment { sums: gathered }, lane) };
            if tid == 0 {
                // SAFETY: this block drew the last start ticket.
                unsafe { finish(total, sum + 0.0, ticket) };
            }
        }
        return;
    }
    let gathered = if route == Route::OneBlock {
        // A grid of one block is its own combining block: the barrier
        // makes every lane 0's partial visible to the whole block
        // (`bar.sync` orders the block's memory accesses), so neither
        // device-scope fences nor a ticket are needed.
        // SAFETY: reached by every thread of the block.
        unsafe { thread::sync_threads() };
        partials.cast_const()
    } else {
        // Release side: order this thread's partial stores before
        // anything it or its block does next, at device scope.
        if stored {
            order::fence_acq_rel_gpu();
        }
        let mut last = false;
        // A barrier first: thread 0 takes the ticket for the whole block,
        // after every lane 0 of it has fenced.
        // SAFETY: reached by every thread of the block.
        unsafe { thread::sync_threads() };
        if tid == 0 {
            // SAFETY: `ticket` is a global u32 by the contract.
            last = unsafe { atomic::global_fetch_add_u32(ticket, 1) } == grid - 1;
            if last {
                // Acquire side: every other block fenced before its
                // ticket.
                order::fence_acq_rel_gpu();
            }
        }
        // SAFETY: reached by every thread of the block.
        if !unsafe { thread::sync_threads_or(last) } {
            return;
        }
        partials.cast_const()
    };
    // SAFETY: the whole block is here, and every chunk sum is visible to it
    // in `gathered`.
    unsafe { combine(gathered, chunks as usize, total, ticket) };
}

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
/// [`sum_deterministic`]'s contract, `n <= CHUNK`.
#[inline(always)]
unsafe fn one_chunk(input: *const f32, n: usize, total: *mut f32, lane: u32, warp_id: u32, warps: u32) {
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
struct Round {
    input: *const f32,
    n: usize,
    chunks: u32,
    group: u32,
    lane: u32,
    warp_id: u32,
    /// Warps in the block.
    warps: u32,
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
    /// from an earlier round; the fields as in [`sum_deterministic`]'s
    /// contract.
    #[inline(always)]
    unsafe fn run(&self, first: u32, buffer: *mut f32) -> Option<(u32, f32)> {
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

/// How a launch's chunk sums reach the block that combines them: a function
/// of the number of chunks and the grid, the same in every block.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Route {
    /// One block: `partials` and the block's barrier.
    OneBlock,
    /// Up to [`HANDOFF_CHUNKS`] chunks: the handoff slots, gathered by the
    /// last block to start.
    Handoff,
    /// More: `partials`, fences and a finish ticket.
    Ticket,
}

impl Route {
    /// The route of a launch of `grid` blocks over `chunks` chunks (at
    /// least two).
    #[inline(always)]
    fn of(chunks: u32, grid: u32) -> Route {
        if grid == 1 {
            Route::OneBlock
        } else if chunks as usize <= HANDOFF_CHUNKS {
            Route::Handoff
        } else {
            Route::Ticket
        }
    }
}

/// Handoff slots one thread of the combining block loads at once.
const GATHER: usize = 8;

/// Where a chunk's sum goes on its route.
struct Sink {
    route: Route,
    partials: *mut f32,
    slots: *mut u64,
}

impl Sink {
    /// Stores chunk `chunk`'s sum where its route takes it.
    ///
    /// # Safety
    ///
    /// `chunk < ceil(n / CHUNK)`; one thread per chunk; the pointers as in
    /// [`sum_deterministic`]'s contract.
    #[inline(always)]
    unsafe fn deliver(&self, chunk: u32, sum: f32) {
        let chunk = chunk as usize;
        // SAFETY: forwarded; `partials` holds every chunk and `slots` the
        // first `HANDOFF_CHUNKS`, which is all a handoff launch has.
        unsafe {
            if self.route == Route::Handoff {
                order::store_relaxed_gpu_u64(self.slots.add(chunk), FULL | u64::from(sum.to_bits()));
            } else {
                self.partials.add(chunk).write(sum);
            }
        }
    }
}

/// The combine, by the one block that holds every chunk sum: segment sums
/// into shared memory, then warp 0 sums those, stores the result and resets
/// the ticket.
///
/// # Safety
///
/// The whole block calls it, once every one of `sums[0..chunks]` is visible
/// to it; `sums` is 16-byte aligned, in global or shared memory, and does not
/// overlap the first 4096 bytes of shared memory; `chunks <= SEGMENT *
/// MAX_SEGMENTS`; `total` and `ticket` as in [`sum_deterministic`]; no
/// thread still reads the first 4096 bytes of shared memory.
#[inline(always)]
unsafe fn combine(sums: *const f32, chunks: usize, total: *mut f32, ticket: *mut u32) {
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

/// Stores the result and resets the ticket, by the one thread that holds the
/// result.
///
/// # Safety
///
/// `total` and `ticket` are global by [`sum_deterministic`]'s contract, and
/// the caller's block drew the last ticket (or is the grid's only block).
#[inline(always)]
unsafe fn finish(total: *mut f32, result: f32, ticket: *mut u32) {
    // SAFETY: forwarded. The reset is a strong store: every other block's
    // ticket precedes it (this block drew the last one), so it is the
    // ticket's final value in this launch.
    unsafe {
        total.write(result);
        order::store_relaxed_gpu(ticket, 0);
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
    let mut tree = Join::default();
    // An index loop: the array's by-value iterator would live in local memory.
    #[allow(clippy::needless_range_loop)]
    for b in 0..BATCHES {
        tree.push(b, p[b]);
    }
    tree.result()
}

/// [`join`]'s tree fed one batch sum at a time, in order: the same additions,
/// carried in three floats. A loop over the batches that filled an array of
/// eight instead left the array in local memory (ptxas did not unroll the
/// loop), a store and a reload per chunk that cost the kernel 8% at 2^28
/// floats on the H200.
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
        if b % 2 == 0 {
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
unsafe fn lane_sum<const QUADS: usize>(list: &(impl Quads<QUADS> + Sized), lane: u32) -> f32 {
    let per_batch = warp::WARP_SIZE as usize * BATCH;
    let live = list.live_quads().min(QUADS);
    let mut tree = Join::default();
    for b in 0..BATCHES {
        // SAFETY: batch `b` is below `QUADS / per_batch`, so its quads are in
        // the list.
        let value =
            if b < QUADS / per_batch && b * per_batch < live { unsafe { list.batch(lane, b) } } else { 0.0 };
        tree.push(b, value);
    }
    // SAFETY: the whole warp is here.
    unsafe { warp::sum_f32(tree.result()) }
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
unsafe fn chunk_batch_sum(input: *const f32, n: usize, chunk: u32, lane: u32, batch: u32) -> f32 {
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

/// Four floats as one 16-byte aligned value, so a plain read of it is one
/// `ld.v4.f32`.
#[repr(C, align(16))]
struct Quad([f32; 4]);

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

/// A whole segment of chunk sums in shared memory, zeros past the last chunk
/// (the handoff route's gather writes it so): every quad is one aligned
/// `ld.shared.v4.f32`, with no bound to test.
struct SharedSegment {
    /// 16-byte aligned, in shared memory, [`SEGMENT`] floats.
    sums: *const f32,
}

impl Quads<{ SEGMENT / 4 }> for SharedSegment {
    #[inline(always)]
    unsafe fn quad(&self, q: usize) -> [f32; 4] {
        // SAFETY: `q < SEGMENT / 4`, and `sums` is 16-byte aligned.
        unsafe { (self.sums.add(4 * q) as *const Quad).read().0 }
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
