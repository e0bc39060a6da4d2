use layout::pitfall::PHASE_HEADER_WORDS;

use super::phase_partials::{block_partial, combine};
use crate::order::{AcqRel, AtomicRef, Device, Relaxed, fence};
use crate::{shared, thread};

/// Sums `input[0..n]` into `out[0]` in one ordinary launch: partial sums,
/// then the last block to take a ticket adds them. The deterministic sum's
/// hand-off, on integers.
///
/// No block waits for another. Each publishes its partial (release fence,
/// then the ticket, a relaxed atomic increment) and leaves; the block that
/// draws the last ticket knows every other partial was published before its
/// ticket (acquire fence after it) and adds them. It needs no co-residency,
/// so any grid is fine.
///
/// # Launch
///
/// Any grid of a power-of-two `block`, with `block * 4` bytes of dynamic
/// shared memory; `scratch` holds `PHASE_HEADER_WORDS + grid` zeroed words,
/// `out` one.
///
/// # Thread mapping
///
/// As `pitfall_phase_grid_barrier`, with the ticket instead of the barrier:
/// thread 0 of the last block adds the partials in block order.
///
/// # Safety
///
/// `input` must hold `n` values, `scratch` and `out` as above.
#[kernel(layout::pitfall::SCRATCH_PARAMS)]
pub unsafe fn pitfall_phase_ticket(input: *const u32, n: usize, out: *mut u32, scratch: *mut u32) {
    let local = shared::dynamic_shared::<u32>();
    // SAFETY: forwarded; every thread of the block calls it.
    let partial = unsafe { block_partial(input, n, local) };
    if thread::thread_idx_x() != 0 {
        return;
    }
    let (block, grid) = (thread::block_idx_x() as usize, thread::grid_dim_x());
    let partials = scratch.wrapping_add(PHASE_HEADER_WORDS);
    // SAFETY: `scratch` holds the header and one partial per block.
    unsafe { partials.add(block).write(partial) };
    fence(AcqRel, Device);
    // SAFETY: word 0 of `scratch` is the ticket counter.
    let ticket = unsafe { AtomicRef::<u32, Device>::from_global(scratch).fetch_add(1, Relaxed) };
    if ticket + 1 == grid {
        fence(AcqRel, Device);
        // SAFETY: one partial per block of the grid, and one output word.
        unsafe { combine(partials, grid, out) };
    }
}
