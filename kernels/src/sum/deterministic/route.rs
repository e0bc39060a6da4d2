//! How a launch's chunk sums reach the one block that adds them, chosen from
//! the number of chunks and the grid alone, so every block takes the same
//! route: one block (its barrier), the handoff slots, or `partials` and the
//! finish ticket.

use layout::sum::deterministic::{FULL, HANDOFF_CHUNKS};

use crate::order::{AtomicRef, Device, Relaxed};

/// How a launch's chunk sums reach the block that combines them: a function
/// of the number of chunks and the grid, the same in every block.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Route {
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
    /// least two).
    #[inline(always)]
    pub(super) fn of(chunks: u32, grid: u32) -> Route {
        if grid == 1 {
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
        // first `HANDOFF_CHUNKS`, which is all a handoff launch has.
        unsafe {
            if self.route == Route::Handoff {
                AtomicRef::<u64, Device>::from_ptr(self.slots.add(chunk))
                    .store(FULL | u64::from(sum.to_bits()), Relaxed);
            } else {
                self.partials.add(chunk).write(sum);
            }
        }
    }
}
