//! The scope ladder's price: a ping-pong round trip between two agents at
//! each scope (`.cta`, `.cluster`, `.gpu`, `.sys`), and the cost of one fence
//! at each scope. The registry of its kernels and the words they report.
//!
//! # The round trip
//!
//! Agent A (the *pinger*) stores `i` into B's flag with a release store at the
//! rung's scope, then spins with acquire loads at that scope until its own flag
//! reads `i`; agent B (the *ponger*) spins until its flag reads `i`, then
//! stores `i` into A's. One `i` is one round trip. A times [`Arg::PerBatch`]
//! round trips at a time on `%globaltimer` and writes each batch's
//! nanoseconds as one sample. Every spin has a deadline of `budget_ns` from
//! its start; an agent whose spin passes it counts one timeout and stops, so
//! the other one's next spin times out too and the kernel ends.
//!
//! # The fence loop
//!
//! One thread stores to a global word and issues the fence, `iterations`
//! times, and times the loop on `%globaltimer`, `repeats` times; the same loop
//! without the fence ([`FENCE_NONE`]) is the baseline the host subtracts.

use crate::entry::{Entry, Family, ParamRole, SharedBytes};

pub use crate::args::ladder::Arg;

/// Words of the report a round-trip kernel writes, in this order:
/// [`TRIPS`], [`PING_TIMEOUTS`], [`PONG_TIMEOUTS`], [`PING_SM`], [`PONG_SM`].
pub const REPORT_WORDS: usize = 5;
/// Report word: round trips A completed.
pub const TRIPS: usize = 0;
/// Report word: A's timeouts (0 or 1: it stops at its first).
pub const PING_TIMEOUTS: usize = 1;
/// Report word: B's timeouts (0 or 1), for the device-side pongers.
pub const PONG_TIMEOUTS: usize = 2;
/// Report word: the SM (`%smid`) A ran on.
pub const PING_SM: usize = 3;
/// Report word: the SM B ran on (the `.sys` rung's B is the CPU: left 0).
pub const PONG_SM: usize = 4;

/// `u32`s of the flag buffer of the `.gpu` and `.sys` rungs, and of the
/// `.cta` rung's shared memory: B's flag (the ping) at word 0 and A's (the
/// pong) 32 words (128 bytes, a line of L1 and L2, two lines of a CPU's
/// cache) away, so that the two flags never share a line.
pub const FLAG_WORDS: usize = 64;
/// Where B's flag, which A stores the ping into, sits.
pub const PING_WORD: usize = 0;
/// Where A's flag, which B stores the pong into, sits.
pub const PONG_WORD: usize = 32;

/// The `.cta` rung's block: two warps; thread 0 is A, thread 32 is B.
pub const CTA_THREADS: u32 = 64;
/// The `.cta` rung's shared memory: the two flags.
pub const CTA_SHARED_BYTES: SharedBytes = SharedBytes::Fixed((FLAG_WORDS * 4) as u32);
/// The `.cluster` and `.gpu` rungs' blocks: one warp each; thread 0 of block
/// (or cluster rank) 0 is A, of block 1 is B.
pub const PAIR_THREADS: u32 = 32;
/// The `.cluster` rung's shared memory per block: the block's own flag (its
/// inbox), which the other block stores into through distributed shared
/// memory.
pub const CLUSTER_SHARED_BYTES: SharedBytes = SharedBytes::Fixed(4);

param!(FLAGS = flags: *mut u32 => ParamRole::Ladder(Arg::Flags));
param!(BATCHES = batches: u32 => ParamRole::Ladder(Arg::Batches));
param!(PER_BATCH = per_batch: u32 => ParamRole::Ladder(Arg::PerBatch));
param!(BUDGET_NS = budget_ns: u64 => ParamRole::Ladder(Arg::BudgetNs));
param!(SAMPLES = samples: *mut u64 => ParamRole::Ladder(Arg::Samples));
param!(REPORT = report: *mut u32 => ParamRole::Ladder(Arg::Report));
param!(SINK = sink: *mut u32 => ParamRole::Ladder(Arg::Sink));
param!(ITERATIONS = iterations: u32 => ParamRole::Ladder(Arg::Iterations));
param!(REPEATS = repeats: u32 => ParamRole::Ladder(Arg::Repeats));

params!(
    /// The parameters of a round trip whose flags are in shared memory.
    pub SHARED_TRIP_PARAMS = [BATCHES, PER_BATCH, BUDGET_NS, SAMPLES, REPORT]
);
params!(
    /// The parameters of a round trip whose flags are in global or host memory.
    pub MEMORY_TRIP_PARAMS = [FLAGS, BATCHES, PER_BATCH, BUDGET_NS, SAMPLES, REPORT]
);
params!(
    /// The parameters of a fence loop.
    pub FENCE_PARAMS = [SINK, ITERATIONS, REPEATS, SAMPLES]
);

/// Nothing a round trip may contain: read-modify-writes.
const NO_RMW: &[&str] = &["atom.", "red.global", "red.shared"];

/// The `.cta` rung: two warps of one block, flags in shared memory.
pub const TRIP_CTA: Entry = Entry::new(
    Family::Ladder,
    "ladder_trip_cta",
    &SHARED_TRIP_PARAMS,
    &["st.release.cta.b32", "ld.acquire.cta.b32", "%globaltimer", "%smid"],
    NO_RMW,
    // The release store's block-scope fence.
    &["MEMBAR.ALL.CTA"],
    &["ATOM", "RED", "MEMBAR.ALL.GPU", "MEMBAR.ALL.SYS"],
);

/// The `.cluster` rung (Hopper module): two blocks of one cluster of two,
/// flags in each other's shared memory through distributed shared memory.
pub const TRIP_CLUSTER: Entry = Entry::new(
    Family::Ladder,
    "ladder_trip_cluster",
    &SHARED_TRIP_PARAMS,
    &[
        "st.release.cluster.shared::cluster.u32",
        "ld.acquire.cluster.shared::cluster.b32",
        "mapa.shared::cluster.u32",
        "barrier.cluster.arrive",
        "barrier.cluster.wait",
        "%globaltimer",
    ],
    NO_RMW,
    // ptxas 13.0 gives the cluster-scope release the device-scope fence.
    &["UCGABAR_ARV", "UCGABAR_WAIT", "MEMBAR.ALL.GPU"],
    &["ATOM", "RED", "MEMBAR.ALL.SYS"],
)
.hopper();

/// The `.gpu` rung: two blocks (on two SMs, which the report's SM words
/// show), flags in global memory.
pub const TRIP_GPU: Entry = Entry::new(
    Family::Ladder,
    "ladder_trip_gpu",
    &MEMORY_TRIP_PARAMS,
    &["st.release.gpu.b32", "ld.acquire.gpu.b32", "%globaltimer", "%smid"],
    NO_RMW,
    &["MEMBAR.ALL.GPU"],
    &["ATOM", "RED", "MEMBAR.ALL.SYS"],
);

/// The `.sys` rung: one GPU thread (A) and one CPU thread (B), flags in
/// pinned host memory mapped into the device.
pub const TRIP_SYS: Entry = Entry::new(
    Family::Ladder,
    "ladder_trip_sys",
    &MEMORY_TRIP_PARAMS,
    &["st.release.sys.b32", "ld.acquire.sys.b32", "%globaltimer"],
    NO_RMW,
    &["MEMBAR.ALL.SYS"],
    &["ATOM", "RED"],
);

/// The fence loop's baseline: the store and the loop, no fence.
pub const FENCE_NONE: Entry = Entry::new(
    Family::Ladder,
    "ladder_fence_none",
    &FENCE_PARAMS,
    &["st.volatile.b32", "%globaltimer"],
    &["fence.", "membar."],
    &[],
    &["MEMBAR", "FENCE", "ATOM", "RED"],
);

/// Declares a fence loop's entry: its symbol and the fence it must contain.
const fn fence(symbol: &'static str, ptx: &'static [&'static str], sass: &'static [&'static str]) -> Entry {
    Entry::new(Family::Ladder, symbol, &FENCE_PARAMS, ptx, &["atom.", "red.global"], sass, &["ATOM", "RED"])
}

/// `fence.acq_rel.cta` in the loop.
pub const FENCE_ACQ_REL_CTA: Entry = fence("ladder_fence_acq_rel_cta", &["fence.acq_rel.cta;"], &["MEMBAR.ALL.CTA"]);
/// `fence.acq_rel.cluster` in the loop (Hopper module).
pub const FENCE_ACQ_REL_CLUSTER: Entry =
    fence("ladder_fence_acq_rel_cluster", &["fence.acq_rel.cluster;"], &["MEMBAR.ALL.GPU"]).hopper();
/// `fence.acq_rel.gpu` in the loop.
pub const FENCE_ACQ_REL_GPU: Entry = fence("ladder_fence_acq_rel_gpu", &["fence.acq_rel.gpu;"], &["MEMBAR.ALL.GPU"]);
/// `fence.acq_rel.sys` in the loop.
pub const FENCE_ACQ_REL_SYS: Entry = fence("ladder_fence_acq_rel_sys", &["fence.acq_rel.sys;"], &["MEMBAR.ALL.SYS"]);
/// `fence.sc.cta` in the loop.
pub const FENCE_SC_CTA: Entry = fence("ladder_fence_sc_cta", &["fence.sc.cta;"], &["MEMBAR.SC.CTA"]);
/// `fence.sc.cluster` in the loop (Hopper module); ptxas 13.0 gives it the
/// device-scope fence's code.
pub const FENCE_SC_CLUSTER: Entry =
    fence("ladder_fence_sc_cluster", &["fence.sc.cluster;"], &["MEMBAR.SC.GPU"]).hopper();
/// `fence.sc.gpu` in the loop.
pub const FENCE_SC_GPU: Entry = fence("ladder_fence_sc_gpu", &["fence.sc.gpu;"], &["MEMBAR.SC.GPU"]);
/// `fence.sc.sys` in the loop.
pub const FENCE_SC_SYS: Entry = fence("ladder_fence_sc_sys", &["fence.sc.sys;"], &["MEMBAR.SC.SYS"]);

/// Every ladder kernel: the four round trips, then the fence loops'
/// baseline and the fences, acq_rel then sc, each from `.cta` to `.sys`.
pub const KERNELS: [Entry; 13] = [
    TRIP_CTA,
    TRIP_CLUSTER,
    TRIP_GPU,
    TRIP_SYS,
    FENCE_NONE,
    FENCE_ACQ_REL_CTA,
    FENCE_ACQ_REL_CLUSTER,
    FENCE_ACQ_REL_GPU,
    FENCE_ACQ_REL_SYS,
    FENCE_SC_CTA,
    FENCE_SC_CLUSTER,
    FENCE_SC_GPU,
    FENCE_SC_SYS,
];
