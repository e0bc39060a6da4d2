//! Puzzle 14, `record-one-word`: a record of two fields that no reader sees
//! torn.
//!
//! One thread writes versions 1, 2, 3, ... of a record `{a, b}`, both
//! fields equal to the version, while threads of other blocks read it. Two
//! atomic stores, one a field, are each atomic, and the pair is not: a
//! reader can load `a` of one version and `b` of the next. "One atomic
//! operation does not make an entire data structure atomic." Make the whole
//! record one atomic access: both fields fit in one aligned 64-bit word,
//! which the hardware stores and loads whole.
//!
//! Check: `cargo xtask practice check record-one-word`.
//! Stuck: `cargo xtask practice hint record-one-word`.

#[allow(unused_imports)]
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
    // TODO: store `a` and `b` so that no reader can see one version's `a`
    // with another's `b`.
    let _ = (record, k);
}

/// Reads the record: `(a, b)`.
///
/// # Safety
///
/// As `write_record`.
#[inline(always)]
unsafe fn read_record(record: *mut u32) -> (u32, u32) {
    // TODO: load both fields as one version.
    let _ = record;
    (0, 1)
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
