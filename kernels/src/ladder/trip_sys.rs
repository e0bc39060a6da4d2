use layout::ladder::{PING_WORD, PONG_WORD};

use super::protocol::ping;
use crate::{order, thread};

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
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn ladder_trip_sys(
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
    // SAFETY: both words are inside `flags`' `FLAG_WORDS`.
    let (ping_flag, pong_flag) = unsafe { (flags.add(PING_WORD), flags.add(PONG_WORD)) };
    // SAFETY: the flag is a live, aligned word of mapped host memory.
    let send_ping = |v| unsafe { order::store_release_sys(ping_flag, v) };
    // SAFETY: the flag is a live, aligned word of mapped host memory.
    let read_pong = || unsafe { order::load_acquire_sys(pong_flag) };
    // SAFETY: forwarded from this kernel's contract.
    unsafe { ping(send_ping, read_pong, batches, per_batch, budget_ns, samples, report) };
}
