use super::protocol::{self, Counts, Payload};
use crate::order::{Cluster, Relaxed};

/// The distributed-shared-memory protocol of
/// [`publish_cluster_dsmem_release_acquire`](super::publish_cluster_dsmem_release_acquire)
/// with relaxed flag operations at `.cluster`: in scope, but unordered, so
/// stale records are permitted. Invalid.
///
/// # Launch
///
/// As `publish_cluster_dsmem_release_acquire`.
///
/// # Thread mapping
///
/// Identical, except the flag uses `st.relaxed.cluster` and
/// `ld.relaxed.cluster.shared::cluster`: the consumer sees the flag
/// eventually, but reading it makes nothing else visible.
///
/// # Safety
///
/// `observed` must hold one [`Payload`] per cluster and `totals` one
/// [`Counts`], both in global memory.
#[kernel(layout::publish::INTRA_BLOCK_PARAMS)]
pub unsafe fn publish_cluster_dsmem_relaxed(rounds: u32, budget_ns: u64, observed: *mut Payload, totals: *mut Counts) {
    // SAFETY: forwarded from this kernel's contract.
    unsafe { protocol::across_a_cluster::<Cluster>(Relaxed, Relaxed, rounds, budget_ns, observed, totals) }
}
