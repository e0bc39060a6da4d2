//! `host litmus`: the command around the litmus suite. The suite itself (its
//! runner, the model's verdicts, the testing environment and the tuning
//! search) is [`crate::litmus`]; here are the command's flags, what it
//! writes, and its report.

pub mod args;
pub mod failures;
pub mod flags;
pub mod report;
pub mod tune;

pub use args::LitmusArgs;
pub use tune::{TuneArgs, TunedResults};

use crate::litmus::mutants::MutantRow;
use crate::litmus::tune::Trial;
use crate::litmus::{LitmusOptions, LitmusRow};

/// What `litmus` writes.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LitmusResults {
    /// What ran.
    pub options: LitmusOptions,
    /// One row per test, variant and placement.
    pub rows: Vec<LitmusRow>,
}

/// What `litmus --tune` writes.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TuneResults {
    /// What each configuration ran.
    pub options: LitmusOptions,
    /// One per configuration drawn.
    pub trials: Vec<Trial>,
}

/// What `litmus --mutants` writes.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MutantResults {
    /// The environment and budget every mutant ran with.
    pub options: LitmusOptions,
    /// One row per mutant of every forbidden row selected.
    pub rows: Vec<MutantRow>,
}
