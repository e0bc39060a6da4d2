//! The pitfalls: each of the pages' mistakes run beside its fix, under the
//! condition that makes it show.

pub mod args;
pub mod report;

pub use args::PitfallsArgs;
use layout::pitfall::Pitfall;

use crate::error::LabError;
use crate::pitfalls::{self, Finding, Lab, Size};
use crate::progress::Progress;

/// What a `pitfalls` run does.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PitfallsOptions {
    /// The pitfalls, in order.
    #[serde(with = "crate::litmus::keys::list")]
    pub pitfalls: Vec<Pitfall>,
    /// How big.
    pub size: Size,
}

/// What `pitfalls` writes.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PitfallsReport {
    /// What ran.
    pub options: PitfallsOptions,
    /// One finding per pitfall, in order.
    pub findings: Vec<Finding>,
}

impl PitfallsReport {
    /// Whether every fix behaved: the run's verdict. A broken version that
    /// did not show its mistake fails nothing; it is reported with its
    /// denominator.
    pub fn fixes_held(&self) -> bool {
        self.findings.iter().flat_map(|f| &f.trials).all(|t| !t.fix_failed())
    }
}

/// Runs every pitfall of `options`.
pub fn run(lab: &Lab<'_>, options: &PitfallsOptions, progress: &Progress) -> Result<PitfallsReport, LabError> {
    progress.start(options.pitfalls.len() as u64);
    let mut findings = Vec::new();
    for &pitfall in &options.pitfalls {
        progress.message(pitfall.key().to_owned());
        findings.push(pitfalls::run(lab, pitfall, options.size)?);
        progress.step();
    }
    progress.finish();
    Ok(PitfallsReport { options: options.clone(), findings })
}
