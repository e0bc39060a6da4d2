use super::protocol::{self, Counts, FlagLayout, Payload, Slot};
use crate::order;

// ANCHOR: kernel
/// Publishing across blocks with a relaxed flag at device scope: the flag
/// operations are atomic and their scope covers both threads, but they order
/// nothing. Invalid: the record is not published.
///
/// # Launch
///
/// Grid: `2 * pairs` blocks, few enough to be resident on the device together
/// (the host uses a multiple of the SM count). Block: 32 threads (only thread
/// 0 works). No shared memory. `slots` zeroed before each launch.
///
/// # Thread mapping
///
/// As [`publish_grid_release_acquire`](super::publish_grid_release_acquire),
/// but the flag is written with `st.relaxed.gpu` and read with
/// `ld.relaxed.gpu`. The consumer is sure to see the flag eventually (the
/// loads are strong, past L1), but nothing orders the payload's plain stores
/// before the flag's: a stale record is permitted. This is MP across blocks
/// with a relaxed flag, the litmus suite's `mp relaxed-gpu inter-block`.
/// `flag_apart` and `preload` as there.
// ANCHOR_END: kernel
///
/// Progress: a consumer can only finish if its producer runs. Both are
/// resident when the grid fits the device, which the host arranges; if they
/// are not, the consumer's deadline (`budget_ns`) turns the wait into counted
/// timeouts, so the kernel always ends.
///
/// # Safety
///
/// `slots` must hold `pairs * rounds` zeroed slots (a multiple of
/// `flag_apart` or not: the offset is taken mod the slot count), `observed` `pairs`
/// payloads and `totals` one [`Counts`], all in global memory.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn publish_grid_relaxed(
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
            order::store_relaxed_gpu,
            order::load_relaxed_gpu,
            slots,
            rounds,
            budget_ns,
            FlagLayout { apart: flag_apart, preload },
            observed,
            totals,
        )
    }
}
