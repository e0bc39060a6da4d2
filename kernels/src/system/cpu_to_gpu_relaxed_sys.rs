use super::protocol::{self, Counts, Record};
use crate::order::{Relaxed, System};

/// Consuming a CPU thread's records with a relaxed flag: `ld.relaxed.sys`.
/// Invalid.
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
/// grid's threads): it spins with `ld.relaxed.sys` until the slot's flag reads
/// `round`, then reads the record with four plain loads and compares it with
/// the round's. Each wait gives up when the global timer passes `budget_ns`
/// after the thread started, counted as a timeout, so the kernel ends even
/// if no host thread ever writes. Each warp sums its counts and adds them to
/// `totals`. The load is in the host's scope and sees its store eventually, but
/// a relaxed load orders none of the record's loads after it: stale records are
/// permitted.
///
/// # Safety
///
/// `records` and `flags` must each hold `slots` elements the device can
/// read, and `totals` one `Counts` in global memory.
#[kernel(layout::system::CONSUMER_PARAMS)]
pub unsafe fn system_cpu_to_gpu_relaxed_sys(
    records: *const Record,
    flags: *const u32,
    slots: u32,
    round: u32,
    budget_ns: u64,
    totals: *mut Counts,
) {
    // SAFETY: forwarded from this kernel's contract; the host's blocks are
    // whole warps.
    unsafe { protocol::consume::<System>(Relaxed, records, flags, slots, round, budget_ns, totals) }
}
