//! The yardsticks `bench` measures the sums against, and the two kernels every
//! timed launch is queued behind (the cold flush and the hold).

use crate::registry::{Entry, Family, Param, ParamRole, Type};

/// What each argument of a baseline kernel is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    /// The flush's zeroed buffer, read and never written.
    Buffer,
    /// Quads (four floats) of `buffer` to read.
    Quads,
    /// One `u32` the flush would store to if the buffer were not zero.
    Sink,
    /// Nanoseconds the hold spins.
    Ns,
}

/// The kernel that does nothing: no parameters, any grid, no shared memory.
pub const EMPTY: Entry = Entry {
    symbol: "empty",
    family: Family::Baseline,
    params: &[],
    ptx_has: &["ret;"],
    ptx_lacks: &["ld.", "st."],
    sass_has: &[],
    // Nothing that synchronizes or communicates.
    sass_lacks: &["ATOM", "RED", "BAR", "MEMBAR", "FENCE", "CCTL", "SHFL"],
};

/// The cold-cache flush: reads a zeroed buffer of twice the L2's size, any
/// grid, no shared memory. It stores nothing (the buffer is zero), so it leaves the L2 full
/// of clean lines.
pub const EVICT_L2: Entry = Entry {
    symbol: "evict_l2",
    family: Family::Baseline,
    params: &[
        Param::new("buffer", Type::ConstPtr("f32"), ParamRole::Baseline(Arg::Buffer)),
        Param::new("quads", Type::Usize, ParamRole::Baseline(Arg::Quads)),
        Param::new("sink", Type::MutPtr("u32"), ParamRole::Baseline(Arg::Sink)),
    ],
    ptx_has: &["ld.global.nc.v4.f32"],
    ptx_lacks: &["atom.", "red.", "bar."],
    sass_has: &[],
    sass_lacks: &["ATOM", "RED", "BAR", "MEMBAR"],
};

/// The timing hold: one thread, no shared memory. It spins on
/// the global timer and touches no memory.
pub const HOLD: Entry = Entry {
    symbol: "hold",
    family: Family::Baseline,
    params: &[Param::new("ns", Type::U64, ParamRole::Baseline(Arg::Ns))],
    ptx_has: &["%globaltimer"],
    ptx_lacks: &["ld.global", "st.", "atom.", "bar."],
    sass_has: &[],
    sass_lacks: &["ATOM", "RED", "BAR", "MEMBAR"],
};

/// How long [`HOLD`] keeps the stream busy before each timed launch: longer
/// than the host takes to queue a start event, a launch and a stop event.
pub const HOLD_NS: u64 = 50_000;

/// Every baseline kernel.
pub const KERNELS: [Entry; 3] = [EMPTY, EVICT_L2, HOLD];
