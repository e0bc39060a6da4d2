//! `host sweep`: the three sums at each size, timed and checked, then the
//! determinism table.

pub mod args;
pub mod determinism;
pub mod report;

pub use args::SweepArgs;

use self::determinism::DeterminismReport;
use crate::sums::SweepReport;

/// What `sweep` writes: the sweep and the determinism table.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SweepResults {
    /// The sweep.
    pub sweep: SweepReport,
    /// The determinism table, unless `--determinism-runs 0`.
    pub determinism: Option<DeterminismReport>,
}
