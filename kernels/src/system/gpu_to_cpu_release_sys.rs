use super::protocol::{self, Record};
use crate::order::{Release, System};

/// Publishing to a CPU thread, correctly: plain stores of each slot's record,
/// then `st.release.sys` of its flag.
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
/// stores, then `st.release.sys` of its flag to `round`. The system scope holds
/// every thread of the program, the host's included (PTX ISA, section 8.5), so
/// a host thread whose `Acquire` load reads `round` synchronizes with the
/// release and reads the whole record: no stale record is permitted.
///
/// # Safety
///
/// `records` and `flags` must each hold `slots` elements of memory the
/// device can write.
#[kernel(layout::system::PRODUCER_PARAMS)]
pub unsafe fn system_gpu_to_cpu_release_sys(records: *mut Record, flags: *mut u32, slots: u32, round: u32) {
    // SAFETY: forwarded from this kernel's contract.
    unsafe { protocol::produce::<System>(Release, records, flags, slots, round) }
}
