//! The one error type of the build tasks.

use std::fmt;

/// Why a task failed, in words meant for the person at the terminal: `main`
/// prints it as one line after `error: `.
#[derive(Debug)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// The PTX builder's one line, unchanged: a task that builds the kernels
/// fails with it.
impl From<ptx_builder::Error> for Error {
    fn from(e: ptx_builder::Error) -> Error {
        Error(e.0)
    }
}
