//! The protocol every `system` kernel runs, with the flag operation left as
//! a parameter: the kernels of one direction differ in nothing else.

pub use layout::publish::Counts;
pub use layout::system::Record;

use crate::order::{AtomicRef, Device, LoadOrdering, Relaxed, Scope, StoreOrdering};
use crate::{thread, warp};

/// Threads in the grid: the stride of the slot loop.
#[inline(always)]
fn grid_threads() -> usize {
    thread::grid_dim_x() as usize * thread::block_dim_x() as usize
}

// ANCHOR: produce
/// The GPU producer: for each of this thread's slots (`index_1d()`, then
/// every grid's width further on), the round's [`Record`] with ordinary
/// stores, then `flag.store(round, order)`, the flag an [`AtomicRef`] at
/// scope `S`.
///
/// The record's four stores are plain `st`: only the flag's scope and
/// ordering decide whether a host thread that reads the flag also reads
/// them. The flag store's asm
/// clobbers memory, so the compiler keeps the record's stores before it, and
/// only the hardware's ordering is tested.
///
/// # Safety
///
/// `records` and `flags` must each hold `slots` elements in memory the
/// device can write (mapped host memory here).
#[inline(always)]
pub unsafe fn produce<S: Scope>(
    order: impl StoreOrdering<u32, S>,
    records: *mut Record,
    flags: *mut u32,
    slots: u32,
    round: u32,
) {
    let mut i = thread::index_1d();
    while i < slots as usize {
        let record = Record::expected(round, i as u32);
        // SAFETY: `i < slots`, and the caller guarantees `slots` records and
        // flags. Each word is one aligned `u32` of the record.
        unsafe {
            let flag = AtomicRef::<u32, S>::from_ptr(flags.add(i));
            let words = (&raw mut (*records.add(i)).words).cast::<u32>();
            for (k, word) in record.words.iter().enumerate() {
                words.add(k).write(*word);
            }
            flag.store(round, order);
        }
        i += grid_threads();
    }
}
// ANCHOR_END: produce

/// Spins on `flag.load(order)` until it reads `round` (true) or the global
/// timer passes `deadline` (false).
#[inline(always)]
fn wait<S: Scope>(flag: AtomicRef<u32, S>, order: impl LoadOrdering<u32, S>, round: u32, deadline: u64) -> bool {
    loop {
        if flag.load(order) == round {
            return true;
        }
        if thread::global_timer_ns() > deadline {
            return false;
        }
    }
}

/// `value` summed over the warp, in every lane.
///
/// # Safety
///
/// All 32 lanes of the warp must call it together.
#[inline(always)]
unsafe fn warp_sum(mut value: u32) -> u32 {
    let mut mask = 16;
    while mask > 0 {
        // SAFETY: the caller guarantees the whole warp is here.
        value = value.wrapping_add(unsafe { warp::shfl_xor_u32(value, mask) });
        mask /= 2;
    }
    value
}

// ANCHOR: consume
/// The GPU consumer: for each of this thread's slots, wait until
/// `flag.load(order)` reads `round`, the flag an [`AtomicRef`] at scope `S`
/// (or until the deadline, `budget_ns` after this thread started, passes: a
/// timeout), then read the record with ordinary loads and count it stale unless every word is [`Record::expected`]. The warp's
/// counts are summed with shuffles and lane 0 adds them to `totals`, three
/// atomics a warp instead of three a thread.
///
/// # Safety
///
/// `records` and `flags` must each hold `slots` elements the device can read,
/// and `totals` one [`Counts`] in global memory; every block must be a whole
/// number of warps (the shuffles need all 32 lanes).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub unsafe fn consume<S: Scope>(
    order: impl LoadOrdering<u32, S>,
    records: *const Record,
    flags: *const u32,
    slots: u32,
    round: u32,
    budget_ns: u64,
    totals: *mut Counts,
) {
    let deadline = thread::global_timer_ns() + budget_ns;
    let mut counts = Counts::default();
    let mut i = thread::index_1d();
    while i < slots as usize {
        // SAFETY: `i < slots`, the flags the caller provided; the flag is
        // only loaded.
        let flag = unsafe { AtomicRef::<u32, S>::from_ptr(flags.add(i).cast_mut()) };
        if wait(flag, order, round, deadline) {
            let mut seen = Record::default();
            // SAFETY: as above, for the records. The loads come after
            // `wait`'s flag load in program order, and its asm clobbers
            // memory, so the compiler does not move them above it.
            unsafe {
                let words = (&raw const (*records.add(i)).words).cast::<u32>();
                for (k, word) in seen.words.iter_mut().enumerate() {
                    *word = words.add(k).read();
                }
            }
            counts.pairs += 1;
            counts.stale += u32::from(seen != Record::expected(round, i as u32));
        } else {
            counts.timeouts += 1;
        }
        i += grid_threads();
    }
    // SAFETY: every lane reaches this point (no lane returns early, and the
    // caller guarantees whole warps); `.sync` reconverges them.
    let (pairs, stale, timeouts) =
        unsafe { (warp_sum(counts.pairs), warp_sum(counts.stale), warp_sum(counts.timeouts)) };
    if thread::thread_idx_x().is_multiple_of(layout::WARP_SIZE) {
        // SAFETY: the caller guarantees a global `Counts`; each field is a u32.
        unsafe {
            AtomicRef::<u32, Device>::from_global(&raw mut (*totals).pairs).add(pairs, Relaxed);
            AtomicRef::<u32, Device>::from_global(&raw mut (*totals).stale).add(stale, Relaxed);
            AtomicRef::<u32, Device>::from_global(&raw mut (*totals).timeouts).add(timeouts, Relaxed);
        }
    }
}
// ANCHOR_END: consume
