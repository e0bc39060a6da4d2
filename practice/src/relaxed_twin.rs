//! Puzzle 13, `relaxed-twin`: the page's practice task, "create one
//! relaxed-order variant and document why a passing relaxed run is not a
//! correctness proof".
//!
//! Write puzzle 12's kernel again with both flag operations relaxed. The flag
//! stays atomic, so the consumer still sees 1 eventually; but nothing now
//! orders the record's stores before it. On a Hopper GPU this kernel may
//! never show a stale record in a million launches: the checker's verdict
//! comes from the PTX memory model instead, which says what the hardware is
//! *permitted* to do. The puzzle is solved when the model permits the stale
//! read and shows you the execution.
//!
//! Check: `cargo xtask practice check relaxed-twin`.
//! Stuck: `cargo xtask practice hint relaxed-twin`.

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

/// The page's relaxed twin: `producer_consumer_demo` with the protocol
/// above, launched as the page launches it.
///
/// # Launch
///
/// `<<<1, 64>>>`, 12 bytes of dynamic shared memory.
///
/// # Safety
///
/// `out` holds `layout::pitfall::PAGE_WORDS` zeroed words.
#[kernel(layout::pitfall::PAGE_PARAMS)]
pub unsafe fn producer_consumer_relaxed(out: *mut u32, deadline_ns: u64) {
    // SAFETY: the launch above, which the host's entry for it keeps.
    unsafe { crate::page::demo(out, deadline_ns, produce_record, consume_record) }
}
