use layout::pitfall::{RECORD_BEFORE, RECORD_READS, RECORD_TORN};

use super::record_window::Window;
use crate::order::{AtomicRef, Device, Relaxed};
use crate::thread;

/// A two-field record updated by two atomics, and readers that count the
/// reads where the fields disagree: **broken**.
///
/// The writer sets both fields to `k` for `k = 1..=rounds`, each field with
/// its own `atom.exch`. Each atomic is indivisible, but the record is two
/// words: between the two exchanges it holds `(k, k - 1)`, and a reader's
/// two loads can land on either side of either exchange. The page: "two
/// atomics on two fields can still be observed between updates unless a
/// larger protocol prevents the intermediate observation."
///
/// Only the reads that overlapped the writer's updates are counted
/// (`record_window.rs` says how a reader tells): a read before the first
/// update or after the last cannot be torn, and counting it would dilute the
/// rate.
///
/// # Launch
///
/// At least two blocks of any size, all resident at once for the reads to
/// overlap the writes; thread 0 of block 0 writes, thread 0 of every other
/// block reads up to `rounds` times. `scratch` holds
/// `layout::pitfall::RECORD_WORDS` zeroed words (fields at 0 and 1), `out`
/// `layout::pitfall::RECORD_COUNTERS` zeroed counters.
///
/// # Thread mapping
///
/// One writer, `grid - 1` readers; the other threads do nothing. The writer
/// waits for every reader to arrive (bounded), then updates; a reader stops
/// at `rounds` reads or when it sees the writer done.
///
/// # Safety
///
/// `scratch` and `out` as above, in global memory.
#[kernel(layout::pitfall::RECORD_PARAMS)]
pub unsafe fn pitfall_record_two_atomics(scratch: *mut u32, out: *mut u32, rounds: u32) {
    if thread::thread_idx_x() != 0 {
        return;
    }
    let (a, b) = (scratch, scratch.wrapping_add(1));
    // SAFETY: `scratch` holds the record's words, as the caller guarantees.
    let window = unsafe { Window::of(scratch) };
    if thread::block_idx_x() == 0 {
        window.wait_for(thread::grid_dim_x() - 1);
        window.open();
        for k in 1..=rounds {
            // SAFETY: both fields are words of `scratch`.
            unsafe {
                AtomicRef::<u32, Device>::from_global(a).exchange(k, Relaxed);
                AtomicRef::<u32, Device>::from_global(b).exchange(k, Relaxed);
            }
        }
        window.close();
        return;
    }
    // SAFETY: both fields are words of `scratch`, written only by atomics.
    let (a, b) = unsafe { (AtomicRef::<u32, Device>::from_ptr(a), AtomicRef::<u32, Device>::from_ptr(b)) };
    window.arrive();
    let (mut torn, mut during, mut before) = (0u32, 0u32, 0u32);
    for _ in 0..rounds {
        if window.done() {
            break;
        }
        // The two loads stay next to each other: nothing between them orders
        // one against the writer's two exchanges, which is the mistake.
        let (seen_a, seen_b) = (a.load(Relaxed), b.load(Relaxed));
        if window.started() {
            during += 1;
            torn += u32::from(seen_a != seen_b);
        } else {
            before += 1;
        }
    }
    // SAFETY: `out` holds `RECORD_COUNTERS` counters.
    unsafe {
        AtomicRef::<u32, Device>::from_global(out.add(RECORD_TORN)).add(torn, Relaxed);
        AtomicRef::<u32, Device>::from_global(out.add(RECORD_READS)).add(during, Relaxed);
        AtomicRef::<u32, Device>::from_global(out.add(RECORD_BEFORE)).add(before, Relaxed);
    }
}
