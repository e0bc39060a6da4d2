//! Puzzle 19, a typical wrong answer: release and acquire at block scope,
//! which holds one block of the two.

use layout::publish::{Counts, Payload, Slot};

use device::order::{Acquire, AtomicRef, Block, Release};
use device::thread;

// ANCHOR: todo
/// The producer's half: the record, then the flag.
///
/// # Safety
///
/// `slot` and `ready_storage` point into this round's global slot(s).
#[inline(always)]
unsafe fn produce_record(slot: *mut Payload, ready_storage: *mut u32) {
    // SAFETY: the flag word, accessed only atomically.
    let ready = unsafe { AtomicRef::<u32, Block>::from_ptr(ready_storage) };
    // SAFETY: only this thread writes the record.
    unsafe { *slot = Payload::PUBLISHED };
    ready.store(1, Release);
}

/// The consumer's half: wait for the flag, then read the record; `None` if
/// the wait passes `deadline` (the global timer, in ns).
///
/// # Safety
///
/// As `produce_record`.
#[inline(always)]
unsafe fn consume_record(slot: *const Payload, ready_storage: *mut u32, deadline: u64) -> Option<Payload> {
    // SAFETY: as in `produce_record`.
    let ready = unsafe { AtomicRef::<u32, Block>::from_ptr(ready_storage) };
    while ready.load(Acquire) == 0 {
        if thread::global_timer_ns() > deadline {
            return None;
        }
    }
    // SAFETY: the flag read 1; the record is this round's.
    Some(unsafe { *slot })
}

// ANCHOR_END: todo

/// The lab's `publish_cluster_global_release_acquire` with your two roles:
/// thread 0 of block `2p` publishes `rounds` records to thread 0 of block
/// `2p + 1`, the two blocks of cluster `p`.
///
/// # Launch
///
/// As `publish --variant cluster-global-release-acquire` launches it: in
/// clusters of two blocks (`cuLaunchKernelEx`), an even grid, 32 threads a
/// block.
///
/// # Safety
///
/// `slots` holds `gridDim.x / 2 * rounds` zeroed slots, `observed` a payload
/// per pair and `totals` one `Counts`, all in global memory.
#[kernel(layout::publish::INTER_BLOCK_PARAMS)]
#[allow(clippy::too_many_arguments)]
pub unsafe fn publish_in_cluster(
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
pub unsafe fn publish_in_cluster_probe(out: *mut u32, deadline_ns: u64) {
    // SAFETY: as above.
    unsafe { crate::page::demo(out, deadline_ns, produce_record, consume_record) }
}
