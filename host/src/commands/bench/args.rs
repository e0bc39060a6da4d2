//! `bench`'s command line, and how it runs.

use clap::Args;

use super::{BenchOptions, BenchReport};
use crate::commands::{Command, Written, progress};
use crate::error::LabError;
use crate::gpu::Gpu;
use crate::gpu::baseline::Baselines;
use crate::gpu::sum::SumKernels;
use crate::gpu::timing::Plan;
use crate::launch::Block;
use crate::options::{OutputArgs, PlotArgs, TimingArgs, parse_bench_size, parse_block};

/// `bench`'s flags.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Array sizes, comma-separated, from 1 to 2^31 (8 GiB). The input is
    /// sparse enough that every sum stays exact.
    #[arg(long, value_delimiter = ',', default_values_t = super::DEFAULT_SIZES, value_parser = parse_bench_size)]
    pub sizes: Vec<usize>,

    /// Threads per block: a power of two from 32 to 1024.
    #[arg(long, default_value_t = Block::DEFAULT, value_parser = parse_block)]
    pub block: Block,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub timing: TimingArgs,

    /// Flush the L2 cache before every timed launch.
    #[arg(long)]
    pub cold: bool,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: OutputArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub plot: PlotArgs,
}

impl From<&BenchArgs> for BenchOptions {
    fn from(args: &BenchArgs) -> BenchOptions {
        BenchOptions {
            sizes: args.sizes.clone(),
            block: args.block,
            plan: Plan { warmup: args.timing.warmup as usize, runs: args.timing.runs as usize, cold: args.cold },
            small_route: crate::gpu::sum::small_route_from_env(),
        }
    }
}

impl Command for BenchArgs {
    type Device = Gpu;
    type Checked = ();
    type Output = Written<BenchReport>;
    const STOPS_AT_CHECKS: bool = true;

    fn run(self, (): (), gpu: &Gpu) -> Result<Written<BenchReport>, LabError> {
        let options = BenchOptions::from(&self);
        // The options' small-route switch, read from the environment once,
        // is the one the launches follow and the record keeps.
        let kernels = SumKernels::load(gpu)?.with_small_route(options.small_route);
        let baselines = Baselines::load(gpu)?;
        let report = super::run(&kernels, &baselines, &options, &progress(&self.output))?;
        Ok(Written::run(gpu, report, self.output, Some(self.plot)))
    }
}
