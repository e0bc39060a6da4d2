use super::protocol::{self, Counts, Record};
use crate::order::{Acquire, System};

/// Consuming a CPU thread's records, correctly: `ld.acquire.sys` of each flag,
/// then plain loads of the record.
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
/// grid's threads): it spins with `ld.acquire.sys` until the slot's flag reads
/// `round`, then reads the record with four plain loads and compares it with
/// the round's. Each wait gives up when the global timer passes `budget_ns`
/// after the thread started, counted as a timeout, so the kernel ends even
/// if no host thread ever writes. Each warp sums its counts and adds them to
/// `totals`. A host thread's `Release` store is in the system scope (PTX ISA,
/// section 8.5), so an acquire at `.sys` that reads it synchronizes with it,
/// and the record's loads see the host's stores: no stale record is permitted.
///
/// # Safety
///
/// `records` and `flags` must each hold `slots` elements the device can
/// read, and `totals` one `Counts` in global memory.
#[kernel(layout::system::CONSUMER_PARAMS)]
pub unsafe fn system_cpu_to_gpu_acquire_sys(
    records: *const Record,
    flags: *const u32,
    slots: u32,
    round: u32,
    budget_ns: u64,
    totals: *mut Counts,
) {
    // SAFETY: forwarded from this kernel's contract; the host's blocks are
    // whole warps.
    unsafe { protocol::consume::<System>(Acquire, records, flags, slots, round, budget_ns, totals) }
}
