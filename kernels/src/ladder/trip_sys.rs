use layout::ladder::{PING_WORD, PONG_WORD};

use super::protocol::ping;
use crate::order::{Acquire, AtomicRef, Release, System};
use crate::thread;

/// The `.sys` rung: a ping-pong round trip between one GPU thread and one
/// CPU thread, through two flags in pinned host memory mapped into the
/// device, with `st.release.sys` and `ld.acquire.sys` on the GPU (the CPU
/// answers with Rust's `Release` stores and `Acquire` loads).
///
/// # Launch
///
/// One block of [`layout::ladder::PAIR_THREADS`] threads, no shared memory,
/// while a host thread runs agent B on the same flags.
///
/// # Thread mapping
///
/// Thread 0 of block 0 is agent A of [`super::protocol`]; every other
/// thread exits. If the host never answers, A's first spin times out and
/// the kernel ends.
///
/// # Safety
///
/// `flags` must be the device address of [`layout::ladder::FLAG_WORDS`]
/// zeroed `u32`s of mapped host memory that stays allocated until the kernel
/// ends; `samples` must hold `batches` `u64`s and `report`
/// [`layout::ladder::REPORT_WORDS`] zeroed `u32`s, in global memory.
#[kernel(layout::ladder::MEMORY_TRIP_PARAMS)]
pub unsafe fn ladder_trip_sys(
    flags: *mut u32,
    batches: u32,
    per_batch: u32,
    budget_ns: u64,
    samples: *mut u64,
    report: *mut u32,
) {
    if thread::index_1d() != 0 {
        return;
    }
    // SAFETY: both words are inside `flags`' `FLAG_WORDS`: live, aligned
    // words of mapped host memory for the whole kernel.
    let (ping_flag, pong_flag) = unsafe {
        (
            AtomicRef::<u32, System>::from_ptr(flags.add(PING_WORD)),
            AtomicRef::<u32, System>::from_ptr(flags.add(PONG_WORD)),
        )
    };
    let send_ping = |v| ping_flag.store(v, Release);
    let read_pong = || pong_flag.load(Acquire);
    // SAFETY: forwarded from this kernel's contract.
    unsafe { ping(send_ping, read_pong, batches, per_batch, budget_ns, samples, report) };
}
