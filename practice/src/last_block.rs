//! Puzzle 11, `last-block`: a device-wide sum in one launch, combined by the
//! last block to finish.
//!
//! Every block computes its partial sum. No barrier waits for the whole
//! grid (blocks that are not resident yet cannot arrive), so instead each
//! block leaves its partial in `scratch` and takes a ticket from a counter;
//! the block that draws the last ticket knows every other block has
//! finished and adds the partials in block order. Nobody waits, so any grid
//! works. What makes it correct is order: each partial must be visible to
//! the last block before its ticket is, and the last block's reads of the
//! partials must come after its ticket. (CUDA's `threadFenceReduction`
//! sample, with today's fences.)
//!
//! Check: `cargo xtask practice check last-block`.
//! Stuck: `cargo xtask practice hint last-block`.

use layout::pitfall::PHASE_HEADER_WORDS;

#[allow(unused_imports)]
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
    // TODO: write `partial` to `partials[block]`; take a ticket with
    // `fetch_add(1, Relaxed)` on the counter at `scratch` (word 0); if it is
    // the last (`ticket + 1 == grid`), add `partials[0..grid]` in order and
    // write the total to `*out`. Then put a fence where each side needs one.
    let _ = (partial, block, grid, partials, out);
    // ANCHOR_END: todo
}
