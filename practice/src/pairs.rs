//! The lab's cross-block publication around your protocol (puzzles 15, 16
//! and 19): the launch and the stress of `publish --variant grid-release-acquire`
//! (and `cluster-global-release-acquire`, the same protocol in clusters), with
//! your `produce_record` and `consume_record` as its two roles. Thread 0 of
//! block `2p` publishes `rounds` records to thread 0 of block `2p + 1`, one
//! global [`Slot`] a round; the consumer counts the records it read stale.
//! This file is not a puzzle.

use layout::publish::{Counts, Payload, Slot};

use device::order::{AtomicRef, Device, Relaxed};
use device::{global, thread};

use crate::page::{Consume, Produce};

/// What the lab's runner varies to give a stale read its chances: where each
/// round's flag sits, whether the consumer reads the payload once before it
/// waits, and how long the producer waits before each round
/// (`publish --flag`, `--preload`, `--delay-ns`).
#[derive(Clone, Copy)]
pub struct Stress {
    /// 0: each round's flag is its own slot's `ready`; otherwise the `ready`
    /// of the slot this many further on (mod the slots), in another line.
    pub flag_apart: u32,
    /// 1: the consumer reads the payload's line once before it waits.
    pub preload: u32,
    /// Nanoseconds the producer waits before each round.
    pub delay_ns: u32,
}

/// The cross-block protocol, `rounds` times, with `produce` and `consume`
/// as the roles.
///
/// # Safety
///
/// `slots` holds `gridDim.x / 2 * rounds` zeroed slots, `observed`
/// `gridDim.x / 2` payloads and `totals` one [`Counts`], all in global
/// memory; the grid is even and fits on the device at once.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub unsafe fn across_blocks(
    slots: *mut Slot,
    rounds: u32,
    budget_ns: u64,
    stress: Stress,
    observed: *mut Payload,
    totals: *mut Counts,
    produce: Produce,
    consume: Consume,
) {
    if thread::thread_idx_x() != 0 {
        return;
    }
    let block = thread::block_idx_x() as usize;
    let pair = block / 2;
    let total = thread::grid_dim_x() as usize / 2 * rounds as usize;
    // Round `r`'s payload and flag: adding `flag_apart` mod the slot count
    // gives every slot's `ready` to exactly one round.
    let round = |r: usize| {
        let i = pair * rounds as usize + r;
        let j = if total == 0 { i } else { (i + stress.flag_apart as usize) % total };
        // SAFETY: `i` and `j` are below `total`, the caller's slots.
        unsafe { (&raw mut (*slots.add(i)).payload, &raw mut (*slots.add(j)).ready) }
    };
    if block.is_multiple_of(2) {
        for r in 0..rounds as usize {
            let until = thread::global_timer_ns() + u64::from(stress.delay_ns);
            while thread::global_timer_ns() < until {}
            let (payload, ready) = round(r);
            // SAFETY: this pair's slot of round `r`.
            unsafe { produce(payload, ready) };
        }
        return;
    }
    let deadline = thread::global_timer_ns() + budget_ns;
    let mut counts = Counts::default();
    let mut last = Payload::EMPTY;
    for r in 0..rounds as usize {
        let (payload, ready) = round(r);
        if stress.preload != 0 {
            // A weak `ld.global` of the payload's line leaves a copy in this
            // SM's L1; `keep_live` keeps ptxas from deleting the load.
            // SAFETY: a live global slot, and this pair's `observed` entry as
            // the sink (never written: an id is 0 or 42).
            unsafe {
                let id = global::load_b32(global::to_global(payload.cast()));
                global::keep_live(id, global::to_global(observed.add(pair).cast()));
            }
        }
        // SAFETY: this pair's slot of round `r`.
        match unsafe { consume(payload, ready, deadline) } {
            Some(seen) => {
                counts.pairs += 1;
                counts.stale += u32::from(seen != Payload::PUBLISHED);
                last = seen;
            }
            None => counts.timeouts += 1,
        }
    }
    // SAFETY: one `observed` payload per pair and one global `Counts`.
    unsafe {
        observed.add(pair).write(last);
        AtomicRef::<u32, Device>::from_global(&raw mut (*totals).pairs).add(counts.pairs, Relaxed);
        AtomicRef::<u32, Device>::from_global(&raw mut (*totals).stale).add(counts.stale, Relaxed);
        AtomicRef::<u32, Device>::from_global(&raw mut (*totals).timeouts).add(counts.timeouts, Relaxed);
    }
}
