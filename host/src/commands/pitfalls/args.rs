//! `pitfalls`' command line, and how it runs.

use clap::Args;
use layout::pitfall::Pitfall;

use super::{PitfallsOptions, PitfallsReport};
use crate::commands::{Command, Written, progress};
use crate::error::LabError;
use crate::gpu::Gpu;
use crate::litmus::keys;
use crate::options::OutputArgs;
use crate::pitfalls::{Lab, Size};

/// `pitfalls`' flags.
#[derive(Debug, Args)]
pub struct PitfallsArgs {
    /// Run only these pitfalls (comma-separated); all of them by default.
    #[arg(long, value_delimiter = ',', value_parser = keys::parser::<Pitfall>())]
    pub only: Vec<Pitfall>,

    /// A few blocks and rounds each: for compute-sanitizer, which checks
    /// every access. The mistakes may not show at this size.
    #[arg(long)]
    pub quick: bool,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: OutputArgs,
}

impl From<&PitfallsArgs> for PitfallsOptions {
    fn from(args: &PitfallsArgs) -> PitfallsOptions {
        PitfallsOptions {
            pitfalls: if args.only.is_empty() { Pitfall::ALL.to_vec() } else { args.only.clone() },
            size: if args.quick { Size::Quick } else { Size::Full },
        }
    }
}

impl Command for PitfallsArgs {
    type Device = Gpu;
    type Checked = ();
    type Output = Written<PitfallsReport>;

    fn run(self, (): (), gpu: &Gpu) -> Result<Written<PitfallsReport>, LabError> {
        let options = PitfallsOptions::from(&self);
        let lab = Lab::load(gpu)?;
        let report: PitfallsReport = super::run(&lab, &options, &progress(&self.output))?;
        Ok(Written::run(gpu, report, self.output, None))
    }
}
