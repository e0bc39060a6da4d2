//! What puzzle 10's threads write and how they report; this file is not a
//! puzzle.

use layout::pitfall::{EXCHANGE_READS, EXCHANGE_WRONG};

use device::order::{AtomicRef, Device, Relaxed};

/// What thread `tid` writes in round `round`: unique to both, so a reader
/// can tell a partner's value of this round from one of another round.
#[inline(always)]
pub fn value(round: u32, tid: u32) -> u32 {
    (round << 10) | tid
}

/// Adds a thread's wrong reads and its reads to the launch's two counters.
///
/// # Safety
///
/// `out` holds the two words in global memory.
#[inline(always)]
pub unsafe fn report(out: *mut u32, wrong: u32, reads: u32) {
    // SAFETY: the caller's two global words.
    unsafe {
        AtomicRef::<u32, Device>::from_global(out.add(EXCHANGE_WRONG)).add(wrong, Relaxed);
        AtomicRef::<u32, Device>::from_global(out.add(EXCHANGE_READS)).add(reads, Relaxed);
    }
}
