//! Puzzle 4, `producer-consumer`: a solution.
//!
//! ```text
//! scope:    block (thread 0 and thread 32 are in one block)
//! releases: thread 0, ready_storage, after writing slot
//! acquires: thread 32, ready_storage, before reading slot
//! protects: slot.id and slot.score
//! ```

use layout::pitfall::{PAGE_ERROR, PAGE_OBSERVED_ID, PAGE_OBSERVED_SCORE, PAGE_TIMED_OUT};
use layout::publish::Payload;

use device::order::{Acquire, AtomicRef, Block, Release};
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
