//! Page 2's `producer_consumer_demo` around your protocol: the block's shared
//! record and flag, their zeroing behind a barrier, the two roles (thread 0
//! produces, thread 32, in the other warp, consumes) and the consumer's
//! report to the host. Puzzles 12 and 13 write only `produce_record` and
//! `consume_record`; the roles of puzzles 15 and 16 run here too, in the
//! kernel the checker reads. This file is not a puzzle.

use layout::pitfall::{PAGE_ERROR, PAGE_OBSERVED_ID, PAGE_OBSERVED_SCORE, PAGE_TIMED_OUT};
use layout::publish::Payload;

use device::{shared, thread};

/// The page's `produce_record`: the record, then the flag.
pub type Produce = unsafe fn(slot: *mut Payload, ready_storage: *mut u32);

/// The page's `consume_record`: wait for the flag, then read the record;
/// `None` if the wait passes `deadline` (the global timer, in ns).
pub type Consume = unsafe fn(slot: *const Payload, ready_storage: *mut u32, deadline: u64) -> Option<Payload>;

/// The block's shared memory, as the page declares it: `__shared__ Record
/// slot; __shared__ int ready_storage;`.
#[repr(C)]
struct Shared {
    slot: Payload,
    ready_storage: u32,
}

/// The page's kernel body with `produce` and `consume` as its two roles:
/// thread 0 zeroes the record and the flag, the block meets at a barrier,
/// thread 0 produces, thread 32 consumes and reports what it read (the
/// page's `error` too), or that its wait timed out.
///
/// # Safety
///
/// Every thread of a block of at least 33 calls it, with 12 bytes of
/// dynamic shared memory; `out` holds `layout::pitfall::PAGE_WORDS` zeroed
/// words.
#[inline(always)]
pub unsafe fn demo(out: *mut u32, deadline_ns: u64, produce: Produce, consume: Consume) {
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
        unsafe { produce(slot, ready) };
    }
    if thread::thread_idx_x() == 32 {
        let deadline = thread::global_timer_ns().saturating_add(deadline_ns);
        // SAFETY: as above; `out` is the caller's report.
        unsafe { report(out, consume(slot, ready, deadline)) };
    }
}

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
