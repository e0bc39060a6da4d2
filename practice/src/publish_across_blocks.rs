//! Puzzle 15, `publish-across-blocks`: the page's publication between two
//! blocks, at the narrowest scope that holds them.
//!
//! Puzzle 12's protocol again, with the producer now thread 0 of one block
//! and the consumer thread 0 of the next, the record and the flag in global
//! memory. A flag at block scope no longer holds both threads: a release at
//! `.cta` orders the record only for threads of the producer's own block.
//! Write the two roles with the narrowest scope that holds two blocks of
//! one grid.
//!
//! Check: `cargo xtask practice check publish-across-blocks`.
//! Stuck: `cargo xtask practice hint publish-across-blocks`.

use layout::publish::{Counts, Payload, Slot};

#[allow(unused_imports)]
use device::order::{Acquire, AtomicRef, Block, Device, Relaxed, Release, System};
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
    // TODO: write `Payload::PUBLISHED` into `*slot`, then set the flag to 1
    // so that a thread of another block that reads the 1 also reads the
    // record.
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
    // TODO: wait until the flag reads 1, then read `*slot`.
    let _ = (slot, ready_storage, deadline);
    None
}

// ANCHOR_END: todo

/// The lab's `publish_grid_release_acquire` with your two roles: thread 0
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
pub unsafe fn publish_across_blocks(
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
pub unsafe fn publish_across_blocks_probe(out: *mut u32, deadline_ns: u64) {
    // SAFETY: as above.
    unsafe { crate::page::demo(out, deadline_ns, produce_record, consume_record) }
}
