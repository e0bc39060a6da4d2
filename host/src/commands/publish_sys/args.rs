//! `publish-sys`'s command line, and how it runs.

use clap::Args;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

use super::{PublishSysOptions, PublishSysResults};
use crate::commands::{Command, Written, progress};
use crate::error::LabError;
use crate::gpu::Gpu;
use crate::gpu::system::{SystemGeometry, SystemKernels, SystemVariant};
use crate::options::OutputArgs;

/// `publish-sys`'s flags.
#[derive(Debug, Args)]
pub struct PublishSysArgs {
    /// Launches (rounds) per variant; each uses every slot once. The default
    /// 100 rounds of 2^20 slots are over 10^8 pairs per variant.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub launches: u32,

    /// Run only these variants (comma-separated); all of them by default.
    #[arg(long, value_delimiter = ',', value_parser = variant_parser())]
    pub variant: Vec<SystemVariant>,

    /// Slots per launch: one record and one flag each, in mapped host memory
    /// (20 bytes a slot). Small values keep sanitizer runs short.
    #[arg(long, default_value_t = layout::system::DEFAULT_SLOTS,
          value_parser = clap::value_parser!(u32).range(1..=(1 << 26)))]
    pub slots: u32,

    /// CPU threads playing the host's half, each on a contiguous stripe of
    /// the slots; by default half the CPUs, at most eight.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub cpu_threads: Option<u32>,

    /// Each consumer's time budget per launch, in milliseconds, before its
    /// remaining waits are counted as timeouts.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub budget_ms: u64,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: OutputArgs,
}

/// `--variant`'s values: the registry's names, each with its direction, the
/// GPU's flag operation and the CPU's ordering as help.
fn variant_parser() -> impl TypedValueParser<Value = SystemVariant> {
    let names = SystemVariant::all().map(|v| {
        let help = format!("{}, GPU {}, CPU {}", v.kernel.direction.text(), v.kernel.flag_op(), v.cpu.text());
        PossibleValue::new(v.name).help(help)
    });
    PossibleValuesParser::new(names)
        .map(|name| SystemVariant::from_name(&name).expect("clap accepted only registry names"))
}

impl From<&PublishSysArgs> for PublishSysOptions {
    fn from(args: &PublishSysArgs) -> PublishSysOptions {
        PublishSysOptions {
            variants: if args.variant.is_empty() { SystemVariant::all().collect() } else { args.variant.clone() },
            launches: args.launches as usize,
            slots: args.slots,
            cpu_threads: args.cpu_threads.unwrap_or_else(SystemGeometry::default_cpu_threads),
            budget_ns: args.budget_ms * 1_000_000,
        }
    }
}

impl Command for PublishSysArgs {
    type Device = Gpu;
    type Checked = ();
    type Output = Written<PublishSysResults>;

    fn run(self, (): (), gpu: &Gpu) -> Result<Written<PublishSysResults>, LabError> {
        let kernels = SystemKernels::load(gpu)?;
        let options = PublishSysOptions::from(&self);
        let rows = super::run(&kernels, gpu.info.sm_count, &options, &progress(&self.output))?;
        Ok(Written::run(gpu, PublishSysResults { options, rows }, self.output, None))
    }
}
