use crate::order::{Device, Relaxed};

// ANCHOR: kernel
super::across_blocks! {
    /// Publishing across blocks with a relaxed flag at device scope: the flag
    /// operations are atomic and their scope covers both threads, but they order
    /// nothing. Invalid: the record is not published.
    ///
    /// # Launch
    ///
    /// Grid: `2 * pairs` blocks, few enough to be resident on the device together
    /// (the host uses a multiple of the SM count). Block: 32 threads (only thread
    /// 0 works). No shared memory. `slots` zeroed before each launch.
    ///
    /// # Thread mapping
    ///
    /// As [`publish_grid_release_acquire`](super::publish_grid_release_acquire),
    /// but the flag is written with `st.relaxed.gpu` and read with
    /// `ld.relaxed.gpu`. The flag is never torn and each load reads a value some
    /// store wrote (the loads are strong, past L1); the memory model does not
    /// say when the new value is seen, which is why the wait has a deadline.
    /// Nothing orders the payload's plain stores
    /// before the flag's: a stale record is permitted. This is MP across blocks
    /// with a relaxed flag, the litmus suite's `mp relaxed-gpu inter-block`.
    /// `flag_apart`, `preload` and `delay_ns` as there.
    ///
    /// Progress: a consumer can only finish if its producer runs. Both are
    /// resident when the grid fits the device, which the host arranges; if they
    /// are not, the consumer's deadline (`budget_ns`) turns the wait into counted
    /// timeouts, so the kernel always ends.
    publish_grid_relaxed = Relaxed, Relaxed at Device;
}
// ANCHOR_END: kernel
