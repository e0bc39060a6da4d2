//! Puzzle 19, `publish-in-cluster`: the publication across blocks again,
//! between two blocks of one thread-block cluster (Hopper, compute
//! capability 9.0).
//!
//! A cluster is a group of blocks the GPU schedules together, at once, on
//! the SMs of one GPU processing cluster; launched in clusters of two,
//! blocks `2p` and `2p + 1` are the two blocks of cluster `p`. PTX has a
//! scope for exactly those threads, between the block's and the device's.
//! Puzzle 15's two roles are correct here too, at a scope wider than they
//! need: write them with the narrowest scope that holds both blocks of one
//! cluster.
//!
//! This file is compiled only into the Hopper build of your crate (the
//! `hopper` feature, `sm_90`); `cargo xtask practice check
//! publish-in-cluster` turns that build on. Its rustc prints one warning
//! about `ptx81`, the PTX version the lab's Hopper module asks for: it is
//! not about your code. Without a Hopper GPU the checks up to the model and
//! the machine code still run; the GPU run says it needs compute capability
//! 9.0.
//!
//! Check: `cargo xtask practice check publish-in-cluster`.
//! Stuck: `cargo xtask practice hint publish-in-cluster`.

use layout::publish::{Counts, Payload, Slot};

#[allow(unused_imports)]
use device::order::{Acquire, AtomicRef, Block, Cluster, Device, Relaxed, Release, System};
#[allow(unused_imports)]
use device::thread;

// ANCHOR: todo
/// The producer's half: the record, then the flag.
///
/// # Safety
///
/// `slot` and `ready_storage` point into this round's global slot(s).
#[inline(always)]
unsafe fn produce_record(slot: *mut Payload, ready_storage: *mut u32) {
    // TODO: write `Payload::PUBLISHED` into `*slot`, then set the flag to 1
    // so that a thread of the other block of this cluster that reads the 1
    // also reads the record.
    let _ = (slot, ready_storage);
}

/// The consumer's half: wait for the flag, then read the record; `None` if
/// the wait passes `deadline` (the global timer, in ns).
///
/// # Safety
///
/// As `produce_record`.
#[inline(always)]
unsafe fn consume_record(slot: *const Payload, ready_storage: *mut u32, deadline: u64) -> Option<Payload> {
    // TODO: wait until the flag reads 1, then read `*slot`.
    let _ = (slot, ready_storage, deadline);
    None
}

// ANCHOR_END: todo

/// The lab's `publish_cluster_global_release_acquire` with your two roles:
/// thread 0 of block `2p` publishes `rounds` records to thread 0 of block
/// `2p + 1`, the two blocks of cluster `p`.
///
/// # Launch
///
/// As `publish --variant cluster-global-release-acquire` launches it: in
/// clusters of two blocks (`cuLaunchKernelEx`), an even grid, 32 threads a
/// block.
///
/// # Safety
///
/// `slots` holds `gridDim.x / 2 * rounds` zeroed slots, `observed` a payload
/// per pair and `totals` one `Counts`, all in global memory.
#[kernel(layout::publish::INTER_BLOCK_PARAMS)]
#[allow(clippy::too_many_arguments)]
pub unsafe fn publish_in_cluster(
    slots: *mut Slot,
    rounds: u32,
    budget_ns: u64,
    flag_apart: u32,
    preload: u32,
    delay_ns: u32,
    observed: *mut Payload,
    totals: *mut Counts,
) {
    let stress = crate::pairs::Stress { flag_apart, preload, delay_ns };
    // SAFETY: the launch above.
    unsafe {
        crate::pairs::across_blocks(slots, rounds, budget_ns, stress, observed, totals, produce_record, consume_record)
    }
}

/// Your two roles in the page's straight-line shape, which is the kernel the
/// checker reads to put them before the memory model (the stress loops of
/// the kernel above would hide their order); it is never launched.
///
/// # Safety
///
/// Never launched; as `producer_consumer_demo` if it were.
#[kernel(layout::pitfall::PAGE_PARAMS)]
pub unsafe fn publish_in_cluster_probe(out: *mut u32, deadline_ns: u64) {
    // SAFETY: as above.
    unsafe { crate::page::demo(out, deadline_ns, produce_record, consume_record) }
}
