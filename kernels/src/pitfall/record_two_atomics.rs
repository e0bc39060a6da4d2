use layout::pitfall::{RECORD_READS, RECORD_TORN};

use crate::order::{AtomicRef, Device, Relaxed};
use crate::{atomic, thread};

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
/// # Launch
///
/// At least two blocks of any size; thread 0 of block 0 writes, thread 0 of
/// every other block reads `rounds` times. `scratch` holds
/// `layout::pitfall::RECORD_WORDS` zeroed words (fields at 0 and 1), `out`
/// three zeroed counters.
///
/// # Thread mapping
///
/// One writer, `grid - 1` readers; the other threads do nothing.
///
/// # Safety
///
/// `scratch` and `out` as above, in global memory.
#[kernel]
pub unsafe fn pitfall_record_two_atomics(scratch: *mut u32, out: *mut u32, rounds: u32) {
    if thread::thread_idx_x() != 0 {
        return;
    }
    let (a, b) = (scratch, scratch.wrapping_add(1));
    if thread::block_idx_x() == 0 {
        for k in 1..=rounds {
            // SAFETY: both fields are words of `scratch`.
            unsafe {
                atomic::global_exchange_u32(a, k);
                atomic::global_exchange_u32(b, k);
            }
        }
        return;
    }
    // SAFETY: both fields are words of `scratch`, written only by atomics.
    let (a, b) = unsafe { (AtomicRef::<u32, Device>::from_ptr(a), AtomicRef::<u32, Device>::from_ptr(b)) };
    let mut torn = 0u32;
    for _ in 0..rounds {
        let (seen_a, seen_b) = (a.load(Relaxed), b.load(Relaxed));
        torn += u32::from(seen_a != seen_b);
    }
    // SAFETY: `out` holds three counters.
    unsafe {
        atomic::global_add_u32(out.add(RECORD_TORN), torn);
        atomic::global_add_u32(out.add(RECORD_READS), rounds);
    }
}
