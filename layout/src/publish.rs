//! The publication demo: the payload and slot layouts both sides read, and
//! the registry of its variants: seven that run on any GPU, and five between
//! two blocks of one thread-block cluster, in the Hopper module.

use crate::entry::{Entry, Family, Param, ParamRole, SharedBytes};
use crate::scope::{Placement, Scope};

/// The payload: two fields written with ordinary stores, so no single atomic
/// can cover both.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Payload {
    /// 42 once published.
    pub id: i32,
    /// 3.5 once published.
    pub score: f32,
}

impl crate::Pointee for Payload {
    const NAME: &'static str = "Payload";
}

impl Payload {
    /// What the producer publishes.
    pub const PUBLISHED: Payload = Payload { id: 42, score: 3.5 };
    /// What the payload holds before the producer writes it: zeroed memory.
    pub const EMPTY: Payload = Payload { id: 0, score: 0.0 };
}

/// One payload and its ready flag, 16 bytes: a slot never straddles two
/// 32-byte sectors. The host allocates these for the cross-block kernels and
/// zeroes them before each launch; a same-block kernel keeps one in shared
/// memory.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slot {
    /// The payload.
    pub payload: Payload,
    /// 0 until the producer publishes, then 1.
    pub ready: u32,
    /// Keeps the slot 16 bytes.
    pub padding: u32,
}

impl crate::Pointee for Slot {
    const NAME: &'static str = "Slot";
}

/// What the consumers of one launch saw, added up on the device by one
/// global atomic per field per consumer.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Rounds in which the consumer saw the flag and read the payload.
    pub pairs: u32,
    /// Of those, rounds in which the payload was not [`Payload::PUBLISHED`].
    pub stale: u32,
    /// Rounds in which the flag was not seen before the deadline.
    pub timeouts: u32,
}

impl crate::Pointee for Counts {
    const NAME: &'static str = "Counts";
}

const _: () = assert!(size_of::<Slot>() == 16 && align_of::<Slot>() == 4);
const _: () = assert!(size_of::<Counts>() == 12);

/// In a same-block variant, thread 0 of each block produces.
pub const PRODUCER: u32 = 0;
/// In a same-block variant, thread 32, in the block's second warp, consumes.
pub const CONSUMER: u32 = 32;

/// Blocks per SM in every variant's grid.
pub const BLOCKS_PER_SM: u32 = 16;

/// The publication demo's facts of each placement. Intra-block: two warps of
/// one block, the slot in shared memory. Inter-block: thread 0 of block `2p`
/// publishes to thread 0 of block `2p + 1`, the slots in global memory. The
/// two cluster placements put a pair in two blocks too, and take the
/// inter-block layout (no publication variant runs in them yet).
impl Placement {
    /// Threads per block: two warps in one block (producer in the first,
    /// consumer in the second), or one warp per block across blocks.
    pub const fn threads(self) -> u32 {
        match self {
            Placement::IntraBlock => 64,
            Placement::InterBlock | Placement::IntraCluster | Placement::InterCluster => 32,
        }
    }

    /// Rounds each pair runs per launch unless told otherwise.
    pub const fn default_rounds(self) -> u32 {
        match self {
            Placement::IntraBlock => 1024,
            Placement::InterBlock | Placement::IntraCluster | Placement::InterCluster => 2048,
        }
    }

    /// Dynamic shared memory: one [`Slot`] in a block, none across blocks.
    pub const fn shared(self) -> SharedBytes {
        match self {
            Placement::IntraBlock => SharedBytes::Fixed(size_of::<Slot>() as u32),
            Placement::InterBlock | Placement::IntraCluster | Placement::InterCluster => SharedBytes::Fixed(0),
        }
    }

    /// Producer/consumer pairs in a grid of `blocks`.
    pub const fn pairs(self, blocks: u32) -> u32 {
        match self {
            Placement::IntraBlock => blocks,
            Placement::InterBlock | Placement::IntraCluster | Placement::InterCluster => blocks / 2,
        }
    }

    /// The parameters of its kernels: [`INTRA_BLOCK_PARAMS`] or
    /// [`INTER_BLOCK_PARAMS`].
    pub const fn params(self) -> &'static [Param] {
        match self {
            Placement::IntraBlock => &INTRA_BLOCK_PARAMS,
            Placement::InterBlock | Placement::IntraCluster | Placement::InterCluster => &INTER_BLOCK_PARAMS,
        }
    }
}

/// The ordering of the flag operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ordering {
    /// `st.relaxed` / `ld.relaxed`.
    Relaxed,
    /// `st.release` / `ld.acquire`.
    ReleaseAcquire,
    /// `st.volatile` / `ld.volatile`: what CUDA C++ makes of a `volatile`
    /// flag. The PTX ISA (section 8.4.2) defines a volatile operation as a
    /// relaxed one at system scope, with constraints on the compiler only:
    /// as unordered as [`Ordering::Relaxed`].
    Volatile,
    /// No flag: a barrier of the variant's scope between the producer's
    /// stores and the consumer's loads (`barrier.cluster`, whose arrive
    /// releases and whose wait acquires at `.cluster`).
    Barrier,
}

impl Ordering {
    /// Words for tables.
    pub const fn text(self) -> &'static str {
        match self {
            Ordering::Relaxed => "relaxed",
            Ordering::ReleaseAcquire => "release/acquire",
            Ordering::Volatile => "volatile (relaxed)",
            Ordering::Barrier => "barrier, no flag",
        }
    }

    /// Whether it orders the payload before the consumer's reads, when its
    /// scope covers both threads: release/acquire and a barrier do.
    pub const fn publishes(self) -> bool {
        matches!(self, Ordering::ReleaseAcquire | Ordering::Barrier)
    }
}

/// Where a variant keeps its record and flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// In the block's shared memory: both threads in one block.
    Shared,
    /// In the producer block's shared memory, which the consumer's block of
    /// the same cluster reads through distributed shared memory (`mapa`,
    /// `ld.shared::cluster`).
    Distributed,
    /// In global memory, one [`Slot`] per round.
    Global,
}

impl Memory {
    /// Words for help and tables.
    pub const fn text(self) -> &'static str {
        match self {
            Memory::Shared => "shared memory",
            Memory::Distributed => "the producer block's shared memory, read through distributed shared memory",
            Memory::Global => "global memory",
        }
    }

    /// The parameters of its kernels: [`INTRA_BLOCK_PARAMS`] when the slot
    /// is in shared memory, [`INTER_BLOCK_PARAMS`] when it is in global
    /// memory.
    pub const fn params(self) -> &'static [Param] {
        match self {
            Memory::Shared | Memory::Distributed => &INTRA_BLOCK_PARAMS,
            Memory::Global => &INTER_BLOCK_PARAMS,
        }
    }

    /// Dynamic shared memory per block: one [`Slot`] when the record is in
    /// shared memory (every block of a cluster gets it; only the producer's
    /// is used), none when it is in global memory.
    pub const fn shared(self) -> SharedBytes {
        match self {
            Memory::Shared | Memory::Distributed => SharedBytes::Fixed(size_of::<Slot>() as u32),
            Memory::Global => SharedBytes::Fixed(0),
        }
    }
}

/// Blocks per cluster in every cluster variant: the producer is rank 0, the
/// consumer rank 1, so cluster `p` is pair `p` and, in a one-dimensional
/// grid, blocks `2p` and `2p + 1`, the pairing of the cross-block protocol.
pub const CLUSTER_BLOCKS: u32 = 2;

// Every grid of `sm_count * BLOCKS_PER_SM` blocks is a whole number of
// clusters.
const _: () = assert!(BLOCKS_PER_SM.is_multiple_of(CLUSTER_BLOCKS));

pub use crate::args::publish::Arg;

param!(SLOTS = slots: *mut Slot => ParamRole::Publish(Arg::Slots));
param!(ROUNDS = rounds: u32 => ParamRole::Publish(Arg::Rounds));
param!(BUDGET_NS = budget_ns: u64 => ParamRole::Publish(Arg::BudgetNs));
param!(FLAG_APART = flag_apart: u32 => ParamRole::Publish(Arg::FlagApart));
param!(PRELOAD = preload: u32 => ParamRole::Publish(Arg::Preload));
param!(DELAY_NS = delay_ns: u32 => ParamRole::Publish(Arg::DelayNs));
param!(OBSERVED = observed: *mut Payload => ParamRole::Publish(Arg::Observed));
param!(TOTALS = totals: *mut Counts => ParamRole::Publish(Arg::Totals));

params!(
    /// An intra-block kernel's parameters: the slot lives in shared memory.
    pub INTRA_BLOCK_PARAMS = [ROUNDS, BUDGET_NS, OBSERVED, TOTALS]
);

params!(
    /// An inter-block kernel's parameters.
    pub INTER_BLOCK_PARAMS = [SLOTS, ROUNDS, BUDGET_NS, FLAG_APART, PRELOAD, DELAY_NS, OBSERVED, TOTALS]
);

/// One variant of the protocol. Its parameters are its placement's
/// ([`Placement::params`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    /// What every kernel records.
    pub entry: Entry,
    /// The name on the command line and in tables: the symbol without
    /// `publish_`, dashed.
    pub name: &'static str,
    /// Where the two threads run.
    pub placement: Placement,
    /// The flag operations' scope.
    pub scope: Scope,
    /// The flag operations' ordering.
    pub ordering: Ordering,
    /// Where the record and its flag live.
    pub memory: Memory,
    /// Whether the memory model guarantees the consumer sees
    /// [`Payload::PUBLISHED`]: the scope includes both threads and the flag is
    /// release/acquire (or a barrier of that scope orders the two).
    pub guaranteed: bool,
}

impl Variant {
    /// Blocks per cluster its launch needs: [`CLUSTER_BLOCKS`] for the
    /// cluster variants (a launch with `cuLaunchKernelEx`), none for the
    /// others (an ordinary launch).
    pub const fn cluster(&self) -> Option<u32> {
        match self.placement {
            Placement::IntraCluster | Placement::InterCluster => Some(CLUSTER_BLOCKS),
            Placement::IntraBlock | Placement::InterBlock => None,
        }
    }
}

/// The page's example: `st.release.cta` / `ld.acquire.cta` in one block.
pub const BLOCK_RELEASE_ACQUIRE: Variant = Variant {
    entry: Entry::new(
        Family::Publish,
        "publish_block_release_acquire",
        Placement::IntraBlock.params(),
        &["st.release.cta.b32", "ld.acquire.cta.b32", "bar.sync"],
        &[".relaxed", ".gpu.b32", "fence"],
        // Release/acquire becomes a memory barrier of the scope.
        &["MEMBAR.ALL.CTA"],
        &["MEMBAR.ALL.GPU"],
    ),
    name: "block-release-acquire",
    placement: Placement::IntraBlock,
    scope: Scope::Cta,
    ordering: Ordering::ReleaseAcquire,
    memory: Memory::Shared,
    guaranteed: true,
};

// ANCHOR: block_relaxed
/// Both flag operations relaxed, in one block: stale payloads are permitted.
pub const BLOCK_RELAXED: Variant = Variant {
    entry: Entry::new(
        Family::Publish,
        "publish_block_relaxed",
        Placement::IntraBlock.params(),
        &["st.relaxed.cta.b32", "ld.relaxed.cta.b32", "bar.sync"],
        &[".release", ".acquire", "fence", "membar"],
        &[],
        // Relaxed becomes no barrier at all.
        &["MEMBAR"],
    ),
    name: "block-relaxed",
    placement: Placement::IntraBlock,
    scope: Scope::Cta,
    ordering: Ordering::Relaxed,
    memory: Memory::Shared,
    guaranteed: false,
};
// ANCHOR_END: block_relaxed

/// Both flag operations volatile, in one block: the page's "volatile as a
/// synchronization mechanism" mistake. A volatile access is relaxed at
/// system scope, which covers both warps, but it orders nothing, so stale
/// payloads are permitted exactly as with [`BLOCK_RELAXED`].
pub const BLOCK_VOLATILE: Variant = Variant {
    entry: Entry::new(
        Family::Publish,
        "publish_block_volatile",
        Placement::IntraBlock.params(),
        &["st.volatile.b32", "ld.volatile.b32", "bar.sync"],
        &[".relaxed", ".release", ".acquire", "fence", "membar"],
        &[],
        // Volatile, like relaxed, becomes no barrier at all.
        &["MEMBAR"],
    ),
    name: "block-volatile",
    placement: Placement::IntraBlock,
    scope: Scope::Sys,
    ordering: Ordering::Volatile,
    memory: Memory::Shared,
    guaranteed: false,
};

/// `st.release.gpu` / `ld.acquire.gpu` across two blocks.
pub const GRID_RELEASE_ACQUIRE: Variant = Variant {
    entry: Entry::new(
        Family::Publish,
        "publish_grid_release_acquire",
        Placement::InterBlock.params(),
        &["st.release.gpu.b32", "ld.acquire.gpu.b32", "%globaltimer"],
        &[".cta.b32", ".relaxed", "bar.sync"],
        // A device-scope acquire also invalidates L1.
        &["MEMBAR.ALL.GPU", "CCTL.IVALL"],
        &[],
    ),
    name: "grid-release-acquire",
    placement: Placement::InterBlock,
    scope: Scope::Gpu,
    ordering: Ordering::ReleaseAcquire,
    memory: Memory::Global,
    guaranteed: true,
};

/// `st.relaxed.gpu` / `ld.relaxed.gpu` across two blocks: in scope, but
/// unordered, so stale payloads are permitted.
pub const GRID_RELAXED: Variant = Variant {
    entry: Entry::new(
        Family::Publish,
        "publish_grid_relaxed",
        Placement::InterBlock.params(),
        &["st.relaxed.gpu.b32", "ld.relaxed.gpu.b32", "%globaltimer"],
        &[".release", ".acquire", "bar.sync", "fence"],
        &[],
        // Relaxed is no barrier and no L1 invalidation.
        &["MEMBAR", "CCTL"],
    ),
    name: "grid-relaxed",
    placement: Placement::InterBlock,
    scope: Scope::Gpu,
    ordering: Ordering::Relaxed,
    memory: Memory::Global,
    guaranteed: false,
};

/// `st.volatile` / `ld.volatile` across two blocks: as [`GRID_RELAXED`],
/// in scope (system scope covers every block) but unordered, so stale
/// payloads are permitted. The flag's loads and stores are strong and reach
/// past L1 (SASS `.STRONG.SYS`); the payload's plain accesses still need a
/// release and an acquire to be ordered after and before them.
pub const GRID_VOLATILE: Variant = Variant {
    entry: Entry::new(
        Family::Publish,
        "publish_grid_volatile",
        Placement::InterBlock.params(),
        &["st.volatile.b32", "ld.volatile.b32", "%globaltimer"],
        &[".relaxed", ".release", ".acquire", "bar.sync", "fence"],
        &[],
        // Volatile is no barrier and no L1 invalidation.
        &["MEMBAR", "CCTL"],
    ),
    name: "grid-volatile",
    placement: Placement::InterBlock,
    scope: Scope::Sys,
    ordering: Ordering::Volatile,
    memory: Memory::Global,
    guaranteed: false,
};

/// `st.release.cta` / `ld.acquire.cta` across two blocks: the scope leaves
/// out one of the threads.
pub const GRID_WRONG_SCOPE: Variant = Variant {
    entry: Entry::new(
        Family::Publish,
        "publish_grid_wrong_scope",
        Placement::InterBlock.params(),
        &["st.release.cta.b32", "ld.acquire.cta.b32", "%globaltimer"],
        &[".gpu.b32", ".relaxed", "bar.sync"],
        &[],
        &["MEMBAR.ALL.GPU", "CCTL"],
    ),
    name: "grid-wrong-scope",
    placement: Placement::InterBlock,
    scope: Scope::Cta,
    ordering: Ordering::ReleaseAcquire,
    memory: Memory::Global,
    guaranteed: false,
};

// The cluster rung (Hopper module): a producer and its consumer in two
// blocks of one thread-block cluster. `.cluster` scope includes the threads
// of every block of the cluster (PTX ISA, memory consistency model, section
// 8.5 "Scope"); `.cta` includes only one block's, so a `.cta` release and
// acquire between two blocks are not morally strong (section 8.7) and
// guarantee nothing, in shared memory as in global.

/// `st.release.cluster` of a flag in the producer block's shared memory,
/// `ld.acquire.cluster.shared::cluster` of it by the consumer in the other
/// block of the cluster, which then reads the record through distributed
/// shared memory.
pub const CLUSTER_DSMEM_RELEASE_ACQUIRE: Variant = Variant {
    entry: Entry::new(
        Family::Publish,
        "publish_cluster_dsmem_release_acquire",
        Memory::Distributed.params(),
        &[
            "st.release.cluster.b32",
            "ld.acquire.cluster.shared::cluster.b32",
            "mapa.shared::cluster.u32",
            "ld.shared::cluster.u32",
            "barrier.cluster.arrive",
            "barrier.cluster.wait",
            "%globaltimer",
        ],
        &[".cta.", ".relaxed", ".gpu", "bar.sync", "fence", "st.shared::cluster"],
        // `ptxas` 13 writes the `.cluster` release as the device's barrier
        // (MEMBAR.ALL.GPU before ST.E.STRONG.GPU) and the acquire as
        // LD.E.STRONG.GPU with an L1 invalidation; the cluster barrier is
        // UCGABAR_ARV / UCGABAR_WAIT (with MEMBAR.ALL.GPU for its release).
        &["UCGABAR_ARV", "UCGABAR_WAIT", "MEMBAR.ALL.GPU", "CCTL.IVALL"],
        &["MEMBAR.ALL.CTA", "MEMBAR.ALL.SYS"],
    )
    .hopper(),
    name: "cluster-dsmem-release-acquire",
    placement: Placement::IntraCluster,
    scope: Scope::Cluster,
    ordering: Ordering::ReleaseAcquire,
    memory: Memory::Distributed,
    guaranteed: true,
};

/// [`CLUSTER_DSMEM_RELEASE_ACQUIRE`] with `st.release.cta` and
/// `ld.acquire.cta.shared::cluster`: the scope leaves the other block out.
pub const CLUSTER_DSMEM_WRONG_SCOPE: Variant = Variant {
    entry: Entry::new(
        Family::Publish,
        "publish_cluster_dsmem_wrong_scope",
        Memory::Distributed.params(),
        &[
            "st.release.cta.b32",
            "ld.acquire.cta.shared::cluster.b32",
            "mapa.shared::cluster.u32",
            "ld.shared::cluster.u32",
            "barrier.cluster.arrive",
            "%globaltimer",
        ],
        &[".cluster.b32", ".relaxed", ".gpu", "bar.sync", "fence"],
        // The `.cta` release is the SM's barrier (MEMBAR.ALL.CTA before
        // ST.E.STRONG.SM), the acquire LD.E.STRONG.SM; the cluster barrier's
        // own MEMBAR.ALL.GPU is there too.
        &["UCGABAR_ARV", "UCGABAR_WAIT", "MEMBAR.ALL.CTA"],
        &["MEMBAR.ALL.SYS"],
    )
    .hopper(),
    name: "cluster-dsmem-wrong-scope",
    placement: Placement::IntraCluster,
    scope: Scope::Cta,
    ordering: Ordering::ReleaseAcquire,
    memory: Memory::Distributed,
    guaranteed: false,
};

/// [`CLUSTER_DSMEM_RELEASE_ACQUIRE`] with `st.relaxed.cluster` and
/// `ld.relaxed.cluster.shared::cluster`: in scope, unordered.
pub const CLUSTER_DSMEM_RELAXED: Variant = Variant {
    entry: Entry::new(
        Family::Publish,
        "publish_cluster_dsmem_relaxed",
        Memory::Distributed.params(),
        &[
            "st.relaxed.cluster.b32",
            "ld.relaxed.cluster.shared::cluster.b32",
            "mapa.shared::cluster.u32",
            "ld.shared::cluster.u32",
            "barrier.cluster.arrive",
            "%globaltimer",
        ],
        &[".release", ".acquire", ".cta.", ".gpu", "bar.sync", "fence"],
        // Relaxed is no barrier: the only MEMBARs are the cluster barrier's
        // (the SASS order test checks none sits before the flag's store).
        &["UCGABAR_ARV", "UCGABAR_WAIT"],
        &["MEMBAR.ALL.CTA", "MEMBAR.ALL.SYS"],
    )
    .hopper(),
    name: "cluster-dsmem-relaxed",
    placement: Placement::IntraCluster,
    scope: Scope::Cluster,
    ordering: Ordering::Relaxed,
    memory: Memory::Distributed,
    guaranteed: false,
};

/// `st.release.cluster` / `ld.acquire.cluster` of a flag in global memory,
/// between the two blocks of a cluster: the cross-block protocol, launched in
/// clusters, at the narrowest scope that covers both.
pub const CLUSTER_GLOBAL_RELEASE_ACQUIRE: Variant = Variant {
    entry: Entry::new(
        Family::Publish,
        "publish_cluster_global_release_acquire",
        Memory::Global.params(),
        &["st.release.cluster.b32", "ld.acquire.cluster.b32", "%globaltimer"],
        &[".cta.b32", ".gpu.b32", ".relaxed", "bar.sync", "barrier.cluster"],
        &["MEMBAR.ALL.GPU", "CCTL.IVALL"],
        &["MEMBAR.ALL.CTA", "MEMBAR.ALL.SYS", "UCGABAR"],
    )
    .hopper(),
    name: "cluster-global-release-acquire",
    placement: Placement::IntraCluster,
    scope: Scope::Cluster,
    ordering: Ordering::ReleaseAcquire,
    memory: Memory::Global,
    guaranteed: true,
};

/// No flag: the producer's plain stores into its shared record, the cluster
/// barrier, the consumer's plain `ld.shared::cluster` of it.
pub const CLUSTER_BARRIER: Variant = Variant {
    entry: Entry::new(
        Family::Publish,
        "publish_cluster_barrier",
        Memory::Distributed.params(),
        &["mapa.shared::cluster.u32", "ld.shared::cluster.u32", "barrier.cluster.arrive", "barrier.cluster.wait"],
        // No flag, so no strong access and no deadline.
        &[".release", ".acquire", ".relaxed", "bar.sync", "fence", "%globaltimer"],
        // The barrier's release is MEMBAR.ALL.GPU, its acquire CCTL.IVALL.
        &["UCGABAR_ARV", "UCGABAR_WAIT", "MEMBAR.ALL.GPU", "CCTL.IVALL"],
        &["MEMBAR.ALL.CTA", "MEMBAR.ALL.SYS"],
    )
    .hopper(),
    name: "cluster-barrier",
    placement: Placement::IntraCluster,
    scope: Scope::Cluster,
    ordering: Ordering::Barrier,
    memory: Memory::Distributed,
    guaranteed: true,
};

/// Every variant, in the order the README discusses them, each volatile one
/// after the relaxed one of its placement; the cluster variants (Hopper
/// module) last.
pub const VARIANTS: [Variant; 12] = [
    BLOCK_RELEASE_ACQUIRE,
    BLOCK_RELAXED,
    BLOCK_VOLATILE,
    GRID_RELEASE_ACQUIRE,
    GRID_RELAXED,
    GRID_VOLATILE,
    GRID_WRONG_SCOPE,
    CLUSTER_DSMEM_RELEASE_ACQUIRE,
    CLUSTER_DSMEM_WRONG_SCOPE,
    CLUSTER_DSMEM_RELAXED,
    CLUSTER_GLOBAL_RELEASE_ACQUIRE,
    CLUSTER_BARRIER,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_is_guaranteed_exactly_when_release_acquire_covers_both_threads() {
        for v in VARIANTS {
            let covers = v.scope.covers(v.placement);
            assert_eq!(v.guaranteed, covers && v.ordering.publishes(), "{}", v.name);
        }
    }

    #[test]
    fn a_variants_parameters_are_its_memorys() {
        for v in VARIANTS {
            assert_eq!(v.entry.params, v.memory.params(), "{}", v.name);
        }
    }

    #[test]
    fn the_cluster_variants_are_the_hopper_modules_and_pair_two_blocks_of_a_cluster() {
        for v in VARIANTS {
            let in_cluster = v.placement == Placement::IntraCluster;
            assert_eq!(v.entry.module == crate::Module::Hopper, in_cluster, "{}", v.name);
            assert_eq!(v.cluster(), in_cluster.then_some(CLUSTER_BLOCKS), "{}", v.name);
            // Distributed shared memory exists only between blocks of a
            // cluster, a block's own shared memory only within the block.
            match v.memory {
                Memory::Shared => assert_eq!(v.placement, Placement::IntraBlock, "{}", v.name),
                Memory::Distributed => assert!(in_cluster, "{}", v.name),
                Memory::Global => assert_ne!(v.placement, Placement::IntraBlock, "{}", v.name),
            }
            if v.ordering == Ordering::Barrier {
                assert_eq!(v.scope, Scope::Cluster, "{}: only the cluster barrier publishes", v.name);
            }
        }
        // Block pairs (2p, 2p + 1) are the ranks of one cluster.
        assert_eq!(CLUSTER_BLOCKS, 2);
        assert_eq!(Placement::IntraCluster.pairs(8), 8 / CLUSTER_BLOCKS);
    }

    #[test]
    fn the_cluster_rung_has_a_correct_wrong_scope_and_relaxed_publication() {
        let has = |memory, scope, ordering, guaranteed| {
            VARIANTS
                .iter()
                .filter(|v| v.placement == Placement::IntraCluster)
                .any(|v| v.memory == memory && v.scope == scope && v.ordering == ordering && v.guaranteed == guaranteed)
        };
        assert!(has(Memory::Distributed, Scope::Cluster, Ordering::ReleaseAcquire, true));
        assert!(has(Memory::Distributed, Scope::Cta, Ordering::ReleaseAcquire, false));
        assert!(has(Memory::Distributed, Scope::Cluster, Ordering::Relaxed, false));
        assert!(has(Memory::Global, Scope::Cluster, Ordering::ReleaseAcquire, true));
        assert!(has(Memory::Distributed, Scope::Cluster, Ordering::Barrier, true));
    }

    #[test]
    fn names_are_the_symbols_dashed() {
        for v in VARIANTS {
            let dashed = v.entry.symbol.strip_prefix("publish_").unwrap().as_bytes();
            assert!(dashed.iter().zip(v.name.as_bytes()).all(|(s, n)| *s == *n || (*s == b'_' && *n == b'-')));
            assert_eq!(dashed.len(), v.name.len());
        }
    }

    #[test]
    fn a_block_holds_the_consumer_of_a_same_block_pair() {
        assert!(Placement::IntraBlock.threads() > CONSUMER && PRODUCER / 32 != CONSUMER / 32);
    }
}
