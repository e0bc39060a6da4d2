//! The determinism table: the same inexact input summed many times.

use crate::error::LabError;
use crate::gpu::sum::{SumKernel, SumKernels};
use crate::gpu::timing::Plan;
use crate::launch::Block;
use crate::{input, reference};

/// The page's size for the determinism table.
pub const N: usize = 4_194_304;

/// The sums each kernel returned for one input.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DeterminismReport {
    /// Elements summed.
    pub n: usize,
    /// Block size of every launch.
    pub block: Block,
    /// The Kahan `f64` reference of the input.
    pub reference: f64,
    /// Each kernel's sums, one per run, in registry order.
    pub sums: Vec<(SumKernel, Vec<f32>)>,
}

/// Sums [`input::inexact`] of `n` elements `runs` times with each kernel.
/// Nothing is timed; every run still gets its own accumulator.
pub fn run(kernels: &SumKernels<'_>, n: usize, block: Block, runs: usize) -> Result<DeterminismReport, LabError> {
    let values = input::inexact(n);
    let reference = reference::kahan_sum(&values);
    let device_input = kernels.upload(&values)?;
    let sums = SumKernel::all()
        .map(|k| Ok((k, kernels.measure(k, &device_input, block, Plan { warmup: runs, runs: 0, cold: false })?.sums)))
        .collect::<Result<_, LabError>>()?;
    Ok(DeterminismReport { n, block, reference, sums })
}
