//! Puzzle 6, `deterministic-sum`: a solution.

use layout::sum::deterministic::{CHUNK, Handoff};

use crate::chunks::chunk_sum;
use device::order::{AcqRel, AtomicRef, Device, Relaxed, fence};
use device::{thread, warp};

/// Sums `input[0..n]` into `*total` in an order fixed by `n` alone.
///
/// # Launch
///
/// As the lab's `sum_deterministic` is launched: any grid of `block`
/// threads, a multiple of 32; `partials` holds `ceil(n / CHUNK)` floats and
/// `handoff` one `Handoff`, zero before the first launch, and each launch
/// must leave `handoff.ticket` zero for the next.
///
/// # Safety
///
/// As the launch says; `input` holds `n` floats and `total` one, all in
/// global memory.
#[kernel(layout::sum::CHUNK_PARTIALS_PARAMS)]
pub unsafe fn deterministic_sum(
    input: *const f32,
    total: *mut f32,
    n: usize,
    partials: *mut f32,
    handoff: *mut Handoff,
) {
    let lane = thread::thread_idx_x() % warp::WARP_SIZE;
    let warps = (thread::grid_dim_x() * thread::block_dim_x() / warp::WARP_SIZE) as usize;
    let chunks = n.div_ceil(CHUNK);
    // Warp `w` of the grid sums chunks `w`, `w + warps`, ...
    let mut chunk = thread::index_1d() / warp::WARP_SIZE as usize;
    while chunk < chunks {
        // SAFETY: the whole warp is here, with one `chunk`.
        let sum = unsafe { chunk_sum(input, n, chunk) };
        if lane == 0 {
            // ANCHOR: todo
            // SAFETY: `chunk < chunks`, one partial a chunk.
            unsafe { partials.add(chunk).write(sum) };
            // A release fence: this partial is ordered before the ticket for
            // the lane that draws the last one.
            fence(AcqRel, Device);
            // SAFETY: the ticket is a word of the caller's `Handoff`.
            let word = unsafe { &raw mut (*handoff).ticket };
            // SAFETY: as above; the ticket is only ever accessed atomically.
            let ticket = unsafe { AtomicRef::<u32, Device>::from_global(word) };
            if ticket.fetch_add(1, Relaxed) as usize + 1 == chunks {
                // An acquire fence: every partial whose ticket came first is
                // visible to the loads below.
                fence(AcqRel, Device);
                let mut all = 0.0f32;
                for c in 0..chunks {
                    // SAFETY: `c < chunks`, one partial a chunk.
                    all += unsafe { partials.add(c).read() };
                }
                // SAFETY: `total` is one float.
                unsafe { total.write(all) };
                // Every chunk has drawn its ticket: put the count back for
                // the next launch.
                // SAFETY: as above.
                unsafe { AtomicRef::<u32, Device>::from_ptr(word) }.store(0, Relaxed);
            }
            // ANCHOR_END: todo
        }
        chunk += warps;
    }
}
