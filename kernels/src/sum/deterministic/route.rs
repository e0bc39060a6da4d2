//! How a launch's chunk sums reach the one block that adds them, chosen from
//! the number of chunks and the grid alone, so every block takes the same
//! route: one round of one block (shared memory), one block (its barrier),
//! the handoff slots, or `partials` and the finish ticket.

use layout::sum::deterministic::{FULL, HANDOFF_CHUNKS, MAX_SEGMENTS};

use crate::order::{AtomicRef, Device, Relaxed};
use crate::shared;

/// How a launch's chunk sums reach the block that combines them: a function
/// of the number of chunks and the grid, the same in every block.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Route {
    /// One block whose one round of the block mode covers every chunk (at
    /// most `group` of them): the chunk sums go to shared memory, and the
    /// block's barrier is the whole handoff. No global write, no second read
    /// through L2, no ticket.
    OneRound,
    /// One block: `partials` and the block's barrier.
    OneBlock,
    /// Up to [`HANDOFF_CHUNKS`] chunks: the handoff slots, gathered by the
    /// last block to start.
    Handoff,
    /// More: `partials`, fences and a finish ticket.
    Ticket,
}

impl Route {
    /// The route of a launch of `grid` blocks over `chunks` chunks (at
    /// least two), where a block's round of the block mode sums `group`.
    #[inline(always)]
    pub(super) fn of(chunks: u32, grid: u32, group: u32) -> Route {
        if grid == 1 && chunks <= group {
            Route::OneRound
        } else if grid == 1 {
            Route::OneBlock
        } else if chunks as usize <= HANDOFF_CHUNKS {
            Route::Handoff
        } else {
            Route::Ticket
        }
    }
}

/// Where a chunk's sum goes on its route.
pub(super) struct Sink {
    pub(super) route: Route,
    pub(super) partials: *mut f32,
    pub(super) slots: *mut u64,
}

impl Sink {
    /// Stores chunk `chunk`'s sum where its route takes it.
    ///
    /// # Safety
    ///
    /// `chunk < ceil(n / CHUNK)`; one thread per chunk; the pointers as in
    /// [`sum_deterministic`](super::sum_deterministic)'s contract.
    #[inline(always)]
    pub(super) unsafe fn deliver(&self, chunk: u32, sum: f32) {
        let chunk = chunk as usize;
        // SAFETY: forwarded; `partials` holds every chunk and `slots` the
        // first `HANDOFF_CHUNKS`, which is all a handoff launch has; a
        // one-round launch has at most `group <= 4` chunks, whose sums go to
        // the second 4096 bytes of shared memory, which its one round of the
        // block mode (in the first 4096) leaves alone.
        unsafe {
            if self.route == Route::OneRound {
                shared::dynamic_shared::<f32>().add(MAX_SEGMENTS + chunk).write(sum);
            } else if self.route == Route::Handoff {
                AtomicRef::<u64, Device>::from_ptr(self.slots.add(chunk))
                    .store(FULL | u64::from(sum.to_bits()), Relaxed);
            } else {
                self.partials.add(chunk).write(sum);
            }
        }
    }
}
