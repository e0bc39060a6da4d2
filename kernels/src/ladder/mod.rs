//! The price of each rung of the scope ladder: a ping-pong round trip
//! between two agents at `.cta`, `.cluster`, `.gpu` and `.sys`, and a loop of
//! fences at each scope.
//!
//! | kernel | agents | flags | flag store / load |
//! |---|---|---|---|
//! | `ladder_trip_cta` | two warps of one block | shared memory | `st.release.cta` / `ld.acquire.cta` |
//! | `ladder_trip_cluster` | two blocks of one cluster (Hopper module) | each block's shared memory, written through distributed shared memory | `st.release.cluster.shared::cluster` / `ld.acquire.cluster.shared::cluster` |
//! | `ladder_trip_gpu` | two blocks, on two SMs | global memory (L2) | `st.release.gpu` / `ld.acquire.gpu` |
//! | `ladder_trip_sys` | one GPU thread and one CPU thread | pinned host memory mapped into the device | `st.release.sys` / `ld.acquire.sys` |
//!
//! The protocol ([`protocol`]) and the words a kernel reports are
//! [`layout::ladder`]'s. The fence loops are one body ([`fence::fence_loop`])
//! exported once per fence by [`fence_loop!`], as the litmus suite exports
//! one test per variant: a fence kernel is its doc and its fence.

/// Exports one fence loop: `fence_loop! { /// docs symbol = || fence(AcqRel,
/// Device); }` is the kernel `symbol`, [`fence::fence_loop`] with that
/// closure's fence between the stores,
/// with the `# Launch`, `# Thread mapping` and `# Safety` sections every
/// fence loop shares.
macro_rules! fence_loop {
    ($(#[$doc:meta])* $symbol:ident = $fence:expr;) => {
        $(#[$doc])*
        ///
        /// # Launch
        ///
        /// One block of one thread (any grid works: only the grid's thread 0
        /// runs). No shared memory.
        ///
        /// # Thread mapping
        ///
        /// Thread 0 times `repeats` loops of `iterations` volatile stores to
        /// `sink`, each followed by the fence, on `%globaltimer`, and writes
        /// each loop's nanoseconds to `samples`.
        ///
        /// # Safety
        ///
        /// `sink` must point to one `u32` and `samples` to `repeats` `u64`s,
        /// in global memory.
        #[kernel(layout::ladder::FENCE_PARAMS)]
        pub unsafe fn $symbol(sink: *mut u32, iterations: u32, repeats: u32, samples: *mut u64) {
            // SAFETY: forwarded from this kernel's contract.
            unsafe { $crate::ladder::fence::fence_loop($fence, sink, iterations, repeats, samples) }
        }
    };
}

pub mod fence;
pub mod protocol;
// A kernel is in one module: the `.cluster` rung and fences in the Hopper
// module, the others in the base one.
#[cfg(feature = "hopper")]
mod trip_cluster;
#[cfg(not(feature = "hopper"))]
mod trip_cta;
#[cfg(not(feature = "hopper"))]
mod trip_gpu;
#[cfg(not(feature = "hopper"))]
mod trip_sys;

#[cfg(feature = "hopper")]
pub use trip_cluster::ladder_trip_cluster;
#[cfg(not(feature = "hopper"))]
pub use trip_cta::ladder_trip_cta;
#[cfg(not(feature = "hopper"))]
pub use trip_gpu::ladder_trip_gpu;
#[cfg(not(feature = "hopper"))]
pub use trip_sys::ladder_trip_sys;

#[cfg(feature = "hopper")]
use crate::order::Cluster;
use crate::order::{AcqRel, SeqCst, fence};
#[cfg(not(feature = "hopper"))]
use crate::order::{Block, Device, System};

#[cfg(not(feature = "hopper"))]
fence_loop! {
    /// The fence loops' baseline: the same stores and loop, no fence.
    ladder_fence_none = fence::no_fence;
}
#[cfg(not(feature = "hopper"))]
fence_loop! {
    /// A loop of `fence.acq_rel.cta`.
    ladder_fence_acq_rel_cta = || fence(AcqRel, Block);
}
#[cfg(not(feature = "hopper"))]
fence_loop! {
    /// A loop of `fence.acq_rel.gpu`.
    ladder_fence_acq_rel_gpu = || fence(AcqRel, Device);
}
#[cfg(not(feature = "hopper"))]
fence_loop! {
    /// A loop of `fence.acq_rel.sys`.
    ladder_fence_acq_rel_sys = || fence(AcqRel, System);
}
#[cfg(not(feature = "hopper"))]
fence_loop! {
    /// A loop of `fence.sc.cta`.
    ladder_fence_sc_cta = || fence(SeqCst, Block);
}
#[cfg(not(feature = "hopper"))]
fence_loop! {
    /// A loop of `fence.sc.gpu`.
    ladder_fence_sc_gpu = || fence(SeqCst, Device);
}
#[cfg(not(feature = "hopper"))]
fence_loop! {
    /// A loop of `fence.sc.sys`.
    ladder_fence_sc_sys = || fence(SeqCst, System);
}
#[cfg(feature = "hopper")]
fence_loop! {
    /// A loop of `fence.acq_rel.cluster` (Hopper module).
    ladder_fence_acq_rel_cluster = || fence(AcqRel, Cluster);
}
#[cfg(feature = "hopper")]
fence_loop! {
    /// A loop of `fence.sc.cluster` (Hopper module).
    ladder_fence_sc_cluster = || fence(SeqCst, Cluster);
}
