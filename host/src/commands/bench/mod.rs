//! The bench: every sum kernel at large sizes, against the device's own copy
//! bandwidth and an empty launch, each timed with its spread.

pub mod args;
pub mod report;

pub use args::BenchArgs;

use crate::error::LabError;
use crate::gpu::baseline::Baselines;
use crate::gpu::sum::{SmallRoute, SumKernels};
use crate::gpu::timing::Plan;
use crate::launch::Block;
use crate::progress::Progress;
use crate::sums::{Mismatch, SweepRow, kernels_at};
use crate::{input, interrupt, reference};

/// The default sizes: two where launch overhead dominates, then 2^20, 2^24
/// and 2^28 (1 GiB of floats). `--sizes` goes up to 2^31.
pub const DEFAULT_SIZES: [usize; 5] = [4096, 65_536, 1 << 20, 1 << 24, 1 << 28];

/// What one bench measures.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BenchOptions {
    /// Array sizes.
    pub sizes: Vec<usize>,
    /// Threads per block for every kernel.
    pub block: Block,
    /// Warm-ups, runs, cold or warm L2.
    pub plan: Plan,
    /// Whether small inputs took their kernel's small route (one block);
    /// off only when `LAB_SMALL_ROUTE=off` asked for the grids before it.
    /// Records written before the route lack it, and read as off.
    #[serde(default)]
    pub small_route: bool,
}

/// One size: the yardsticks and every kernel's measurement.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BenchRow {
    /// The sums, their reference and the kernels' timings.
    pub sums: SweepRow,
    /// Each timed copy of `n` floats, in ms.
    pub copy_ms: Vec<f32>,
    /// Each timed empty launch, in ms.
    pub empty_ms: Vec<f32>,
}

/// A finished bench.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BenchReport {
    /// The options it ran with.
    pub options: BenchOptions,
    /// One row per size.
    pub rows: Vec<BenchRow>,
    /// The small routes the launches took, each with the block this device
    /// launched (none with the route off). `None` in a record written before
    /// the route existed, which says nothing about it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub small_routes: Option<Vec<SmallRoute>>,
}

impl BenchReport {
    /// Every sum that differs from its reference.
    pub fn mismatches(&self) -> Vec<Mismatch> {
        self.rows.iter().flat_map(|r| r.sums.mismatches(self.options.block)).collect()
    }
}

/// Runs the bench. Sizes must satisfy [`input::fits_exactly_sparse`](crate::input::fits_exactly_sparse).
///
/// After Ctrl-C ([`interrupt::requested`]) it stops before the next
/// measurement and returns the sizes it finished; a size it had started is
/// left out.
pub fn run(
    kernels: &SumKernels<'_>,
    baselines: &Baselines<'_>,
    options: &BenchOptions,
    progress: &Progress,
) -> Result<BenchReport, LabError> {
    let steps: usize = options.sizes.iter().map(|&n| kernels_at(n).len() + 2).sum();
    progress.start(steps as u64);
    let mut rows = Vec::new();
    'sizes: for &n in &options.sizes {
        if interrupt::requested() {
            break;
        }
        assert!(crate::input::fits_exactly_sparse(n), "the CLI refuses n = {n}");
        progress.message(format!("n = {n}: copy"));
        let copy_ms = baselines.copy_ms(n, options.plan)?;
        progress.step();
        let empty_ms = baselines.empty_launch_ms(options.plan)?;
        progress.step();
        let values = input::sparse_exact(n);
        let reference = reference::kahan_sum(&values);
        let device_input = kernels.upload(&values)?;
        drop(values);
        let mut measurements = Vec::new();
        for kernel in kernels_at(n) {
            if interrupt::requested() {
                break 'sizes;
            }
            progress.message(format!("n = {n}: {}", kernel.label));
            measurements.push(kernels.measure(kernel, &device_input, options.block, options.plan)?);
            progress.step();
        }
        rows.push(BenchRow { sums: SweepRow { n, reference, measurements }, copy_ms, empty_ms });
    }
    progress.finish();
    Ok(BenchReport { options: options.clone(), rows, small_routes: Some(kernels.small_routes()) })
}
