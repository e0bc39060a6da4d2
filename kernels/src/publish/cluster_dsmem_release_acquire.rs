use super::protocol::{self, Counts, Payload};
use crate::order::{Acquire, Cluster, Release};

/// The page's worked example stretched across two blocks of one cluster:
/// thread 0 of rank 0 writes the record into its own block's shared memory
/// with ordinary stores and sets the flag beside it with `st.release.cluster`;
/// thread 0 of rank 1 spins on `ld.acquire.cluster.shared::cluster` of that
/// flag, through distributed shared memory, then reads the record with plain
/// `ld.shared::cluster`. Correct.
///
/// The direction is the page's: the producer's stores are the page's own,
/// ordinary stores to its block's shared memory, and only the consumer
/// reaches across (`mapa`), so the one thing that changes from the same-block
/// example is where the consumer runs, and with it the scope the pair needs.
/// `.cluster` includes the threads of every block of the cluster (PTX ISA,
/// memory consistency model, section 8.5 "Scope"; `.shared::cluster` is the
/// window on every block's shared memory of the cluster, section 5.1.4), so
/// the release and the acquire are morally strong and an acquire that reads 1
/// makes the record visible: the consumer never reads `{0, 0}`.
///
/// # Launch
///
/// In clusters of two blocks (`cuLaunchKernelEx`); grid: any even number of
/// blocks. Block: 32 threads (only thread 0 of each works; all meet at the
/// cluster barriers). Shared memory: 16 bytes (one `Slot`).
///
/// # Thread mapping
///
/// Cluster `p` is pair `p`. Each round: rank 0 resets its slot, a cluster
/// barrier, rank 0 publishes while rank 1 waits (until `budget_ns` after it
/// started, then it counts a timeout) and reads, a cluster barrier.
///
/// # Safety
///
/// `observed` must hold one [`Payload`] per cluster and `totals` one
/// [`Counts`], both in global memory.
#[kernel(layout::publish::INTRA_BLOCK_PARAMS)]
pub unsafe fn publish_cluster_dsmem_release_acquire(
    rounds: u32,
    budget_ns: u64,
    observed: *mut Payload,
    totals: *mut Counts,
) {
    // SAFETY: forwarded from this kernel's contract.
    unsafe { protocol::across_a_cluster::<Cluster>(Release, Acquire, rounds, budget_ns, observed, totals) }
}
