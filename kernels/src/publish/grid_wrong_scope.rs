use crate::order::{Acquire, Block, Release};

// ANCHOR: kernel
super::across_blocks! {
    /// The page's second broken variant: the cross-block protocol with
    /// *block*-scoped release and acquire. Invalid.
    ///
    /// # Launch
    ///
    /// As [`publish_grid_release_acquire`](super::publish_grid_release_acquire).
    ///
    /// # Thread mapping
    ///
    /// Identical, except the flag uses `st.release.cta` and `ld.acquire.cta`. The
    /// producer and consumer are in different blocks, so neither operation's scope
    /// includes the other thread: they form no synchronization, and the memory
    /// model promises nothing about the record, or about when (if ever) the
    /// consumer sees the flag. Timeouts are one way that shows.
    publish_grid_wrong_scope = Release, Acquire at Block;
}
// ANCHOR_END: kernel
