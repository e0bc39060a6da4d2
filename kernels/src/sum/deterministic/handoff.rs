//! The handoff route, for launches of up to [`HANDOFF_CHUNKS`] chunks: each
//! chunk's sum travels with its flag in one 64-bit slot of the [`Handoff`],
//! and the last block to start gathers the slots into shared memory and adds
//! them there. No fence is needed: the sum and its flag are one word, read
//! whole (single-copy atomicity), so there is no *other* data to publish.

use layout::sum::deterministic::{FULL, MAX_SEGMENTS, SEGMENT};
#[cfg(doc)]
use layout::sum::deterministic::{HANDOFF_CHUNKS, Handoff};

use super::addition_order::{Quads, lane_sum};
use super::combine::Quad;
use super::ticket;
use crate::order::{AtomicRef, Device, Relaxed};
use crate::{shared, thread, warp};

/// Handoff slots one thread of the combining block loads at once.
const GATHER: usize = 8;

/// A whole segment of chunk sums in shared memory, zeros past the last chunk
/// (the handoff route's gather writes it so): every quad is one aligned
/// `ld.shared.v4.f32`, with no bound to test.
struct SharedSegment {
    /// 16-byte aligned, in shared memory, [`SEGMENT`] floats.
    sums: *const f32,
}

impl Quads<{ SEGMENT / 4 }> for SharedSegment {
    #[inline(always)]
    unsafe fn quad(&self, q: usize) -> [f32; 4] {
        // SAFETY: `q < SEGMENT / 4`, and `sums` is 16-byte aligned.
        unsafe { (self.sums.add(4 * q) as *const Quad).read().0 }
    }
}

/// The handoff route's step 2 and 3: the block that drew the last start
/// ticket gathers every chunk's slot into a whole segment of shared memory
/// (chunk sums, then zeros), resets the slots, and warp 0 adds the segment
/// in the documented order; every other block returns at once.
///
/// # Safety
///
/// The whole block calls it, after each of its chunk sums went to its slot
/// ([`Sink::deliver`](super::route::Sink::deliver)); `slots` are the
/// [`Handoff`]'s, `chunks <= HANDOFF_CHUNKS`; `started` is thread 0's start
/// ticket ([`ticket::take_start`]) and 0 in every other thread; `total` and
/// `ticket` as in [`sum_deterministic`](super::sum_deterministic)'s contract.
/// The block mode's last reads of shared memory come before the barrier this
/// function begins with, so the gather may overwrite its buffers.
#[inline(always)]
pub(super) unsafe fn combine(
    slots: *mut u64,
    chunks: u32,
    started: u32,
    grid: u32,
    total: *mut f32,
    ticket: *mut u32,
    tid: u32,
) {
    let lane = tid % warp::WARP_SIZE;
    // SAFETY: reached by every thread of the block.
    if !unsafe { thread::sync_threads_or(tid == 0 && started == grid - 1) } {
        return;
    }
    // The last block to start: every other block is running, and
    // none waits for anything, so every slot will fill.
    let gathered = shared::dynamic_shared::<f32>().wrapping_add(MAX_SEGMENTS);
    let stride = thread::block_dim_x();
    let mut first = tid;
    // The whole segment, chunk sums and then zeros: the combine below
    // reads it in whole quads, with no bounds to test.
    while first < SEGMENT as u32 {
        // Thread `t` takes slots `t, t + block, ...`, up to `GATHER` of
        // them per pass, and loads them all before it waits on any, so the
        // slots of blocks that have already finished arrive in one round
        // trip to L2 rather than one each.
        let words: [u64; GATHER] = core::array::from_fn(|j| {
            let chunk = first + j as u32 * stride;
            if chunk < chunks {
                // SAFETY: `chunk < chunks <= HANDOFF_CHUNKS`, a slot of the
                // `Handoff`.
                unsafe { AtomicRef::<u64, Device>::from_ptr(slots.add(chunk as usize)) }.load(Relaxed)
            } else {
                FULL
            }
        });
        // An index loop: the array's by-value iterator would live in
        // local memory.
        #[allow(clippy::needless_range_loop)]
        for j in 0..GATHER {
            let chunk = first + j as u32 * stride;
            if chunk >= SEGMENT as u32 {
                break;
            }
            // SAFETY: `chunk < SEGMENT`, inside the second 4096 bytes;
            // each slot below `chunks` is read and reset by one thread.
            unsafe {
                let value = if chunk < chunks {
                    let slot = AtomicRef::<u64, Device>::from_ptr(slots.add(chunk as usize));
                    let mut word = words[j];
                    while word & FULL == 0 {
                        word = slot.load(Relaxed);
                    }
                    slot.store(0, Relaxed);
                    // Single-copy atomicity: the low half is the sum that
                    // was stored with the flag, never an older value.
                    f32::from_bits(word as u32)
                } else {
                    0.0
                };
                gathered.add(chunk as usize).write(value);
            }
        }
        first += GATHER as u32 * stride;
    }
    // SAFETY: the whole block took this branch (the verdict is per
    // block).
    unsafe { thread::sync_threads() };
    // One segment (at most `HANDOFF_CHUNKS = SEGMENT` chunks): as in
    // `combine`, its sum plus `+0.0` is the result bit for bit.
    if tid < warp::WARP_SIZE {
        // SAFETY: all of warp 0 is here; the segment is whole in shared
        // memory.
        let sum = unsafe { lane_sum(&SharedSegment { sums: gathered }, lane) };
        if tid == 0 {
            // SAFETY: this block drew the last start ticket.
            unsafe { ticket::finish(total, sum + 0.0, ticket) };
        }
    }
}
