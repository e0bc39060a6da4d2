//! The one result type every command produces, and every exporter reads.

use crate::accuracy::AccuracyReport;
use crate::bench::BenchReport;
use crate::determinism::DeterminismReport;
use crate::exercise::ExerciseReport;
use crate::gpu::DeviceInfo;
use crate::histogram::HistogramReport;
use crate::litmus::tune::Trial;
use crate::litmus::{LitmusOptions, LitmusRow};
use crate::publish::{PublishOptions, PublishRow};
use crate::sweep::SweepReport;

/// A finished run: where and with what it ran, and what it measured. The
/// JSON export is this, serialized, so a run can be compared with a later one.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Record {
    /// The host's name and version.
    pub tool: String,
    /// The toolchain that compiled the kernels to PTX.
    pub kernel_compiler: String,
    /// Where the PTX came from.
    pub ptx: String,
    /// The GPU and its driver.
    pub device: DeviceInfo,
    /// What was measured.
    pub results: Results,
    /// The run was interrupted (Ctrl-C) and holds only what was measured
    /// before it stopped. Written to the JSON only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub partial: bool,
}

/// What each command measured.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "command", rename_all = "kebab-case")]
pub enum Results {
    /// `sweep`: the timed sums and the determinism table.
    Sweep {
        /// The sweep.
        sweep: SweepReport,
        /// The determinism table, unless `--determinism-runs 0`.
        determinism: Option<DeterminismReport>,
    },
    /// `exercise`: three sweeps.
    Exercise(ExerciseReport),
    /// `bench`.
    Bench(BenchReport),
    /// `histogram`.
    Histogram(HistogramReport),
    /// `accuracy`.
    Accuracy(AccuracyReport),
    /// `publish`.
    Publish {
        /// What ran.
        options: PublishOptions,
        /// One row per variant.
        rows: Vec<PublishRow>,
    },
    /// `litmus`.
    Litmus {
        /// What ran.
        options: LitmusOptions,
        /// One row per test, variant and placement.
        rows: Vec<LitmusRow>,
    },
    /// `litmus --tune`.
    LitmusTune {
        /// What each configuration ran.
        options: LitmusOptions,
        /// One per configuration drawn.
        trials: Vec<Trial>,
    },
}

/// The toolchain the host's build script compiled the kernels with.
pub const KERNEL_COMPILER: &str = env!("LAB_KERNEL_COMPILER");
