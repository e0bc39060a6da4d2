//! `evidence`'s command line, and how it runs.

use std::path::PathBuf;

use clap::Args;
use lab_records::{Manifest, Step, StepOutcome};

use super::EvidenceOptions;

use crate::commands::{Command, Device, Outcome, Output};
use crate::device::DeviceInfo;
use crate::error::LabError;
use crate::gpu::{Gpu, PtxSource};
use crate::interrupt;
use crate::progress::Progress;
use crate::report::Checks;
use crate::report::table::Look;

/// `evidence`'s flags.
#[derive(Debug, Args)]
pub struct EvidenceArgs {
    /// The directory to write into; it must be new or empty unless --force.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,

    /// Write into DIR even if it holds files (files of the same name are replaced).
    #[arg(long)]
    pub force: bool,

    /// Run only these steps, comma-separated: a step's name, or the first
    /// words of several (`sweep` is `sweep-64`, `sweep-256` and `sweep-1024`;
    /// `litmus-tune` is that step alone); every step by default.
    #[arg(long, value_delimiter = ',', value_name = "STEP")]
    pub only: Vec<String>,

    /// Leave out these steps, named as `--only` names them, comma-separated. A run with `--only` or `--skip` into a directory that
    /// holds a run of the same commit on the same GPU completes that run: its
    /// steps replace those of the same name in the manifest, and the others
    /// stay.
    #[arg(long, value_delimiter = ',', value_name = "STEP")]
    pub skip: Vec<String>,
}

/// The options of `args`, with no `--ptx` to pass on: [`Identity`] brings
/// that.
impl From<&EvidenceArgs> for EvidenceOptions {
    fn from(args: &EvidenceArgs) -> EvidenceOptions {
        EvidenceOptions {
            dir: args.dir.clone(),
            force: args.force,
            ptx: None,
            only: args.only.clone(),
            skip: args.skip.clone(),
        }
    }
}

/// What `evidence` runs on: the GPU's identity for the manifest, and the
/// `--ptx` its steps pass on. The GPU is opened only to read the identity
/// and closed again before the steps, which open it themselves; a machine
/// without one gets the usual one-line "no CUDA device" before any step
/// runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Identity {
    /// The GPU and its driver.
    pub info: DeviceInfo,
    /// The PTX file given with `--ptx`, if one was.
    pub ptx: Option<PathBuf>,
}

impl Device for Identity {
    fn open(source: &PtxSource) -> Result<Identity, LabError> {
        let ptx = match source {
            PtxSource::Embedded => None,
            PtxSource::File(path) => Some(path.clone()),
            PtxSource::Practice { .. } => {
                return Err(LabError::Unrunnable(
                    "evidence runs every command on the lab's kernels: give --practice to one command".to_owned(),
                ));
            }
        };
        let info = Gpu::open(source)?.info.clone();
        Ok(Identity { info, ptx })
    }
}

impl Command for EvidenceArgs {
    type Device = Identity;
    type Checked = ();
    type Output = Evidence;
    // Ctrl-C reaches the running step too, which stops at its next check and
    // writes what it measured; the evidence run then stops after that step
    // and still writes its manifest.
    const STOPS_AT_CHECKS: bool = true;

    /// Refuses a selection of no step and a directory that holds files.
    fn check(&self) -> Result<(), LabError> {
        super::prepare(&EvidenceOptions::from(self))
    }

    fn run(self, (): (), identity: &Identity) -> Result<Evidence, LabError> {
        let options = EvidenceOptions { ptx: identity.ptx.clone(), ..EvidenceOptions::from(&self) };
        let manifest = super::run(&options, &identity.info, &Progress::new(true))?;
        Ok(Evidence { manifest, dir: options.dir })
    }
}

/// A finished evidence run: its manifest (already written into `dir`).
#[derive(Clone, Debug, PartialEq)]
pub struct Evidence {
    /// What ran.
    pub manifest: Manifest,
    /// Where its files went.
    pub dir: PathBuf,
}

impl Evidence {
    /// The steps whose checks failed or that could not finish.
    fn failed(&self) -> impl Iterator<Item = &Step> {
        self.manifest.steps.iter().filter(|s| matches!(s.outcome, StepOutcome::ChecksFailed | StepOutcome::Error))
    }
}

impl Output for Evidence {
    /// The table of steps, on standard output.
    fn emit(&self) -> Result<(), LabError> {
        crate::commands::print(&super::report::evidence(&self.manifest, &self.dir, Look::Plain))
    }

    /// One line per step that failed, with its note.
    fn checks(&self) -> Checks {
        Checks::from_lines(
            self.failed()
                .map(|step| {
                    let note = step.note.as_deref().unwrap_or("see its output");
                    format!("{} {}: {note}\n", step.name, step.outcome.word())
                })
                .collect(),
        )
    }

    /// The manifest is whole even when Ctrl-C stopped the run: each step
    /// says how it ended.
    fn partial(&self) -> bool {
        false
    }

    /// Interrupted if Ctrl-C stopped the run or a step; else an error if a
    /// step could not finish; else whether every step's checks passed.
    fn outcome(&self, checks: &Checks) -> Result<Outcome, LabError> {
        if interrupt::requested() || self.manifest.steps.iter().any(|s| s.outcome == StepOutcome::Interrupted) {
            return Ok(Outcome::Interrupted);
        }
        if let Some(step) = self.failed().find(|s| s.outcome == StepOutcome::Error) {
            return Err(LabError::Step { step: step.name.clone(), note: step.note.clone().unwrap_or_default() });
        }
        Ok(if checks.passed { Outcome::Passed } else { Outcome::ChecksFailed })
    }
}
