use super::protocol::{self, Counts, Payload};

/// Publishing across two blocks of one cluster with the cluster barrier
/// alone, no flag: thread 0 of rank 0 writes the record into its own
/// block's shared memory with ordinary stores, every thread of the cluster
/// meets at `barrier.cluster.arrive` / `barrier.cluster.wait`, and thread 0
/// of rank 1 reads the record through distributed shared memory. Correct.
///
/// The barrier is the cluster's phase boundary, as `bar.sync` is the
/// block's: without qualifiers its arrive has release and its wait acquire
/// semantics at `.cluster` scope (PTX ISA, `barrier.cluster`), which includes
/// both blocks (memory consistency model, section 8.5 "Scope"), so every
/// write before the barrier is visible to every read of the cluster after it.
///
/// # Launch
///
/// In clusters of two blocks (`cuLaunchKernelEx`); grid: any even number of
/// blocks. Block: 32 threads (only thread 0 of each touches the record; all
/// meet at the cluster barriers). Shared memory: 16 bytes (one `Slot`).
///
/// # Thread mapping
///
/// Cluster `p` is pair `p`. Each round: rank 0 resets its record, a barrier,
/// rank 0 writes `{42, 3.5}`, a barrier (the publication), rank 1 reads, a
/// barrier. Nothing waits on a flag, so nothing times out, and `budget_ns`
/// is unused: it is there so that every distributed-shared-memory variant
/// takes the same parameters.
///
/// # Safety
///
/// `observed` must hold one [`Payload`] per cluster and `totals` one
/// [`Counts`], both in global memory.
#[kernel(layout::publish::INTRA_BLOCK_PARAMS)]
pub unsafe fn publish_cluster_barrier(rounds: u32, budget_ns: u64, observed: *mut Payload, totals: *mut Counts) {
    let _ = budget_ns;
    // SAFETY: forwarded from this kernel's contract.
    unsafe { protocol::barrier_across_a_cluster(rounds, observed, totals) }
}
