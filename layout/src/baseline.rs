//! The yardsticks `bench` measures the sums against, and the two kernels every
//! timed launch is queued behind (the cold flush and the hold).

use crate::entry::{Entry, Family, Module, ParamRole, SharedBytes};

pub use crate::args::baseline::Arg;

/// The kernel that does nothing: no parameters, any grid, no shared memory.
pub const EMPTY: Entry = Entry {
    symbol: "empty",
    family: Family::Baseline,
    params: &EMPTY_PARAMS,
    ptx_has: &["ret;"],
    ptx_lacks: &["ld.", "st."],
    sass_has: &[],
    // Nothing that synchronizes or communicates.
    sass_lacks: &["ATOM", "RED", "BAR", "MEMBAR", "FENCE", "CCTL", "SHFL"],
    module: Module::Base,
};

param!(BUFFER = buffer: *const f32 => ParamRole::Baseline(Arg::Buffer));
param!(QUADS = quads: usize => ParamRole::Baseline(Arg::Quads));
param!(SINK = sink: *mut u32 => ParamRole::Baseline(Arg::Sink));
param!(NS = ns: u64 => ParamRole::Baseline(Arg::Ns));
param!(REPORT = report: *mut u32 => ParamRole::Baseline(Arg::Report));
params!(
    /// [`EVICT_L2`]'s parameters.
    pub EVICT_PARAMS = [BUFFER, QUADS, SINK]
);
params!(
    /// [`HOLD`]'s parameter.
    pub HOLD_PARAMS = [NS]
);
params!(
    /// [`CLUSTER_PROBE`]'s parameter.
    pub PROBE_PARAMS = [REPORT]
);
params!(
    /// [`EMPTY`]'s parameters: none.
    pub EMPTY_PARAMS = []
);

/// The cold-cache flush: reads a zeroed buffer of twice the L2's size, any
/// grid, no shared memory. It stores nothing (the buffer is zero), so it leaves the L2 full
/// of clean lines.
pub const EVICT_L2: Entry = Entry {
    symbol: "evict_l2",
    family: Family::Baseline,
    params: &EVICT_PARAMS,
    ptx_has: &["ld.global.nc.v4.f32"],
    ptx_lacks: &["atom.", "red.", "bar."],
    sass_has: &[],
    sass_lacks: &["ATOM", "RED", "BAR", "MEMBAR"],
    module: Module::Base,
};

/// The timing hold: one thread, no shared memory. It spins on
/// the global timer and touches no memory.
pub const HOLD: Entry = Entry {
    symbol: "hold",
    family: Family::Baseline,
    params: &HOLD_PARAMS,
    ptx_has: &["%globaltimer"],
    ptx_lacks: &["ld.global", "st.", "atom.", "bar."],
    sass_has: &[],
    sass_lacks: &["ATOM", "RED", "BAR", "MEMBAR"],
    module: Module::Base,
};

/// How long [`HOLD`] keeps the stream busy before each timed launch: longer
/// than the host takes to queue a start event, a launch and a stop event.
pub const HOLD_NS: u64 = 50_000;

/// The cluster launch's check (Hopper module): what a launch with thread-block
/// clusters gave each block, and a word read from a neighbouring block's
/// shared memory. One block of any size per cluster rank, a grid that is a
/// multiple of the cluster size, [`PROBE_SHARED_BYTES`] of shared memory.
pub const CLUSTER_PROBE: Entry = Entry::new(
    Family::Baseline,
    "cluster_probe",
    &PROBE_PARAMS,
    &[
        "mapa.shared::cluster.u32",
        "ld.shared::cluster.u32",
        "barrier.cluster.arrive",
        "barrier.cluster.wait",
        "%cluster_ctarank",
    ],
    // `red.` alone would match `cvta.shared`.
    &["atom.", "red.global", "red.shared"],
    &["UCGABAR_ARV", "UCGABAR_WAIT"],
    &["ATOM", "RED"],
)
.hopper();

/// Words [`CLUSTER_PROBE`] writes per block, in this order: the block's rank
/// in its cluster (`%cluster_ctarank`), the cluster's size in blocks
/// (`%cluster_nctarank`), the cluster's index in the grid (`%clusterid.x`),
/// and the block index that the next rank of the cluster (`(rank + 1) % size`)
/// had stored in its shared memory, read through distributed shared memory.
pub const PROBE_WORDS: usize = 4;

/// The probe's dynamic shared memory: one `u32`, its block's index.
pub const PROBE_SHARED_BYTES: SharedBytes = SharedBytes::Fixed(4);

/// Every baseline kernel.
pub const KERNELS: [Entry; 4] = [EMPTY, EVICT_L2, HOLD, CLUSTER_PROBE];
