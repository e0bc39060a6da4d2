//! Puzzle 12, `producer-consumer`: the page's `producer_consumer_demo<<<1, 64>>>`.
//!
//! Thread 0 fills a record in the block's shared memory and then sets a
//! flag; thread 32, in the other warp, waits for the flag and then reads the
//! record. That the flag is atomic is not enough: the record's two fields
//! are ordinary stores to other addresses, and only a release store of the
//! flag, read by an acquire load, makes them visible to the consumer. Use
//! the narrowest scope that holds both threads.
//!
//! Check: `cargo xtask practice check producer-consumer`.
//! Stuck: `cargo xtask practice hint producer-consumer`.
//!
//! The page also asks for a written scope-and-order invariant. Write it
//! here; the checker holds it to your compiled flag:
//!
//! ```text
//! scope:    TODO (block, cluster, device or system)
//! releases: TODO (which thread releases `ready_storage`, after what)
//! acquires: TODO (which thread acquires `ready_storage`, before what)
//! protects: TODO (what in `slot` the consumer may then read)
//! ```

use layout::publish::Payload;

#[allow(unused_imports)]
use device::order::{Acquire, AtomicRef, Block, Device, Relaxed, Release, System};
#[allow(unused_imports)]
use device::thread;

// ANCHOR: todo
/// The page's `produce_record`: the record, then the flag.
///
/// # Safety
///
/// `slot` and `ready_storage` point into this block's shared memory.
#[inline(always)]
unsafe fn produce_record(slot: *mut Payload, ready_storage: *mut u32) {
    // TODO: write `Payload::PUBLISHED` into `*slot` with ordinary stores,
    // then set the flag `*ready_storage` to 1 so that a thread that reads 1
    // also reads the record: `AtomicRef::<u32, SCOPE>::from_ptr(ready_storage)`
    // and `.store(1, ORDERING)`.
    let _ = (slot, ready_storage);
}

/// The page's `consume_record`: wait for the flag, then read the record;
/// `None` if the wait passes `deadline` (the global timer, in ns).
///
/// # Safety
///
/// As `produce_record`.
#[inline(always)]
unsafe fn consume_record(slot: *const Payload, ready_storage: *mut u32, deadline: u64) -> Option<Payload> {
    // TODO: wait until the flag reads 1 (`.load(ORDERING)` in a loop, giving
    // up with `None` once `thread::global_timer_ns() > deadline`), then read
    // `*slot`.
    let _ = (slot, ready_storage, deadline);
    None
}

// ANCHOR_END: todo

/// The page's `producer_consumer_demo`, with the protocol above: thread 0
/// publishes one record in the block's shared memory, thread 32 waits for
/// it and reports what it read.
///
/// # Launch
///
/// `<<<1, 64>>>`, 12 bytes of dynamic shared memory.
///
/// # Safety
///
/// `out` holds `layout::pitfall::PAGE_WORDS` zeroed words.
#[kernel(layout::pitfall::PAGE_PARAMS)]
pub unsafe fn producer_consumer_demo(out: *mut u32, deadline_ns: u64) {
    // SAFETY: the launch above, which the host's entry for it keeps.
    unsafe { crate::page::demo(out, deadline_ns, produce_record, consume_record) }
}
