//! The page's exercise: the sweep at blocks 64, 256 and 1024, and the numbers
//! the reader is asked to explain. No verdict: the page insists the harness
//! prints the ratios and leaves the question to the reader.

pub mod args;
pub mod report;

pub use args::ExerciseArgs;

use crate::error::LabError;
use crate::gpu::sum::{SumKernel, SumKernels};
use crate::launch::Block;
use crate::progress::Progress;
use crate::stats;
use crate::sums::{self, SweepOptions, SweepReport};

/// The exercise's block sizes; the middle one is the baseline.
pub const BLOCKS: [u32; 3] = [64, 256, 1024];

/// The block the ratios are relative to: the page's, [`Block::DEFAULT`].
pub const BASELINE: u32 = Block::DEFAULT.threads();

/// Three sweeps, one per block size.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ExerciseReport {
    /// The sweeps, in [`BLOCKS`] order.
    pub runs: Vec<SweepReport>,
}

/// One of the nine ratios.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratio {
    /// The column.
    pub kernel: SumKernel,
    /// The run.
    pub block: Block,
    /// Median time at the largest size over the baseline run's.
    pub ratio: f64,
    /// Global atomics per launch at the largest size (the counting argument).
    pub global_atomics: usize,
    /// Barrier steps per block: 2 for the shared accumulator, 1 + log2(block)
    /// for the tree, 0 for the naive kernel.
    pub barriers: u32,
}

/// Runs the three sweeps with `template`'s sizes, runs and warm-ups.
pub fn run(kernels: &SumKernels<'_>, template: &SweepOptions, progress: &Progress) -> Result<ExerciseReport, LabError> {
    progress.start((BLOCKS.len() * template.sizes.len() * SumKernel::page().count()) as u64);
    let runs = BLOCKS
        .iter()
        .map(|&threads| {
            let options = SweepOptions { block: Block::new(threads).expect("a valid block"), ..template.clone() };
            sums::run(kernels, &options, progress)
        })
        .collect::<Result<_, _>>()?;
    progress.finish();
    Ok(ExerciseReport { runs })
}

impl ExerciseReport {
    /// The nine ratios: each kernel's median at the largest size in each run,
    /// over the same in the [`BASELINE`] run. Empty if a run is missing.
    pub fn ratios(&self) -> Vec<Ratio> {
        let baseline = self.runs.iter().find(|r| r.options.block.threads() == BASELINE);
        let mut out = Vec::new();
        for run in &self.runs {
            let (Some(last), Some(base_last)) = (run.rows.last(), baseline.and_then(|b| b.rows.last())) else {
                continue;
            };
            for (m, b) in last.measurements.iter().zip(&base_last.measurements) {
                let t = stats::median(&m.times_ms).unwrap_or(f32::NAN);
                let t0 = stats::median(&b.times_ms).unwrap_or(f32::NAN);
                let block = run.options.block;
                out.push(Ratio {
                    kernel: m.kernel,
                    block,
                    ratio: f64::from(t) / f64::from(t0),
                    // The page's kernels use one thread per element: no resident count.
                    global_atomics: m.kernel.global_atomics(last.n, m.kernel.grid.blocks(last.n, block.threads(), 0)),
                    barriers: m.kernel.barriers.per_block(block.threads()),
                });
            }
        }
        out
    }

    /// Each run's "fastest" column, top to bottom.
    pub fn fastest(&self) -> Vec<(Block, Vec<SumKernel>)> {
        self.runs
            .iter()
            .map(|run| {
                let column = run
                    .rows
                    .iter()
                    .filter_map(|row| {
                        row.measurements
                            .iter()
                            .min_by(|a, b| {
                                let ta = stats::median(&a.times_ms).unwrap_or(f32::NAN);
                                let tb = stats::median(&b.times_ms).unwrap_or(f32::NAN);
                                ta.total_cmp(&tb)
                            })
                            .map(|m| m.kernel)
                    })
                    .collect();
                (run.options.block, column)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use layout::sum;

    use super::*;
    use crate::gpu::sum::SumMeasurement;
    use crate::sums::SweepRow;

    fn run(threads: u32, global: f32, shared: f32, tree: f32) -> SweepReport {
        let m = |kernel, ms| SumMeasurement { kernel, times_ms: vec![ms], sums: vec![6.0], entry: None };
        SweepReport {
            options: SweepOptions { block: Block::new(threads).unwrap(), runs: 1, warmup: 0, sizes: vec![4] },
            rows: vec![SweepRow {
                n: 4,
                reference: 6.0,
                measurements: vec![
                    m(SumKernel::of(&sum::GLOBAL_ATOMIC), global),
                    m(SumKernel::of(&sum::SHARED_ATOMIC), shared),
                    m(SumKernel::of(&sum::TREE_ATOMIC), tree),
                ],
            }],
        }
    }

    #[test]
    fn nine_ratios_relative_to_the_256_run() {
        let report =
            ExerciseReport { runs: vec![run(64, 7.0, 0.2, 0.1), run(256, 7.0, 0.1, 0.05), run(1024, 7.0, 0.4, 0.05)] };
        let ratios = report.ratios();
        assert_eq!(ratios.len(), 9);
        let r = |k, b: u32| ratios.iter().find(|r| r.kernel == k && r.block.threads() == b).unwrap().ratio;
        assert_eq!(r(SumKernel::of(&sum::GLOBAL_ATOMIC), 64), 1.0);
        assert_eq!(r(SumKernel::of(&sum::SHARED_ATOMIC), 64), 2.0);
        assert_eq!(r(SumKernel::of(&sum::SHARED_ATOMIC), 1024), 4.0);
        assert_eq!(r(SumKernel::of(&sum::TREE_ATOMIC), 256), 1.0);
        let tree_1024 =
            ratios.iter().find(|r| r.kernel == SumKernel::of(&sum::TREE_ATOMIC) && r.block.threads() == 1024).unwrap();
        assert_eq!((tree_1024.global_atomics, tree_1024.barriers), (1, 11));
    }

    #[test]
    fn fastest_column_per_run() {
        let report = ExerciseReport { runs: vec![run(64, 0.01, 0.2, 0.1)] };
        assert_eq!(report.fastest(), [(Block::new(64).unwrap(), vec![SumKernel::of(&sum::GLOBAL_ATOMIC)])]);
    }
}
