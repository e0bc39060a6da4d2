//! The yardsticks `bench` measures the sums against.

use crate::registry::{Entry, Family};

/// The kernel that does nothing: `()`, any grid, no shared memory.
pub const EMPTY: Entry = Entry {
    symbol: "empty",
    family: Family::Baseline,
    ptx_has: &["ret;"],
    ptx_lacks: &["ld.", "st."],
    sass_has: &[],
    // Nothing that synchronizes or communicates.
    sass_lacks: &["ATOM", "RED", "BAR", "MEMBAR", "FENCE", "CCTL", "SHFL"],
};

/// Every baseline kernel.
pub const KERNELS: [Entry; 1] = [EMPTY];
