use super::protocol::{ping, pong};
use crate::order::{Acquire, Cluster, DsmemAtomicRef, Release};
use crate::{shared, thread};

/// The `.cluster` rung (Hopper module): a ping-pong round trip between two
/// blocks of one cluster, each storing into the other's shared memory
/// through distributed shared memory with
/// `st.release.cluster.shared::cluster` and spinning on its own with
/// `ld.acquire.cluster.shared::cluster`.
///
/// # Launch
///
/// Two blocks of [`layout::ladder::PAIR_THREADS`] threads as one cluster of
/// two (`cuLaunchKernelEx` with the cluster-dimension attribute);
/// [`layout::ladder::CLUSTER_SHARED_BYTES`] of dynamic shared memory: the
/// block's flag, its inbox.
///
/// # Thread mapping
///
/// Thread 0 of each block zeroes its inbox, and the cluster meets at
/// `barrier.cluster`, which orders both zeroings before any remote store
/// and shows that both blocks have started. Thread 0 of rank 0 is agent A,
/// of rank 1 agent B of [`super::protocol`]; each stores into the other
/// rank's inbox (`mapa`) and spins on its own. A second cluster barrier,
/// which every thread reaches, keeps both blocks' shared memory alive until
/// neither agent touches it any more. In a cluster of any size but two,
/// nobody plays and the report stays zero.
///
/// # Safety
///
/// `samples` must hold `batches` `u64`s and `report`
/// [`layout::ladder::REPORT_WORDS`] zeroed `u32`s, in global memory;
/// `batches * per_batch` must fit in a `u32`.
#[kernel(layout::ladder::SHARED_TRIP_PARAMS)]
pub unsafe fn ladder_trip_cluster(batches: u32, per_batch: u32, budget_ns: u64, samples: *mut u64, report: *mut u32) {
    let inbox = shared::dynamic_shared::<u32>();
    let lead = thread::thread_idx_x() == 0;
    if lead {
        // SAFETY: the launch gives the block one shared `u32`.
        unsafe { inbox.write_volatile(0) };
    }
    // SAFETY: every thread of both blocks reaches both cluster barriers;
    // none returns early.
    unsafe { thread::sync_cluster() };
    if lead && thread::cluster_size() == 2 {
        let rank = thread::cluster_block_rank();
        // SAFETY: `inbox` is this block's shared memory and both ranks are
        // below the cluster's size, 2; both inboxes live until the second
        // cluster barrier.
        let (mine, theirs) = unsafe {
            (
                DsmemAtomicRef::<Cluster>::from_address(shared::cluster_address(inbox, rank)),
                DsmemAtomicRef::<Cluster>::from_address(shared::cluster_address(inbox, rank ^ 1)),
            )
        };
        let send = |v| theirs.store(v, Release);
        let receive = || mine.load(Acquire);
        if rank == 0 {
            // SAFETY: forwarded from this kernel's contract.
            unsafe { ping(send, receive, batches, per_batch, budget_ns, samples, report) };
        } else {
            // SAFETY: as above.
            unsafe { pong(send, receive, batches * per_batch, budget_ns, report) };
        }
    }
    // SAFETY: as above.
    unsafe { thread::sync_cluster() };
}
