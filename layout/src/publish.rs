//! The publication demo: the payload and slot layouts both sides read, and
//! the registry of its seven variants.

use crate::registry::{Entry, Family, Param, ParamRole, SharedBytes, Type};
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
}

impl Ordering {
    /// Words for tables.
    pub const fn text(self) -> &'static str {
        match self {
            Ordering::Relaxed => "relaxed",
            Ordering::ReleaseAcquire => "release/acquire",
            Ordering::Volatile => "volatile (relaxed)",
        }
    }
}

/// What each argument of a publication kernel is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    /// Across blocks: one [`Slot`] per pair per round, zeroed before each
    /// launch.
    Slots,
    /// Producer/consumer rounds each pair runs.
    Rounds,
    /// Each consumer's time budget before its waits time out.
    BudgetNs,
    /// Across blocks: slots from a round's payload to its flag (0: the
    /// slot's own `ready`).
    FlagApart,
    /// Across blocks: 1 if the consumer reads the payload once before it
    /// waits.
    Preload,
    /// Across blocks: nanoseconds the producer waits before each round's
    /// publication.
    DelayNs,
    /// One [`Payload`] per consumer: the last one it read.
    Observed,
    /// One [`Counts`] for the launch, zeroed before it.
    Totals,
}

const SLOTS: Param = Param::new("slots", Type::MutPtr("Slot"), ParamRole::Publish(Arg::Slots));
const ROUNDS: Param = Param::new("rounds", Type::U32, ParamRole::Publish(Arg::Rounds));
const BUDGET_NS: Param = Param::new("budget_ns", Type::U64, ParamRole::Publish(Arg::BudgetNs));
const FLAG_APART: Param = Param::new("flag_apart", Type::U32, ParamRole::Publish(Arg::FlagApart));
const PRELOAD: Param = Param::new("preload", Type::U32, ParamRole::Publish(Arg::Preload));
const DELAY_NS: Param = Param::new("delay_ns", Type::U32, ParamRole::Publish(Arg::DelayNs));
const OBSERVED: Param = Param::new("observed", Type::MutPtr("Payload"), ParamRole::Publish(Arg::Observed));
const TOTALS: Param = Param::new("totals", Type::MutPtr("Counts"), ParamRole::Publish(Arg::Totals));

/// An intra-block kernel's parameters: the slot lives in shared memory.
pub const INTRA_BLOCK_PARAMS: [Param; 4] = [ROUNDS, BUDGET_NS, OBSERVED, TOTALS];

/// An inter-block kernel's parameters.
pub const INTER_BLOCK_PARAMS: [Param; 8] = [SLOTS, ROUNDS, BUDGET_NS, FLAG_APART, PRELOAD, DELAY_NS, OBSERVED, TOTALS];

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
    /// Whether the memory model guarantees the consumer sees
    /// [`Payload::PUBLISHED`]: the scope includes both threads and the flag is
    /// release/acquire.
    pub guaranteed: bool,
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
    guaranteed: false,
};

/// Every variant, in the order the README discusses them, each volatile one
/// after the relaxed one of its placement.
pub const VARIANTS: [Variant; 7] = [
    BLOCK_RELEASE_ACQUIRE,
    BLOCK_RELAXED,
    BLOCK_VOLATILE,
    GRID_RELEASE_ACQUIRE,
    GRID_RELAXED,
    GRID_VOLATILE,
    GRID_WRONG_SCOPE,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_is_guaranteed_exactly_when_release_acquire_covers_both_threads() {
        for v in VARIANTS {
            let covers = v.scope.covers(v.placement);
            assert_eq!(v.guaranteed, covers && v.ordering == Ordering::ReleaseAcquire, "{}", v.name);
        }
    }

    #[test]
    fn a_variants_parameters_are_its_placements() {
        for v in VARIANTS {
            assert_eq!(v.entry.params, v.placement.params(), "{}", v.name);
        }
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
