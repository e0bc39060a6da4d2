use super::protocol::{self, Counts, FlagLayout, Payload, Slot};
use crate::order;

// ANCHOR: kernel
/// Publishing across blocks, correctly: the producer is thread 0 of block
/// `2p`, the consumer thread 0 of block `2p + 1`, and the flag operations use
/// device scope.
///
/// # Launch
///
/// Grid: `2 * pairs` blocks, few enough to be resident on the device together
/// (the host uses a multiple of the SM count). Block: 32 threads (only thread
/// 0 works). No shared memory. `slots` zeroed before each launch.
///
/// # Thread mapping
///
/// The producer writes `rounds` records, each followed by `st.release.gpu` of
/// its flag; the consumer waits on `ld.acquire.gpu` for each in turn and reads
/// it. Device scope includes both blocks, so an acquire that reads 1 makes
/// the record visible. With `flag_apart` non-zero each round's flag sits that
/// many slots away from its payload (the host passes half the slots); with
/// `preload` 1 the consumer reads the payload once before it waits. Neither
/// changes what the model guarantees.
///
/// Progress: a consumer can only finish if its producer runs. Both are
/// resident when the grid fits the device, which the host arranges; if they
/// are not, the consumer's deadline (`budget_ns`) turns the wait into counted
/// timeouts, so the kernel always ends.
// ANCHOR_END: kernel
///
/// # Safety
///
/// `slots` must hold `pairs * rounds` zeroed slots (a multiple of
/// `flag_apart` or not: the offset is taken mod the slot count), `observed` `pairs`
/// payloads and `totals` one [`Counts`], all in global memory.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn publish_grid_release_acquire(
    slots: *mut Slot,
    rounds: u32,
    budget_ns: u64,
    flag_apart: u32,
    preload: u32,
    observed: *mut Payload,
    totals: *mut Counts,
) {
    // SAFETY: forwarded from this kernel's contract.
    unsafe {
        protocol::across_blocks(
            order::store_release_gpu,
            order::load_acquire_gpu,
            slots,
            rounds,
            budget_ns,
            FlagLayout { apart: flag_apart, preload },
            observed,
            totals,
        )
    }
}
