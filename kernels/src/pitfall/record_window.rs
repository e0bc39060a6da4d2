//! The writer's window, shared by the three record kernels: which reads
//! overlapped the writer's updates, and so could have been torn.
//!
//! A reader that counts every read it makes counts reads made before the
//! writer's first update and after its last, which cannot be torn whatever
//! the protocol: they inflate a fix's "0 of N" and dilute the mistake's
//! rate. The writer therefore marks its window with two words, and a reader
//! leaves out only the reads it can prove lie outside it:
//!
//! - **Before.** The writer stores `started = 1` (relaxed), then a
//!   release-acquire fence, then its first update. A reader makes its read,
//!   then a release-acquire fence, then loads `started`. If any load of the
//!   read saw an update, the writer's fence is ordered before the reader's
//!   (fence-fence synchronization at `.gpu` scope), so the reader's load of
//!   `started` must see 1. A reader that finds 0 read only the zeroed record:
//!   it cannot be torn, and it is not counted as a read.
//! - **After.** The writer stores `done = 1` with release after its last
//!   update. A reader acquires `done` before each read; once it sees 1, every
//!   update happens before its loads, so it would read the final record. It
//!   stops there: it makes no read after the writer is done.
//!
//! What is left is every read that may have overlapped an update: every
//! torn read is among them, so the torn count is what it would be without
//! the window, over a denominator that means something. For the reads to
//! overlap at all, the writer first waits for every reader to arrive (up to
//! `layout::pitfall::RECORD_WAIT_NS`, since a reader block that is not
//! resident never arrives). The last reader to arrive then reads from before
//! the first update to after the last, one read after another, so unless it
//! runs out of reads first, one of its reads loads `done` before the writer
//! is done and `started` after it has started: even a writer much faster
//! than its readers leaves a denominator above zero.

use layout::pitfall::{RECORD_DONE, RECORD_READY, RECORD_STARTED, RECORD_WAIT_NS};

use crate::order::{AcqRel, Acquire, AtomicRef, Device, Relaxed, Release, fence};
use crate::thread;

/// The window's words in `scratch`.
#[derive(Clone, Copy)]
pub(super) struct Window {
    /// Set before the first update.
    started: AtomicRef<u32, Device>,
    /// Set after the last update.
    done: AtomicRef<u32, Device>,
    /// The readers that have arrived, counted by atomic adds.
    ready: *mut u32,
}

impl Window {
    /// The window's words of a record kernel's `scratch`.
    ///
    /// # Safety
    ///
    /// `scratch` must hold `layout::pitfall::RECORD_WORDS` words in global
    /// memory, zeroed before the launch, the window's written only through
    /// this type.
    #[inline(always)]
    pub(super) unsafe fn of(scratch: *mut u32) -> Window {
        // SAFETY: the words are inside `scratch`, as the caller guarantees,
        // and only this type's strong accesses touch them.
        unsafe {
            Window {
                started: AtomicRef::from_ptr(scratch.wrapping_add(RECORD_STARTED)),
                done: AtomicRef::from_ptr(scratch.wrapping_add(RECORD_DONE)),
                ready: scratch.wrapping_add(RECORD_READY),
            }
        }
    }

    /// A reader's arrival, before its first read.
    #[inline(always)]
    pub(super) fn arrive(self) {
        // SAFETY: `ready` is a word of `scratch` (`Window::of`).
        unsafe { AtomicRef::<u32, Device>::from_global(self.ready).add(1, Relaxed) };
    }

    /// The writer waits for `readers` arrivals, or the deadline.
    #[inline(always)]
    pub(super) fn wait_for(self, readers: u32) {
        // SAFETY: `ready` is a word of `scratch`, written only by atomics.
        let ready = unsafe { AtomicRef::<u32, Device>::from_ptr(self.ready) };
        let start = thread::global_timer_ns();
        while ready.load(Relaxed) < readers && thread::global_timer_ns().wrapping_sub(start) <= RECORD_WAIT_NS {}
    }

    /// The writer, before its first update: `started`, then a fence that
    /// keeps every update after it.
    #[inline(always)]
    pub(super) fn open(self) {
        self.started.store(1, Relaxed);
        fence(AcqRel, Device);
    }

    /// The writer, after its last update: `done`, released after every
    /// update.
    #[inline(always)]
    pub(super) fn close(self) {
        self.done.store(1, Release);
    }

    /// A reader, before a read: whether the writer is done (acquire, so the
    /// read would see the final record).
    #[inline(always)]
    pub(super) fn done(self) -> bool {
        self.done.load(Acquire) != 0
    }

    /// A reader, after a read: whether the writer had started. The fence
    /// keeps the read's loads before the load of `started`.
    #[inline(always)]
    pub(super) fn started(self) -> bool {
        fence(AcqRel, Device);
        self.started.load(Relaxed) != 0
    }
}
