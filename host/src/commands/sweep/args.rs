//! `sweep`'s command line, and how it runs.

use clap::Args;

use super::{SweepResults, determinism};
use crate::commands::{Command, Written, progress};
use crate::error::LabError;
use crate::gpu::Gpu;
use crate::gpu::sum::{SumKernel, SumKernels};
use crate::launch::Block;
use crate::options::{DEFAULT_SIZES, OutputArgs, PlotArgs, TimingArgs, parse_block, parse_size};
use crate::sums::{self, SweepOptions};

/// `sweep`'s flags.
#[derive(Debug, Args)]
pub struct SweepArgs {
    /// Threads per block: a power of two from 32 to 1024.
    #[arg(long, default_value_t = Block::DEFAULT, value_parser = parse_block)]
    pub block: Block,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub timing: TimingArgs,

    /// Array sizes, comma-separated; each at least 1 and small enough that the
    /// exact sum stays below 2^24.
    #[arg(long, value_delimiter = ',', default_values_t = DEFAULT_SIZES, value_parser = parse_size)]
    pub sizes: Vec<usize>,

    /// Runs per kernel in the determinism table (0 leaves the table out).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub determinism_runs: u32,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: OutputArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub plot: PlotArgs,
}

impl From<&SweepArgs> for SweepOptions {
    fn from(args: &SweepArgs) -> SweepOptions {
        SweepOptions {
            block: args.block,
            runs: args.timing.runs as usize,
            warmup: args.timing.warmup as usize,
            sizes: args.sizes.clone(),
        }
    }
}

impl Command for SweepArgs {
    type Device = Gpu;
    type Checked = ();
    type Output = Written<SweepResults>;

    fn run(self, (): (), gpu: &Gpu) -> Result<Written<SweepResults>, LabError> {
        let options = SweepOptions::from(&self);
        let kernels = SumKernels::load(gpu)?;
        let bar = progress(&self.output);
        bar.start((options.sizes.len() * SumKernel::page().count()) as u64);
        let sweep = sums::run(&kernels, &options, &bar)?;
        bar.finish();
        let determinism = match self.determinism_runs {
            0 => None,
            runs => Some(determinism::run(&kernels, determinism::N, options.block, runs as usize)?),
        };
        Ok(Written::run(gpu, SweepResults { sweep, determinism }, self.output, Some(self.plot)))
    }
}
