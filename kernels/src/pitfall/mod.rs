//! The pages' mistakes, each a kernel that makes it beside the kernel that
//! fixes it. `host pitfalls` runs them under the conditions that make the
//! mistake show.
//!
//! | pitfall | broken | fix |
//! |---|---|---|
//! | a barrier inside a bounds check | [`pitfall_barrier_in_bounds_check`] | [`pitfall_barrier_every_thread`] |
//! | a warp barrier for a cross-warp exchange | [`pitfall_warp_sync_other_warp`] | [`pitfall_block_sync_other_warp`] |
//! | a device-wide phase in one ordinary launch | [`pitfall_phase_grid_barrier`] (not co-resident) | two launches of [`pitfall_phase_partials`]; [`pitfall_phase_grid_barrier`] launched cooperatively; [`pitfall_phase_ticket`] |
//! | two atomics on two fields | [`pitfall_record_two_atomics`] | [`pitfall_record_one_word`], [`pitfall_record_seqlock`] |
//! | a relaxed flag for page 2's demo | [`pitfall_page_demo_relaxed`], [`pitfall_page_demo_early_read`] | [`pitfall_page_demo`] |
//! | the histogram without a barrier | [`pitfall_histogram_no_zeroing_barrier`], [`pitfall_histogram_no_flush_barrier`] | `histogram_privatized` |
//!
//! No kernel here can hang the GPU. A block barrier that some threads never
//! reach is released by their exit (the broken barrier kernel's threads
//! return; they do not wait elsewhere), the grid barrier's spin gives up at a
//! deadline on the global timer, the record writer's wait for its readers
//! gives up at `layout::pitfall::RECORD_WAIT_NS`, and the sequence lock's
//! reader retries a read at most `layout::pitfall::RECORD_TRIES` times.

mod barrier_every_thread;
mod barrier_in_bounds_check;
mod exchange;
mod fill_shared;
mod histogram_without_barrier;
mod page_demo;
mod phase_grid_barrier;
mod phase_partials;
mod phase_ticket;
mod record_one_word;
mod record_seqlock;
mod record_two_atomics;
mod record_window;

pub use barrier_every_thread::pitfall_barrier_every_thread;
pub use barrier_in_bounds_check::pitfall_barrier_in_bounds_check;
pub use exchange::{
    pitfall_block_sync_other_warp, pitfall_block_sync_same_warp, pitfall_warp_sync_other_warp,
    pitfall_warp_sync_same_warp,
};
pub use fill_shared::pitfall_fill_shared;
pub use histogram_without_barrier::{pitfall_histogram_no_flush_barrier, pitfall_histogram_no_zeroing_barrier};
pub use page_demo::{pitfall_page_demo, pitfall_page_demo_early_read, pitfall_page_demo_relaxed};
pub use phase_grid_barrier::pitfall_phase_grid_barrier;
pub use phase_partials::pitfall_phase_partials;
pub use phase_ticket::pitfall_phase_ticket;
pub use record_one_word::pitfall_record_one_word;
pub use record_seqlock::pitfall_record_seqlock;
pub use record_two_atomics::pitfall_record_two_atomics;

use crate::thread;

/// The sum of `local[0..block]` with wrapping `u32` addition, left in
/// `local[0]`: a tree of `log2(block)` halving steps, a block barrier after
/// each. Integer addition is associative, so the result does not depend on
/// the tree's shape, and a wrong result means a wrong input to it.
///
/// # Safety
///
/// Every thread of the block must call it, with the block's dynamic shared
/// memory holding `block` words (`block` a power of two), each already
/// written and made visible by a barrier.
#[inline(always)]
unsafe fn block_sum(local: *mut u32) -> u32 {
    let tid = thread::thread_idx_x();
    let mut stride = thread::block_dim_x() / 2;
    while stride > 0 {
        if tid < stride {
            // SAFETY: `tid + stride < block`, inside the shared words the
            // caller provides.
            unsafe {
                let sum = local.add(tid as usize).read().wrapping_add(local.add((tid + stride) as usize).read());
                local.add(tid as usize).write(sum);
            }
        }
        // SAFETY: outside the `tid < stride` branch: every thread of the
        // block reaches it, once per step, as the caller guarantees.
        unsafe { thread::sync_threads() };
        stride /= 2;
    }
    // SAFETY: word 0 is inside the shared words; the last barrier made the
    // final step's store visible.
    unsafe { local.read() }
}
