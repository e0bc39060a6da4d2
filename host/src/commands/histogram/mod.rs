//! The histogram comparison: both kernels, each size and distribution, timed
//! and checked exactly against the CPU.

pub mod args;
pub mod report;

pub use args::HistogramArgs;

use crate::error::LabError;
use crate::gpu::histogram::{HistogramKernel, HistogramKernels, HistogramMeasurement};
use crate::gpu::timing::Plan;
use crate::input::{self, Distribution};
use crate::launch::Block;
use crate::progress::Progress;
use crate::reference;

/// What one histogram run measures.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HistogramOptions {
    /// Number of bins.
    pub bins: u32,
    /// Threads per block.
    pub block: Block,
    /// Timed launches per kernel and case.
    pub runs: usize,
    /// Untimed launches before them.
    pub warmup: usize,
    /// Input sizes.
    pub sizes: Vec<usize>,
    /// Input distributions.
    pub distributions: Vec<Distribution>,
}

/// One size and distribution: the CPU counts and both kernels' measurements.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HistogramRow {
    /// Values counted.
    pub n: usize,
    /// How they spread.
    pub distribution: Distribution,
    /// The CPU histogram.
    pub expected: Vec<u32>,
    /// One measurement per kernel, in registry order.
    pub measurements: Vec<HistogramMeasurement>,
}

/// A histogram launch whose counts differ from the CPU's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistogramMismatch {
    /// Which kernel.
    pub kernel: HistogramKernel,
    /// Values counted.
    pub n: usize,
    /// Their distribution.
    pub distribution: Distribution,
    /// Which launch (warm-ups first).
    pub launch: usize,
    /// The first bin that differs.
    pub bin: usize,
    /// The CPU's count there.
    pub expected: u32,
    /// The GPU's.
    pub found: u32,
}

/// A finished histogram run.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HistogramReport {
    /// The options it ran with.
    pub options: HistogramOptions,
    /// One row per size and distribution.
    pub rows: Vec<HistogramRow>,
}

impl HistogramReport {
    /// Every launch whose counts differ from the CPU histogram.
    pub fn mismatches(&self) -> Vec<HistogramMismatch> {
        let mut out = Vec::new();
        for row in &self.rows {
            for m in &row.measurements {
                for (launch, counts) in m.counts.iter().enumerate() {
                    if let Some(bin) = (0..row.expected.len()).find(|&b| counts[b] != row.expected[b]) {
                        out.push(HistogramMismatch {
                            kernel: m.kernel,
                            n: row.n,
                            distribution: row.distribution,
                            launch,
                            bin,
                            expected: row.expected[bin],
                            found: counts[bin],
                        });
                    }
                }
            }
        }
        out
    }
}

/// Runs both kernels over every size and distribution.
pub fn run(
    kernels: &HistogramKernels<'_>,
    options: &HistogramOptions,
    progress: &Progress,
) -> Result<HistogramReport, LabError> {
    progress.start((options.sizes.len() * options.distributions.len()) as u64);
    let mut rows = Vec::new();
    for &n in &options.sizes {
        for &distribution in &options.distributions {
            progress.message(format!("n = {n}, {}", distribution.name()));
            let values = input::bin_indices(n, options.bins, distribution);
            let expected = reference::histogram(&values, options.bins);
            let device_values = kernels.upload(&values, options.bins)?;
            let measurements = HistogramKernel::all()
                .map(|k| {
                    let plan = Plan { warmup: options.warmup, runs: options.runs, cold: false };
                    kernels.measure(k, &device_values, options.block, plan)
                })
                .collect::<Result<_, _>>()?;
            rows.push(HistogramRow { n, distribution, expected, measurements });
            progress.step();
        }
    }
    progress.finish();
    Ok(HistogramReport { options: options.clone(), rows })
}
