use super::protocol::{self, Counts, Payload};
use crate::order::{Block, Relaxed};

/// The page's broken variant: the same-block protocol with both flag
/// operations relaxed. The flag is still atomic; the record is no longer
/// published by it.
///
/// # Launch
///
/// As [`publish_block_release_acquire`](super::publish_block_release_acquire):
/// blocks of 64 threads, 16 bytes of shared memory.
///
/// # Thread mapping
///
/// Identical, except the flag is written with `st.relaxed.cta` and read with
/// `ld.relaxed.cta`. Nothing orders thread 0's payload stores before its flag
/// store as thread 32 sees them, so thread 32 is *permitted* to read the flag
/// as 1 and the record as `{0, 0}`. Whether a given GPU ever shows it is a
/// separate question; a run that shows none is not a proof of correctness.
///
/// # Safety
///
/// As [`publish_block_release_acquire`](super::publish_block_release_acquire).
#[kernel(layout::publish::INTRA_BLOCK_PARAMS)]
pub unsafe fn publish_block_relaxed(rounds: u32, budget_ns: u64, observed: *mut Payload, totals: *mut Counts) {
    // SAFETY: forwarded from this kernel's contract.
    unsafe { protocol::same_block::<Block>(Relaxed, Relaxed, rounds, budget_ns, observed, totals) }
}
