use super::protocol::{self, Record};
use crate::order::{Device, Release};

/// Publishing to a CPU thread at the wrong scope: `st.release.gpu` of each
/// flag. Invalid for a host consumer.
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
/// stores, then `st.release.gpu` of its flag to `round`. A host thread is
/// outside the `.gpu` scope, so the release and the host's `Acquire` load are
/// not morally strong (PTX ISA, section 8.6) and form no synchronization: stale
/// records are permitted, however rarely the hardware shows one.
///
/// # Safety
///
/// `records` and `flags` must each hold `slots` elements of memory the
/// device can write.
#[kernel(layout::system::PRODUCER_PARAMS)]
pub unsafe fn system_gpu_to_cpu_release_gpu(records: *mut Record, flags: *mut u32, slots: u32, round: u32) {
    // SAFETY: forwarded from this kernel's contract.
    unsafe { protocol::produce::<Device>(Release, records, flags, slots, round) }
}
