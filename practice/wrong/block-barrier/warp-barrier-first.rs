//! Puzzle 10, a typical wrong answer: the block barrier only before the
//! next round's write; the read still waits only for its own warp.

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
        // SAFETY: every lane of the warp runs every round.
        unsafe { warp::sync() };
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
