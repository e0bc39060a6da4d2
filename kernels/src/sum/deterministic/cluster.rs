//! The cluster route (Hopper module): for 2 to [`CLUSTER_CHUNKS`] chunks,
//! one block per chunk, all in one thread-block cluster, and each chunk's
//! sum travels into rank 0's shared memory by one asynchronous store that
//! an `mbarrier` counts, where the handoff route meets through a start
//! ticket and 64-bit slots in L2.

use layout::sum::deterministic::{CHUNK, CLUSTER_CHUNKS, CLUSTER_ROUND, CLUSTER_WAIT_NS};

use super::addition_order::lane_sum;
use super::block_mode::Round;
use super::segment::Segment;
use crate::{shared, thread, warp};

/// Sums `input[0..n]` into `*total` with exactly the additions of
/// `sum_deterministic` (the base module's kernel), so with the same bits,
/// for 2 to [`CLUSTER_CHUNKS`] chunks of [`CHUNK`]: each chunk's sum by one
/// block of a thread-block cluster, pushed into rank 0's shared memory and
/// combined there as the base kernel combines one segment.
///
/// # Launch
///
/// One cluster of `c = ceil(n / CHUNK)` blocks along x, 2 to
/// [`CLUSTER_CHUNKS`] (`cuLaunchKernelEx` with the cluster-dimension
/// attribute; the grid is the cluster), of any `block` that is a multiple of
/// 32 up to 1024 (the host launches
/// [`CLUSTER_THREADS`](layout::sum::deterministic::CLUSTER_THREADS)), with
/// **1064 bytes**
/// ([`CLUSTER_SHARED_BYTES`](layout::sum::deterministic::CLUSTER_SHARED_BYTES))
/// of dynamic shared memory: the round's batch sums, one slot per chunk,
/// the `mbarrier`. Any alignment of `input`; any short last chunk.
///
/// # Thread mapping
///
/// 1. **Entry.** Thread 0 of rank 0 initialises the `mbarrier` for one
///    arrival (its own, below) and fences the initialisation for the cluster
///    (`mbarrier.init`, `fence.mbarrier_init.release.cluster`). Then every
///    thread arrives at the cluster barrier with no ordering
///    (`barrier.cluster.arrive.relaxed.aligned`), so the phase that tells a
///    block every block of its cluster has started, and rank 0's barrier is
///    ready, completes while it loads.
/// 2. **The chunk's sum.** Block `rank` sums chunk `rank` in the base
///    kernel's block mode, one round of one chunk: its warps take the
///    chunk's eight batches (a block of fewer than eight warps several per
///    warp), store the lane sums in shared memory, meet at `bar.sync`, and
///    warp 0 joins them and butterflies. The same additions as a warp per
///    chunk, for every block size, aligned or not, whole chunk or short.
/// 3. **Push.** Every thread waits for the entry's phase
///    (`barrier.cluster.wait.aligned`): rank 0 has started and its barrier is
///    initialised. Lane 0 of warp 0 stores the chunk's sum into slot `rank`
///    of rank 0's shared memory with `st.async`, whose 4 bytes complete on
///    rank 0's barrier (`mapa.shared::cluster` for both addresses), and every
///    block but rank 0 exits: nothing reads its shared memory, and the store
///    carries its value with it.
/// 4. **Combine.** In rank 0, thread 0 arrives at the barrier expecting
///    `4 c` bytes (`mbarrier.arrive.expect_tx`; stores that landed before
///    it count already), and warp 0 waits for the phase
///    (`mbarrier.try_wait.parity`, acquire), giving up after
///    [`CLUSTER_WAIT_NS`] ([`thread::give_up`], a `trap`: a launch that broke
///    this contract; the host reports the launch's error). Warp 0 then sums the slots as the base kernel's
///    combine sums one segment, and thread 0 stores `sum + 0.0` into
///    `total` (a plain store: one writer).
///
/// No fence orders memory for the GPU, and nothing is left for the next
/// launch: no ticket, no slot in global memory.
///
/// # Safety
///
/// `input` must point to `n` readable `f32` that nothing writes during the
/// launch, `CHUNK < n <= CLUSTER_CHUNKS * CHUNK`; `total` to one global
/// `f32`; the launch as above.
#[kernel]
pub unsafe fn sum_deterministic_cluster(input: *const f32, total: *mut f32, n: usize) {
    let tid = thread::thread_idx_x();
    let lane = tid % warp::WARP_SIZE;
    let warp_id = tid / warp::WARP_SIZE;
    let warps = thread::block_dim_x() / warp::WARP_SIZE;
    let rank = thread::cluster_block_rank();
    // At most `CLUSTER_CHUNKS` by the contract: 32 bits hold it.
    let chunks = n.div_ceil(CHUNK) as u32;
    let batch_sums = shared::dynamic_shared::<f32>();
    // 16-byte aligned: `CLUSTER_ROUND` floats are 1024 bytes.
    let slots = batch_sums.wrapping_add(CLUSTER_ROUND);
    // 8-byte aligned: 32 bytes of slots after them.
    let arrived = slots.wrapping_add(CLUSTER_CHUNKS) as *mut u64;

    // Step 1.
    if rank == 0 && tid == 0 {
        // SAFETY: `arrived` is 8-byte aligned in this block's shared memory,
        // and no thread uses it before the cluster barrier below.
        unsafe { shared::mbarrier_init(arrived, 1) };
    }
    // SAFETY: every thread of the cluster arrives here once, converged; its
    // wait is below, before any other arrive.
    unsafe { thread::cluster_arrive_relaxed() };

    // Step 2. `rank` is the same in the whole block, so every thread meets
    // `run`'s barrier; `rank < chunks` by the launch contract.
    let round = Round { input, n, chunks, group: 1, lane, warp_id, warps };
    // SAFETY: the whole block is here; `batch_sums` holds the round's
    // `8 * 32` floats.
    let mine = unsafe { round.run(rank, batch_sums) };

    // Step 3.
    // SAFETY: every thread arrived at this phase at the entry.
    unsafe { thread::cluster_wait() };
    if let Some((chunk, sum)) = mine
        && lane == 0
    {
        // SAFETY: rank 0 is in every cluster; `slots` and `arrived` point
        // into this block's shared memory, so their images in rank 0 are
        // rank 0's; rank 0 initialised its barrier and fenced it before the
        // phase this thread waited for, and it does not exit before the
        // barrier counted this store; slot `chunk` is written by this one
        // lane of the one block that summed it.
        unsafe {
            let slot = shared::cluster_address(slots.wrapping_add(chunk as usize), 0);
            shared::store_async_cluster(slot, sum.to_bits(), shared::cluster_address(arrived, 0));
        }
    }
    if rank != 0 || tid >= warp::WARP_SIZE {
        return;
    }

    // Step 4, in warp 0 of rank 0.
    if tid == 0 {
        // SAFETY: rank 0's barrier, initialised above; this is the one
        // arrival its phase expects.
        unsafe { shared::mbarrier_arrive_expect_tx(arrived, chunks * size_of::<f32>() as u32) };
    }
    // SAFETY: rank 0's barrier, initialised above.
    if !unsafe { shared::mbarrier_try_wait_parity(arrived, 0) } {
        // The timer is read only once the first wait has come back empty,
        // off the path of a launch whose chunk sums have all landed.
        let deadline = thread::global_timer_ns().saturating_add(CLUSTER_WAIT_NS);
        // SAFETY: as above.
        while !unsafe { shared::mbarrier_try_wait_parity(arrived, 0) } {
            if thread::global_timer_ns() > deadline {
                thread::give_up();
            }
        }
    }
    // SAFETY: all of warp 0 is here; the phase completed, so every slot below
    // `chunks` holds its chunk's sum and is visible to this warp; `slots` is
    // 16-byte aligned and `chunks <= CLUSTER_CHUNKS <= SEGMENT`.
    let sum = unsafe { lane_sum(&Segment { sums: slots, chunks: chunks as usize, segment: 0 }, lane) };
    if tid == 0 {
        // SAFETY: `total` is a global f32 by the contract.
        unsafe { total.write(sum + 0.0) };
    }
}

const _: () = assert!(CLUSTER_CHUNKS <= layout::sum::deterministic::SEGMENT, "the chunk sums are one segment");
const _: () = assert!(
    (CLUSTER_ROUND + CLUSTER_CHUNKS) * size_of::<f32>() + size_of::<u64>()
        == layout::sum::deterministic::CLUSTER_SHARED_BYTES as usize,
    "the shared layout is the registry's"
);
