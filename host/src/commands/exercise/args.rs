//! `exercise`'s command line, and how it runs.

use clap::Args;

use super::ExerciseReport;
use crate::commands::{Command, Written, progress};
use crate::error::LabError;
use crate::gpu::Gpu;
use crate::gpu::sum::SumKernels;
use crate::launch::Block;
use crate::options::{DEFAULT_SIZES, OutputArgs, PlotArgs, TimingArgs, parse_size};
use crate::sums::SweepOptions;

/// `exercise`'s flags.
#[derive(Debug, Args)]
pub struct ExerciseArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub timing: TimingArgs,

    /// Array sizes, comma-separated; the ratios use the largest.
    #[arg(long, value_delimiter = ',', default_values_t = DEFAULT_SIZES, value_parser = parse_size)]
    pub sizes: Vec<usize>,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: OutputArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub plot: PlotArgs,
}

/// The sweep every run of the exercise starts from: its block is replaced by
/// each of [`super::BLOCKS`].
impl From<&ExerciseArgs> for SweepOptions {
    fn from(args: &ExerciseArgs) -> SweepOptions {
        SweepOptions {
            block: Block::DEFAULT,
            runs: args.timing.runs as usize,
            warmup: args.timing.warmup as usize,
            sizes: args.sizes.clone(),
        }
    }
}

impl Command for ExerciseArgs {
    type Device = Gpu;
    type Checked = ();
    type Output = Written<ExerciseReport>;

    fn run(self, (): (), gpu: &Gpu) -> Result<Written<ExerciseReport>, LabError> {
        let template = SweepOptions::from(&self);
        let kernels = SumKernels::load(gpu)?;
        let report = super::run(&kernels, &template, &progress(&self.output))?;
        Ok(Written::run(gpu, report, self.output, Some(self.plot)))
    }
}
