//! Puzzle 17, `store-buffering`: two flags, where only a sequentially
//! consistent fence will do.
//!
//! Two threads, in two blocks, each want to enter a critical section:
//! each raises its own flag, then looks at the other's, and enters only if
//! it finds it down (Dekker's entry). Both may enter if both read 0: the
//! store-buffering outcome, SB (`W x; R y || W y; R x`). Release and acquire
//! do not forbid it: a release orders what comes before it, an acquire what
//! comes after, and here a thread's store must be ordered before its own
//! later load. Nothing launches this kernel: the model reads it, and says
//! whether both threads may read 0.
//!
//! Check: `cargo xtask practice check store-buffering`.
//! Stuck: `cargo xtask practice hint store-buffering`.

#[allow(unused_imports)]
use device::order::{AcqRel, Acquire, AtomicRef, Device, Relaxed, Release, SeqCst, fence};
use device::thread;

// ANCHOR: todo
/// Raises this thread's flag, then reads the other thread's: `true` (enter)
/// if the other flag read 0.
///
/// # Safety
///
/// `mine` and `theirs` are the two flags, aligned words in global memory.
#[inline(always)]
unsafe fn enter(mine: *mut u32, theirs: *mut u32) -> bool {
    // SAFETY: the two flags, accessed only atomically.
    let (mine, theirs) =
        unsafe { (AtomicRef::<u32, Device>::from_ptr(mine), AtomicRef::<u32, Device>::from_ptr(theirs)) };
    // TODO: release and acquire look right here, and are not enough.
    mine.store(1, Release);
    theirs.load(Acquire) == 0
}

// ANCHOR_END: todo

/// Dekker's entry in two blocks: thread 0 of block `b` (0 or 1) raises flag
/// `b`, reads flag `1 - b`, and writes whether it entered to `entered[b]`.
///
/// # Launch
///
/// Never launched: the checker reads its PTX. Were it launched: two blocks,
/// `flags` and `entered` two zeroed words each.
///
/// # Safety
///
/// As the launch says.
#[kernel(layout::practice::STORE_BUFFERING_PARAMS)]
pub unsafe fn store_buffering(flags: *mut u32, entered: *mut u32) {
    let block = thread::block_idx_x() as usize;
    if thread::thread_idx_x() != 0 || block > 1 {
        return;
    }
    // SAFETY: the two flags and the two answers, as the launch says.
    unsafe {
        let went_in = enter(flags.add(block), flags.add(1 - block));
        entered.add(block).write(u32::from(went_in));
    }
}
