//! `cargo xtask test`, the README's test command: make sure `ptxas`,
//! `cuobjdump` and `nvdisasm` are there for the PTX tests, then run the whole
//! workspace's tests in release mode (the mode the GPU tests run in).

use std::process::Command;

use xtask::{Error, paths, ptxas};

/// Runs the task.
pub fn run() -> super::Result {
    let root = paths::workspace_root();
    let ptxas = ptxas::find_or_install(&root)?;
    let status = Command::new(super::cargo())
        .current_dir(&root)
        .args(["test", "--workspace", "--release"])
        .env("PTXAS", &ptxas)
        .status()
        .map_err(|e| Error(format!("cannot run cargo: {e}")))?;
    if status.success() { Ok(()) } else { Err(Error(format!("tests failed ({status})"))) }
}
