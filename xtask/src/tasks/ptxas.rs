//! `cargo xtask ptxas`: print the path of the `ptxas` the tests use,
//! installing NVIDIA's tools under `.tools/` if none is found (see
//! [`xtask::ptxas`]).

use xtask::{paths, ptxas};

/// Runs the task.
pub fn run() -> super::Result {
    let ptxas = ptxas::find_or_install(&paths::workspace_root())?;
    println!("{}", ptxas.display());
    Ok(())
}
