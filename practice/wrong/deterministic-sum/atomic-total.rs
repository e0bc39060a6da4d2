//! Puzzle 6, a typical wrong answer: the chunk sums are fixed, and then
//! added to the total by a float atomic, in the order the hardware picks.

use layout::sum::deterministic::{CHUNK, Handoff};

use crate::chunks::chunk_sum;
use device::order::{AtomicRef, Device, Relaxed};
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
            // Wrong on purpose: every chunk's sum added to the total by a
            // float atomic, in whatever order the warps finish.
            // SAFETY: `total` is one float in global memory.
            let all = unsafe { AtomicRef::<f32, Device>::from_global(total) };
            all.add(sum, Relaxed);
            let _ = (partials, handoff, chunks);
            // ANCHOR_END: todo
        }
        chunk += warps;
    }
}
