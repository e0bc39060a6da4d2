//! One exchange through shared memory, four ways: the partner in the same
//! warp or the next, the phases ordered by the warp barrier or the block's.

use layout::pitfall::{EXCHANGE_READS, EXCHANGE_WRONG};

use crate::order::{AtomicRef, Device, Relaxed};
use crate::{shared, thread, warp};

/// What thread `tid` writes in round `round`: unique to both, so a reader
/// can tell a partner's value of this round from one of an earlier round.
#[inline(always)]
fn value(round: u32, tid: u32) -> u32 {
    (round << 10) | tid
}

/// Writes, barrier, reads the partner's slot and checks it, barrier: `rounds`
/// times. Counts the wrong reads into `out[EXCHANGE_WRONG]` and the reads
/// into `out[EXCHANGE_READS]`.
///
/// The second barrier protects the read from the partner's next write (a
/// write-after-read hazard). With the warp barrier the two phases are
/// ordered only among the 32 lanes of one warp: enough when the partner is
/// lane `31 - lane` of the same warp, not when it is the same lane of the
/// next warp, which may still be in the previous round or already in the
/// next.
///
/// # Safety
///
/// The launch must provide `block * 4` bytes of shared memory, `block` a
/// multiple of 64 and at most 1024; `out` must hold two words. Every thread
/// reaches every barrier.
#[inline(always)]
unsafe fn exchange<const BLOCK_BARRIER: bool, const OTHER_WARP: bool>(out: *mut u32, rounds: u32) {
    let local = shared::dynamic_shared::<u32>();
    let tid = thread::thread_idx_x();
    let block = thread::block_dim_x();
    let partner = if OTHER_WARP { (tid + warp::WARP_SIZE) % block } else { tid ^ (warp::WARP_SIZE - 1) };
    let barrier = || {
        if BLOCK_BARRIER {
            // SAFETY: every thread of the block runs every round.
            unsafe { thread::sync_threads() }
        } else {
            // SAFETY: every lane of the warp runs every round.
            unsafe { warp::sync() }
        }
    };
    let mut wrong = 0u32;
    for round in 0..rounds {
        // SAFETY: `tid < block`, inside the tile.
        unsafe { local.add(tid as usize).write_volatile(value(round, tid)) };
        barrier();
        // SAFETY: `partner < block`, inside the tile. Volatile so that each
        // round reads the tile, not a register the compiler kept.
        let seen = unsafe { local.add(partner as usize).read_volatile() };
        wrong += u32::from(seen != value(round, partner));
        barrier();
    }
    // SAFETY: `out` holds two words, by the contract.
    unsafe {
        AtomicRef::<u32, Device>::from_global(out.add(EXCHANGE_WRONG)).add(wrong, Relaxed);
        AtomicRef::<u32, Device>::from_global(out.add(EXCHANGE_READS)).add(rounds, Relaxed);
    }
}

/// Each lane reads lane `31 - lane` of its own warp, phases ordered by
/// `bar.warp.sync`: correct, because no dependency crosses the warp.
///
/// # Launch
///
/// Any grid of `block` threads (a multiple of 64, at most 1024), with
/// `block * 4` bytes of dynamic shared memory; `out` two zeroed words.
///
/// # Thread mapping
///
/// Thread `t` writes slot `t` and reads slot `t ^ 31`, `rounds` times.
///
/// # Safety
///
/// As the launch says.
#[kernel(layout::pitfall::ROUNDS_PARAMS)]
pub unsafe fn pitfall_warp_sync_same_warp(out: *mut u32, rounds: u32) {
    // SAFETY: forwarded.
    unsafe { exchange::<false, false>(out, rounds) }
}

/// Each thread reads the same lane of the next warp, phases ordered only by
/// `bar.warp.sync`: **broken**, the dependency crosses the warp and the warp
/// barrier does not wait for the other warp.
///
/// # Launch
///
/// As [`pitfall_warp_sync_same_warp`].
///
/// # Thread mapping
///
/// Thread `t` writes slot `t` and reads slot `(t + 32) % block`, `rounds`
/// times.
///
/// # Safety
///
/// As the launch says. The reads race with the other warp's writes by
/// design; a race on a `u32` in shared memory reads one whole value or
/// another.
#[kernel(layout::pitfall::ROUNDS_PARAMS)]
pub unsafe fn pitfall_warp_sync_other_warp(out: *mut u32, rounds: u32) {
    // SAFETY: forwarded.
    unsafe { exchange::<false, true>(out, rounds) }
}

/// Each thread reads the same lane of the next warp, phases ordered by the
/// block barrier: the fix of [`pitfall_warp_sync_other_warp`].
///
/// # Launch
///
/// As [`pitfall_warp_sync_same_warp`].
///
/// # Thread mapping
///
/// As [`pitfall_warp_sync_other_warp`].
///
/// # Safety
///
/// As the launch says.
#[kernel(layout::pitfall::ROUNDS_PARAMS)]
pub unsafe fn pitfall_block_sync_other_warp(out: *mut u32, rounds: u32) {
    // SAFETY: forwarded.
    unsafe { exchange::<true, true>(out, rounds) }
}

/// Each lane reads lane `31 - lane` of its own warp, phases ordered by the
/// block barrier: correct, but every warp waits for warps it does not
/// depend on. Timed beside [`pitfall_warp_sync_same_warp`], it is the price
/// of the wider barrier.
///
/// # Launch
///
/// As [`pitfall_warp_sync_same_warp`].
///
/// # Thread mapping
///
/// As [`pitfall_warp_sync_same_warp`].
///
/// # Safety
///
/// As the launch says.
#[kernel(layout::pitfall::ROUNDS_PARAMS)]
pub unsafe fn pitfall_block_sync_same_warp(out: *mut u32, rounds: u32) {
    // SAFETY: forwarded.
    unsafe { exchange::<true, false>(out, rounds) }
}
