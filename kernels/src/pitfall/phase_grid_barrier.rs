use layout::pitfall::{PHASE_HEADER_WORDS, PHASE_TIMEOUTS};

use super::phase_partials::{block_partial, combine};
use crate::order::{AcqRel, AtomicRef, Device, Relaxed, fence};
use crate::{shared, thread};

/// Sums `input[0..n]` into `out[0]` in one launch: partial sums, a grid-wide
/// barrier made of a counter, then block 0 adds the partials. Correct only
/// when every block of the grid is resident at once.
///
/// A grid barrier waits for blocks that may not have started. In an ordinary
/// launch of more blocks than fit on the device, the first wave spins for
/// blocks that can only start when the first wave leaves: a deadlock. The
/// driver's cooperative launch (`cuLaunchCooperativeKernel`) refuses a grid
/// that cannot be co-resident, and that is the only launch under which this
/// kernel is right. Here the spin gives up at `deadline_ns` and counts the
/// block in `scratch[1]`, so the ordinary launch shows the deadlock as
/// timeouts (and a wrong sum) instead of hanging.
///
/// # Launch
///
/// Any grid of a power-of-two `block`, with `block * 4` bytes of dynamic
/// shared memory: cooperatively, or ordinarily to see the failure. `scratch`
/// holds `PHASE_HEADER_WORDS + grid` zeroed words, `out` one.
///
/// # Thread mapping
///
/// Every thread adds its grid-stride share; the block's tree sum; thread 0
/// stores the block's partial in `scratch[PHASE_HEADER_WORDS + block]`, arrives (release
/// fence, relaxed add to `scratch[0]`) and spins until `scratch[0]` counts
/// the whole grid (relaxed loads, then an acquire fence) or the deadline
/// passes. Thread 0 of block 0 then adds the partials in block order.
///
/// # Safety
///
/// `input` must hold `n` values, `scratch` and `out` as above. In a launch
/// that is not co-resident, block 0 may give up and read the partials while
/// later blocks still write theirs: a data race in the PTX memory model's
/// terms, on whole 32-bit words, which is the failure the ordinary launch is
/// run to show.
#[kernel(layout::pitfall::GRID_BARRIER_PARAMS)]
pub unsafe fn pitfall_phase_grid_barrier(
    input: *const u32,
    n: usize,
    out: *mut u32,
    scratch: *mut u32,
    deadline_ns: u64,
) {
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
    // Release: the partial before the arrival, for whoever sees the count.
    fence(AcqRel, Device);
    // SAFETY: word 0 of `scratch` is the arrival counter.
    unsafe { AtomicRef::<u32, Device>::from_global(scratch).add(1, Relaxed) };
    // SAFETY: word 0 is the counter, written only by atomics.
    let arrived = unsafe { AtomicRef::<u32, Device>::from_ptr(scratch) };
    let start = thread::global_timer_ns();
    while arrived.load(Relaxed) < grid {
        if thread::global_timer_ns().wrapping_sub(start) > deadline_ns {
            // SAFETY: the header's timeout word counts the blocks that gave up.
            unsafe { AtomicRef::<u32, Device>::from_global(scratch.add(PHASE_TIMEOUTS)).add(1, Relaxed) };
            break;
        }
    }
    // Acquire: every partial whose arrival the count showed.
    fence(AcqRel, Device);
    if block == 0 {
        // SAFETY: one partial per block of the grid, and one output word.
        unsafe { combine(partials, grid, out) };
    }
}
