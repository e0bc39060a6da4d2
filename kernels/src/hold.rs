//! The timing hold: keep the stream busy while the host queues the work it
//! is about to time.

use crate::thread;

/// Waits until `ns` nanoseconds of the GPU's global timer have passed since
/// it started, then returns.
///
/// CUDA events time a stream, not a kernel: `stop - start` includes any wait
/// for the kernel to *arrive* after the start event. When the stream is idle,
/// the start event is stamped as soon as the host queues it, and the launch
/// that follows takes the host microseconds to queue; at small sizes that
/// wait is most of what a warm measurement measured. Queued before the start
/// event, this kernel holds the stream for longer than the host takes to
/// queue the start event, the launch and the stop event, so the timed region
/// holds the kernel and nothing else. (nvbench's `blocking_kernel` does the
/// same with a flag the host sets; a time-bound hold needs no host-mapped
/// memory and cannot deadlock, but it is a bound, not a handshake: a host
/// that takes longer than `ns` to queue the three is timed again for the
/// excess, so `ns` must be longer than the host ever takes to queue them.)
///
/// # Launch
///
/// One block of one thread; no shared memory.
///
/// # Thread mapping
///
/// One thread reads `%globaltimer` until it has advanced by `ns`.
///
/// # Safety
///
/// None needed; it is `unsafe` only because every kernel entry is.
#[kernel(layout::baseline::HOLD_PARAMS)]
pub unsafe fn hold(ns: u64) {
    let start = thread::global_timer_ns();
    while thread::global_timer_ns().wrapping_sub(start) < ns {}
}
