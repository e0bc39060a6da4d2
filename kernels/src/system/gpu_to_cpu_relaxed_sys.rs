use super::protocol::{self, Record};
use crate::order::{Relaxed, System};

/// Publishing to a CPU thread with a relaxed flag: `st.relaxed.sys`. Invalid.
///
/// # Launch
///
/// Grid: any number of blocks of any whole number of warps (the host uses
/// `layout::system::BLOCKS_PER_SM` blocks of `THREADS` per SM). No shared
/// memory. `records` and `flags` are mapped host memory (the device
/// pointers of `cuMemHostAlloc` with `DEVICEMAP`), read by CPU threads
/// while the kernel runs.
///
/// # Thread mapping
///
/// Thread `t` produces slots `t`, `t + T`, `t + 2T`, ... below `slots`
/// (`T` the grid's threads): for each, the round's record with four plain
/// stores, then `st.relaxed.sys` of its flag to `round`. The store is in the
/// host's scope and reaches it whole, but a relaxed store orders none of the
/// record's stores before it: stale records are permitted.
///
/// # Safety
///
/// `records` and `flags` must each hold `slots` elements of memory the
/// device can write.
#[kernel(layout::system::PRODUCER_PARAMS)]
pub unsafe fn system_gpu_to_cpu_relaxed_sys(records: *mut Record, flags: *mut u32, slots: u32, round: u32) {
    // SAFETY: forwarded from this kernel's contract.
    unsafe { protocol::produce::<System>(Relaxed, records, flags, slots, round) }
}
