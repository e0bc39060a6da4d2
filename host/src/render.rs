//! `host render FILE.json`: a record saved with `--format json`, printed
//! again in another format or as a plot. It opens no GPU and judges nothing:
//! the record's checks were judged when it was made. It sits beside
//! `app.rs`, above `record/`, because a record names every command's result:
//! no command folder may import it.

use std::path::PathBuf;

use clap::Args;

use crate::commands::{Command, Written};
use crate::error::LabError;
use crate::options::{OutputArgs, PlotArgs};
use crate::record::{Record, Results};
use crate::report;

/// `render`'s flags.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// A file written by a command's `--format json`.
    #[arg(value_name = "FILE.json")]
    pub input: PathBuf,

    /// Where and how to write it.
    #[command(flatten)]
    pub output: OutputArgs,

    /// Also draw the record's plot, for the commands that have one.
    #[command(flatten)]
    pub plot: PlotArgs,
}

impl Command for RenderArgs {
    type Device = ();
    type Checked = ();
    type Output = Written<Results>;

    fn run(self, (): (), (): &()) -> Result<Written<Results>, LabError> {
        let path = &self.input;
        let outputs: Vec<&std::path::Path> =
            self.output.output.iter().chain(&self.plot.plot).map(PathBuf::as_path).collect();
        crate::commands::refuse_overwriting_inputs(&outputs, std::slice::from_ref(path))?;
        let data_error = |reason: String| LabError::DataFile { path: path.clone(), reason };
        let text = crate::commands::read_input(path)?;
        let record = Record::from_json(&text).map_err(data_error)?;
        // Asking for the plot of a record that draws none is the user's
        // mistake, refused before anything is printed, not a file that could
        // not be written.
        if self.plot.plot.is_some()
            && let Err(reason) = report::plot::svg(&record)
        {
            return Err(LabError::Unrunnable(format!("{}: --plot: {reason} in this record", path.display())));
        }
        Ok(Written {
            provenance: record.provenance(),
            results: record.results,
            to: self.output,
            plot: self.plot.plot,
            judged: false,
        })
    }
}
