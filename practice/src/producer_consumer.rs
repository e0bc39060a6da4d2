//! Puzzle 4, `producer-consumer`: the page's `producer_consumer_demo<<<1, 64>>>`.
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

use layout::pitfall::{PAGE_ERROR, PAGE_OBSERVED_ID, PAGE_OBSERVED_SCORE, PAGE_TIMED_OUT};
use layout::publish::Payload;

#[allow(unused_imports)]
use device::order::{Acquire, AtomicRef, Block, Device, Relaxed, Release, System};
use device::{shared, thread};

/// The block's shared memory, as the page declares it: `__shared__ Record
/// slot; __shared__ int ready_storage;`.
#[repr(C)]
struct Shared {
    slot: Payload,
    ready_storage: u32,
}

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

/// The consumer's report: the record it saw and the page's `error`, or that
/// its wait timed out.
///
/// # Safety
///
/// `out` holds `layout::pitfall::PAGE_WORDS` words.
#[inline(always)]
unsafe fn report(out: *mut u32, seen: Option<Payload>) {
    // SAFETY: the caller's words; only the consumer writes them.
    unsafe {
        match seen {
            Some(v) => {
                *out.add(PAGE_OBSERVED_ID) = v.id as u32;
                *out.add(PAGE_OBSERVED_SCORE) = v.score.to_bits();
                *out.add(PAGE_ERROR) = u32::from(v != Payload::PUBLISHED);
            }
            None => *out.add(PAGE_TIMED_OUT) = 1,
        }
    }
}

/// Thread 0 publishes one record in the block's shared memory; thread 32,
/// in the other warp, waits for it and reports what it read.
///
/// # Launch
///
/// `<<<1, 64>>>`, 12 bytes of dynamic shared memory.
///
/// # Safety
///
/// `out` holds `layout::pitfall::PAGE_WORDS` zeroed words.
#[kernel]
pub unsafe fn producer_consumer_demo(out: *mut u32, deadline_ns: u64) {
    let memory = shared::dynamic_shared::<Shared>();
    if thread::thread_idx_x() == 0 {
        // SAFETY: the launch provides one `Shared`; no other thread uses it yet.
        unsafe { memory.write(Shared { slot: Payload::EMPTY, ready_storage: 0 }) };
    }
    // SAFETY: every thread of the block reaches it.
    unsafe { thread::sync_threads() };
    // SAFETY: both fields are in the block's `Shared`.
    let (slot, ready) = unsafe { (&raw mut (*memory).slot, &raw mut (*memory).ready_storage) };
    if thread::thread_idx_x() == 0 {
        // SAFETY: the block's shared record and flag.
        unsafe { produce_record(slot, ready) };
    }
    if thread::thread_idx_x() == 32 {
        let deadline = thread::global_timer_ns().saturating_add(deadline_ns);
        // SAFETY: as above; `out` is the caller's report.
        unsafe { report(out, consume_record(slot, ready, deadline)) };
    }
}
