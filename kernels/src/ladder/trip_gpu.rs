use layout::ladder::{PING_WORD, PONG_WORD};

use super::protocol::{ping, pong};
use crate::order::{Acquire, AtomicRef, Device, Release};
use crate::thread;

/// The `.gpu` rung: a ping-pong round trip between two blocks, through two
/// flags in global memory (which meet in L2), with `st.release.gpu` and
/// `ld.acquire.gpu`.
///
/// # Launch
///
/// Two blocks of [`layout::ladder::PAIR_THREADS`] threads, no shared
/// memory. Two blocks are always resident together; the report's SM words
/// say whether they ran on two SMs, which the host checks.
///
/// # Thread mapping
///
/// Thread 0 of block 0 is agent A and thread 0 of block 1 agent B of
/// [`super::protocol`]; every other thread exits.
///
/// # Safety
///
/// `flags` must hold [`layout::ladder::FLAG_WORDS`] zeroed `u32`s, `samples`
/// `batches` `u64`s and `report` [`layout::ladder::REPORT_WORDS`] zeroed
/// `u32`s, in global memory; `batches * per_batch` must fit in a `u32`.
#[kernel(layout::ladder::MEMORY_TRIP_PARAMS)]
pub unsafe fn ladder_trip_gpu(
    flags: *mut u32,
    batches: u32,
    per_batch: u32,
    budget_ns: u64,
    samples: *mut u64,
    report: *mut u32,
) {
    if thread::thread_idx_x() != 0 {
        return;
    }
    // SAFETY: both words are inside `flags`' `FLAG_WORDS`: live, aligned
    // global words for the whole kernel.
    let (ping_flag, pong_flag) = unsafe {
        (
            AtomicRef::<u32, Device>::from_ptr(flags.add(PING_WORD)),
            AtomicRef::<u32, Device>::from_ptr(flags.add(PONG_WORD)),
        )
    };
    let send_ping = |v| ping_flag.store(v, Release);
    let read_pong = || pong_flag.load(Acquire);
    let send_pong = |v| pong_flag.store(v, Release);
    let read_ping = || ping_flag.load(Acquire);
    match thread::block_idx_x() {
        // SAFETY: forwarded from this kernel's contract.
        0 => unsafe { ping(send_ping, read_pong, batches, per_batch, budget_ns, samples, report) },
        // SAFETY: as above.
        1 => unsafe { pong(send_pong, read_ping, batches * per_batch, budget_ns, report) },
        _ => {}
    }
}
