//! The correctly rounded sum's entry for one thread-block cluster (Hopper):
//! the blocks meet in one block's shared memory, not in L2.

use layout::exact::{LIMBS, Superaccumulator};
use layout::sum::correctly_rounded::{CLUSTER_BLOCKS, CLUSTER_WAIT_NS};

use super::straight::{self, QUADS};
use crate::{shared, thread, warp};

/// The correctly rounded sum of a middle-sized input on one cluster of 16
/// blocks: the same result as `sum_correctly_rounded`, the `f32` nearest the
/// true sum, with no limb, no global atomic, no ticket and no fence between
/// blocks when every `f64` addition is exact, and by that kernel's own body,
/// in rank 0 alone, when one is not.
///
/// The general entry's blocks meet in L2: each adds its exact sum to the
/// global limbs with integer atomics, fences, and draws a ticket, and the
/// last one reads the limbs back and rounds. Here the 16 blocks of one
/// cluster meet in rank 0's shared memory instead:
///
/// 1. **Set-up, overlapped with the loads.** Rank 0's thread 0 initialises
///    an `mbarrier` that expects 16 `f64` of asynchronous stores
///    ([`shared::mbarrier_init`], [`shared::mbarrier_arrive_expect_tx`]).
///    Every thread arrives at the cluster barrier without waiting
///    ([`thread::cluster_arrive_relaxed`]).
/// 2. **Per thread and per block**, the one-block entry's straight path:
///    thread `g` of the cluster's `T` adds quads `g, g + T, g + 2T, g + 3T`
///    ([`straight::thread_sum`]), the block adds its threads' sums
///    ([`straight::block_sum`]), every addition checked exact.
/// 3. **To rank 0.** After the cluster barrier's wait (every block has
///    started, and rank 0's `mbarrier` is initialised), thread 0 of each
///    block stores the block's exact sum, or a NaN if it has none, into
///    slot `rank` of rank 0's shared memory with one `st.async`, which
///    counts its 8 bytes on rank 0's `mbarrier`
///    ([`shared::store_async_cluster_f64`]). The block then exits: the store
///    needs nothing more from it.
/// 4. **Rank 0 rounds.** Every warp of rank 0 waits for the `mbarrier`'s
///    phase ([`shared::mbarrier_try_wait_parity`], acquire at cluster
///    scope), adds the 16 slots in a checked butterfly and votes: every
///    warp reaches the same sum and verdict. If every addition was exact
///    (a NaN fails its check), thread 0 stores the sum rounded once, `fl32(sum
///    + 0.0)`, as the one-block entry does.
/// 5. **Otherwise, rank 0 alone sums again**, with the general body on a
///    grid of one block (its limbs, then the global accumulator if its
///    warps flush): an inexact addition, an infinity or a NaN, or an input
///    the path does not take. The other blocks touch neither `acc` nor
///    `total`, so rank 0 is that grid's one block whether or not they have
///    left.
///
/// # Launch
///
/// One cluster of [`CLUSTER_BLOCKS`] blocks (a non-portable size: the
/// function must allow it), which is the whole grid, of `T / 16` threads
/// each, a multiple of 32, with **`block * 80 + 136` bytes** of dynamic
/// shared memory: the general body's limbs, then 16 `f64` slots and the
/// 8-byte `mbarrier` ([`layout::sum::correctly_rounded::CLUSTER_STATE_BYTES`]).
/// `acc` as `sum_correctly_rounded`'s. The host launches it for the
/// `n` that [`layout::sum::CORRECTLY_ROUNDED_CLUSTER`] takes, with the
/// fewest warps a block that give each thread at most 16 floats.
///
/// # Thread mapping
///
/// On the path, thread `g = rank * block + t` of the cluster loads quads `g,
/// g + T, g + 2T, g + 3T` and the trailing float `4 * (n / 4) + g` if that is
/// below `n`. Off it, rank 0's threads read the whole input as the general
/// body's one block does.
///
/// # Safety
///
/// `sum_correctly_rounded`'s contract for `input`, `total`, `n` and `acc`;
/// the launch is one cluster of exactly 16 blocks as above, which the
/// kernel does not check. A larger cluster would store past the 16 slots
/// into the `mbarrier`; more than one cluster would have each rank 0 write
/// `total` and, on the way out, share `acc` and its ticket as if each were
/// a grid of one, leaving a wrong sum and `acc` not zero.
#[kernel(layout::sum::SUPERACCUMULATOR_PARAMS)]
pub unsafe fn sum_correctly_rounded_cluster(input: *const f32, total: *mut f32, n: usize, acc: *mut Superaccumulator) {
    let tid = thread::thread_idx_x();
    let block = thread::block_dim_x();
    let rank = thread::cluster_block_rank();
    let blocks = thread::cluster_size();
    let state = ClusterState::after_limbs(block);

    if rank == 0 && tid == 0 {
        // SAFETY: the barrier is 8-byte aligned in this block's shared memory
        // (`after_limbs`), and no other thread uses it before the cluster
        // barrier below; it expects one arrival, this one, and the 16
        // slots' bytes. (ptxas issues the init on the uniform datapath, once
        // for the warp, and racecheck credits it to lane 31: it reports this
        // thread's own init and arrive as a warp-level hazard.)
        unsafe {
            shared::mbarrier_init(state.barrier, 1);
            shared::mbarrier_arrive_expect_tx(state.barrier, blocks * size_of::<f64>() as u32);
        }
    }
    // SAFETY: every thread of the cluster arrives here once, converged, and
    // waits below before anything else of the cluster barrier.
    unsafe { thread::cluster_arrive_relaxed() };

    // The path's test is the same in every thread of the cluster, so every
    // block reaches `block_sum`'s barrier, or none does.
    let threads = blocks * block;
    let takes = (input as usize).is_multiple_of(16) && n / 4 <= QUADS * threads as usize;
    let place = straight::Place::of_thread();
    let sum = if takes {
        // SAFETY: the input is aligned, and the cluster's `threads` cover
        // its quads at four each (`takes`); `input` as the contract says.
        let (sum, exact) = unsafe { straight::thread_sum(input, n, rank * block + tid, threads) };
        // SAFETY: the whole block is here; its shared memory starts with the
        // limbs, room for a slot per warp.
        unsafe { straight::block_sum(place, sum, exact) }
    } else {
        None
    };

    // SAFETY: every thread of the cluster arrived above, once.
    unsafe { thread::cluster_wait() };
    if tid == 0 {
        // A NaN fails every checked addition it meets, so rank 0's verdict
        // turns on it.
        let value = sum.unwrap_or(f64::NAN);
        // SAFETY: slot `rank` and the barrier are rank 0's, aligned, and its
        // barrier was initialised before rank 0 arrived at the cluster
        // barrier this thread has waited for; rank 0 does not exit before
        // the phase completes (below), and no other thread writes the slot.
        unsafe {
            let slot = shared::cluster_address(state.slots.add(rank as usize), 0);
            shared::store_async_cluster_f64(slot, value, shared::cluster_address(state.barrier, 0));
        }
    }
    if rank != 0 {
        return;
    }

    // Rank 0: every warp waits for the 16 slots, then reaches the same sum
    // and verdict.
    let deadline = thread::global_timer_ns() + CLUSTER_WAIT_NS;
    // SAFETY: the barrier was initialised by this block's thread 0 before
    // the cluster barrier's wait above.
    while !unsafe { shared::mbarrier_try_wait_parity(state.barrier, 0) } {
        if thread::global_timer_ns() > deadline {
            thread::give_up();
        }
    }
    let lane = thread::thread_idx_x() % warp::WARP_SIZE;
    // SAFETY: the phase completed: every block's store has landed, and the
    // acquire wait makes them visible to this thread.
    let slot = if lane < blocks { unsafe { state.slots.add(lane as usize).read() } } else { 0.0 };
    // SAFETY: the whole warp is here (every warp of rank 0 runs this).
    let (cluster_sum, lane_exact) = unsafe { warp::sum_f64_checked(slot) };
    // SAFETY: the whole warp is here; a full-mask vote, the same in every warp.
    if !unsafe { warp::any_sync(!lane_exact) } {
        if tid == 0 {
            // SAFETY: `total` is one writable global `f32` by the contract,
            // and rank 0's thread 0 is its one writer.
            unsafe { total.write((cluster_sum + 0.0) as f32) };
        }
        return;
    }
    // SAFETY: every warp of rank 0 took this branch (the same verdict), so
    // all of them reach the barrier; the general body reuses the shared
    // memory `block_sum` read only after it.
    unsafe { thread::sync_threads() };
    // SAFETY: rank 0's whole block runs the body as a grid of one; no other
    // block touches `acc` or `total`; its shared memory starts with the
    // limbs the body needs.
    unsafe { super::sum(input, total, n, acc, super::Share::Alone) }
}

/// Where the cluster meets, in the shared memory after a block's limbs.
struct ClusterState {
    /// One `f64` per block of the cluster, in rank 0.
    slots: *mut f64,
    /// The `mbarrier` that counts the slots' bytes, in rank 0.
    barrier: *mut u64,
}

impl ClusterState {
    /// The state past the limbs of a block of `block` threads, 8-byte
    /// aligned: the module declares its dynamic shared memory 8-byte aligned
    /// (for the limbs' `i64`), and the limbs take a whole number of them.
    #[inline(always)]
    fn after_limbs(block: u32) -> ClusterState {
        let slots = shared::dynamic_shared::<i64>().wrapping_add(LIMBS * block as usize).cast::<f64>();
        ClusterState { slots, barrier: slots.wrapping_add(CLUSTER_BLOCKS as usize).cast::<u64>() }
    }
}
