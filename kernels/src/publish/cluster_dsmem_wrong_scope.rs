use super::protocol::{self, Counts, Payload};
use crate::order::{Acquire, Block, Release};

/// The wrong-scope variant at the cluster rung: the distributed-shared-memory
/// protocol of
/// [`publish_cluster_dsmem_release_acquire`](super::publish_cluster_dsmem_release_acquire)
/// with *block*-scoped release and acquire. Invalid.
///
/// # Launch
///
/// As `publish_cluster_dsmem_release_acquire`.
///
/// # Thread mapping
///
/// Identical, except the flag uses `st.release.cta` and
/// `ld.acquire.cta.shared::cluster`. The two threads are in different blocks,
/// each outside the other's `.cta`, so the pair is not morally strong (PTX
/// ISA, memory consistency model, sections 8.5 "Scope" and 8.7 "Morally
/// strong operations"): it forms no synchronization, and the model promises
/// nothing about the record. That the flag lives in shared memory changes
/// nothing: scope is about threads, not about where the address is.
///
/// # Safety
///
/// `observed` must hold one [`Payload`] per cluster and `totals` one
/// [`Counts`], both in global memory.
#[kernel(layout::publish::INTRA_BLOCK_PARAMS)]
pub unsafe fn publish_cluster_dsmem_wrong_scope(
    rounds: u32,
    budget_ns: u64,
    observed: *mut Payload,
    totals: *mut Counts,
) {
    // SAFETY: forwarded from this kernel's contract.
    unsafe { protocol::across_a_cluster::<Block>(Release, Acquire, rounds, budget_ns, observed, totals) }
}
