//! Puzzle 16, `fence-across-blocks`: the same publication with a relaxed
//! flag and the weakest fences that make it correct.
//!
//! Puzzle 15 put the ordering on the flag: a release store and an acquire
//! load. Here the flag is relaxed, as an older CUDA kernel's `volatile` or
//! `atomicExch` flag is, and the ordering comes from fences
//! (`cuda::atomic_thread_fence`, PTX `fence`): one in the producer between
//! the record and the flag, one in the consumer between the flag and the
//! record. A fence orders this thread's accesses before it against those
//! after it, for the threads of its scope. Use the weakest fence and the
//! narrowest scope that forbid the stale read. (`__threadfence()` is
//! `fence.sc.gpu`, stronger than this publication needs.)
//!
//! Check: `cargo xtask practice check fence-across-blocks`.
//! Stuck: `cargo xtask practice hint fence-across-blocks`.

use layout::publish::{Counts, Payload, Slot};

#[allow(unused_imports)]
use device::order::{AcqRel, AtomicRef, Block, Device, Relaxed, SeqCst, System, fence};
#[allow(unused_imports)]
use device::thread;

// ANCHOR: todo
/// The producer's half: the record, then the flag.
///
/// # Safety
///
/// `slot` and `ready_storage` point into this round's global slot(s).
#[inline(always)]
unsafe fn produce_record(slot: *mut Payload, ready_storage: *mut u32) {
    // TODO: write `Payload::PUBLISHED` into `*slot`, then a fence, then set
    // the flag to 1 with a `Relaxed` store: `fence(ORDERING, SCOPE)`.
    let _ = (slot, ready_storage);
}

/// The consumer's half: wait for the flag, then read the record; `None` if
/// the wait passes `deadline` (the global timer, in ns).
///
/// # Safety
///
/// As `produce_record`.
#[inline(always)]
unsafe fn consume_record(slot: *const Payload, ready_storage: *mut u32, deadline: u64) -> Option<Payload> {
    // TODO: wait until a `Relaxed` load of the flag reads 1, then a fence,
    // then read `*slot`.
    let _ = (slot, ready_storage, deadline);
    None
}

// ANCHOR_END: todo

/// The lab's `publish_grid_release_acquire` run with your two roles: thread 0
/// of block `2p` publishes `rounds` records to thread 0 of block `2p + 1`.
///
/// # Launch
///
/// As `publish --variant grid-release-acquire` launches it: an even grid
/// that fits on the device at once, 32 threads a block.
///
/// # Safety
///
/// `slots` holds `gridDim.x / 2 * rounds` zeroed slots, `observed` a payload
/// per pair and `totals` one `Counts`, all in global memory.
#[kernel(layout::publish::INTER_BLOCK_PARAMS)]
#[allow(clippy::too_many_arguments)]
pub unsafe fn fence_across_blocks(
    slots: *mut Slot,
    rounds: u32,
    budget_ns: u64,
    flag_apart: u32,
    preload: u32,
    delay_ns: u32,
    observed: *mut Payload,
    totals: *mut Counts,
) {
    let stress = crate::pairs::Stress { flag_apart, preload, delay_ns };
    // SAFETY: the launch above.
    unsafe {
        crate::pairs::across_blocks(slots, rounds, budget_ns, stress, observed, totals, produce_record, consume_record)
    }
}

/// Your two roles in the page's straight-line shape, which is the kernel the
/// checker reads to put them before the memory model (the stress loops of
/// the kernel above would hide their order); it is never launched.
///
/// # Safety
///
/// Never launched; as `producer_consumer_demo` if it were.
#[kernel(layout::pitfall::PAGE_PARAMS)]
pub unsafe fn fence_across_blocks_probe(out: *mut u32, deadline_ns: u64) {
    // SAFETY: as above.
    unsafe { crate::page::demo(out, deadline_ns, produce_record, consume_record) }
}
