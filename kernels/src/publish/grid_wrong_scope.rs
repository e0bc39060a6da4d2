use super::protocol::{self, Counts, FlagLayout, Payload, Slot};
use crate::order;

// ANCHOR: kernel
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
// ANCHOR_END: kernel
///
/// # Safety
///
/// As [`publish_grid_release_acquire`](super::publish_grid_release_acquire).
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn publish_grid_wrong_scope(
    slots: *mut Slot,
    rounds: u32,
    budget_ns: u64,
    flag_apart: u32,
    preload: u32,
    observed: *mut Payload,
    totals: *mut Counts,
) {
    // SAFETY: forwarded from this kernel's contract.
    unsafe {
        protocol::across_blocks(
            order::store_release_cta,
            order::load_acquire_cta,
            slots,
            rounds,
            budget_ns,
            FlagLayout { apart: flag_apart, preload },
            observed,
            totals,
        )
    }
}
