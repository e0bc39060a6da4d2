use layout::WARP_SIZE;
use layout::ladder::{FLAG_WORDS, PING_WORD, PONG_WORD};

use super::protocol::{ping, pong};
use crate::order::{Acquire, AtomicRef, Block, Release};
use crate::{shared, thread};

/// The `.cta` rung: a ping-pong round trip between two warps of one block,
/// through two flags in shared memory, with `st.release.cta` and
/// `ld.acquire.cta`.
///
/// # Launch
///
/// One block of [`layout::ladder::CTA_THREADS`] threads (two warps);
/// [`layout::ladder::CTA_SHARED_BYTES`] of dynamic shared memory.
///
/// # Thread mapping
///
/// Thread 0 zeroes the flags and the block meets at `bar.sync`; then thread
/// 0 (warp 0) is agent A and thread 32 (warp 1) agent B of
/// [`super::protocol`], and the other threads exit.
///
/// # Safety
///
/// `samples` must hold `batches` `u64`s and `report`
/// [`layout::ladder::REPORT_WORDS`] zeroed `u32`s, in global memory;
/// `batches * per_batch` must fit in a `u32`.
#[kernel(layout::ladder::SHARED_TRIP_PARAMS)]
pub unsafe fn ladder_trip_cta(batches: u32, per_batch: u32, budget_ns: u64, samples: *mut u64, report: *mut u32) {
    let flags = shared::dynamic_shared::<u32>();
    let t = thread::thread_idx_x();
    if t == 0 {
        for w in 0..FLAG_WORDS {
            // SAFETY: the launch gives the block `FLAG_WORDS` shared words.
            unsafe { flags.add(w).write_volatile(0) };
        }
    }
    // SAFETY: every thread of the block reaches the barrier; none has
    // returned yet.
    unsafe { thread::sync_threads() };
    // SAFETY: both words are inside the block's `FLAG_WORDS`: live, aligned
    // shared words until both agents are done.
    let (ping_flag, pong_flag) = unsafe {
        (
            AtomicRef::<u32, Block>::from_ptr(flags.add(PING_WORD)),
            AtomicRef::<u32, Block>::from_ptr(flags.add(PONG_WORD)),
        )
    };
    let send_ping = |v| ping_flag.store(v, Release);
    let read_pong = || pong_flag.load(Acquire);
    let send_pong = |v| pong_flag.store(v, Release);
    let read_ping = || ping_flag.load(Acquire);
    if t == 0 {
        // SAFETY: forwarded from this kernel's contract.
        unsafe { ping(send_ping, read_pong, batches, per_batch, budget_ns, samples, report) };
    } else if t == WARP_SIZE {
        // SAFETY: as above.
        unsafe { pong(send_pong, read_ping, batches * per_batch, budget_ns, report) };
    }
}
