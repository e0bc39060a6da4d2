//! Puzzle 6, `deterministic-sum`: the same bits on every run, so a golden
//! `==` test holds.
//!
//! An atomic sum adds in the order the hardware picks, and float addition
//! is not associative: rerun it and the last bits may change, so a test
//! that compares its result with a golden value using `==` fails at random
//! (`host pitfalls --only golden-equality`). Fix the order instead: cut the
//! input into chunks of `CHUNK` floats, let one warp sum each chunk in a
//! pattern of its own (`chunk_sum`, given in `chunks.rs`), keep each chunk's sum in
//! `partials`, and let whoever finishes the last chunk add the partials in
//! chunk order. Which warp of which block sums a chunk, and when, then
//! never enters the arithmetic: the bits depend on `n` alone, not on the
//! grid, the block size or the schedule.
//!
//! Check: `cargo xtask practice check deterministic-sum`.
//! Stuck: `cargo xtask practice hint deterministic-sum`.

use layout::sum::deterministic::{CHUNK, Handoff};

use crate::chunks::chunk_sum;
#[allow(unused_imports)]
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
            // TODO: keep `sum` in `partials[chunk]`; take a ticket from
            // `handoff.ticket` (`fetch_add(1, Relaxed)`); the lane that draws
            // the last of `chunks` tickets adds `partials[0..chunks]` in
            // order into `*total`, and puts the ticket back to 0 for the
            // next launch. Then decide where fences must stand.
            let _ = (sum, total, partials, handoff);
            // ANCHOR_END: todo
        }
        chunk += warps;
    }
}
