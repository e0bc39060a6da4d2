//! Puzzle 10, `block-barrier`: a solution.

use device::{shared, thread, warp};

/// Exchanges a value with the same lane of the next warp, `rounds` times,
/// counting the reads that did not see the partner's value of that round.
///
/// # Launch
///
/// Any grid of `block` threads (a multiple of 64, at most 1024), `block * 4`
/// bytes of dynamic shared memory; `out` holds two zeroed words.
///
/// # Safety
///
/// As the launch says.
#[kernel(layout::pitfall::ROUNDS_PARAMS)]
pub unsafe fn block_barrier(out: *mut u32, rounds: u32) {
    let tile = shared::dynamic_shared::<u32>();
    let tid = thread::thread_idx_x();
    let partner = (tid + warp::WARP_SIZE) % thread::block_dim_x();
    let mut wrong = 0;
    for round in 0..rounds {
        // ANCHOR: todo
        // SAFETY: `tid < block`, inside the tile.
        unsafe { tile.add(tid as usize).write_volatile(crate::exchange::value(round, tid)) };
        // The partner is in another warp: only the block barrier waits for
        // its write.
        // SAFETY: every thread of the block runs every round.
        unsafe { thread::sync_threads() };
        // SAFETY: `partner < block`, inside the tile.
        let seen = unsafe { tile.add(partner as usize).read_volatile() };
        wrong += u32::from(seen != crate::exchange::value(round, partner));
        // The partner's warp overwrites its slot next round: wait for every
        // reader of this round first (a write-after-read hazard).
        // SAFETY: as above.
        unsafe { thread::sync_threads() };
        // ANCHOR_END: todo
    }
    // SAFETY: `out` holds two words.
    unsafe { crate::exchange::report(out, wrong, rounds) };
}
