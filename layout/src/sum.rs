//! The sum kernels: their registry, and the deterministic kernel's layout.
//!
//! Adding a sum kernel means one entry in [`KERNELS`]; the host's sweep,
//! bench and determinism table, the PTX tests, the SASS summary and the
//! sanitizer all read it from here.

use crate::entry::{Entry, Family, Grid, ParamRole, SharedBytes, WARP_SIZE};

/// The fixed-order layout of `sum_deterministic`: the unit sizes that make its
/// result depend on `n` alone.
pub mod deterministic {
    /// Floats per chunk: the unit whose sum is fixed by the data alone. Each
    /// lane of the warp that sums a chunk loads 64 quads of it.
    pub const CHUNK: usize = 8192;

    /// Chunk sums combined per segment in the final pass.
    pub const SEGMENT: usize = 1024;

    /// The most segments the final pass holds in shared memory.
    pub const MAX_SEGMENTS: usize = 1024;

    /// The most chunks the handoff path takes (one segment): up to this many,
    /// a multi-block launch hands its chunk sums to one block through the
    /// slots of a [`Handoff`], with no fence and no second ticket; past it,
    /// through `partials` and a last-block ticket.
    pub const HANDOFF_CHUNKS: usize = SEGMENT;

    /// Shared memory the kernel needs: [`MAX_SEGMENTS`] floats for batch sums
    /// and then segment sums, and [`HANDOFF_CHUNKS`] floats where the
    /// combining block gathers the handed-off chunk sums.
    pub const SHARED_BYTES: u32 = ((MAX_SEGMENTS + HANDOFF_CHUNKS) * size_of::<f32>()) as u32;

    /// A slot's "written" bit: a slot holds `FULL | sum.to_bits()` once its
    /// chunk's sum is in it, 0 before.
    pub const FULL: u64 = 1 << 32;

    /// Where the blocks of one launch meet: the ticket and the handoff slots.
    /// All zero before the first launch; every launch leaves it all zero.
    ///
    /// A slot is one 64-bit word, the chunk's sum and its "written" bit
    /// together, so that a reader that sees the bit sees the sum: the PTX
    /// memory model performs conflicting morally strong accesses (here
    /// `st.relaxed.gpu` and `ld.relaxed.gpu` of the same aligned 8 bytes)
    /// with single-copy atomicity. No fence is needed for the data to arrive
    /// whole.
    #[repr(C)]
    #[derive(Clone, Copy, Debug)]
    pub struct Handoff {
        /// Blocks that have started (handoff path) or finished (ticket path)
        /// in the running launch.
        pub ticket: u32,
        /// Keeps `slots` 8-byte aligned.
        pub pad: u32,
        /// One per chunk, up to [`HANDOFF_CHUNKS`].
        pub slots: [u64; HANDOFF_CHUNKS],
    }

    impl crate::Pointee for Handoff {
        const NAME: &'static str = "Handoff";
    }

    impl Default for Handoff {
        fn default() -> Self {
            Handoff { ticket: 0, pad: 0, slots: [0; HANDOFF_CHUNKS] }
        }
    }

    /// The most chunks `sum_deterministic_few` takes: the last block's warp 0
    /// gathers one chunk sum a lane, and they fill its segment's first eight
    /// quads. Up to 8 the entry was faster than the general one
    /// (`results/explore/small-entries.md`), and from 9 to 32 too
    /// (`results/explore/few32.md`).
    pub const FEW_CHUNKS: usize = 32;

    /// The largest input: `CHUNK * SEGMENT * MAX_SEGMENTS` = 2^33 floats.
    pub const MAX_N: usize = CHUNK * SEGMENT * MAX_SEGMENTS;
}

/// The correctly rounded sum's cluster route ([`CORRECTLY_ROUNDED_CLUSTER`]).
pub mod correctly_rounded {
    /// Blocks of the route's one cluster: 16, the most a Hopper GPU puts in
    /// one cluster, a non-portable size the function must opt in to (8 is
    /// the portable most).
    pub const CLUSTER_BLOCKS: u32 = 16;

    /// Floats each thread adds, at most: four quads, loaded together before
    /// the first addition.
    pub const CLUSTER_PER_THREAD: u32 = 16;

    /// The smallest input the route takes. Below it the one-block entry was
    /// as fast or faster on the H200 (`results/explore/cr-cluster.md`).
    pub const CLUSTER_MIN_N: usize = 16_384;

    /// The largest input the route takes: blocks of 512 threads. At 262,144
    /// floats (blocks of 1,024) the prototype was slower warm than the
    /// general entry (`results/explore/cr-cluster.md`).
    pub const CLUSTER_MAX_N: usize = 131_072;

    /// Shared bytes after each block's limbs: one `f64` slot per block of
    /// the cluster, into which every block stores its sum in rank 0, then
    /// the 8-byte `mbarrier` that counts those stores.
    pub const CLUSTER_STATE_BYTES: u32 = (CLUSTER_BLOCKS as usize * size_of::<f64>() + size_of::<u64>()) as u32;

    /// How long rank 0 waits for the other blocks' sums before it gives up
    /// with `trap`: far past any launch the route takes (its blocks are
    /// resident together, and each adds at most 8,192 floats), so reaching
    /// it means a launch that broke the kernel's contract.
    pub const CLUSTER_WAIT_NS: u64 = 2_000_000_000;
}

/// Global atomic adds one launch sends to the accumulator: the page's
/// counting argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobalAtomics {
    /// One per element.
    PerElement,
    /// One per block of the grid.
    PerBlock,
    /// None: the kernel combines without a float atomic.
    None,
}

/// Block-wide barriers each block executes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Barriers {
    /// A fixed number per block.
    Fixed(u32),
    /// One, then one per halving step: `1 + log2(block)`.
    Tree,
}

impl Barriers {
    /// The count for a block of `threads` (a power of two).
    pub const fn per_block(self, threads: u32) -> u32 {
        match self {
            Barriers::Fixed(count) => count,
            Barriers::Tree => 1 + threads.trailing_zeros(),
        }
    }
}

pub use crate::args::sum::Arg;

param!(INPUT = input: *const f32 => ParamRole::Sum(Arg::Input));
param!(TOTAL = total: *mut f32 => ParamRole::Sum(Arg::Total));
param!(N = n: usize => ParamRole::Sum(Arg::N));
param!(PARTIALS = partials: *mut f32 => ParamRole::Sum(Arg::Partials));
param!(HANDOFF = handoff: *mut deterministic::Handoff => ParamRole::Sum(Arg::Handoff));
param!(ACC = acc: *mut crate::exact::Superaccumulator => ParamRole::Sum(Arg::Superaccumulator));

params!(
    /// The family's signature: `(input: *const f32, total: *mut f32, n: usize)`.
    pub PARAMS = [INPUT, TOTAL, N]
);

params!(
    /// The family's, then [`Scratch::ChunkPartials`]' buffers.
    pub CHUNK_PARTIALS_PARAMS = [INPUT, TOTAL, N, PARTIALS, HANDOFF]
);

params!(
    /// The family's, then [`Scratch::Superaccumulator`]'s buffer.
    pub SUPERACCUMULATOR_PARAMS = [INPUT, TOTAL, N, ACC]
);

/// The device memory a sum kernel takes after `(input, total, n)`, which the
/// host allocates: read from its parameters ([`Sum::scratch`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scratch {
    /// None: [`PARAMS`].
    None,
    /// One partial per [`deterministic::CHUNK`] and a zeroed
    /// [`deterministic::Handoff`]: [`CHUNK_PARTIALS_PARAMS`].
    ChunkPartials,
    /// A zeroed [`crate::exact::Superaccumulator`]:
    /// [`SUPERACCUMULATOR_PARAMS`].
    Superaccumulator,
}

/// What a sum kernel promises about its result on inexact input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Promise {
    /// Nothing: the hardware picks the order of some additions, so the last
    /// bits can change from run to run.
    Nothing,
    /// The same bits on every run, block and grid: a fixed addition order.
    Reproducible,
    /// The true sum's nearest `f32`, ties to even: reproducible too.
    CorrectlyRounded,
}

/// One sum kernel, adding `input[0..n]` into `*total`: its parameters are
/// [`PARAMS`], then any [`Scratch`] it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sum {
    /// What every kernel records.
    pub entry: Entry,
    /// The name in tables and messages, as on the page.
    pub label: &'static str,
    /// The short name of the sweep table's columns and "fastest" column.
    pub short: &'static str,
    /// Whether it is one of the first page's three.
    pub on_page: bool,
    /// What it promises on inexact input; `host accuracy` and the GPU tests
    /// hold it to that.
    pub promise: Promise,
    /// Dynamic shared memory per launch.
    pub shared: SharedBytes,
    /// The grid for `n` elements.
    pub grid: Grid,
    /// The counting argument.
    pub global_atomics: GlobalAtomics,
    /// Barriers per block.
    pub barriers: Barriers,
    /// The largest `n` it accepts.
    pub max_n: usize,
    /// Its second entry, for the small launches [`SmallEntry::launches`]
    /// names, if it has one.
    pub small_entry: Option<&'static SmallEntry>,
    /// Its kernel in the Hopper module for the `n` a [`ClusterRoute`]
    /// takes, if it has one: launched in place of both entries above on a
    /// device that loads that module.
    pub cluster_route: Option<&'static ClusterRoute>,
}

/// A third entry of a sum kernel, in the Hopper module, that the host
/// launches for some `n` as one thread-block cluster, whatever block was
/// asked: the same parameters, scratch and result as the kernel's own
/// entry, with the blocks meeting in one block's shared memory instead of
/// in L2, and the kernel's own body behind it for any launch its path does
/// not finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClusterRoute {
    /// Its kernel, in the Hopper module.
    pub entry: Entry,
    /// Blocks of the cluster, which is the whole grid.
    pub blocks: u32,
    /// Floats each thread adds, at most: a block has the fewest warps that
    /// keep it there.
    pub per_thread: u32,
    /// The smallest `n` it takes.
    pub min_n: usize,
    /// The largest `n` it takes.
    pub max_n: usize,
    /// Dynamic shared memory per block.
    pub shared: SharedBytes,
}

impl ClusterRoute {
    /// Threads of each block for `n` floats, if the route takes `n`: the
    /// fewest warps that give no thread more than [`Self::per_thread`].
    pub const fn threads(&self, n: usize) -> Option<u32> {
        if n < self.min_n || n > self.max_n {
            return None;
        }
        let per_block = n.div_ceil(self.blocks as usize * self.per_thread as usize);
        Some((per_block.div_ceil(WARP_SIZE as usize) * WARP_SIZE as usize) as u32)
    }

    /// Threads of each block at [`Self::max_n`], the largest block it
    /// launches.
    pub const fn max_threads(&self) -> u32 {
        match self.threads(self.max_n) {
            Some(threads) => threads,
            None => 0,
        }
    }
}

/// A second entry of a sum kernel, for some small launches: the same
/// parameters, shared memory, scratch and contract as the kernel's own
/// entry, the same additions (so the same bits), and a straight path for
/// those launches, tested first, with the kernel's own body behind it for any
/// launch the path does not finish. Unless the small routes are turned off,
/// the host launches it for exactly the launches [`SmallEntry::takes`].
///
/// A small launch's time is the chain of instructions after its loads. A
/// test for it at the top of the kernel's own entry shortens that chain, but
/// changes how `ptxas` compiles the rest, which every larger launch runs; an
/// entry of its own leaves the kernel's own machine code as it was
/// (`results/explore/cr-one-block.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmallEntry {
    /// Its kernel, whose parameters are the sum kernel's.
    pub entry: Entry,
    /// The launches it is for.
    pub launches: SmallLaunch,
}

/// The launches a [`SmallEntry`] is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmallLaunch {
    /// Every grid of one block: the kernel's small route
    /// ([`Grid::small_per_thread`]), any input one block of the asked size
    /// covers, and a grid the device's resident blocks cap at one.
    OneBlock,
    /// One block of `threads` per [`deterministic::CHUNK`], for 2 to `most`
    /// chunks.
    BlockPerChunk {
        /// Threads of each block.
        threads: u32,
        /// The most chunks.
        most: u32,
    },
}

impl SmallEntry {
    /// Whether the host launches it for `n` floats on `blocks` blocks of
    /// `threads`.
    pub const fn takes(&self, n: usize, blocks: u32, threads: u32) -> bool {
        match self.launches {
            SmallLaunch::OneBlock => blocks == 1,
            SmallLaunch::BlockPerChunk { threads: block, most } => {
                let chunks = n.div_ceil(deterministic::CHUNK);
                threads == block && chunks >= 2 && chunks <= most as usize && chunks == blocks as usize
            }
        }
    }
}

impl Sum {
    /// Global atomics one launch of `blocks` blocks performs over `n` elements.
    pub const fn global_atomics(&self, n: usize, blocks: usize) -> usize {
        match self.global_atomics {
            GlobalAtomics::PerElement => n,
            GlobalAtomics::PerBlock => blocks,
            GlobalAtomics::None => 0,
        }
    }

    /// The scratch its parameters after `n` name.
    pub fn scratch(&self) -> Scratch {
        let takes = |arg| self.entry.params.iter().any(|p| p.role == ParamRole::Sum(arg));
        if takes(Arg::Handoff) {
            Scratch::ChunkPartials
        } else if takes(Arg::Superaccumulator) {
            Scratch::Superaccumulator
        } else {
            Scratch::None
        }
    }
}

/// The page's naive sum: one global atomic add per element.
pub const GLOBAL_ATOMIC: Sum = Sum {
    entry: Entry::new(
        Family::Sum,
        "sum_global_atomic",
        &PARAMS,
        &["red.global.add.f32"],
        &["bar.sync", "red.shared"],
        &["REDG.E.ADD.F32"],
        &[".CAS"],
    ),
    label: "global atomic",
    short: "global",
    on_page: true,
    promise: Promise::Nothing,
    shared: SharedBytes::Fixed(0),
    grid: Grid::ONE_PER_ELEMENT,
    global_atomics: GlobalAtomics::PerElement,
    barriers: Barriers::Fixed(0),
    max_n: usize::MAX,
    small_entry: None,
    cluster_route: None,
};

/// The page's second sum: one shared `f32` accumulator per block.
pub const SHARED_ATOMIC: Sum = Sum {
    entry: Entry::new(
        Family::Sum,
        "sum_shared_atomic",
        &PARAMS,
        &["red.shared.add.f32", "bar.sync", "red.global.add.f32"],
        &["atom.shared"],
        // A shared-memory float add has no single instruction on sm_90: it is
        // a compare-and-swap loop.
        &["ATOMS.CAS"],
        &[],
    ),
    label: "shared atomic",
    short: "shared",
    on_page: true,
    promise: Promise::Nothing,
    shared: SharedBytes::Fixed(size_of::<f32>() as u32),
    grid: Grid::ONE_PER_ELEMENT,
    global_atomics: GlobalAtomics::PerBlock,
    barriers: Barriers::Fixed(2),
    max_n: usize::MAX,
    small_entry: None,
    cluster_route: None,
};

/// The page's third sum: a shared-memory tree per block.
pub const TREE_ATOMIC: Sum = Sum {
    entry: Entry::new(
        Family::Sum,
        "sum_tree_atomic",
        &PARAMS,
        &["bar.sync", "add.rn.f32", "red.global.add.f32"],
        &["red.shared", "atom.shared"],
        &["REDG.E.ADD.F32"],
        &["ATOMS"],
    ),
    label: "tree + atomic",
    short: "tree",
    on_page: true,
    promise: Promise::Nothing,
    shared: SharedBytes::PerThread(size_of::<f32>() as u32),
    grid: Grid::ONE_PER_ELEMENT,
    global_atomics: GlobalAtomics::PerBlock,
    barriers: Barriers::Tree,
    max_n: usize::MAX,
    small_entry: None,
    cluster_route: None,
};

/// Warp shuffles, then one shared `f32` per warp.
pub const WARP_SHUFFLE: Sum = Sum {
    entry: Entry::new(
        Family::Sum,
        "sum_warp_shuffle",
        &PARAMS,
        &["shfl.sync.bfly.b32", "bar.sync", "red.global.add.f32"],
        &["red.shared", "atom.shared"],
        &["SHFL.BFLY"],
        &["ATOMS"],
    ),
    label: "warp shuffle",
    short: "warp",
    on_page: false,
    promise: Promise::Nothing,
    shared: SharedBytes::PerWarp(size_of::<f32>() as u32),
    grid: Grid::ONE_PER_ELEMENT,
    global_atomics: GlobalAtomics::PerBlock,
    barriers: Barriers::Fixed(1),
    max_n: usize::MAX,
    small_entry: None,
    cluster_route: None,
};

/// Grid-stride 128-bit loads on a device-filling grid, then the warp combine.
pub const BANDWIDTH: Sum = Sum {
    entry: Entry::new(
        Family::Sum,
        "sum_bandwidth",
        &PARAMS,
        &["ld.global.nc.v4.f32", "shfl.sync.bfly.b32", "red.global.add.f32"],
        &["red.shared"],
        &["SHFL.BFLY", "REDG.E.ADD.F32"],
        &["ATOMS"],
    ),
    label: "bandwidth",
    short: "bandwidth",
    on_page: false,
    promise: Promise::Nothing,
    shared: SharedBytes::PerWarp(size_of::<f32>() as u32),
    // One float4 per thread per trip; past the resident blocks, threads loop.
    grid: Grid { elements_per_thread: 4, fills_device: true, small_per_thread: 0 },
    global_atomics: GlobalAtomics::PerBlock,
    barriers: Barriers::Fixed(1),
    max_n: usize::MAX,
    small_entry: None,
    cluster_route: None,
};

/// The deterministic sum's entries: its own and [`DETERMINISTIC_FEW`] make
/// the same promises, since each holds the whole kernel.
const fn deterministic_entry(symbol: &'static str) -> Entry {
    Entry::new(
        Family::Sum,
        symbol,
        &CHUNK_PARTIALS_PARAMS,
        &[
            "ld.global.nc.v4.f32",
            "shfl.sync.bfly.b32",
            "fence.acq_rel.gpu",
            "atom.global.add.u32",
            "atom.global.inc.u32",
            "bar.sync",
            "bar.red.or.pred",
            "st.relaxed.gpu.b64",
            "ld.relaxed.gpu.b64",
        ],
        &["red.global.add.f32", "atom.global.add.f32"],
        &["MEMBAR.ALL.GPU", "ATOMG.E.ADD", "ATOMG.E.INC", "BAR.RED.OR"],
        &["REDG.E.ADD.F32"],
    )
}

/// Fixed-order chunks and a last-block combine: the same bits every run.
pub const DETERMINISTIC: Sum = Sum {
    entry: deterministic_entry("sum_deterministic"),
    label: "deterministic",
    short: "deterministic",
    on_page: false,
    promise: Promise::Reproducible,
    shared: SharedBytes::Fixed(deterministic::SHARED_BYTES),
    // One chunk per eight warps (a block of 256 threads takes one chunk at a
    // time, a warp per batch): CHUNK / 256 floats per thread. No small
    // route: one block of 1024 over up to four chunks was slower than the
    // asked grid (`results/explore/small-route.md`).
    grid: Grid {
        elements_per_thread: (deterministic::CHUNK / (8 * WARP_SIZE as usize)) as u32,
        fills_device: true,
        small_per_thread: 0,
    },
    global_atomics: GlobalAtomics::None,
    // Every block of a multi-block launch meets once, at the barrier that
    // tells it whether it combines; the combining block two or three times
    // more; a block-per-chunk round once. A one-chunk launch meets once,
    // in its one round.
    barriers: Barriers::Fixed(1),
    max_n: deterministic::MAX_N,
    small_entry: Some(&DETERMINISTIC_FEW),
    cluster_route: None,
};

/// The correctly rounded sum's entries: its own and
/// [`CORRECTLY_ROUNDED_SMALL`] make the same promises, since each holds the
/// whole kernel.
const fn correctly_rounded_entry(symbol: &'static str) -> Entry {
    Entry::new(
        Family::Sum,
        symbol,
        &SUPERACCUMULATOR_PARAMS,
        // The last block's gathering (`atom.global.exch.b64`) is a function of
        // its own in the PTX, outside the entry's body; ptxas inlines it, so
        // the SASS promise names it.
        &["ld.global.nc.v4.f32", "red.global.add.u64", "fence.acq_rel.gpu", "bar.red.or.pred", "cvt.rn.f32.f64"],
        // Not one `f32` addition: floats are added in `f64`, each addition
        // checked exact, or as integers.
        &["add.f32", "add.rn.f32", "red.global.add.f32", "atom.global.add.f32"],
        &["REDG.E.ADD.64", "ATOMG.E.EXCH.64", "MEMBAR.ALL.GPU", "SHFL.BFLY"],
        &["REDG.E.ADD.F32"],
    )
}

/// An exact `f64` running sum per thread, integer limbs in shared memory for
/// what it cannot hold, integer atomics, then one rounding: the exactly
/// rounded sum.
pub const CORRECTLY_ROUNDED: Sum = Sum {
    entry: correctly_rounded_entry("sum_correctly_rounded"),
    label: "correctly rounded",
    short: "rounded",
    on_page: false,
    promise: Promise::CorrectlyRounded,
    shared: SharedBytes::PerThread((crate::exact::LIMBS * size_of::<i64>()) as u32),
    // Two float4s per thread, one trip's window: a thread whose floats all
    // arrive in its first loads waits for memory once. Past the
    // resident blocks, threads loop.
    // The small route: up to 16 floats (four quads, loaded together by its
    // small entry) per thread of one block, which rounds its own exact sum
    // with no atomic and no ticket.
    grid: Grid { elements_per_thread: 8, fills_device: true, small_per_thread: 16 },
    global_atomics: GlobalAtomics::None,
    barriers: Barriers::Fixed(1),
    // At most 2^33 keeps its quad indices in 32 bits (the kernel's `# Safety`).
    max_n: 1 << 33,
    small_entry: Some(&CORRECTLY_ROUNDED_SMALL),
    cluster_route: Some(&CORRECTLY_ROUNDED_CLUSTER),
};

/// The deterministic sum's entry for 2 to 32 chunks, a block of eight warps
/// per chunk (the host's grid from 8,193 to 262,144 floats at block 256): one
/// barrier a block, and the last block to start gathers the other chunk
/// sums in warp 0 alone, where the general path's blocks meet twice, its last
/// block four times, and that block zeroes a segment of shared memory.
pub const DETERMINISTIC_FEW: SmallEntry = SmallEntry {
    entry: deterministic_entry("sum_deterministic_few"),
    // Eight warps a block, a warp per batch of the chunk: the block mode's
    // round of one chunk, which the kernel's path checks it was given.
    launches: SmallLaunch::BlockPerChunk { threads: 8 * WARP_SIZE, most: deterministic::FEW_CHUNKS as u32 },
};

/// The correctly rounded sum's entry for one block: checked `f64` additions
/// of at most four quads a thread, one barrier, and the block rounds its own
/// sum, with no limb, ticket or atomic, unless an addition was not exact.
pub const CORRECTLY_ROUNDED_SMALL: SmallEntry =
    SmallEntry { entry: correctly_rounded_entry("sum_correctly_rounded_small"), launches: SmallLaunch::OneBlock };

/// The correctly rounded sum's cluster route, for
/// [`correctly_rounded::CLUSTER_MIN_N`] to
/// [`correctly_rounded::CLUSTER_MAX_N`] floats: one cluster of 16 blocks,
/// each adding its share in checked `f64` and storing its exact sum into
/// rank 0's shared memory with one `st.async`, counted there by an
/// `mbarrier`; rank 0 adds the 16 and rounds once. No limb, no global
/// atomic, no ticket, no fence between blocks, unless an addition was not
/// exact: then rank 0 sums the input again alone, with the kernel's own body.
pub const CORRECTLY_ROUNDED_CLUSTER: ClusterRoute = ClusterRoute {
    entry: Entry::new(
        Family::Sum,
        "sum_correctly_rounded_cluster",
        &SUPERACCUMULATOR_PARAMS,
        &[
            "ld.global.nc.v4.f32",
            "shfl.sync.bfly.b32",
            "bar.red.or.pred",
            "barrier.cluster.arrive.relaxed.aligned",
            "barrier.cluster.wait.aligned",
            "%cluster_ctarank",
            "mbarrier.init.shared::cta.b64",
            "fence.mbarrier_init.release.cluster",
            "mbarrier.arrive.expect_tx.shared::cta.b64",
            "mapa.shared::cluster.u32",
            "st.async.shared::cluster.mbarrier::complete_tx::bytes.b64",
            "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64",
            "cvt.rn.f32.f64",
            // Rank 0's way out: the kernel's own body, with its limbs,
            // atomics and ticket.
            "red.global.add.u64",
            "fence.acq_rel.gpu",
        ],
        &["add.f32", "add.rn.f32", "red.global.add.f32", "atom.global.add.f32", "barrier.cluster.arrive.aligned"],
        // The store is `STAS`, the barrier's operations `SYNCS`.
        &[
            "STAS",
            "SYNCS.EXCH.64",
            "SYNCS.ARRIVE.TRANS64",
            "SYNCS.PHASECHK",
            "UCGABAR_ARV",
            "UCGABAR_WAIT",
            "SHFL.BFLY",
        ],
        &["REDG.E.ADD.F32"],
    )
    .hopper(),
    blocks: correctly_rounded::CLUSTER_BLOCKS,
    per_thread: correctly_rounded::CLUSTER_PER_THREAD,
    min_n: correctly_rounded::CLUSTER_MIN_N,
    max_n: correctly_rounded::CLUSTER_MAX_N,
    // The kernel's own limbs (its body is the way out), then the cluster's
    // slots and `mbarrier`.
    shared: SharedBytes::PerThreadThen(
        (crate::exact::LIMBS * size_of::<i64>()) as u32,
        correctly_rounded::CLUSTER_STATE_BYTES,
    ),
};

/// Every sum kernel: the page's three in the page's order, then the roofline
/// kernels. The host's tables keep this order.
pub const KERNELS: [Sum; 7] =
    [GLOBAL_ATOMIC, SHARED_ATOMIC, TREE_ATOMIC, WARP_SHUFFLE, BANDWIDTH, DETERMINISTIC, CORRECTLY_ROUNDED];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_kernels_come_first_in_the_page_order() {
        let page: [&str; 3] = core::array::from_fn(|i| KERNELS[i].label);
        assert_eq!(page, ["global atomic", "shared atomic", "tree + atomic"]);
        assert!(KERNELS.iter().skip(3).all(|k| !k.on_page) && KERNELS.iter().take(3).all(|k| k.on_page));
    }

    #[test]
    fn launch_shapes_per_kernel() {
        assert_eq!(TREE_ATOMIC.shared.bytes(256, 0), 1024);
        assert_eq!(SHARED_ATOMIC.shared.bytes(64, 0), 4);
        assert_eq!(GLOBAL_ATOMIC.shared.bytes(64, 0), 0);
        assert_eq!(WARP_SHUFFLE.shared.bytes(1024, 0), 128);
        assert_eq!(DETERMINISTIC.shared.bytes(32, 0), 8192);
        // One chunk per eight warps: three chunks at block 256 is three blocks,
        // and at block 64 (two warps) twelve.
        assert_eq!(DETERMINISTIC.grid.blocks(8192 * 3, 256, 528), 3);
        assert_eq!(DETERMINISTIC.grid.blocks(8192 * 3, 64, 528), 12);
        assert_eq!(DETERMINISTIC.grid.blocks(1 << 28, 1024, 132), 132);
        assert_eq!(DETERMINISTIC.grid.blocks(1, 1024, 528), 1);
        assert_eq!(WARP_SHUFFLE.grid.blocks(1 << 28, 256, 528), 1 << 20);
    }

    #[test]
    fn the_small_route_is_the_correctly_rounded_sums_one_block() {
        // Its threads add up to four quads each, at every block the route
        // can take.
        for max_threads in [1024, 896, 768, 512, 256] {
            let threads = CORRECTLY_ROUNDED.grid.small_threads(max_threads) as usize;
            assert_eq!(CORRECTLY_ROUNDED.grid.small_max_n(max_threads), 16 * threads);
        }
        assert_eq!(CORRECTLY_ROUNDED.grid.small_max_n(1024), 16_384);
        for k in &KERNELS {
            assert_eq!(k.grid.small_per_thread > 0, k.label == CORRECTLY_ROUNDED.label, "{}", k.label);
        }
    }

    #[test]
    fn the_small_entries_take_the_launches_they_name() {
        use deterministic::CHUNK;
        let few = DETERMINISTIC.small_entry.unwrap();
        // At block 256 the host's grid is a block per chunk: 2 to 32 chunks
        // take the entry, one chunk and 33 do not.
        let most = deterministic::FEW_CHUNKS;
        for (n, takes) in [(CHUNK, false), (CHUNK + 1, true), (most * CHUNK, true), (most * CHUNK + 1, false)] {
            let blocks = DETERMINISTIC.grid.blocks(n, 256, 528) as u32;
            assert_eq!(few.takes(n, blocks, 256), takes, "n = {n}");
        }
        // Other blocks give other grids, which the entry does not take.
        for threads in [64, 1024] {
            let blocks = DETERMINISTIC.grid.blocks(4 * CHUNK, threads, 528) as u32;
            assert!(!few.takes(4 * CHUNK, blocks, threads));
        }
        let small = CORRECTLY_ROUNDED.small_entry.unwrap();
        assert!(small.takes(16_384, 1, 1024) && !small.takes(16_385, 2, 1024));
        assert!(KERNELS.iter().filter_map(|k| k.small_entry).all(|s| s.entry.module == crate::Module::Base));
    }

    #[test]
    fn the_cluster_route_gives_each_thread_at_most_four_quads() {
        let route = CORRECTLY_ROUNDED.cluster_route.unwrap();
        assert_eq!(route.threads(16_383), None);
        assert_eq!(route.threads(16_384), Some(64));
        assert_eq!(route.threads(16_385), Some(96));
        assert_eq!(route.threads(65_536), Some(256));
        assert_eq!(route.threads(131_072), Some(512));
        assert_eq!(route.threads(131_073), None);
        assert_eq!(route.max_threads(), 512);
        assert_eq!(route.shared.bytes(64, 0), 64 * 80 + 16 * 8 + 8);
        // It takes over where the one-block route of 1,024 threads ends.
        assert_eq!(route.min_n, CORRECTLY_ROUNDED.grid.small_max_n(1024));
        assert_eq!(route.entry.params, CORRECTLY_ROUNDED.entry.params);
        assert!(route.entry.module == crate::Module::Hopper);
    }

    #[test]
    fn the_counting_argument() {
        let n = 4_194_304;
        assert_eq!(GLOBAL_ATOMIC.global_atomics(n, n / 64), n);
        assert_eq!(SHARED_ATOMIC.global_atomics(n, n / 64), n / 64);
        assert_eq!(DETERMINISTIC.global_atomics(n, 132), 0);
        assert_eq!(TREE_ATOMIC.barriers.per_block(1024), 11);
        assert_eq!(SHARED_ATOMIC.barriers.per_block(1024), 2);
    }

    #[test]
    fn scratch_follows_the_parameters() {
        assert_eq!(GLOBAL_ATOMIC.scratch(), Scratch::None);
        assert_eq!(DETERMINISTIC.scratch(), Scratch::ChunkPartials);
        assert_eq!(CORRECTLY_ROUNDED.scratch(), Scratch::Superaccumulator);
        assert!(KERNELS.iter().all(|k| k.entry.params[..3] == PARAMS));
    }

    #[test]
    fn the_deterministic_layout_reaches_2_to_the_33() {
        assert_eq!(deterministic::MAX_N, 1 << 33);
        assert_eq!(deterministic::SHARED_BYTES, 8192);
        assert_eq!(size_of::<deterministic::Handoff>(), 8 + 8 * 1024);
    }
}
