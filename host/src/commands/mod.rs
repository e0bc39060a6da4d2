//! The commands, one folder each. A folder holds the command's flags and
//! their conversion into the runner's options (`args.rs`, with its
//! [`Command`] impl), its runner (the folder's `mod.rs`) and its report
//! (`report.rs`, with its [`Report`] impl: the tables, CSV rows, plot and
//! failure lines of its result).
//!
//! [`Command`] is what the one generic runner, [`crate::app::execute`],
//! drives: check what can be checked without a GPU, open the device, run,
//! then write the [`Output`], print its failures and map its outcome.
//! [`Report`] is what the exporters in [`crate::report`] read from a
//! [`Record`]'s results, so no exporter holds a `match` over the commands.

pub mod accuracy;
pub mod bench;
pub mod evidence;
pub mod exercise;
pub mod histogram;
pub mod litmus;
pub mod pitfalls;
pub mod publish;
pub mod publish_sys;
pub mod render;
pub mod scopes;
pub mod sweep;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use crate::app::Outcome;
use crate::cli::{OutputArgs, PlotArgs};
use crate::error::LabError;
use crate::gpu::{DeviceInfo, Gpu, PtxSource};
use crate::interrupt;
use crate::progress::Progress;
use crate::record::{Record, Results};
use crate::report::plot::{self, Series};
use crate::report::table::Look;
use crate::report::{self, Format};

/// What a command's result gives each exporter. Every result type in
/// [`Results`] implements it, in its command's `report.rs`.
pub trait Report {
    /// The device header and the command's tables, drawn with `look`.
    fn tables(&self, device: &DeviceInfo, look: Look) -> String;

    /// The CSV header and one row per measurement.
    fn csv(&self) -> Csv;

    /// What the plot draws, if the command draws one; `None` gives
    /// "nothing to plot".
    fn plot(&self, _device: &DeviceInfo) -> Option<Plot> {
        None
    }

    /// What the checks found: whether all passed, and the lines for
    /// standard error.
    fn checks(&self) -> Checks;
}

/// A result as CSV: the header row and the rows under it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Csv {
    /// The column names.
    pub header: &'static [&'static str],
    /// One row per measurement, each as long as the header.
    pub rows: Vec<Vec<String>>,
}

/// What a result's plot draws.
#[derive(Clone, Debug, PartialEq)]
pub enum Plot {
    /// GB/s of input against n, one line per series, and the copy bandwidth
    /// as a horizontal line where it was measured.
    Bandwidth {
        /// The lines.
        lines: Vec<Series>,
        /// The bench's copy at its largest size, bytes read plus written.
        copy: Option<f64>,
    },
    /// One panel per array, each the worst error against n of every method.
    Error(Vec<(String, Vec<Series>)>),
    /// The litmus heat map: weak outcomes per million, one panel per placement.
    Heat(Vec<report::heatmap::Panel>),
}

/// What a result's checks found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checks {
    /// Every check passed.
    pub passed: bool,
    /// One line per failed check, for standard error; empty if none (or if
    /// the command fails without naming each check, as `publish` does).
    pub lines: String,
}

impl Checks {
    /// Checks that passed exactly when `lines`, one per failure, is empty.
    pub fn from_lines(lines: String) -> Checks {
        Checks { passed: lines.is_empty(), lines }
    }

    /// Nothing was judged, so nothing failed.
    pub fn none() -> Checks {
        Checks { passed: true, lines: String::new() }
    }
}

/// One command of the CLI, as [`crate::app::execute`] drives it.
pub trait Command: Sized {
    /// What the command runs on: a [`Gpu`], the device's identity only
    /// ([`evidence`]), or nothing (`()`, [`render`]).
    type Device: Device;
    /// What [`Command::check`] found without a GPU, for [`Command::run`]: a
    /// data file's values, a litmus selection, or `()`.
    type Checked: Default;
    /// What it hands back to be written.
    type Output: Output;
    /// Whether a Ctrl-C asks it to stop at its next check and write what it
    /// measured (see [`interrupt`](crate::interrupt)), rather than end it at
    /// once. The generic runner catches Ctrl-C before the device is opened,
    /// so a Ctrl-C during the driver's start-up is not lost.
    const STOPS_AT_CHECKS: bool = false;

    /// Checks everything that can be checked before the device is opened, so
    /// a user's mistake is reported the same way on every machine, at once.
    /// A command whose flags clap checks in full keeps this default.
    fn check(&self) -> Result<Self::Checked, LabError> {
        Ok(Self::Checked::default())
    }

    /// Runs on the opened device.
    fn run(self, checked: Self::Checked, device: &Self::Device) -> Result<Self::Output, LabError>;
}

/// What a command runs on, opened by the generic runner after the checks.
pub trait Device: Sized {
    /// Opens it, loading `ptx` where a GPU is opened.
    fn open(ptx: &PtxSource) -> Result<Self, LabError>;
}

impl Device for Gpu {
    fn open(ptx: &PtxSource) -> Result<Gpu, LabError> {
        Gpu::open(ptx)
    }
}

/// A command that needs no device opens nothing.
impl Device for () {
    fn open(_: &PtxSource) -> Result<(), LabError> {
        Ok(())
    }
}

/// A finished command's results, ready to be written.
pub trait Output {
    /// Writes the results where the command line asked.
    fn emit(&self) -> Result<(), LabError>;

    /// What its checks found; a command that judges nothing passes.
    fn checks(&self) -> Checks;

    /// Ctrl-C stopped the run, and the results hold only what it measured
    /// first: the runner says so on standard error after the failures.
    fn partial(&self) -> bool;

    /// How the run came out, once its results and failures are printed: an
    /// interrupted run is [`Outcome::Interrupted`] whatever its checks
    /// found.
    fn outcome(&self, checks: &Checks) -> Result<Outcome, LabError> {
        Ok(if self.partial() {
            Outcome::Interrupted
        } else if checks.passed {
            Outcome::Passed
        } else {
            Outcome::ChecksFailed
        })
    }
}

/// A [`Record`] and where it goes: what every command but `evidence` hands
/// back.
#[derive(Debug)]
pub struct Written {
    /// The record.
    pub record: Record,
    /// `--format` and `--output`.
    pub to: OutputArgs,
    /// `--plot`, for the commands that draw one.
    pub plot: Option<PathBuf>,
    /// Whether the record's checks decide the outcome: true for a run, false
    /// for `render`, which prints a saved record again and judges nothing.
    pub judged: bool,
}

impl Written {
    /// A run's record of `results` on `gpu`, to go where `to` and `plot` say,
    /// marked partial if Ctrl-C was pressed during the run.
    pub fn run(gpu: &Gpu, results: impl Into<Results>, to: OutputArgs, plot: Option<PlotArgs>) -> Written {
        let record = Record { partial: interrupt::requested(), ..Record::of(gpu, results.into()) };
        Written { record, to, plot: plot.and_then(|p| p.plot), judged: true }
    }
}

impl Output for Written {
    fn emit(&self) -> Result<(), LabError> {
        let text = report::export(&self.record, self.to.format);
        match &self.to.output {
            Some(path) => write(path, &text)?,
            None => print!("{text}"),
        }
        if let Some(path) = &self.plot {
            match plot::svg(&self.record) {
                Ok(svg) => write(path, &svg)?,
                // An interrupted run may have stopped before it measured
                // anything to plot: that is the interruption, not a file that
                // cannot be written.
                Err(reason) if self.record.partial => eprintln!("no plot written to {}: {reason}", path.display()),
                Err(reason) => return Err(LabError::Output { path: path.clone(), reason }),
            }
        }
        Ok(())
    }

    fn checks(&self) -> Checks {
        if self.judged { self.record.results.report().checks() } else { Checks::none() }
    }

    fn partial(&self) -> bool {
        self.judged && self.record.partial
    }
}

/// Writes `text` to `path`, naming the file if it cannot.
pub fn write(path: &Path, text: &str) -> Result<(), LabError> {
    std::fs::write(path, text).map_err(|e| LabError::Output { path: path.to_path_buf(), reason: e.to_string() })
}

/// A progress bar only where someone watches a table being made: text
/// format, and both output streams on a terminal.
pub fn progress(output: &OutputArgs) -> Progress {
    let watched = output.format == Format::Table && output.output.is_none() && std::io::stdout().is_terminal();
    Progress::new(watched)
}
