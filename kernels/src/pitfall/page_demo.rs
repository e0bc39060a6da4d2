//! Page 2's worked example, `producer_consumer_demo<<<1, 64>>>`, as the page
//! writes it, beside the relaxed twin its practice task asks for and the
//! reordering the memory model permits that twin, written out.
//!
//! The page's kernel, in Rust: thread 0 fills one record in the block's
//! shared memory and releases a block-scoped flag; thread 32, in the other
//! warp, acquires the flag and only then reads the record. The one change is
//! a deadline on the consumer's wait, so that no kernel of the lab can hang
//! the GPU; a wait that reaches it is counted, not mistaken for a stale
//! record.

use layout::pitfall::{PAGE_ERROR, PAGE_OBSERVED_ID, PAGE_OBSERVED_SCORE, PAGE_TIMED_OUT};
use layout::publish::Payload;

use crate::order::{Acquire, AtomicRef, Block, LoadOrdering, Relaxed, Release, StoreOrdering};
use crate::{shared, thread};

/// The block's shared memory, as the page declares it: `__shared__ Record
/// slot; __shared__ int ready_storage;`.
#[repr(C)]
struct Shared {
    slot: Payload,
    ready_storage: u32,
}

/// The page's `produce_record`: the payload by ordinary stores, then the
/// flag with `order`.
///
/// # Safety
///
/// `slot` and `ready_storage` point into this block's shared memory.
// ANCHOR: produce_record
#[inline(always)]
unsafe fn produce_record(slot: *mut Payload, ready_storage: *mut u32, order: impl StoreOrdering<u32, Block>) {
    // SAFETY: the caller's pointers; the flag is only ever accessed as an
    // atomic after the block barrier that initialized it.
    let ready = unsafe { AtomicRef::<u32, Block>::from_ptr(ready_storage) };
    // SAFETY: as above; only this thread writes the record.
    unsafe {
        (*slot).id = Payload::PUBLISHED.id;
        (*slot).score = Payload::PUBLISHED.score;
    }
    ready.store(1, order);
}
// ANCHOR_END: produce_record

/// The page's `consume_record`: wait for the flag with `order`, then read
/// the record and write what it saw and whether it was wrong. `None` if the
/// wait reached the deadline.
///
/// # Safety
///
/// `slot` and `ready_storage` point into this block's shared memory, `out`
/// to the launch's report words.
// ANCHOR: consume_record
#[inline(always)]
unsafe fn consume_record(
    slot: *const Payload,
    ready_storage: *mut u32,
    order: impl LoadOrdering<u32, Block>,
    deadline: u64,
) -> Option<Payload> {
    // SAFETY: as in `produce_record`.
    let ready = unsafe { AtomicRef::<u32, Block>::from_ptr(ready_storage) };
    while ready.load(order) == 0 {
        if thread::global_timer_ns() > deadline {
            return None;
        }
    }
    // SAFETY: the caller's pointer. Ordinary loads: only the flag's
    // ordering decides whether they see the producer's stores.
    Some(unsafe { *slot })
}
// ANCHOR_END: consume_record

/// What the consumer saw, into `out`: the record, `error` as the page
/// computes it, and whether its wait timed out.
///
/// # Safety
///
/// `out` holds `layout::pitfall::PAGE_WORDS` words.
#[inline(always)]
unsafe fn report(out: *mut u32, value: Option<Payload>) {
    // SAFETY: the caller's words; only the consumer writes them.
    unsafe {
        match value {
            Some(v) => {
                *out.add(PAGE_OBSERVED_ID) = v.id as u32;
                *out.add(PAGE_OBSERVED_SCORE) = v.score.to_bits();
                *out.add(PAGE_ERROR) = u32::from(v.id != Payload::PUBLISHED.id || v.score != Payload::PUBLISHED.score);
            }
            None => *out.add(PAGE_TIMED_OUT) = 1,
        }
    }
}

/// The page's start: thread 0 zeroes the flag (and here the record, so a
/// stale read sees `{0, 0}` rather than whatever the block before left),
/// then the whole block meets at a barrier. Returns the block's shared
/// memory.
///
/// # Safety
///
/// Every thread of the block calls it.
#[inline(always)]
unsafe fn start() -> *mut Shared {
    let memory = shared::dynamic_shared::<Shared>();
    if thread::thread_idx_x() == 0 {
        // SAFETY: the block's dynamic shared memory holds one `Shared`
        // (the registry's bytes); no other thread touches it yet.
        unsafe { memory.write(Shared { slot: Payload::EMPTY, ready_storage: 0 }) };
    }
    // SAFETY: every thread of the block reaches this barrier.
    unsafe { thread::sync_threads() };
    memory
}

/// Page 2's `producer_consumer_demo`, with its block-scoped release and
/// acquire: the consumer that sees the flag sees the record. The page's six
/// steps are numbered in its body; the relaxed twin below is this kernel
/// with two words changed.
///
/// # Launch
///
/// One block of 64 threads (`<<<1, 64>>>`, as the page launches it; any
/// block of at least 33), 12 bytes of dynamic shared memory.
///
/// # Thread mapping
///
/// Thread 0 produces, thread 32 consumes; the others only meet at the
/// barrier. The flag is `st.release.cta` and `ld.acquire.cta`.
///
/// # Safety
///
/// `out` holds `layout::pitfall::PAGE_WORDS` zeroed words.
// ANCHOR: kernel
#[kernel(layout::pitfall::PAGE_PARAMS)]
pub unsafe fn pitfall_page_demo(out: *mut u32, deadline_ns: u64) {
    // `__shared__ Record slot; __shared__ int ready_storage;`
    let memory = shared::dynamic_shared::<Shared>();
    // SAFETY: the two fields of the block's one `Shared`.
    let (slot, ready_storage) = unsafe { (&raw mut (*memory).slot, &raw mut (*memory).ready_storage) };

    // 1. Thread 0 zeroes the flag (and the record, so that a stale read is
    //    `{0, 0}`), then the whole block meets: both warps start after it.
    if thread::thread_idx_x() == 0 {
        // SAFETY: no other thread touches the block's memory before the barrier.
        unsafe { memory.write(Shared { slot: Payload::EMPTY, ready_storage: 0 }) };
    }
    // SAFETY: every thread of the block reaches this barrier.
    unsafe { thread::sync_threads() };

    // 2. The flag as an atomic at block scope: the threads that take part
    //    are all in this block.
    // SAFETY: from here on the flag is accessed only through `ready`.
    let ready = unsafe { AtomicRef::<u32, Block>::from_ptr(ready_storage) };

    // 3. The producer writes both fields, then sets the flag. `Release`
    //    publishes the stores before it along with the flag.
    if thread::thread_idx_x() == 0 {
        // SAFETY: only this thread writes the record.
        unsafe {
            (*slot).id = Payload::PUBLISHED.id;
            (*slot).score = Payload::PUBLISHED.score;
        }
        ready.store(1, Release);
    }

    // 4. The consumer, in the second warp, waits for the flag, then reads
    //    the record (the deadline is the lab's: a wait that reaches it is
    //    reported, so that no kernel hangs the GPU). `Acquire` makes what
    //    the release published visible to every load after it.
    if thread::thread_idx_x() == 32 {
        let deadline = thread::global_timer_ns().saturating_add(deadline_ns);
        let seen = loop {
            if ready.load(Acquire) != 0 {
                // SAFETY: the flag read 1; ordinary loads.
                break Some(unsafe { *slot });
            }
            if thread::global_timer_ns() > deadline {
                break None;
            }
        };
        // SAFETY: `out` is the caller's report.
        unsafe { report(out, seen) };
    }

    // 5. The relaxed twin, `pitfall_page_demo_relaxed`, is this kernel with
    //    `Relaxed` in steps 3 and 4: a clean stress run of it is no proof.
    // 6. The consumer stays in this block: in another, block scope would not
    //    hold it, and its wait would need a producer sure to run.
}
// ANCHOR_END: kernel

/// The practice task's relaxed twin: [`pitfall_page_demo`] with both flag
/// operations relaxed. The flag stays atomic, but nothing orders the
/// record's stores before it as the consumer sees them: a consumer that
/// reads the flag as 1 may read the record as `{0, 0}`.
///
/// # Launch
///
/// As [`pitfall_page_demo`].
///
/// # Thread mapping
///
/// As [`pitfall_page_demo`], with `st.relaxed.cta` and `ld.relaxed.cta`.
///
/// # Safety
///
/// As [`pitfall_page_demo`].
// ANCHOR: relaxed
#[kernel(layout::pitfall::PAGE_PARAMS)]
pub unsafe fn pitfall_page_demo_relaxed(out: *mut u32, deadline_ns: u64) {
    // `__shared__ Record slot; __shared__ int ready_storage;`
    let memory = shared::dynamic_shared::<Shared>();
    // SAFETY: the two fields of the block's one `Shared`.
    let (slot, ready_storage) = unsafe { (&raw mut (*memory).slot, &raw mut (*memory).ready_storage) };

    // 1. Thread 0 zeroes the flag (and the record, so that a stale read is
    //    `{0, 0}`), then the whole block meets: both warps start after it.
    if thread::thread_idx_x() == 0 {
        // SAFETY: no other thread touches the block's memory before the barrier.
        unsafe { memory.write(Shared { slot: Payload::EMPTY, ready_storage: 0 }) };
    }
    // SAFETY: every thread of the block reaches this barrier.
    unsafe { thread::sync_threads() };

    // 2. The flag as an atomic at block scope: the threads that take part
    //    are all in this block.
    // SAFETY: from here on the flag is accessed only through `ready`.
    let ready = unsafe { AtomicRef::<u32, Block>::from_ptr(ready_storage) };

    // 3. The producer writes both fields, then sets the flag. `Relaxed`
    //    orders nothing before it: the flag may be seen first.
    if thread::thread_idx_x() == 0 {
        // SAFETY: only this thread writes the record.
        unsafe {
            (*slot).id = Payload::PUBLISHED.id;
            (*slot).score = Payload::PUBLISHED.score;
        }
        ready.store(1, Relaxed);
    }

    // 4. The consumer, in the second warp, waits for the flag, then reads
    //    the record (the deadline is the lab's: a wait that reaches it is
    //    reported, so that no kernel hangs the GPU). `Relaxed` orders
    //    nothing after it: the record may still read `{0, 0}`.
    if thread::thread_idx_x() == 32 {
        let deadline = thread::global_timer_ns().saturating_add(deadline_ns);
        let seen = loop {
            if ready.load(Relaxed) != 0 {
                // SAFETY: the flag read 1; ordinary loads.
                break Some(unsafe { *slot });
            }
            if thread::global_timer_ns() > deadline {
                break None;
            }
        };
        // SAFETY: `out` is the caller's report.
        unsafe { report(out, seen) };
    }

    // 5. The relaxed twin, `pitfall_page_demo_relaxed`, is this kernel with
    //    `Relaxed` in steps 3 and 4: a clean stress run of it is no proof.
    // 6. The consumer stays in this block: in another, block scope would not
    //    hold it, and its wait would need a producer sure to run.
}
// ANCHOR_END: relaxed

/// The relaxed twin as the memory model lets it behave: the consumer's
/// record loads performed before its wait. A relaxed load orders nothing
/// after it, so the model allows a compiler or the hardware to issue the
/// record's loads first; this kernel writes that order out, and so shows
/// what the relaxed twin is permitted to do whether or not a given compiler
/// and GPU ever do it.
///
/// # Launch
///
/// As [`pitfall_page_demo`].
///
/// # Thread mapping
///
/// As [`pitfall_page_demo_relaxed`], except that thread 32 reads the record
/// and then waits for the flag.
///
/// # Safety
///
/// As [`pitfall_page_demo`].
#[kernel(layout::pitfall::PAGE_PARAMS)]
pub unsafe fn pitfall_page_demo_early_read(out: *mut u32, deadline_ns: u64) {
    // SAFETY: every thread of the block calls it.
    let memory = unsafe { start() };
    // SAFETY: the two fields point into the block's `Shared`.
    let (slot, ready_storage) = unsafe { (&raw mut (*memory).slot, &raw mut (*memory).ready_storage) };
    if thread::thread_idx_x() == 0 {
        // SAFETY: the block's shared record and flag.
        unsafe { produce_record(slot, ready_storage, Relaxed) };
    }
    if thread::thread_idx_x() == 32 {
        // SAFETY: the block's shared record, read first thing after the
        // barrier, before the wait.
        let early = unsafe { *slot };
        let deadline = thread::global_timer_ns().saturating_add(deadline_ns);
        // SAFETY: as above; the record the wait would have guarded is the
        // one already read.
        let waited = unsafe { consume_record(slot, ready_storage, Relaxed, deadline) };
        // SAFETY: `out` is the caller's report.
        unsafe { report(out, waited.map(|_| early)) };
    }
}
