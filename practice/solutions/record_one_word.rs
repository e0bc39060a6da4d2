//! Puzzle 14, `record-one-word`: a solution.

use device::order::{AtomicRef, Device, Relaxed};

// ANCHOR: todo
/// Writes version `k`: field `a` (the first word) and field `b` (the
/// second) both `k`.
///
/// # Safety
///
/// `record` points to the two words, 8-byte aligned, in global memory.
#[inline(always)]
unsafe fn write_record(record: *mut u32, k: u32) {
    // Both fields in one aligned 64-bit word, `a` the low half: one
    // `st.relaxed.gpu.b64`, which a reader sees whole or not at all.
    // SAFETY: the two words are 8-byte aligned, written only this way.
    let word = unsafe { AtomicRef::<u64, Device>::from_ptr(record.cast::<u64>()) };
    word.store((u64::from(k) << 32) | u64::from(k), Relaxed);
}

/// Reads the record: `(a, b)`.
///
/// # Safety
///
/// As `write_record`.
#[inline(always)]
unsafe fn read_record(record: *mut u32) -> (u32, u32) {
    // One `ld.relaxed.gpu.b64`: both halves of one store.
    // SAFETY: as in `write_record`.
    let word = unsafe { AtomicRef::<u64, Device>::from_ptr(record.cast::<u64>()) }.load(Relaxed);
    (word as u32, (word >> 32) as u32)
}

// ANCHOR_END: todo

/// The lab's `pitfall_record_one_word` with your two halves: block 0
/// writes, every other block reads and counts the torn reads.
///
/// # Launch
///
/// As `pitfalls --only torn-record` launches it: several blocks of any size
/// (only thread 0 of each works); `scratch` 8-byte aligned.
///
/// # Safety
///
/// `scratch` holds `layout::pitfall::RECORD_WORDS` zeroed words and `out`
/// `layout::pitfall::RECORD_COUNTERS`, both in global memory.
#[kernel(layout::pitfall::RECORD_PARAMS)]
pub unsafe fn record_one_word(scratch: *mut u32, out: *mut u32, rounds: u32) {
    // SAFETY: the launch above.
    unsafe { crate::record::stress(scratch, out, rounds, write_record, read_record) }
}
