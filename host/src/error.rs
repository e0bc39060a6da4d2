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
    /// not `.npy`, the wrong dtype or shape, empty, or too large.
    #[error("{path}: {reason}")]
    DataFile {
        /// The file named on the command line.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },

    /// Flags that are each valid but together select nothing to run (a
    /// `litmus --test` with none of the `--variant`s it has), or that this
    /// GPU cannot run as asked (an inter-block litmus row on a GPU that holds
    /// fewer blocks at once than the test has threads).
    #[error("{0}")]
    NothingSelected(String),

    /// A results or plot file could not be written.
    #[error("cannot write {path}: {reason}")]
    Output {
        /// The file named by `--output` or `--plot`.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

impl LabError {
    /// The process exit code for this error: 2 for "no GPU" and an unusable
    /// data file (the code clap uses for bad flags: the user must change
    /// something), 1 for everything else. Bad flags never get this far: `cli`
    /// refuses them.
    pub fn exit_code(&self) -> u8 {
        match self {
            LabError::NoDevice(_) | LabError::DataFile { .. } | LabError::NothingSelected(_) => 2,
            _ => 1,
        }
    }
}
