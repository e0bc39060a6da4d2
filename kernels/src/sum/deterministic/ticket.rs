//! The launch's one `u32` ticket (the [`Handoff`]'s `ticket` field), which
//! finds the last block on the two routes of more than one block: a *start*
//! ticket on the handoff route, a *finish* ticket on the ticket route. The
//! block that draws the last one stores the result and resets the ticket to
//! 0, so every launch leaves it as it found it.

#[cfg(doc)]
use layout::sum::deterministic::Handoff;

use crate::order::{AcqRel, AtomicRef, Device, Relaxed, fence};
use crate::thread;

/// The handoff route's start ticket, taken by thread 0 of each block before
/// any load: the ticket's value before the increment, `grid - 1` in the
/// block that starts last.
///
/// It is taken before any load, so the atomic's round trip (to DRAM, with a
/// cold L2) overlaps the block's own reads. An `inc` that wraps at
/// `grid - 1`, not an add of 1: `ptxas` warp-aggregates an add (and an `inc`
/// with no wrap, which is one) and shuffles its result at once, which holds
/// warp 0's loads back for the round trip. The last ticket wraps the counter
/// back to 0.
///
/// # Safety
///
/// `ticket` is a global `u32` by
/// [`sum_deterministic`](super::sum_deterministic)'s contract.
#[inline(always)]
pub(super) unsafe fn take_start(ticket: *mut u32, grid: u32) -> u32 {
    // SAFETY: forwarded.
    let ticket = unsafe { AtomicRef::<u32, Device>::from_global(ticket) };
    ticket.fetch_inc(grid - 1, Relaxed)
}

/// The ticket route's step 2: every thread that stored a partial fences, then
/// thread 0 takes a finish ticket for the whole block, and the block learns
/// whether it drew the last one (`true` in every thread of that block).
///
/// # Safety
///
/// The whole block calls it, after each of its lane 0s stored its partials
/// (`stored` says whether this thread did); `ticket` as in
/// [`take_start`].
#[inline(always)]
pub(super) unsafe fn last_to_finish(ticket: *mut u32, stored: bool, tid: u32, grid: u32) -> bool {
    // Release side: order this thread's partial stores before
    // anything it or its block does next, at device scope.
    if stored {
        fence(AcqRel, Device);
    }
    let mut last = false;
    // A barrier first: thread 0 takes the ticket for the whole block,
    // after every lane 0 of it has fenced.
    // SAFETY: reached by every thread of the block.
    unsafe { thread::sync_threads() };
    if tid == 0 {
        // SAFETY: `ticket` is a global u32 by the contract.
        let ticket = unsafe { AtomicRef::<u32, Device>::from_global(ticket) };
        last = ticket.fetch_add(1, Relaxed) == grid - 1;
        if last {
            // Acquire side: every other block fenced before its
            // ticket.
            fence(AcqRel, Device);
        }
    }
    // SAFETY: reached by every thread of the block.
    unsafe { thread::sync_threads_or(last) }
}

/// Stores the result and resets the ticket, by the one thread that holds the
/// result.
///
/// # Safety
///
/// `total` and `ticket` are global by
/// [`sum_deterministic`](super::sum_deterministic)'s contract, and the
/// caller's block drew the last ticket (or is the grid's only block).
#[inline(always)]
pub(super) unsafe fn finish(total: *mut f32, result: f32, ticket: *mut u32) {
    // SAFETY: forwarded. The reset is a strong store: every other block's
    // ticket precedes it (this block drew the last one), so it is the
    // ticket's final value in this launch.
    unsafe {
        total.write(result);
        AtomicRef::<u32, Device>::from_ptr(ticket).store(0, Relaxed);
    }
}
