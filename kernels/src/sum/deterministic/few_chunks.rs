//! The deterministic sum's entry for a launch of a few chunks, a block of
//! eight warps per chunk (the host's grid from 8,193 to 262,144 floats at
//! block 256), written as one straight path: every block sums its chunk with
//! one barrier, and the last block to start gathers the other chunk sums in
//! warp 0 alone. Same additions as the general body, which the entry runs
//! for every other launch.

use layout::sum::deterministic::{CHUNK, FEW_CHUNKS, FULL, Handoff, MAX_SEGMENTS, SEGMENT};

use super::addition_order::{BATCHES, Quads, join, lane_sum};
use super::chunk_readers::chunk_batch_sum;
use super::combine::Quad;
#[cfg(doc)]
use super::sum_deterministic;
use super::ticket;
use crate::order::{AtomicRef, Device, Relaxed};
use crate::{shared, thread, warp};

/// The most chunks the path takes: warp 0's lanes gather one chunk sum
/// each, and the sums fill the segment's first eight quads.
const FEW: u32 = FEW_CHUNKS as u32;

// The path's shape is the registry's: warp 0 gathers a chunk sum a lane into
// whole quads, and the launch the host gives the entry is a block of one
// warp per batch for each of 2 to `FEW` chunks. Another count fails to build
// here rather than reading a chunk sum as zero.
const _: () = {
    assert!(FEW.is_multiple_of(4) && FEW <= warp::WARP_SIZE, "warp 0 gathers whole quads, a chunk sum a lane");
    match layout::sum::DETERMINISTIC_FEW.launches {
        layout::sum::SmallLaunch::BlockPerChunk { threads, most } => {
            assert!(threads == BATCHES as u32 * warp::WARP_SIZE && most == FEW, "the registry's launch is the path's")
        }
        layout::sum::SmallLaunch::OneBlock => panic!("the deterministic sum's small entry takes a block per chunk"),
    }
};

/// The deterministic sum of a launch of 2 to 32 chunks, a block of eight
/// warps per chunk: the same additions as [`sum_deterministic`], so the same
/// bits, with one barrier a block, the last included, where the general
/// body's blocks meet twice and its last block four times; a gather of one
/// chunk sum a lane
/// where it zeroes a segment of shared memory; and no read of a block's own
/// slot.
///
/// A launch this small is short enough that its time is the chain after the
/// loads. The path is an entry of its own, not a test at the top of
/// [`sum_deterministic`], because that test changed `ptxas`'s register
/// choices in the general body and cost larger launches time
/// (`results/explore/cr-one-block.md`).
///
/// # Launch
///
/// [`sum_deterministic`]'s: the same parameters, shared memory and scratch,
/// under the same contract. The path is taken when the launch has one block
/// per chunk, 2 to [`FEW_CHUNKS`] chunks, and eight warps a block
/// ([`takes`]); any other launch runs the general body. The host launches
/// this entry only for such launches ([`layout::sum::DETERMINISTIC_FEW`]).
///
/// # Thread mapping
///
/// Block `β` sums chunk `β`, its warp `w` batch `w` in the lane pattern of
/// [`sum_deterministic`]'s step 1; warp 0 of the block that starts last adds
/// the chunk sums ([`sum`]'s steps). Off the path, as [`sum_deterministic`].
///
/// # Safety
///
/// [`sum_deterministic`]'s.
#[kernel(layout::sum::CHUNK_PARTIALS_PARAMS)]
pub unsafe fn sum_deterministic_few(
    input: *const f32,
    total: *mut f32,
    n: usize,
    partials: *mut f32,
    handoff: *mut Handoff,
) {
    let chunks = n.div_ceil(CHUNK) as u32;
    let warps = thread::block_dim_x() / warp::WARP_SIZE;
    if n > CHUNK && takes(chunks, thread::grid_dim_x(), warps) {
        // SAFETY: field addresses inside the contract's `Handoff`, not reads.
        let (ticket, slots) = unsafe { (&raw mut (*handoff).ticket, &raw mut (*handoff).slots as *mut u64) };
        // SAFETY: the whole block is here, `takes` holds, and the pointers
        // are the contract's.
        unsafe { sum(input, n, chunks, total, ticket, slots, thread::thread_idx_x(), thread::block_idx_x()) };
        return;
    }
    // SAFETY: the kernel's contract is the general body's.
    unsafe { super::sum(input, total, n, partials, handoff) }
}

/// Whether a launch takes the path: 2 to [`FEW`] chunks, one block per
/// chunk, eight warps a block (a warp per batch).
#[inline(always)]
fn takes(chunks: u32, grid: u32, warps: u32) -> bool {
    chunks <= FEW && grid == chunks && warps == BATCHES as u32
}

/// The segment of chunk sums, read from eight quads of shared memory: the
/// chunk sums, then zeros to the 32nd float; every quad past those eight is
/// zero, as in the general path's segment, so [`lane_sum`] makes the same
/// additions.
struct FewChunkSums {
    /// 16-byte aligned, in shared memory, 32 floats.
    sums: *const f32,
}

impl Quads<{ SEGMENT / 4 }> for FewChunkSums {
    #[inline(always)]
    unsafe fn quad(&self, q: usize) -> [f32; 4] {
        if q < (FEW / 4) as usize {
            // SAFETY: `q < 8`: inside the 32 floats, 16-byte aligned.
            unsafe { (self.sums.add(4 * q) as *const Quad).read().0 }
        } else {
            [0.0; 4]
        }
    }
}

/// The whole launch for [`takes`]: block `β` sums chunk `β` (warp `w` its
/// batch `w`), and then
///
/// 1. **One barrier** (`bar.red.or`) publishes the batch sums to the block
///    and tells it whether its thread 0 drew the last start ticket
///    ([`ticket::take_start`], taken at entry, its round trip hidden behind
///    the loads).
/// 2. **Warp 0** joins the eight batch sums and takes the butterfly: the
///    chunk's sum. A block that did not start last stores it in its slot,
///    `FULL | bits` in one `st.relaxed.gpu.b64`, and leaves.
/// 3. **The last block's warp 0** has already sent lane `c`'s load of slot
///    `c` for every other chunk before its own chunk's join, so the round
///    trip to L2 overlaps it; a lane whose slot is not yet full loads it
///    again until it is (every other block is running and waits for
///    nothing, so it will be), and resets it to 0. Lanes `0..8` put the
///    chunk sums, then zeros, in shared memory, `bar.warp.sync` makes them
///    visible to the warp, and the warp adds them as the segment
///    ([`FewChunkSums`]); thread 0 stores `sum + 0.0` and resets the ticket.
///
/// # Safety
///
/// The whole block calls it, with [`takes`] true; the pointers as in
/// [`sum_deterministic`](super::sum_deterministic)'s contract, `slots` the
/// [`Handoff`]'s and `ticket` its ticket.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn sum(
    input: *const f32,
    n: usize,
    chunks: u32,
    total: *mut f32,
    ticket: *mut u32,
    slots: *mut u64,
    tid: u32,
    block: u32,
) {
    let lane = tid % warp::WARP_SIZE;
    let warp_id = tid / warp::WARP_SIZE;
    let grid = chunks;
    let started = if tid == 0 {
        // SAFETY: `ticket` is a global u32 by the contract.
        unsafe { ticket::take_start(ticket, grid) }
    } else {
        0
    };
    // SAFETY: the whole warp is here; `block < chunks`, `warp_id < 8`.
    let batch = unsafe { chunk_batch_sum(input, n, block, lane, warp_id) };
    let batch_sums = shared::dynamic_shared::<f32>();
    // SAFETY: `warp_id * 32 + lane < 256`, inside the first 4096 bytes.
    unsafe { batch_sums.add((warp_id * warp::WARP_SIZE + lane) as usize).write(batch) };
    // SAFETY: reached by every thread of the block.
    let last = unsafe { thread::sync_threads_or(tid == 0 && started == grid - 1) };
    if warp_id != 0 {
        return;
    }
    // The last block's loads of the other chunks' slots go out first.
    let gathers = last && lane < chunks && lane != block;
    let slot = |chunk: u32| {
        // SAFETY: only called for `chunk < chunks <= FEW`, a slot of the
        // `Handoff`.
        unsafe { AtomicRef::<u64, Device>::from_ptr(slots.add(chunk as usize)) }
    };
    let mut word = if gathers { slot(lane).load(Relaxed) } else { FULL };
    // SAFETY: written before the barrier, by warp `b` in lane `lane`.
    let p = core::array::from_fn(|b| unsafe { batch_sums.add(b * warp::WARP_SIZE as usize + lane as usize).read() });
    // SAFETY: all of warp 0 is here.
    let chunk_sum = unsafe { warp::sum_f32(join(p)) };
    if !last {
        if lane == 0 {
            slot(block).store(FULL | u64::from(chunk_sum.to_bits()), Relaxed);
        }
        return;
    }
    let value = if gathers {
        while word & FULL == 0 {
            word = slot(lane).load(Relaxed);
        }
        slot(lane).store(0, Relaxed);
        // Single-copy atomicity: the low half is the sum stored with the flag.
        f32::from_bits(word as u32)
    } else if lane == block {
        chunk_sum
    } else {
        0.0
    };
    // The sums go to the second 4096 bytes, where the general path gathers
    // its segment.
    let sums = batch_sums.wrapping_add(MAX_SEGMENTS);
    if lane < FEW {
        // SAFETY: `lane < 32`, inside the second 4096 bytes.
        unsafe { sums.add(lane as usize).write(value) };
    }
    // SAFETY: all of warp 0 is here; `bar.warp.sync` orders the lanes'
    // shared-memory stores before the reads below.
    unsafe { warp::sync() };
    // SAFETY: all of warp 0 is here; the 32 floats are written.
    let sum = unsafe { lane_sum(&FewChunkSums { sums }, lane) };
    if tid == 0 {
        // SAFETY: this block drew the last start ticket.
        unsafe { ticket::finish(total, sum + 0.0, ticket) };
    }
}
