//! Puzzle 18, a typical wrong answer: a release at device scope, which
//! does not hold the host's thread.

use layout::system::Record;

use device::order::{AtomicRef, Device, Release};
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
        // SAFETY: `i < slots`, and the caller gives `slots` records and
        // flags; the flag is accessed only atomically.
        unsafe {
            let flag = AtomicRef::<u32, Device>::from_ptr(flags.add(i));
            *records.add(i) = Record::expected(round, i as u32);
            flag.store(round, Release);
        }
        // ANCHOR_END: todo
        i += threads;
    }
}
