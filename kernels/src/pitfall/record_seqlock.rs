use layout::pitfall::{RECORD_READS, RECORD_RETRIES, RECORD_TORN, RECORD_TRIES as TRIES};

use crate::{atomic, order, thread};

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
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn pitfall_record_seqlock(scratch: *mut u32, out: *mut u32, rounds: u32) {
    if thread::thread_idx_x() != 0 {
        return;
    }
    let (a, b, sequence) = (scratch, scratch.wrapping_add(1), scratch.wrapping_add(2));
    if thread::block_idx_x() == 0 {
        for k in 1..=rounds {
            // SAFETY: the three words are `scratch`'s.
            unsafe {
                order::store_relaxed_gpu(sequence, 2 * k - 1);
                order::fence_acq_rel_gpu();
                order::store_relaxed_gpu(a, k);
                order::store_relaxed_gpu(b, k);
                order::store_release_gpu(sequence, 2 * k);
            }
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
            // SAFETY: the three words are `scratch`'s, written only by the
            // writer's strong stores.
            let (before, seen_a, seen_b) =
                unsafe { (order::load_acquire_gpu(sequence), order::load_relaxed_gpu(a), order::load_relaxed_gpu(b)) };
            order::fence_acq_rel_gpu();
            // SAFETY: as above.
            let after = unsafe { order::load_relaxed_gpu(sequence) };
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
