use crate::order::{Acquire, Cluster, Release};

// ANCHOR: kernel
super::across_blocks! {
    /// Publishing through global memory between two blocks of one cluster:
    /// the cross-block protocol of
    /// [`publish_grid_release_acquire`](super::publish_grid_release_acquire)
    /// launched in clusters of two, with the flag at `.cluster` scope.
    /// Correct.
    ///
    /// # Launch
    ///
    /// In clusters of two blocks (`cuLaunchKernelEx`), so that blocks `2p` and
    /// `2p + 1` are ranks 0 and 1 of cluster `p`; grid: any even number of
    /// blocks. Block: 32 threads (only thread 0 works). No shared memory.
    /// `slots` zeroed before each launch.
    ///
    /// # Thread mapping
    ///
    /// The producer writes `rounds` records, each followed by
    /// `st.release.cluster` of its flag; the consumer waits on
    /// `ld.acquire.cluster` for each in turn and reads it. `.cluster` scope
    /// includes every thread of both blocks of the cluster (PTX ISA, memory
    /// consistency model, section 8.5 "Scope"), wherever the record lives, so
    /// an acquire that reads 1 makes the record visible. The narrower scope
    /// is enough because the pair is placed in one cluster: across clusters
    /// it would leave the producer out. A cluster's blocks are co-scheduled,
    /// so every producer runs beside its consumer; the deadline (`budget_ns`)
    /// still bounds every wait. `flag_apart`, `preload` and `delay_ns` as in
    /// the grid variant.
    publish_cluster_global_release_acquire = Release, Acquire at Cluster;
}
// ANCHOR_END: kernel
