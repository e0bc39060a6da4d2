//! The commands, one folder each. A folder holds the command's flags and
//! their conversion into the runner's options (`args.rs`, with its
//! [`Command`] impl), its runner (the folder's `mod.rs`) and its report
//! (`report.rs`, with its [`Report`] impl: the tables, CSV rows, plot and
//! failure lines of its result).
//!
//! [`Command`] is what the one generic runner, [`crate::app::execute`],
//! drives: check what can be checked without a GPU, open the device, run,
//! then write the [`Output`], print its failures and map its outcome. A
//! measuring command hands back its own result type in a [`Written`]; the
//! record that names every command (`crate::record`) sits above this module
//! and turns it into JSON, so this module and the folders under it know no
//! other command. What two commands share lives below them (`crate::sums`,
//! `crate::verdict`, `crate::options`), never in a sibling folder.

pub mod accuracy;
pub mod bench;
pub mod compare;
pub mod evidence;
pub mod exercise;
pub mod histogram;
pub mod litmus;
pub mod pitfalls;
pub mod publish;
pub mod publish_sys;
pub mod scopes;
pub mod sweep;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use crate::device::DeviceInfo;
use crate::error::LabError;
use crate::gpu::{Gpu, PtxSource};
use crate::interrupt;
use crate::options::{OutputArgs, PlotArgs};
use crate::progress::Progress;
use crate::report::{Checks, Format};

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

/// How a command that ran to the end came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every check passed.
    Passed,
    /// At least one check failed; the details were printed.
    ChecksFailed,
    /// Ctrl-C stopped the run; what it measured was printed, marked partial,
    /// and any failed check too.
    Interrupted,
}

/// A finished command's results, ready to be written.
pub trait Output {
    /// Writes the results where the command line asked: a file, or
    /// standard output through [`print`], never `print!` (which panics on a
    /// closed pipe or a full disk).
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

/// Where a run happened and with what: the record's header, the same for
/// every command.
#[derive(Clone, Debug, PartialEq)]
pub struct Provenance {
    /// The host's name and version.
    pub tool: String,
    /// The toolchain that compiled the kernels to PTX.
    pub kernel_compiler: String,
    /// Where the PTX came from.
    pub ptx: String,
    /// The GPU and its driver.
    pub device: DeviceInfo,
    /// Ctrl-C stopped the run before it finished.
    pub partial: bool,
}

impl Provenance {
    /// A run on `gpu` by this host, marked partial if Ctrl-C was pressed.
    pub fn of(gpu: &Gpu) -> Provenance {
        Provenance {
            tool: tool(),
            kernel_compiler: KERNEL_COMPILER.to_owned(),
            ptx: gpu.ptx_name().to_owned(),
            device: gpu.info.clone(),
            partial: interrupt::requested(),
        }
    }
}

/// A command's result and where it goes: what every command but `evidence`
/// hands back. Its [`Output`] is implemented where the record of every
/// command is (`crate::record`), which turns `R` into that record.
#[derive(Debug)]
pub struct Written<R> {
    /// Where and with what it ran.
    pub provenance: Provenance,
    /// What it measured.
    pub results: R,
    /// `--format` and `--output`.
    pub to: OutputArgs,
    /// `--plot`, for the commands that draw one.
    pub plot: Option<PathBuf>,
    /// Whether the result's checks decide the outcome: true for a run, false
    /// for `render`, which prints a saved record again and judges nothing.
    pub judged: bool,
}

impl<R> Written<R> {
    /// A run's `results` on `gpu`, to go where `to` and `plot` say, marked
    /// partial if Ctrl-C was pressed during the run.
    pub fn run(gpu: &Gpu, results: R, to: OutputArgs, plot: Option<PlotArgs>) -> Written<R> {
        Written { provenance: Provenance::of(gpu), results, to, plot: plot.and_then(|p| p.plot), judged: true }
    }
}

/// A command that hands back one of several result types (`litmus`: the
/// suite, the search or the mutants) hands back a boxed [`Output`].
impl Output for Box<dyn Output> {
    fn emit(&self) -> Result<(), LabError> {
        (**self).emit()
    }

    fn checks(&self) -> Checks {
        (**self).checks()
    }

    fn partial(&self) -> bool {
        (**self).partial()
    }
}

/// The host's name and version, as every file it writes names it.
pub fn tool() -> String {
    format!("host {}", env!("CARGO_PKG_VERSION"))
}

/// The toolchain the host's build script compiled the kernels with.
pub const KERNEL_COMPILER: &str = env!("LAB_KERNEL_COMPILER");

/// Writes `text` to standard output: a closed pipe is
/// [`LabError::ClosedPipe`], any other failure (a full disk) one line naming
/// standard output, never a panic, as `print!` would give.
pub fn print(text: &str) -> Result<(), LabError> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(|e| match e.kind() {
        std::io::ErrorKind::BrokenPipe => LabError::ClosedPipe,
        _ => LabError::Output { path: std::path::PathBuf::from("standard output"), reason: e.to_string() },
    })
}

/// Writes `text` to `path` whole or not at all, naming the file if it
/// cannot ([`write_all`]).
pub fn write(path: &Path, text: &str) -> Result<(), LabError> {
    write_all(&[(path, text)])
}

/// Writes each text to its path, all or none, naming the file that failed:
/// each into a temporary file beside its target, and the temporaries renamed
/// over the targets only once every byte of every one is written. A failure
/// (a folder that is not there, a full disk) never leaves a half-written
/// file or destroys one that was there. A path that is not a regular file
/// (`/dev/stdout`, a FIFO) cannot be replaced, and is written as it is.
pub fn write_all(files: &[(&Path, &str)]) -> Result<(), LabError> {
    let failed = |path: &Path, e: std::io::Error| LabError::Output { path: path.to_path_buf(), reason: e.to_string() };
    let mut staged: Vec<(PathBuf, &Path)> = Vec::new();
    let unstage = |staged: &[(PathBuf, &Path)]| {
        for (temporary, _) in staged {
            let _ = std::fs::remove_file(temporary);
        }
    };
    for &(path, text) in files {
        let special = std::fs::metadata(path).is_ok_and(|m| !m.is_file());
        let Some(name) = path.file_name().filter(|_| !special) else {
            std::fs::write(path, text).map_err(|e| failed(path, e))?;
            continue;
        };
        let mut partial = std::ffi::OsString::from(".");
        partial.push(name);
        partial.push(".partial");
        let temporary = path.with_file_name(partial);
        if let Err(e) = std::fs::write(&temporary, text) {
            let _ = std::fs::remove_file(&temporary);
            unstage(&staged);
            return Err(failed(path, e));
        }
        staged.push((temporary, path));
    }
    for (k, (temporary, path)) in staged.iter().enumerate() {
        if let Err(e) = std::fs::rename(temporary, path) {
            unstage(&staged[k..]);
            return Err(failed(path, e));
        }
    }
    Ok(())
}

/// Reads a file a command was given to read (a record, a manifest),
/// refusing what is not a regular file: a FIFO would block the read until
/// something writes to it, a device may never end.
pub fn read_input(path: &Path) -> Result<String, LabError> {
    let refused = |reason: String| LabError::DataFile { path: path.to_path_buf(), reason };
    let meta = std::fs::metadata(path).map_err(|e| refused(e.to_string()))?;
    if !meta.is_file() {
        return Err(refused("not a regular file (a folder, a FIFO or a device): name a file".to_owned()));
    }
    std::fs::read_to_string(path).map_err(|e| refused(e.to_string()))
}

/// Refuses an output (`--output`, `--plot`) that names a file the command
/// reads: writing it would destroy the input, and a failure half-way would
/// leave neither.
pub fn refuse_overwriting_inputs(outputs: &[&Path], inputs: &[PathBuf]) -> Result<(), LabError> {
    let same = |a: &Path, b: &Path| match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    for output in outputs {
        if let Some(input) = inputs.iter().find(|input| same(output, input)) {
            return Err(LabError::Unrunnable(format!(
                "{} names {}, which this command reads: write the output elsewhere",
                output.display(),
                input.display()
            )));
        }
    }
    Ok(())
}

/// A progress bar only where someone watches a table being made: text
/// format, and both output streams on a terminal.
pub fn progress(output: &OutputArgs) -> Progress {
    let watched = output.format == Format::Table && output.output.is_none() && std::io::stdout().is_terminal();
    Progress::new(watched)
}
