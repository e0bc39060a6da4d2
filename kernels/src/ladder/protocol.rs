//! The round trip's two halves, written once for every rung: the rung
//! supplies how an agent stores into the other's flag and loads its own.

use layout::ladder::{PING_SM, PING_TIMEOUTS, PONG_SM, PONG_TIMEOUTS, TRIPS};

use crate::thread;

/// Loads of a flag between two readings of `%globaltimer` in a spin: the
/// timer is read once per this many polls, so a spin's deadline costs
/// little of a round trip.
const POLLS: u32 = 16;

/// Spins on `load` until it returns `value` (`true`), or until `budget_ns`
/// have passed on `%globaltimer` since the spin began (`false`: a timeout).
#[inline(always)]
pub fn wait_for(load: &impl Fn() -> u32, value: u32, budget_ns: u64) -> bool {
    let start = thread::global_timer_ns();
    loop {
        for _ in 0..POLLS {
            if load() == value {
                return true;
            }
        }
        if thread::global_timer_ns().wrapping_sub(start) > budget_ns {
            return false;
        }
    }
}

/// Agent A: `batches * per_batch` round trips, each a `send` of `i` (1, 2,
/// ...) into B's flag and a wait until `receive` (A's flag) returns `i`.
/// Each batch's `%globaltimer` nanoseconds go to `samples[batch]`; the
/// round trips done, A's timeouts (0 or 1: it stops at its first) and its
/// SM go to `report`.
///
/// # Safety
///
/// `samples` must hold `batches` `u64`s and `report`
/// [`layout::ladder::REPORT_WORDS`] `u32`s; `batches * per_batch` must fit in a
/// `u32`.
#[inline(always)]
pub unsafe fn ping(
    send: impl Fn(u32),
    receive: impl Fn() -> u32,
    batches: u32,
    per_batch: u32,
    budget_ns: u64,
    samples: *mut u64,
    report: *mut u32,
) {
    let mut trips = 0;
    let mut timeouts = 0;
    'run: for batch in 0..batches {
        let start = thread::global_timer_ns();
        for _ in 0..per_batch {
            let i = trips + 1;
            send(i);
            if !wait_for(&receive, i, budget_ns) {
                timeouts = 1;
                break 'run;
            }
            trips = i;
        }
        let end = thread::global_timer_ns();
        // SAFETY: `batch < batches`, and `samples` holds `batches` words.
        unsafe { samples.add(batch as usize).write(end.wrapping_sub(start)) };
    }
    // SAFETY: `report` holds `REPORT_WORDS` words; A alone writes these.
    unsafe {
        report.add(TRIPS).write(trips);
        report.add(PING_TIMEOUTS).write(timeouts);
        report.add(PING_SM).write(thread::sm_id());
    }
}

/// Agent B: waits until `receive` (B's flag) returns `i`, then `send`s `i`
/// into A's flag, for every `i` A sends; stops at its first timeout, which
/// it reports with its SM.
///
/// # Safety
///
/// `report` must hold [`layout::ladder::REPORT_WORDS`] `u32`s.
#[inline(always)]
pub unsafe fn pong(send: impl Fn(u32), receive: impl Fn() -> u32, trips: u32, budget_ns: u64, report: *mut u32) {
    let mut timeouts = 0;
    for i in 1..=trips {
        if !wait_for(&receive, i, budget_ns) {
            timeouts = 1;
            break;
        }
        send(i);
    }
    // SAFETY: `report` holds `REPORT_WORDS` words; B alone writes these.
    unsafe {
        report.add(PONG_TIMEOUTS).write(timeouts);
        report.add(PONG_SM).write(thread::sm_id());
    }
}
