//! Your kernels: one puzzle a file, in the order of the lessons.
//!
//! Each file is a stub that compiles and fails its check until you complete
//! it. Edit it in place, then ask the checker:
//!
//! ```text
//! cargo xtask practice list               # every puzzle, done or not
//! cargo xtask practice check NAME         # build, then every check, named
//! cargo xtask practice hint NAME          # the next hint
//! cargo xtask practice watch              # check again on every save
//! cargo xtask practice reset NAME         # the stub back, from git
//! ```
//!
//! A puzzle's kernel has the signature and launch of the lab kernel it
//! stands for (its registry entry in `layout`), and is written in the lab's
//! own words: `device::thread`, `device::shared`, `device::order` and its
//! read-modify-writes. The solutions are the lab's own kernels where the
//! puzzle is one (`kernels/src/sum/`) and `practice/solutions/` where it is
//! not; typical wrong answers, each with the check that catches it, are in
//! `practice/wrong/`.

#![no_std]
#![feature(abi_ptx, macro_attr, stdarch_nvptx)]
#![deny(unsafe_op_in_unsafe_fn)]

#[macro_use]
extern crate device;
// The vocabulary under the names the lab's kernels use (`crate::order`), so
// that a lab kernel compiles here as a puzzle's answer: the page's three
// sums are their puzzles' solutions.
pub use device::{atomic, order, shared, thread};

pub mod barrier_every_thread;
pub mod block_barrier;
// Puzzle 4 is a written answer, about the kernels of puzzles 1 to 3.
pub mod block_size;
pub mod deterministic_sum;
pub mod fence_across_blocks;
pub mod histogram_global_atomic;
pub mod histogram_privatized;
pub mod last_block;
pub mod producer_consumer;
pub mod publish_across_blocks;
pub mod publish_to_host;
// Puzzle 19 needs thread-block clusters: it is in the Hopper build only.
#[cfg(feature = "hopper")]
pub mod publish_in_cluster;
pub mod record_one_word;
pub mod relaxed_twin;
pub mod store_buffering;
pub mod sum_global_atomic;
pub mod sum_shared_atomic;
pub mod sum_tree_atomic;
pub mod sum_warp_shuffle;

// What the puzzles call and do not write: the chunk sum of puzzle 6, the
// tree of puzzles 9 and 11, the counters of puzzle 10, the page's demo
// around puzzles 12 and 13, the torn-record stress of puzzle 14 and the
// cross-block stress around puzzles 15, 16 and 19.
mod chunks;
mod exchange;
mod page;
mod pairs;
mod record;
mod tree;

/// A kernel has nowhere to unwind to: a panic traps, which the driver
/// reports to the host as a failed launch.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: `trap` aborts the kernel; it has no preconditions.
    unsafe { core::arch::nvptx::trap() }
}
