use crate::order::{System, Volatile};

super::across_blocks! {
    /// Publishing across blocks with a volatile flag: the page's "volatile as
    /// synchronization" mistake. The flag operations are atomic and their
    /// system scope covers both threads, but they order nothing. Invalid: the
    /// record is not published.
    ///
    /// # Launch
    ///
    /// As [`publish_grid_relaxed`](super::publish_grid_relaxed): grid of
    /// `2 * pairs` blocks, all resident together, blocks of 32 threads (only
    /// thread 0 works), no shared memory, `slots` zeroed before each launch.
    ///
    /// # Thread mapping
    ///
    /// As [`publish_grid_release_acquire`](super::publish_grid_release_acquire),
    /// but the flag is written with `st.volatile` and read with `ld.volatile`.
    /// The PTX ISA (section 8.4.2) makes a volatile operation a relaxed one
    /// at system scope, so this is [`publish_grid_relaxed`](super::publish_grid_relaxed)
    /// at a wider scope: the flag's accesses reach past L1 (`ptxas` emits
    /// `.STRONG.SYS`, the code of `.relaxed.sys`), a spin on it sees the
    /// producer's store eventually, and nothing orders the payload's plain
    /// stores before the flag's. A stale record is permitted. This is MP
    /// across blocks with volatile accesses, the litmus suite's `mp volatile
    /// inter-block`. `flag_apart`, `preload` and `delay_ns` as there.
    ///
    /// Progress: as [`publish_grid_relaxed`](super::publish_grid_relaxed); the
    /// consumer's deadline (`budget_ns`) bounds every wait.
    publish_grid_volatile = Volatile, Volatile at System;
}
