//! Publishing a record from one thread to another: the second page's worked
//! example, its broken variants (a relaxed flag, a volatile one, the wrong
//! scope), and a correct cross-block version.
//!
//! Every variant runs the same protocol. The producer writes a [`Payload`]
//! `{ id: 42, score: 3.5 }` with ordinary stores, then sets a ready flag. The
//! consumer waits until it reads the flag as 1, then reads the record with
//! ordinary loads and compares it with `{42, 3.5}`. Before each round the
//! record is reset to `{0, 0.0}`, so a consumer that sees the flag but not the
//! payload reads a *stale* record, and counts it.
//!
//! | kernel | participants | flag store / load | valid? |
//! |---|---|---|---|
//! | [`publish_block_release_acquire`] | two warps, one block | `st.release.cta` / `ld.acquire.cta` | yes: the page's example |
//! | [`publish_block_relaxed`] | two warps, one block | `st.relaxed.cta` / `ld.relaxed.cta` | no: stale records are permitted |
//! | [`publish_block_volatile`] | two warps, one block | `st.volatile` / `ld.volatile` | no: volatile is relaxed (at `.sys`) |
//! | [`publish_grid_release_acquire`] | two blocks | `st.release.gpu` / `ld.acquire.gpu` | yes |
//! | [`publish_grid_relaxed`] | two blocks | `st.relaxed.gpu` / `ld.relaxed.gpu` | no: stale records are permitted |
//! | [`publish_grid_volatile`] | two blocks | `st.volatile` / `ld.volatile` | no: volatile is relaxed (at `.sys`) |
//! | [`publish_grid_wrong_scope`] | two blocks | `st.release.cta` / `ld.acquire.cta` | no: the scope excludes one thread |
//!
//! The Hopper module (`sm_90`) adds the rung between block and device: two
//! blocks of one thread-block cluster, launched in clusters of two, the
//! producer in rank 0 and the consumer in rank 1.
//!
//! | kernel | record in | flag store / load | valid? |
//! |---|---|---|---|
//! | `publish_cluster_dsmem_release_acquire` | the producer's shared memory, read through DSMEM | `st.release.cluster` / `ld.acquire.cluster.shared::cluster` | yes |
//! | `publish_cluster_dsmem_wrong_scope` | as above | `st.release.cta` / `ld.acquire.cta.shared::cluster` | no: `.cta` leaves the other block out |
//! | `publish_cluster_dsmem_relaxed` | as above | `st.relaxed.cluster` / `ld.relaxed.cluster.shared::cluster` | no: stale records are permitted |
//! | `publish_cluster_global_release_acquire` | global memory | `st.release.cluster` / `ld.acquire.cluster` | yes |
//! | `publish_cluster_barrier` | the producer's shared memory, read through DSMEM | none: `barrier.cluster` | yes |
//!
//! Across blocks, each round's flag can sit in the `ready` field of its own
//! slot (the page's layout, 16 bytes from the payload) or half the slots
//! away ([`protocol::Setup`]). Apart, the flag and the payload travel as
//! two lines, so a consumer can see one before the other; in one line they
//! tend to arrive together, and a broken variant is less likely to show its
//! stale record (the memory model permits it either way).
//!
//! The payload, slot and count layouts are [`layout::publish`]'s, the same
//! types the host allocates; the registry [`layout::publish::VARIANTS`]
//! records each variant's placement, scope and ordering.
//!
//! Waits are bounded by time: each consumer has a deadline, `budget_ns` after
//! it starts, past which a wait that has not seen the flag is counted as a
//! *timeout* instead of spinning on. A protocol that can strand a consumer
//! (a producer that is never scheduled, a flag that is never seen) then ends
//! the kernel with a count instead of hanging the GPU.

/// Exports one cross-block variant: `across_blocks! { /// docs
/// symbol = Release, Acquire at Device; }` is the kernel `symbol`, the
/// cross-block protocol ([`protocol::across_blocks`]) with its flag an
/// `order::AtomicRef<u32, Device>` that the producer stores with `Release`
/// and the consumer loads with `Acquire`, and with the `# Safety` section
/// every cross-block variant shares. The body is written once, here; a
/// variant is its docs, its two orderings and its scope.
macro_rules! across_blocks {
    ($(#[$doc:meta])* $symbol:ident = $store:ident, $load:ident at $scope:ident;) => {
        $(#[$doc])*
        ///
        /// # Safety
        ///
        /// `slots` must hold `pairs * rounds` zeroed slots (a multiple of
        /// `flag_apart` or not: the offset is taken mod the slot count),
        /// `observed` `pairs` payloads and `totals` one
        /// [`Counts`](crate::publish::Counts), all in global memory.
        #[kernel(layout::publish::INTER_BLOCK_PARAMS)]
        pub unsafe fn $symbol(
            slots: *mut $crate::publish::Slot,
            rounds: u32,
            budget_ns: u64,
            flag_apart: u32,
            preload: u32,
            delay_ns: u32,
            observed: *mut $crate::publish::Payload,
            totals: *mut $crate::publish::Counts,
        ) {
            // SAFETY: forwarded from this kernel's contract.
            unsafe {
                $crate::publish::protocol::across_blocks::<$scope>(
                    $store,
                    $load,
                    slots,
                    rounds,
                    budget_ns,
                    $crate::publish::protocol::Setup { flag_apart, preload, delay_ns },
                    observed,
                    totals,
                )
            }
        }
    };
}
use across_blocks;

// The base module's variants (`sm_70`).
#[cfg(not(feature = "hopper"))]
mod block_relaxed;
#[cfg(not(feature = "hopper"))]
mod block_release_acquire;
#[cfg(not(feature = "hopper"))]
mod block_volatile;
#[cfg(not(feature = "hopper"))]
mod grid_relaxed;
#[cfg(not(feature = "hopper"))]
mod grid_release_acquire;
#[cfg(not(feature = "hopper"))]
mod grid_volatile;
#[cfg(not(feature = "hopper"))]
mod grid_wrong_scope;
// The Hopper module's variants (`sm_90`): two blocks of one cluster.
#[cfg(feature = "hopper")]
mod cluster_barrier;
#[cfg(feature = "hopper")]
mod cluster_dsmem_relaxed;
#[cfg(feature = "hopper")]
mod cluster_dsmem_release_acquire;
#[cfg(feature = "hopper")]
mod cluster_dsmem_wrong_scope;
#[cfg(feature = "hopper")]
mod cluster_global_release_acquire;
mod protocol;

#[cfg(not(feature = "hopper"))]
pub use block_relaxed::publish_block_relaxed;
#[cfg(not(feature = "hopper"))]
pub use block_release_acquire::publish_block_release_acquire;
#[cfg(not(feature = "hopper"))]
pub use block_volatile::publish_block_volatile;
#[cfg(feature = "hopper")]
pub use cluster_barrier::publish_cluster_barrier;
#[cfg(feature = "hopper")]
pub use cluster_dsmem_relaxed::publish_cluster_dsmem_relaxed;
#[cfg(feature = "hopper")]
pub use cluster_dsmem_release_acquire::publish_cluster_dsmem_release_acquire;
#[cfg(feature = "hopper")]
pub use cluster_dsmem_wrong_scope::publish_cluster_dsmem_wrong_scope;
#[cfg(feature = "hopper")]
pub use cluster_global_release_acquire::publish_cluster_global_release_acquire;
#[cfg(not(feature = "hopper"))]
pub use grid_relaxed::publish_grid_relaxed;
#[cfg(not(feature = "hopper"))]
pub use grid_release_acquire::publish_grid_release_acquire;
#[cfg(not(feature = "hopper"))]
pub use grid_volatile::publish_grid_volatile;
#[cfg(not(feature = "hopper"))]
pub use grid_wrong_scope::publish_grid_wrong_scope;
pub use protocol::{Counts, Payload, Slot};
