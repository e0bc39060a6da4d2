//! `compare`'s command line, and how it runs.

use std::path::PathBuf;

use clap::Args;

use super::comparison::{Comparison, Run};
use super::report::tables;
use crate::commands::{Command, Outcome, Output, write};
use crate::error::LabError;
use crate::options::OutputArgs;
use crate::report::table::Look;
use crate::report::{Checks, Format};

/// `compare`'s flags.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The first evidence run (its directory, as `host evidence DIR` made
    /// it); the ratios are the second run's over this one's.
    #[arg(value_name = "RUN_A")]
    pub run_a: PathBuf,

    /// The second evidence run.
    #[arg(value_name = "RUN_B")]
    pub run_b: PathBuf,

    /// Where and how to write the tables (table or markdown).
    #[command(flatten)]
    pub output: OutputArgs,
}

impl Command for CompareArgs {
    type Device = ();
    type Checked = Option<(Run, Run)>;
    type Output = Compared;

    /// Reads both runs before anything else, so a wrong directory or a
    /// format the comparison does not write is one line and exit 2.
    fn check(&self) -> Result<Option<(Run, Run)>, LabError> {
        if matches!(self.output.format, Format::Csv | Format::Json) {
            return Err(LabError::Unrunnable(
                "compare writes tables only: --format table or --format markdown".to_owned(),
            ));
        }
        let inputs: Vec<_> = [&self.run_a, &self.run_b].into_iter().flat_map(|dir| Run::inputs(dir)).collect();
        crate::commands::refuse_overwriting_inputs(
            &self.output.output.as_deref().into_iter().collect::<Vec<_>>(),
            &inputs,
        )?;
        Ok(Some((Run::read(&self.run_a)?, Run::read(&self.run_b)?)))
    }

    fn run(self, checked: Option<(Run, Run)>, (): &()) -> Result<Compared, LabError> {
        let (a, b) = checked.expect("check reads both runs");
        Ok(Compared { comparison: Comparison::of(a, b), output: self.output })
    }
}

/// A finished comparison and where it goes.
#[derive(Debug)]
pub struct Compared {
    /// The two runs side by side.
    pub comparison: Comparison,
    /// `--format` and `--output`.
    pub output: OutputArgs,
}

impl Output for Compared {
    fn emit(&self) -> Result<(), LabError> {
        let look = if self.output.format == Format::Markdown { Look::Markdown } else { Look::Plain };
        let text = tables(&self.comparison, look);
        match &self.output.output {
            Some(path) => write(path, &text),
            None => crate::commands::print(&text),
        }
    }

    /// The bits: a reproducible sum that differs between the two GPUs is a
    /// failed check, named on standard error.
    fn checks(&self) -> Checks {
        let lines = match self.comparison.first_difference() {
            Some(d) => format!(
                "different bits: the {} sum of the {} array of n = {}, launch {}, is {} (bits {:#010x}) on run A and {} (bits {:#010x}) on run B\n",
                d.method,
                d.data,
                d.n,
                d.launch,
                f32::from_bits(d.a),
                d.a,
                f32::from_bits(d.b),
                d.b
            ),
            None => String::new(),
        };
        Checks::from_lines(lines)
    }

    fn partial(&self) -> bool {
        false
    }

    /// Bits that could not be compared earn no verdict: the tables are
    /// printed, then one line says why, and the exit is 2.
    fn outcome(&self, checks: &Checks) -> Result<Outcome, LabError> {
        match &self.comparison.bits_not_compared {
            Some(why) => Err(LabError::Unrunnable(format!("the reproducible sums' bits were not compared: {why}"))),
            None if checks.passed => Ok(Outcome::Passed),
            None => Ok(Outcome::ChecksFailed),
        }
    }
}
