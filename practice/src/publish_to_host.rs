//! Puzzle 18, `publish-to-host`: a publication from the GPU to a CPU thread.
//!
//! Each thread of the grid fills records in mapped host memory, one slot at
//! a time, and sets each slot's flag to `round`; CPU threads of the host
//! wait on the flags with Rust's `Acquire` loads and then read the records
//! while the kernel runs. The CPU thread is in no block and no GPU: only the
//! system scope holds it. Write the kernel so that a CPU thread that reads
//! the flag also reads the whole record.
//!
//! Check: `cargo xtask practice check publish-to-host`.
//! Stuck: `cargo xtask practice hint publish-to-host`.

use layout::system::Record;

#[allow(unused_imports)]
use device::order::{AtomicRef, Device, Relaxed, Release, System};
use device::thread;

/// Publishes `Record::expected(round, i)` in slot `i` of `records`, then
/// sets `flags[i]` to `round`, for every slot `i` below `slots`.
///
/// # Launch
///
/// As `publish-sys --variant gpu-cpu-release-sys` launches it: any grid of
/// whole warps; `records` and `flags` are mapped host memory.
///
/// # Thread mapping
///
/// Thread `t` of `T` in the grid takes slots `t`, `t + T`, `t + 2T`, ...
///
/// # Safety
///
/// `records` and `flags` each hold `slots` elements the device can write.
#[kernel(layout::system::PRODUCER_PARAMS)]
pub unsafe fn publish_to_host(records: *mut Record, flags: *mut u32, slots: u32, round: u32) {
    let threads = thread::grid_dim_x() as usize * thread::block_dim_x() as usize;
    let mut i = thread::index_1d();
    while i < slots as usize {
        // ANCHOR: todo
        // TODO: write `Record::expected(round, i as u32)` into
        // `*records.add(i)` with ordinary stores, then store `round` into
        // the flag `flags.add(i)` so that a CPU thread that loads it with
        // `Acquire` also reads the record.
        let _ = (records, flags, round);
        // ANCHOR_END: todo
        i += threads;
    }
}
