//! Puzzle 11, a typical wrong answer: a fence, after the ticket instead of
//! before it, so the partial is not ordered before the ticket.

use layout::pitfall::PHASE_HEADER_WORDS;

use device::order::{AcqRel, AtomicRef, Device, Relaxed, fence};
use device::{shared, thread};

/// Sums `input[0..n]` into `out[0]`: partial sums, then the last block to
/// take a ticket adds them.
///
/// # Launch
///
/// Any grid of a power-of-two `block`, `block * 4` bytes of dynamic shared
/// memory; `scratch` holds `PHASE_HEADER_WORDS + grid` zeroed words (word 0
/// the ticket counter, the partials after the header), `out` one.
///
/// # Safety
///
/// `input` holds `n` values, `scratch` and `out` as above, in global memory.
#[kernel(layout::pitfall::SCRATCH_PARAMS)]
pub unsafe fn last_block(input: *const u32, n: usize, out: *mut u32, scratch: *mut u32) {
    let tile = shared::dynamic_shared::<u32>();
    // SAFETY: every thread of the block calls it, with the launch's tile.
    let partial = unsafe { crate::tree::block_partial(input, n, tile) };
    if thread::thread_idx_x() != 0 {
        return;
    }
    let (block, grid) = (thread::block_idx_x() as usize, thread::grid_dim_x());
    let partials = scratch.wrapping_add(PHASE_HEADER_WORDS);
    // ANCHOR: todo
    // SAFETY: `scratch` holds the header and one partial per block.
    unsafe { partials.add(block).write(partial) };
    // SAFETY: word 0 of `scratch` is the ticket counter.
    let counter = unsafe { AtomicRef::<u32, Device>::from_global(scratch) };
    let ticket = counter.fetch_add(1, Relaxed);
    if ticket + 1 == grid {
        // One fence, after the ticket.
        fence(AcqRel, Device);
        let mut total = 0u32;
        for b in 0..grid as usize {
            // SAFETY: `b < grid`, inside the partials; a relaxed load, since
            // the blocks that wrote them are done.
            let word = unsafe { AtomicRef::<u32, Device>::from_ptr(partials.add(b)) };
            total = total.wrapping_add(word.load(Relaxed));
        }
        // SAFETY: `out` holds one word.
        unsafe { out.write(total) };
    }
    // ANCHOR_END: todo
}
