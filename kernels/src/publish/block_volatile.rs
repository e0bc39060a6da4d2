use super::protocol::{self, Counts, Payload};
use crate::order::{System, Volatile};

/// The page's "volatile as synchronization" mistake, in one block: the
/// same-block protocol with both flag operations volatile, as CUDA C++
/// compiles a `volatile` flag. The flag is atomic and its system scope
/// covers both warps; the record is not published by it.
///
/// # Launch
///
/// As [`publish_block_release_acquire`](super::publish_block_release_acquire):
/// blocks of 64 threads, 16 bytes of shared memory.
///
/// # Thread mapping
///
/// Identical, except the flag is written with `st.volatile` and read with
/// `ld.volatile` (generic addresses, here of the shared slot). The PTX ISA
/// (section 8.4.2) makes a volatile operation a relaxed one at system scope,
/// with constraints on the compiler alone: every volatile instruction is
/// executed, and volatile instructions keep their order among themselves.
/// The payload's stores are not volatile, so nothing orders them before the
/// flag's store as thread 32 sees it, and thread 32 is *permitted* to read the
/// flag as 1 and the record as `{0, 0}`: the same verdict as
/// [`publish_block_relaxed`](super::publish_block_relaxed), and the litmus
/// suite's `mp volatile intra-block`.
///
/// # Safety
///
/// As [`publish_block_release_acquire`](super::publish_block_release_acquire).
#[kernel(layout::publish::INTRA_BLOCK_PARAMS)]
pub unsafe fn publish_block_volatile(rounds: u32, budget_ns: u64, observed: *mut Payload, totals: *mut Counts) {
    // SAFETY: forwarded from this kernel's contract.
    unsafe { protocol::same_block::<System>(Volatile, Volatile, rounds, budget_ns, observed, totals) }
}
