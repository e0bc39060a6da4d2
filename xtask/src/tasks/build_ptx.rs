//! `cargo xtask build-ptx`: compile the kernels and print the PTX path.

use xtask::{paths, ptx};

/// Runs the task.
pub fn run() -> super::Result {
    let path = ptx::build(&paths::workspace_root(), &super::cargo())?;
    println!("{}", path.display());
    Ok(())
}
