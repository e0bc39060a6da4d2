//! The check that a cluster launch does what the lab assumes: the Hopper
//! module's yardstick.

use layout::baseline::PROBE_WORDS;

use crate::{shared, thread};

/// Reports what a launch with thread-block clusters gave each block, and
/// reads one word of the next block's shared memory through distributed
/// shared memory.
///
/// Thread 0 of every block stores the block's index into its own shared
/// word. After the cluster barrier, which orders that store before every
/// read of the cluster, thread 0 reads the word of the block one rank up (the
/// last rank reads rank 0's) with `mapa` and `ld.shared::cluster`, and writes
/// its rank, the cluster's size, the cluster's index and the word it read.
/// A second cluster barrier keeps every block's shared memory alive until
/// all the reads are done.
///
/// # Launch
///
/// A one-dimensional grid whose size is a multiple of the cluster size,
/// launched with clusters (`cuLaunchKernelEx` and the cluster-dimension
/// attribute; a launch without them is a cluster of one); any block;
/// [`layout::baseline::PROBE_SHARED_BYTES`] of dynamic shared memory.
///
/// # Thread mapping
///
/// Thread 0 of each block does all the work; the others only take part in
/// the two cluster barriers.
///
/// # Safety
///
/// `report` must hold [`PROBE_WORDS`] `u32`s per block of the grid.
#[kernel(layout::baseline::PROBE_PARAMS)]
pub unsafe fn cluster_probe(report: *mut u32) {
    let word = shared::dynamic_shared::<u32>();
    let lead = thread::thread_idx_x() == 0;
    if lead {
        // SAFETY: the launch gives the block one shared `u32`.
        unsafe { word.write_volatile(thread::block_idx_x()) };
    }
    // SAFETY: every thread of every block of the cluster reaches both
    // barriers; none returns early.
    unsafe { thread::sync_cluster() };
    if lead {
        let rank = thread::cluster_block_rank();
        let size = thread::cluster_size();
        let next = if rank + 1 == size { 0 } else { rank + 1 };
        // SAFETY: `word` points into this block's shared memory and the
        // rank is below the cluster's size; the owner is alive
        // until the barrier below.
        let neighbour = unsafe { shared::load_cluster(shared::cluster_address(word, next)) };
        let out = thread::block_idx_x() as usize * PROBE_WORDS;
        // SAFETY: `report` holds `PROBE_WORDS` words per block.
        unsafe {
            report.add(out).write(rank);
            report.add(out + 1).write(size);
            report.add(out + 2).write(thread::cluster_idx_x());
            report.add(out + 3).write(neighbour);
        }
    }
    // SAFETY: as above.
    unsafe { thread::sync_cluster() };
}
