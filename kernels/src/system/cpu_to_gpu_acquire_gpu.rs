use super::protocol::{self, Counts, Record};
use crate::order::{Acquire, Device};

/// Consuming a CPU thread's records at the wrong scope: `ld.acquire.gpu` of
/// each flag. Invalid for a host producer.
///
/// # Launch
///
/// Grid: blocks of a whole number of warps (the host uses
/// `layout::system::BLOCKS_PER_SM` blocks of `THREADS` per SM, all resident
/// at once). No shared memory. `records` and `flags` are mapped host memory
/// that CPU threads write while the kernel runs; `totals` is one zeroed
/// [`Counts`] in device memory.
///
/// # Thread mapping
///
/// Thread `t` consumes slots `t`, `t + T`, ... below `slots` (`T` the
/// grid's threads): it spins with `ld.acquire.gpu` until the slot's flag reads
/// `round`, then reads the record with four plain loads and compares it with
/// the round's. Each wait gives up when the global timer passes `budget_ns`
/// after the thread started, counted as a timeout, so the kernel ends even
/// if no host thread ever writes. Each warp sums its counts and adds them to
/// `totals`. The host thread is outside `.gpu`, so its `Release` store and this
/// acquire form no synchronization (PTX ISA, section 8.6): the record's loads
/// may see older contents, and the flag itself may be seen late (a timeout).
///
/// # Safety
///
/// `records` and `flags` must each hold `slots` elements the device can
/// read, and `totals` one `Counts` in global memory.
#[kernel(layout::system::CONSUMER_PARAMS)]
pub unsafe fn system_cpu_to_gpu_acquire_gpu(
    records: *const Record,
    flags: *const u32,
    slots: u32,
    round: u32,
    budget_ns: u64,
    totals: *mut Counts,
) {
    // SAFETY: forwarded from this kernel's contract; the host's blocks are
    // whole warps.
    unsafe { protocol::consume::<Device>(Acquire, records, flags, slots, round, budget_ns, totals) }
}
