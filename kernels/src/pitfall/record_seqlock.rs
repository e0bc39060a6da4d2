use layout::pitfall::{
    RECORD_ABANDONED, RECORD_BEFORE, RECORD_READS, RECORD_RETRIES, RECORD_SEQUENCE, RECORD_TORN, RECORD_TRIES as TRIES,
    SEQLOCK_PAUSE_NS,
};

use super::record_window::Window;
use crate::order::{AcqRel, Acquire, AtomicRef, Device, Relaxed, Release, fence};
use crate::thread;

/// The record's two fields behind a sequence lock: a fix of
/// [`super::pitfall_record_two_atomics`] for records too wide for one word.
///
/// The writer makes the sequence odd (relaxed store, then a release-acquire
/// fence so the fields' stores cannot move before it), writes both fields,
/// and makes it even again with a release store, then pauses for
/// `layout::pitfall::SEQLOCK_PAUSE_NS` before the next update, as a sequence
/// lock's writer must if its readers are to get through. A reader loads the sequence
/// with acquire, both fields, then an acquire fence and the sequence again:
/// if the two readings are the same even number, no write overlapped the
/// read. If a field load saw a write of update `k`, the fence pair makes the
/// second reading of the sequence at least `2k - 1`, so an overlap is always
/// caught. A reader throws such a read away, counts it as a retry and reads
/// again, up to `layout::pitfall::RECORD_TRIES` times per read, and counts
/// a read whose every attempt overlapped a write as abandoned: a read the
/// lock never delivered, reported beside the kept ones.
///
/// The sequence is itself the writer's window (`record_window.rs` for the
/// other two kernels): a kept read whose sequence was 0 came before the
/// first update (a field load that saw an update would, through the fence
/// pair, make the second reading at least 1), and one whose sequence was
/// `2 * rounds`, acquired, comes after the last, so the reader stops there.
/// Only the kept reads in between count as reads.
///
/// # Launch
///
/// As `pitfall_record_two_atomics`; the sequence is word
/// `layout::pitfall::RECORD_SEQUENCE` of `scratch`.
///
/// # Thread mapping
///
/// As `pitfall_record_two_atomics`: each reader makes up to `rounds` reads,
/// each of up to `RECORD_TRIES` attempts, and stops when it sees the last
/// update.
///
/// # Safety
///
/// As `pitfall_record_two_atomics`.
#[kernel(layout::pitfall::RECORD_PARAMS)]
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
            AtomicRef::<u32, Device>::from_ptr(scratch.wrapping_add(RECORD_SEQUENCE)),
        )
    };
    // SAFETY: `scratch` holds the record's words, as the caller guarantees.
    let window = unsafe { Window::of(scratch) };
    if thread::block_idx_x() == 0 {
        window.wait_for(thread::grid_dim_x() - 1);
        for k in 1..=rounds {
            sequence.store(2 * k - 1, Relaxed);
            fence(AcqRel, Device);
            a.store(k, Relaxed);
            b.store(k, Relaxed);
            sequence.store(2 * k, Release);
            // The pause is bounded by the timer, not by a count of loads.
            let paused = thread::global_timer_ns();
            while thread::global_timer_ns().wrapping_sub(paused) < SEQLOCK_PAUSE_NS {}
        }
        return;
    }
    window.arrive();
    let last = 2 * rounds;
    let (mut torn, mut during, mut before_writer) = (0u32, 0u32, 0u32);
    let (mut retries, mut abandoned) = (0u32, 0u32);
    'reads: for _ in 0..rounds {
        // A reader retries a read that overlapped a write, as a sequence
        // lock's reader does, but at most `TRIES` times: under a writer that
        // never pauses it could otherwise starve, and nothing here may spin
        // without a bound. A read that runs out of attempts is abandoned,
        // and counted as such rather than dropped.
        let mut kept = false;
        for _ in 0..TRIES {
            let (before, seen_a, seen_b) = (sequence.load(Acquire), a.load(Relaxed), b.load(Relaxed));
            fence(AcqRel, Device);
            let after = sequence.load(Relaxed);
            if before % 2 == 0 && before == after {
                if before == last {
                    // The last update, acquired: every later read would see
                    // the final record.
                    break 'reads;
                }
                if before == 0 {
                    before_writer += 1;
                } else {
                    during += 1;
                    torn += u32::from(seen_a != seen_b);
                }
                kept = true;
                break;
            }
            retries += 1;
        }
        abandoned += u32::from(!kept);
    }
    // SAFETY: `out` holds `RECORD_COUNTERS` counters.
    unsafe {
        AtomicRef::<u32, Device>::from_global(out.add(RECORD_TORN)).add(torn, Relaxed);
        AtomicRef::<u32, Device>::from_global(out.add(RECORD_READS)).add(during, Relaxed);
        AtomicRef::<u32, Device>::from_global(out.add(RECORD_RETRIES)).add(retries, Relaxed);
        AtomicRef::<u32, Device>::from_global(out.add(RECORD_ABANDONED)).add(abandoned, Relaxed);
        AtomicRef::<u32, Device>::from_global(out.add(RECORD_BEFORE)).add(before_writer, Relaxed);
    }
}
