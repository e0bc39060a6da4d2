//! The fence loops' one body.

use crate::order::{AtomicRef, System, Volatile};
use crate::thread;

/// No fence: the baseline loop's "fence", which emits nothing.
#[inline(always)]
pub fn no_fence() {}

/// Thread 0 of the grid times `repeats` loops of `iterations` iterations,
/// each a volatile store of the iteration's index to `sink` followed by
/// `fence`, and writes each loop's `%globaltimer` nanoseconds to `samples`.
///
/// The store between two fences keeps `ptxas` from merging them (a fence
/// with no memory access between it and the next orders nothing more than
/// one would), and being volatile it is issued every iteration; with
/// [`no_fence`] the loop is the same stores alone, which the host subtracts.
///
/// # Safety
///
/// `sink` must point to one `u32` and `samples` to `repeats` `u64`s.
#[inline(always)]
pub unsafe fn fence_loop(fence: impl Fn(), sink: *mut u32, iterations: u32, repeats: u32, samples: *mut u64) {
    if thread::index_1d() != 0 {
        return;
    }
    // SAFETY: `sink` is one live `u32` (the caller's contract).
    let sink = unsafe { AtomicRef::<u32, System>::from_ptr(sink) };
    for repeat in 0..repeats {
        let start = thread::global_timer_ns();
        for i in 0..iterations {
            sink.store(i, Volatile);
            fence();
        }
        let end = thread::global_timer_ns();
        // SAFETY: `repeat < repeats`, and `samples` holds `repeats` words.
        unsafe { samples.add(repeat as usize).write(end.wrapping_sub(start)) };
    }
}
