//! Puzzle 10, `block-barrier`: the barrier whose group holds the dependency.
//!
//! Every thread writes its slot of a tile in shared memory, waits, reads the
//! slot of the same lane in the next warp, and waits again before the next
//! round overwrites its own slot; `rounds` times. As written, the waits are
//! warp barriers (`__syncwarp()`): they order the 32 lanes of one warp, and
//! the slot each thread reads belongs to another warp, which may still be a
//! round behind or already a round ahead. Use the barrier whose participants
//! include both the writer and the reader.
//!
//! Check: `cargo xtask practice check block-barrier`.
//! Stuck: `cargo xtask practice hint block-barrier`.

#[allow(unused_imports)]
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
        // TODO: this barrier must hold the writer of `tile[partner]`.
        // SAFETY: every lane of the warp runs every round.
        unsafe { warp::sync() };
        // SAFETY: `partner < block`, inside the tile.
        let seen = unsafe { tile.add(partner as usize).read_volatile() };
        wrong += u32::from(seen != crate::exchange::value(round, partner));
        // TODO: and this one the thread that overwrites `tile[partner]` next.
        // SAFETY: as above.
        unsafe { warp::sync() };
        // ANCHOR_END: todo
    }
    // SAFETY: `out` holds two words.
    unsafe { crate::exchange::report(out, wrong, rounds) };
}
