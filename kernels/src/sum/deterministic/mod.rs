//! The deterministic sum: an addition order fixed by `n` alone.
//!
//! This file holds the kernel's entry point and its contract. The order of
//! the additions is written once, in [`addition_order`]; the readers that
//! feed it a chunk's floats are in [`chunk_readers`], and the block mode that
//! splits one chunk over a block's warps is in [`block_mode`]. How the chunk
//! sums reach the one block that adds them is [`route`]: the [`handoff`]
//! slots, or `partials` and the [`ticket`]. The [`combine`](mod@combine) adds
//! them.

mod addition_order;
mod block_mode;
mod chunk_readers;
mod combine;
mod few_chunks;
mod handoff;
mod route;
mod ticket;

use layout::sum::deterministic::{CHUNK, Handoff};
#[cfg(doc)]
use layout::sum::deterministic::{FULL, HANDOFF_CHUNKS, SEGMENT};

use self::addition_order::{BATCHES, lane_sum};
use self::block_mode::{Round, one_chunk};
use self::chunk_readers::FullChunk;
use self::combine::combine;
use self::route::{Route, Sink};
use crate::{shared, thread, warp};

pub use self::few_chunks::sum_deterministic_few;

// ANCHOR: order
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
// ANCHOR_END: order
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
///      barrier, not two. (The split keeps the warp loop to whole, aligned
///      chunks, and spreads a large grid's last round over every block.)
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
#[kernel(layout::sum::CHUNK_PARTIALS_PARAMS)]
pub unsafe fn sum_deterministic(
    input: *const f32,
    total: *mut f32,
    n: usize,
    partials: *mut f32,
    handoff: *mut Handoff,
) {
    // SAFETY: the kernel's contract is `sum`'s.
    unsafe { sum(input, total, n, partials, handoff) }
}

/// The body of [`sum_deterministic`], for any launch its contract allows:
/// [`sum_deterministic_few`] runs it too, for the launches its own path does
/// not take.
///
/// # Safety
///
/// The whole grid calls it, with [`sum_deterministic`]'s contract.
#[inline(always)]
unsafe fn sum(input: *const f32, total: *mut f32, n: usize, partials: *mut f32, handoff: *mut Handoff) {
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
    // latency a small launch pays before any byte moves, and 64-bit
    // arithmetic lengthens it: the GPU has no integer divider, and a 64-bit
    // division is a far longer instruction sequence than a 32-bit one.
    let chunks = n.div_ceil(CHUNK) as u32;
    let route = Route::of(chunks, grid);
    // SAFETY: `handoff` points to a `Handoff` by the contract; these are
    // field addresses, not reads.
    let (ticket, slots) = unsafe { (&raw mut (*handoff).ticket, &raw mut (*handoff).slots as *mut u64) };
    let sink = Sink { route, partials, slots };

    // The handoff route's start ticket, taken before any load so that its
    // round trip overlaps the block's reads (`ticket::take_start`).
    let started = if route == Route::Handoff && tid == 0 {
        // SAFETY: `ticket` is a global u32 by the contract.
        unsafe { ticket::take_start(ticket, grid) }
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
    // instructions cached, so a small launch's warps spend much of their
    // time waiting for instruction fetch, and fewer cache lines of code
    // mean fewer such waits. (A `likely` on a whole chunk's reader as well
    // makes ptxas keep a stack frame, which the kernel must not have.)
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
            if let Some((chunk, sum)) = unsafe { round.run(first, buffer) }
                && lane == 0
            {
                // SAFETY: `chunk < chunks`; one lane per chunk.
                unsafe { sink.deliver(chunk, sum) };
                stored = true;
            }
            if step >= chunks - first {
                break;
            }
            first += step;
            buffer = if buffer == batch_sums {
                batch_sums.wrapping_add((units * warp::WARP_SIZE) as usize)
            } else {
                batch_sums
            };
        }
    }

    // Step 2: the chunk sums meet in one block.
    // (An `if` chain, not a `match`: LLVM lowers the `match` to a jump
    // table, an indirect branch the route does not need.)
    if core::intrinsics::likely(route == Route::Handoff) {
        // SAFETY: the whole block is here, after its chunk sums went to their
        // slots; `started` is thread 0's start ticket.
        unsafe { handoff::combine(slots, chunks, started, grid, total, ticket, tid) };
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
        // SAFETY: the whole block is here, after its lane 0s stored their
        // partials; `ticket` is a global u32 by the contract.
        if !unsafe { ticket::last_to_finish(ticket, stored, tid, grid) } {
            return;
        }
        partials.cast_const()
    };
    // SAFETY: the whole block is here, and every chunk sum is visible to it
    // in `gathered`.
    unsafe { combine(gathered, chunks as usize, total, ticket) };
}
