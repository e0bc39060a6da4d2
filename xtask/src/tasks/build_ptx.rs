//! `cargo xtask build-ptx`: compile the kernels and print the two PTX paths,
//! the base module's then the Hopper module's.

use xtask::paths;

/// Runs the task.
pub fn run() -> super::Result {
    let built = ptx_builder::build(&paths::workspace_root(), &super::cargo())?;
    println!("{}\n{}", built.base.display(), built.hopper.display());
    Ok(())
}
