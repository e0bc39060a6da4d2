//! The thin `Result` layer between cudarc's driver calls and the lab's
//! [`LabError`]: every failure is named, described, and tagged with what the
//! host was doing when it happened.

use cudarc::driver::DriverError;

use crate::error::LabError;

/// A driver error as `NAME: description`, e.g.
/// `CUDA_ERROR_INVALID_PTX: a PTX JIT compilation failed`.
pub fn describe(error: &DriverError) -> String {
    let name = error.error_name().map_or_else(|_| format!("{:?}", error.0), |s| s.to_string_lossy().into_owned());
    match error.error_string() {
        Ok(text) => format!("{name}: {}", text.to_string_lossy()),
        Err(_) => name,
    }
}

/// Attaches what the host was doing to a driver error.
pub trait DriverContext<T> {
    /// Wraps the driver error as [`LabError::Driver`] with `doing` as context.
    fn doing(self, doing: impl FnOnce() -> String) -> Result<T, LabError>;
}

impl<T> DriverContext<T> for Result<T, DriverError> {
    fn doing(self, doing: impl FnOnce() -> String) -> Result<T, LabError> {
        self.map_err(|error| LabError::Driver { doing: doing(), error: describe(&error) })
    }
}
