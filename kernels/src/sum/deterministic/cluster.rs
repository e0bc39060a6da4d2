//! The cluster route (Hopper module): for 2 to [`CLUSTER_CHUNKS`] chunks,
//! one block per chunk, all in one thread-block cluster, and the chunk sums
//! meet in rank 0's shared memory through distributed shared memory and
//! the cluster barrier, where the handoff route meets through a start
//! ticket and 64-bit slots in L2.

use layout::sum::deterministic::{CHUNK, CLUSTER_CHUNKS, CLUSTER_ROUND};

use super::addition_order::lane_sum;
use super::block_mode::Round;
use super::combine::Segment;
use crate::{shared, thread, warp};

/// Sums `input[0..n]` into `*total` with exactly the additions of
/// [`sum_deterministic`](../fn.sum_deterministic.html), so with the same
/// bits, for `n` up to [`CLUSTER_CHUNKS`] chunks of [`CHUNK`]: each chunk's
/// sum by one block of a thread-block cluster, then the chunk sums, pushed
/// into rank 0's shared memory, combined there as the base kernel combines
/// one segment.
///
/// # Launch
///
/// One cluster of `c` blocks along x (`cuLaunchKernelEx` with the
/// cluster-dimension attribute), grid = `c` blocks; the host launches
/// `c = ceil(n / CHUNK)`, from 2 to [`CLUSTER_CHUNKS`]
/// ([`layout::sum::deterministic::cluster_blocks`]). Any `block` that is a
/// multiple of 32, up to 1024. **2080 bytes**
/// ([`CLUSTER_SHARED_BYTES`](layout::sum::deterministic::CLUSTER_SHARED_BYTES))
/// of dynamic shared memory: two rounds' batch sums, then one slot per
/// chunk. Any cluster size from 1 to 8 gives the same result (a block takes
/// chunks `rank, rank + c, ...`), and so does any `n <= CLUSTER_CHUNKS *
/// CHUNK`, including `n <= CHUNK`. Any alignment of `input`.
///
/// # Thread mapping
///
/// 1. **Entry.** Every thread arrives at the cluster barrier,
///    `barrier.cluster.arrive.relaxed.aligned`, before anything else, so the
///    phase that tells a block that every block of its cluster has started
///    completes while it loads (relaxed: there is nothing to release yet,
///    and a release would put a `MEMBAR.ALL.GPU` before the first load).
/// 2. **Each chunk's sum.** Block `rank` sums chunk `rank` in the block
///    mode of the base kernel, one round with `g = 1`: its warps take the
///    chunk's eight batches (a block of fewer than eight warps several per
///    warp), store the lane sums in shared memory, meet at `bar.sync`, and
///    warp 0 joins them and butterflies: the same additions as a warp per
///    chunk, for every block size, aligned or not, whole chunk or short
///    last one. (A cluster of fewer blocks than chunks runs further rounds,
///    in the other buffer, for chunks `rank + c, ...`.)
/// 3. **Push.** Every thread waits for the entry's phase
///    (`barrier.cluster.wait.aligned`): from then on rank 0 has started and
///    its shared memory exists. Lane 0 of warp 0 stores its chunk's sum into
///    slot `chunk` of rank 0's shared memory: `mapa.shared::cluster.u32`,
///    then `st.shared::cluster.u32` (rank 0's own too, through the same
///    path). Every thread then arrives again, `barrier.cluster.arrive.aligned`,
///    whose release orders the store before it, and every block but rank 0
///    exits: exited threads hold no cluster barrier up, and no block reads
///    their shared memory.
/// 4. **Combine.** Rank 0 waits (`barrier.cluster.wait.aligned`, acquire):
///    every block's store is visible, and rank 0's shared memory, which
///    others wrote, was alive until they had all arrived, since rank 0 had
///    not exited. Warp 0 sums the slots as the base kernel's combine sums
///    one segment (a `lane_sum` of the chunk sums, zeros after the last),
///    thread 0 adds `+0.0` and stores the result into `total` (one plain
///    store: one writer).
///
/// Nothing is left for the next launch: no ticket, no slot in global memory.
///
/// # Safety
///
/// `input` must point to `n` readable `f32` that nothing writes during the
/// launch, `n <= CLUSTER_CHUNKS * CHUNK`; `total` to one global `f32`; the
/// launch as above (one cluster, the shared bytes, a block of whole warps).
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn sum_deterministic_cluster(input: *const f32, total: *mut f32, n: usize) {
    // SAFETY: every thread of the cluster arrives here, at its entry, once;
    // its wait comes below, before its next arrive.
    unsafe { thread::cluster_arrive_relaxed() };
    let tid = thread::thread_idx_x();
    let lane = tid % warp::WARP_SIZE;
    let warp_id = tid / warp::WARP_SIZE;
    let warps = thread::block_dim_x() / warp::WARP_SIZE;
    let rank = thread::cluster_block_rank();
    let blocks = thread::cluster_size();
    // At most `CLUSTER_CHUNKS` by the contract: 32 bits hold it.
    let chunks = n.div_ceil(CHUNK) as u32;
    let base = shared::dynamic_shared::<f32>();
    // 16-byte aligned: `2 * CLUSTER_ROUND` floats are 2048 bytes.
    let slots = base.wrapping_add(2 * CLUSTER_ROUND);
    let round = Round { input, n, chunks, group: 1, lane, warp_id, warps };

    // Step 2, the first round: chunk `rank` (the only one when the cluster
    // has a block per chunk). `rank` is the same in the whole block, so
    // every thread meets `run`'s barrier.
    let mine = if rank < chunks {
        // SAFETY: the whole block is here; `base` holds the round's
        // `8 * 32` floats, which no thread has read yet.
        unsafe { round.run(rank, base) }
    } else {
        None
    };

    // Step 3: every block of the cluster has started once this returns.
    // SAFETY: every thread arrived at this phase at the entry.
    unsafe { thread::cluster_wait() };
    // SAFETY: `slots` points into this block's shared memory and rank 0 is
    // in every cluster; rank 0 has started (the wait above) and does not
    // exit before it has waited for this block's arrival below; slot
    // `chunk` is written by the one lane of the one block that summed it.
    let push = |chunk: u32, sum: f32| unsafe {
        let slot = shared::cluster_address(slots.wrapping_add(chunk as usize), 0);
        shared::store_cluster(slot, sum.to_bits());
    };
    if let Some((chunk, sum)) = mine
        && lane == 0
    {
        push(chunk, sum);
    }
    // Chunks `rank + blocks, ...`, for a cluster of fewer blocks than chunks:
    // the buffers alternate as in the base kernel's rounds, so one barrier
    // per round suffices. `blocks >= 1`, so the loop ends.
    let mut first = rank.saturating_add(blocks);
    let mut buffer = base.wrapping_add(CLUSTER_ROUND);
    while first < chunks {
        // SAFETY: the whole block is here (`first` is per block); `buffer`
        // was last read before the previous round's barrier.
        if let Some((chunk, sum)) = unsafe { round.run(first, buffer) }
            && lane == 0
        {
            push(chunk, sum);
        }
        first = first.saturating_add(blocks);
        buffer = if buffer == base { base.wrapping_add(CLUSTER_ROUND) } else { base };
    }
    // Release: this thread's pushes come before its arrival.
    // SAFETY: every thread of the cluster arrives here once, after its wait
    // above.
    unsafe { thread::cluster_arrive() };
    if rank != 0 {
        return;
    }

    // Step 4, in rank 0 alone (the condition is per block).
    // SAFETY: this thread arrived at this phase just above.
    unsafe { thread::cluster_wait() };
    if tid < warp::WARP_SIZE {
        // SAFETY: all of warp 0 is here; the reader reads slots below
        // `chunks` only, each written before its writer's arrival, and
        // `slots` is 16-byte aligned; `chunks <= CLUSTER_CHUNKS`, inside the
        // slots.
        let sum = unsafe { lane_sum(&Segment { sums: slots, chunks: chunks as usize, segment: 0 }, lane) };
        if tid == 0 {
            // SAFETY: `total` is a global f32 by the contract.
            unsafe { total.write(sum + 0.0) };
        }
    }
}

const _: () = assert!(CLUSTER_CHUNKS <= layout::sum::deterministic::SEGMENT, "the chunk sums are one segment");
