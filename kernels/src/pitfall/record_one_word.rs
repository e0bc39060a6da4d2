use layout::pitfall::{RECORD_BEFORE, RECORD_READS, RECORD_TORN};

use super::record_window::Window;
use crate::order::{AtomicRef, Device, Relaxed};
use crate::thread;

/// The record's two fields in one 64-bit word, written by one store and read
/// by one load: a fix of [`super::pitfall_record_two_atomics`].
///
/// `st.relaxed.gpu.b64` and `ld.relaxed.gpu.b64` are single-copy atomic on
/// an aligned 8-byte word: a reader sees one whole store or another, never
/// half of each. It works as long as the record fits in one word the
/// hardware accesses atomically (64 bits; 128 on sm_90 with `.b128`).
///
/// Its readers count only the reads that overlapped the writer's updates,
/// as [`super::pitfall_record_two_atomics`]'s do: with a writer this fast,
/// most reads of a fixed count would come after its last store.
///
/// # Launch
///
/// As `pitfall_record_two_atomics`; `scratch` must be 8-byte aligned.
///
/// # Thread mapping
///
/// As `pitfall_record_two_atomics`.
///
/// # Safety
///
/// As `pitfall_record_two_atomics`, and `scratch` 8-byte aligned.
#[kernel(layout::pitfall::RECORD_PARAMS)]
pub unsafe fn pitfall_record_one_word(scratch: *mut u32, out: *mut u32, rounds: u32) {
    if thread::thread_idx_x() != 0 {
        return;
    }
    // SAFETY: `scratch` is 8-byte aligned with two words at its start, and
    // the word they make is written only by 64-bit stores.
    let record = unsafe { AtomicRef::<u64, Device>::from_ptr(scratch.cast::<u64>()) };
    // SAFETY: `scratch` holds the record's words, as the caller guarantees.
    let window = unsafe { Window::of(scratch) };
    if thread::block_idx_x() == 0 {
        window.wait_for(thread::grid_dim_x() - 1);
        window.open();
        for k in 1..=rounds {
            // Field `a` is the low half and `b` the high half of the word.
            record.store((u64::from(k) << 32) | u64::from(k), Relaxed);
        }
        window.close();
        return;
    }
    window.arrive();
    let (mut torn, mut during, mut before) = (0u32, 0u32, 0u32);
    for _ in 0..rounds {
        if window.done() {
            break;
        }
        let seen = record.load(Relaxed);
        if window.started() {
            during += 1;
            torn += u32::from(seen as u32 != (seen >> 32) as u32);
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
