//! Puzzle 12, `producer-consumer`, a typical wrong answer: the code is right,
//! but its written invariant says device scope, which the compiled flag is
//! not.
//!
//! ```text
//! scope:    device (the whole GPU)
//! releases: thread 0, ready_storage, after writing slot
//! acquires: thread 32, ready_storage, before reading slot
//! protects: slot.id and slot.score
//! ```

use layout::publish::Payload;

use device::order::{Acquire, AtomicRef, Block, Release};
use device::thread;

// ANCHOR: todo
/// The page's `produce_record`: the record, then the flag.
///
/// # Safety
///
/// `slot` and `ready_storage` point into this block's shared memory.
#[inline(always)]
unsafe fn produce_record(slot: *mut Payload, ready_storage: *mut u32) {
    // SAFETY: the flag word, accessed only atomically after the barrier.
    let ready = unsafe { AtomicRef::<u32, Block>::from_ptr(ready_storage) };
    // SAFETY: only this thread writes the record.
    unsafe { *slot = Payload::PUBLISHED };
    // The release publishes the record stores above to any thread of the
    // block whose acquire load reads this 1.
    ready.store(1, Release);
}

/// The page's `consume_record`: wait for the flag, then read the record;
/// `None` if the wait passes `deadline` (the global timer, in ns).
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
    // SAFETY: the acquire read the producer's 1, so the record is complete.
    Some(unsafe { *slot })
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
