//! The one error type of the host, and the exit code each error maps to.

use std::path::PathBuf;

/// Everything that stops a command before it can print its results.
///
/// A failed *check* (a sum that is not bit-exact) is not an error: the run
/// finishes its table and reports it, and `main` turns it into exit code 1.
#[derive(Clone, Debug, thiserror::Error)]
pub enum LabError {
    /// No usable GPU: no driver library, no device, or the driver refused to
    /// initialise. The message says which.
    #[error("no CUDA device: {0}")]
    NoDevice(String),

    /// A PTX file given with `--ptx` could not be read.
    #[error("cannot read PTX file {path}: {reason}")]
    PtxRead {
        /// The file named on the command line.
        path: PathBuf,
        /// Why it could not be read.
        reason: String,
    },

    /// The driver rejected the PTX, or a kernel is missing from it.
    #[error("PTX {source_name} did not load: {reason}")]
    PtxLoad {
        /// The PTX file, or "embedded PTX".
        source_name: String,
        /// The driver's error.
        reason: String,
    },

    /// A driver call failed during a run.
    #[error("CUDA driver error while {doing}: {error}")]
    Driver {
        /// What the host was doing, e.g. "launching sum_tree_atomic".
        doing: String,
        /// The driver's error as `NAME: description`.
        error: String,
    },

    /// The user's data file (`accuracy --input`) cannot be summed: missing,
    /// not `.npy`, the wrong dtype or shape, empty, too large, or with bytes
    /// after its array.
    #[error("{path}: {reason}")]
    DataFile {
        /// The file named on the command line.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },

    /// A command line that is well formed but cannot be run as asked: flags
    /// that together select nothing (a `litmus --test` with none of the
    /// `--variant`s it has, an `evidence --only` that names no step), a
    /// request this GPU cannot meet (an inter-block litmus row on a GPU that
    /// holds fewer blocks at once than the test has threads), or an
    /// `evidence` directory that already holds files.
    #[error("{0}")]
    Unrunnable(String),

    /// Standard output is a pipe whose reader has gone (`host ... | head
    /// -1`): the command stops quietly, as a program killed by `SIGPIPE`
    /// does, with the status a shell reports for one.
    #[error("standard output was closed")]
    ClosedPipe,

    /// A results or plot file could not be written.
    #[error("cannot write {path}: {reason}")]
    Output {
        /// The file named by `--output` or `--plot`.
        path: PathBuf,
        /// Why.
        reason: String,
    },

    /// An `evidence` step could not run to the end (its own exit code was 2,
    /// 3 or a signal); the steps after it still ran.
    #[error("evidence step {step} did not finish: {note}")]
    Step {
        /// The first such step.
        step: String,
        /// Its last line on standard error.
        note: String,
    },
}

/// The exit code of a run in which every check passed.
pub const EXIT_PASSED: u8 = 0;
/// The exit code of a run that finished and in which a check failed: a
/// wrong result, never a broken setup.
pub const EXIT_CHECK_FAILED: u8 = 1;
/// The exit code of bad flags, an unusable data file and a missing GPU: the
/// user must change something before anything can run. clap uses it too.
pub const EXIT_USAGE: u8 = 2;
/// The exit code of an environment that failed under a valid command line:
/// PTX that cannot be read or does not load, a driver error, an output file
/// that cannot be written.
pub const EXIT_ENVIRONMENT: u8 = 3;
/// The exit code of a run stopped by Ctrl-C (128 + SIGINT, as a shell
/// reports it).
pub const EXIT_INTERRUPTED: u8 = 130;

/// The exit code of a run whose standard output was closed under it (128 +
/// SIGPIPE, as a shell reports a program the signal stopped).
pub const EXIT_CLOSED_PIPE: u8 = 141;

impl LabError {
    /// The process exit code for this error: [`EXIT_USAGE`] where the user
    /// must change the command line or the machine (no GPU, an unusable data
    /// file, a selection of nothing), [`EXIT_ENVIRONMENT`] where a valid
    /// command met a failing environment (PTX, driver, output file). Bad flags
    /// never get this far: `cli` refuses them with [`EXIT_USAGE`] too.
    pub fn exit_code(&self) -> u8 {
        match self {
            LabError::NoDevice(_) | LabError::DataFile { .. } | LabError::Unrunnable(_) => EXIT_USAGE,
            LabError::PtxRead { .. }
            | LabError::PtxLoad { .. }
            | LabError::Driver { .. }
            | LabError::Output { .. }
            | LabError::Step { .. } => EXIT_ENVIRONMENT,
            LabError::ClosedPipe => EXIT_CLOSED_PIPE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_setup_exits_3_and_a_user_s_mistake_2() {
        let path = || PathBuf::from("f");
        let reason = || "r".to_owned();
        for (error, code) in [
            (LabError::NoDevice(reason()), 2),
            (LabError::DataFile { path: path(), reason: reason() }, 2),
            (LabError::Unrunnable(reason()), 2),
            (LabError::PtxRead { path: path(), reason: reason() }, 3),
            (LabError::PtxLoad { source_name: "embedded PTX".to_owned(), reason: reason() }, 3),
            (LabError::Driver { doing: "launching".to_owned(), error: reason() }, 3),
            (LabError::Output { path: path(), reason: reason() }, 3),
            (LabError::ClosedPipe, 141),
        ] {
            assert_eq!(error.exit_code(), code, "{error}");
        }
    }
}
