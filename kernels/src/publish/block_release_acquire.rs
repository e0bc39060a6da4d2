use super::protocol::{self, Counts, Payload};
use crate::order::{Acquire, Block, Release};

/// The page's worked example: thread 0 publishes a shared-memory record to
/// thread 32 of the same block with a block-scoped release store, and thread
/// 32 waits on block-scoped acquire loads. Correct.
///
/// # Launch
///
/// Grid: any number of blocks (the page launches 1), each an independent
/// instance. Block: 64 threads (at least 33). Shared memory: 16 bytes (one
/// `Slot`: the record and its flag).
///
/// # Thread mapping
///
/// Thread 0 resets the slot, a barrier, thread 0 writes `{42, 3.5}` with
/// ordinary stores and then `st.release.cta` of the flag; thread 32 spins on
/// `ld.acquire.cta` until it reads 1, then reads the record. Another barrier
/// ends the round; `rounds` rounds per launch. When the acquire load reads the
/// release store's 1, the two ordinary stores before the release are visible
/// to thread 32: it can never read `{0, 0}`. Block scope suffices because both
/// threads are in this block.
///
/// # Safety
///
/// `observed` must hold one [`Payload`] (8 bytes) per block and `totals` one
/// [`Counts`], both in global memory.
#[kernel(layout::publish::INTRA_BLOCK_PARAMS)]
pub unsafe fn publish_block_release_acquire(rounds: u32, budget_ns: u64, observed: *mut Payload, totals: *mut Counts) {
    // SAFETY: forwarded from this kernel's contract.
    unsafe { protocol::same_block::<Block>(Release, Acquire, rounds, budget_ns, observed, totals) }
}
