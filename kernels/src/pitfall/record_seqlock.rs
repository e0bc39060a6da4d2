use layout::pitfall::{RECORD_READS, RECORD_RETRIES, RECORD_TORN, RECORD_TRIES as TRIES};

use crate::order::{AcqRel, Acquire, AtomicRef, Device, Relaxed, Release, fence};
use crate::{atomic, thread};

/// The record's two fields behind a sequence lock: a fix of
/// [`super::pitfall_record_two_atomics`] for records too wide for one word.
///
/// The writer makes the sequence odd (relaxed store, then a release-acquire
/// fence so the fields' stores cannot move before it), writes both fields,
/// and makes it even again with a release store. A reader loads the sequence
/// with acquire, both fields, then an acquire fence and the sequence again:
/// if the two readings are the same even number, no write overlapped the
/// read. If a field load saw a write of update `k`, the fence pair makes the
/// second reading of the sequence at least `2k - 1`, so an overlap is always
/// caught. A reader throws such a read away, counts it as a retry and reads
/// again, up to `layout::pitfall::RECORD_TRIES` times per read.
///
/// # Launch
///
/// As `pitfall_record_two_atomics`; the sequence is word 2 of `scratch`.
///
/// # Thread mapping
///
/// As `pitfall_record_two_atomics`: each reader makes `rounds` reads, each
/// of up to `RECORD_TRIES` attempts.
///
/// # Safety
///
/// As `pitfall_record_two_atomics`.
#[kernel]
pub unsafe fn pitfall_record_seqlock(scratch: *mut u32, out: *mut u32, rounds: u32) {
    if thread::thread_idx_x() != 0 {
        return;
    }
    // SAFETY: the three words are `scratch`'s, written only by the writer's
    // strong stores.
    let (a, b, sequence) = unsafe {
        (
            AtomicRef::<u32, Device>::from_ptr(scratch),
            AtomicRef::<u32, Device>::from_ptr(scratch.wrapping_add(1)),
            AtomicRef::<u32, Device>::from_ptr(scratch.wrapping_add(2)),
        )
    };
    if thread::block_idx_x() == 0 {
        for k in 1..=rounds {
            sequence.store(2 * k - 1, Relaxed);
            fence(AcqRel, Device);
            a.store(k, Relaxed);
            b.store(k, Relaxed);
            sequence.store(2 * k, Release);
        }
        return;
    }
    let (mut torn, mut kept, mut retries) = (0u32, 0u32, 0u32);
    for _ in 0..rounds {
        // A reader retries a read that overlapped a write, as a sequence
        // lock's reader does, but at most `TRIES` times: under a writer that
        // never pauses it could otherwise starve, and nothing here may spin
        // without a bound.
        for _ in 0..TRIES {
            let (before, seen_a, seen_b) = (sequence.load(Acquire), a.load(Relaxed), b.load(Relaxed));
            fence(AcqRel, Device);
            let after = sequence.load(Relaxed);
            if before % 2 == 0 && before == after {
                kept += 1;
                torn += u32::from(seen_a != seen_b);
                break;
            }
            retries += 1;
        }
    }
    // SAFETY: `out` holds three counters.
    unsafe {
        atomic::global_add_u32(out.add(RECORD_TORN), torn);
        atomic::global_add_u32(out.add(RECORD_READS), kept);
        atomic::global_add_u32(out.add(RECORD_RETRIES), retries);
    }
}
