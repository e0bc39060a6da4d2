use crate::order::{Acquire, Device, Release};

// ANCHOR: kernel
super::across_blocks! {
    /// Publishing across blocks, correctly: the producer is thread 0 of block
    /// `2p`, the consumer thread 0 of block `2p + 1`, and the flag operations use
    /// device scope.
    ///
    /// # Launch
    ///
    /// Grid: `2 * pairs` blocks, few enough to be resident on the device together
    /// (the host uses a multiple of the SM count). Block: 32 threads (only thread
    /// 0 works). No shared memory. `slots` zeroed before each launch.
    ///
    /// # Thread mapping
    ///
    /// The producer writes `rounds` records, each followed by `st.release.gpu` of
    /// its flag; the consumer waits on `ld.acquire.gpu` for each in turn and reads
    /// it. Device scope includes both blocks, so an acquire that reads 1 makes
    /// the record visible. With `flag_apart` non-zero each round's flag sits that
    /// many slots away from its payload (the host passes half the slots); with
    /// `preload` 1 the consumer reads the payload once before it waits; with
    /// `delay_ns` the producer waits that long before each round. None of them
    /// changes what the model guarantees.
    ///
    /// Progress: a consumer can only finish if its producer runs. Both are
    /// resident when the grid fits the device, which the host arranges; if they
    /// are not, the consumer's deadline (`budget_ns`) turns the wait into counted
    /// timeouts, so the kernel always ends.
    publish_grid_release_acquire = Release, Acquire at Device;
}
// ANCHOR_END: kernel
