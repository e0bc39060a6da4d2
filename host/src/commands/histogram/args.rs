//! `histogram`'s command line, and how it runs.

use clap::Args;
use layout::histogram::MAX_BINS;

use super::{HistogramOptions, HistogramReport};
use crate::commands::{Command, Written, progress};
use crate::error::LabError;
use crate::gpu::Gpu;
use crate::gpu::histogram::HistogramKernels;
use crate::input::Distribution;
use crate::launch::Block;
use crate::options::{OutputArgs, TimingArgs, parse_block, parse_count};

/// `histogram`'s flags.
#[derive(Debug, Args)]
pub struct HistogramArgs {
    /// Number of bins, from 1 to 12288 (48 KiB of shared memory).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_BINS)))]
    pub bins: u32,

    /// Threads per block: a power of two from 32 to 1024.
    #[arg(long, default_value_t = Block::DEFAULT, value_parser = parse_block)]
    pub block: Block,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub timing: TimingArgs,

    /// Input sizes, comma-separated, from 1 to 2^29.
    #[arg(long, value_delimiter = ',', default_values_t = [65_536usize, 1_048_576, 16_777_216], value_parser = parse_count)]
    pub sizes: Vec<usize>,

    /// Input distributions, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [Distribution::Uniform, Distribution::OneBin], value_enum)]
    pub distribution: Vec<Distribution>,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: OutputArgs,
}

impl From<&HistogramArgs> for HistogramOptions {
    fn from(args: &HistogramArgs) -> HistogramOptions {
        HistogramOptions {
            bins: args.bins,
            block: args.block,
            runs: args.timing.runs as usize,
            warmup: args.timing.warmup as usize,
            sizes: args.sizes.clone(),
            distributions: args.distribution.clone(),
        }
    }
}

impl Command for HistogramArgs {
    type Device = Gpu;
    type Checked = ();
    type Output = Written<HistogramReport>;

    fn run(self, (): (), gpu: &Gpu) -> Result<Written<HistogramReport>, LabError> {
        let options = HistogramOptions::from(&self);
        let kernels = HistogramKernels::load(gpu)?;
        let report = super::run(&kernels, &options, &progress(&self.output))?;
        Ok(Written::run(gpu, report, self.output, None))
    }
}
