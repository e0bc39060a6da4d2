//! The lab's torn-record stress around your record (puzzle 14): block 0's
//! thread 0 writes `rounds` versions of the record while thread 0 of every
//! other block reads it, as `pitfalls --only torn-record` launches the lab's
//! `pitfall_record_one_word`. Only the reads that may have overlapped the
//! writer's updates are counted: the writer marks its window with two words
//! of `scratch`, `started` (then a fence) before its first update and `done`
//! (a release) after its last; a reader stops once it acquires `done`, and
//! leaves out a read after which it still finds `started` unset. This file
//! is not a puzzle.

use layout::pitfall::RECORD_WAIT_NS;
use layout::pitfall::{RECORD_BEFORE, RECORD_DONE, RECORD_READS, RECORD_READY, RECORD_STARTED, RECORD_TORN};

use device::order::{AcqRel, Acquire, AtomicRef, Device, Relaxed, Release, fence};
use device::thread;

/// Writes version `k` of the record at `record`: field `a` and field `b`
/// both `k`.
pub type Write = unsafe fn(record: *mut u32, k: u32);

/// Reads the record at `record`: `(a, b)`.
pub type Read = unsafe fn(record: *mut u32) -> (u32, u32);

/// The torn-record stress with `write` and `read` as the record's two
/// halves; counts into `out` the reads that overlapped the writer and, of
/// those, the torn ones (`a != b`).
///
/// # Safety
///
/// `scratch` holds `layout::pitfall::RECORD_WORDS` zeroed words in global
/// memory, 8-byte aligned, the record in its first two; `out` holds
/// `RECORD_COUNTERS` zeroed counters.
#[inline(always)]
pub unsafe fn stress(scratch: *mut u32, out: *mut u32, rounds: u32, write: Write, read: Read) {
    if thread::thread_idx_x() != 0 {
        return;
    }
    // SAFETY: the window's words are inside `scratch`, written only here,
    // atomically.
    let (started, done, ready) = unsafe {
        (
            AtomicRef::<u32, Device>::from_ptr(scratch.add(RECORD_STARTED)),
            AtomicRef::<u32, Device>::from_ptr(scratch.add(RECORD_DONE)),
            scratch.add(RECORD_READY),
        )
    };
    if thread::block_idx_x() == 0 {
        // Wait for every reader to arrive (or the deadline: a reader block
        // that is not resident never does), so that the reads overlap.
        // SAFETY: `ready` is a word of `scratch`, written only by atomics.
        let arrived = unsafe { AtomicRef::<u32, Device>::from_ptr(ready) };
        let start = thread::global_timer_ns();
        while arrived.load(Relaxed) < thread::grid_dim_x() - 1
            && thread::global_timer_ns().wrapping_sub(start) <= RECORD_WAIT_NS
        {}
        started.store(1, Relaxed);
        fence(AcqRel, Device);
        for k in 1..=rounds {
            // SAFETY: the record is the first two words of `scratch`.
            unsafe { write(scratch, k) };
        }
        done.store(1, Release);
        return;
    }
    // SAFETY: as above.
    unsafe { AtomicRef::<u32, Device>::from_global(ready).add(1, Relaxed) };
    let (mut torn, mut during, mut before) = (0u32, 0u32, 0u32);
    for _ in 0..rounds {
        if done.load(Acquire) != 0 {
            break;
        }
        // SAFETY: as above.
        let (a, b) = unsafe { read(scratch) };
        fence(AcqRel, Device);
        if started.load(Relaxed) != 0 {
            during += 1;
            torn += u32::from(a != b);
        } else {
            before += 1;
        }
    }
    // SAFETY: `out` holds the counters.
    unsafe {
        AtomicRef::<u32, Device>::from_global(out.add(RECORD_TORN)).add(torn, Relaxed);
        AtomicRef::<u32, Device>::from_global(out.add(RECORD_READS)).add(during, Relaxed);
        AtomicRef::<u32, Device>::from_global(out.add(RECORD_BEFORE)).add(before, Relaxed);
    }
}
