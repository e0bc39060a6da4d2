//! `scopes`'s command line, and how it runs.

use clap::Args;

use super::{ScopesOptions, ScopesResults};
use crate::commands::{Command, Written};
use crate::error::LabError;
use crate::gpu::Gpu;
use crate::gpu::ladder::TripShape;
use crate::options::OutputArgs;

/// `scopes`' flags.
#[derive(Debug, Args)]
pub struct ScopesArgs {
    /// Round-trip launches per rung.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub launches: u32,

    /// Batches of round trips per launch; each batch is one sample.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    pub batches: u32,

    /// Round trips per batch, timed together on the GPU's clock.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    pub per_batch: u32,

    /// Each spin's budget, in milliseconds, before it counts a timeout and
    /// its agent stops.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=60_000))]
    pub budget_ms: u64,

    /// Fences per timed loop.
    #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub iterations: u32,

    /// Timed loops per fence.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub repeats: u32,

    /// A short run (one launch of 4 batches of 16 round trips, 2 loops of 64
    /// fences), for the sanitizer and the GPU tests; overrides the counts.
    #[arg(long)]
    pub quick: bool,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: OutputArgs,
}

impl From<&ScopesArgs> for ScopesOptions {
    fn from(args: &ScopesArgs) -> ScopesOptions {
        let budget_ns = args.budget_ms * 1_000_000;
        if args.quick {
            return ScopesOptions {
                launches: 1,
                shape: TripShape { batches: 4, per_batch: 16, budget_ns },
                iterations: 64,
                repeats: 2,
                checks: false,
            };
        }
        ScopesOptions {
            launches: args.launches,
            shape: TripShape { batches: args.batches, per_batch: args.per_batch, budget_ns },
            iterations: args.iterations,
            repeats: args.repeats,
            checks: true,
        }
    }
}

impl Command for ScopesArgs {
    type Device = Gpu;
    type Checked = ();
    type Output = Written<ScopesResults>;

    fn check(&self) -> Result<(), LabError> {
        let options = ScopesOptions::from(self);
        let (batches, per_batch) = (options.shape.batches, options.shape.per_batch);
        if u64::from(batches) * u64::from(per_batch) > u64::from(i32::MAX as u32) {
            return Err(LabError::Unrunnable(format!(
                "--batches {batches} times --per-batch {per_batch} is more round trips than a launch counts (2^31 - 1)"
            )));
        }
        Ok(())
    }

    fn run(self, (): (), gpu: &Gpu) -> Result<Written<ScopesResults>, LabError> {
        let options = ScopesOptions::from(&self);
        let results: ScopesResults = super::run(gpu, &options)?;
        Ok(Written::run(gpu, results, self.output, None))
    }
}
