//! `publish`'s command line, and how it runs.

use clap::Args;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

use super::{PublishOptions, PublishResults};
use crate::commands::{Command, Written, progress};
use crate::error::LabError;
use crate::gpu::Gpu;
use crate::gpu::publish::{FlagPlacement, PublishKernels, PublishVariant};
use crate::options::OutputArgs;

/// `publish`'s flags.
#[derive(Debug, Args)]
pub struct PublishArgs {
    /// Launches per variant; each launch runs about 16384 producer/consumer
    /// pairs per SM (over 2 million on a 132-SM H200). `--iterations` is the
    /// flag's earlier name.
    #[arg(long, alias = "iterations", default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub launches: u32,

    /// Run only these variants (comma-separated); all of them by default.
    #[arg(long, value_delimiter = ',', value_parser = variant_parser())]
    pub variant: Vec<PublishVariant>,

    /// Producer/consumer rounds per pair and launch, instead of the default
    /// (1024 in one block, 2048 across blocks). Small values keep sanitizer
    /// runs short.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub rounds: Option<u32>,

    /// Each consumer's time budget per launch, in milliseconds, before its
    /// remaining waits are counted as timeouts.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub budget_ms: u64,

    /// Across blocks, where each round's flag sits: beside its payload in one
    /// 16-byte slot (the page's layout), or half the slots away, where the
    /// litmus suite saw stale reads.
    #[arg(long, value_enum, default_value_t = FlagPlacement::Apart)]
    pub flag: FlagPlacement,

    /// Across blocks, the consumer reads the payload once before it waits,
    /// leaving a possibly stale copy in its SM's L1.
    #[arg(long)]
    pub preload: bool,

    /// Across blocks, nanoseconds the producer waits before each round's
    /// publication, so that a consumer's `--preload` reads the old record
    /// first (without a delay the producer runs ahead, and the preload finds
    /// the new record already there).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub delay_ns: u32,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: OutputArgs,
}

/// `--variant`'s values: the registry's variant names, each with its
/// placement, scope and ordering as help.
fn variant_parser() -> impl TypedValueParser<Value = PublishVariant> {
    let names = PublishVariant::all().map(|v| {
        let ordering = v.ordering.text();
        // The cluster variants also say where the record is (two of them
        // differ only there) and what they need.
        let hopper = match v.entry().module {
            layout::Module::Base => String::new(),
            layout::Module::Hopper => {
                let (major, minor) = layout::Module::Hopper.min_compute_capability();
                format!("; record in {}; needs compute capability {major}.{minor}", v.memory.text())
            }
        };
        PossibleValue::new(v.name).help(format!("{}, {ordering}, {}{hopper}", v.placement.text(), v.scope.text()))
    });
    PossibleValuesParser::new(names)
        .map(|name| PublishVariant::all().find(|v| v.name == name).expect("clap accepted only registry names"))
}

impl From<&PublishArgs> for PublishOptions {
    fn from(args: &PublishArgs) -> PublishOptions {
        PublishOptions {
            variants: if args.variant.is_empty() { PublishVariant::all().collect() } else { args.variant.clone() },
            launches: args.launches as usize,
            rounds: args.rounds,
            budget_ns: args.budget_ms * 1_000_000,
            flags: args.flag,
            preload: args.preload,
            delay_ns: args.delay_ns,
        }
    }
}

impl Command for PublishArgs {
    type Device = Gpu;
    type Checked = ();
    type Output = Written<PublishResults>;

    fn run(self, (): (), gpu: &Gpu) -> Result<Written<PublishResults>, LabError> {
        let kernels = PublishKernels::load(gpu)?;
        let mut options = PublishOptions::from(&self);
        // The cluster variants need the Hopper module. Asked for by name on a
        // GPU without it, the run stops before any launch with the one line
        // that says why; in the default run they are left out and the report
        // names them as not run.
        let mut not_run = Vec::new();
        if let Err(why) = gpu.hopper() {
            let hopper = |v: &PublishVariant| v.entry().module == layout::Module::Hopper;
            if !self.variant.is_empty() && self.variant.iter().any(hopper) {
                return Err(why);
            }
            not_run = options.variants.iter().copied().filter(hopper).collect();
            options.variants.retain(|v| !hopper(v));
        }
        let rows = super::run(&kernels, gpu.info.sm_count, &options, &progress(&self.output))?;
        Ok(Written::run(gpu, PublishResults { options, rows, not_run }, self.output, None))
    }
}
