//! NVIDIA's PTX assembler, found or installed, so PTX can be checked on a
//! machine with no GPU and no CUDA toolkit.
//!
//! `ptxas` ships in NVIDIA's `nvidia-cuda-nvcc` wheel on PyPI. [`install`]
//! puts that wheel under `.tools/cuda` with pip; [`find`] looks, in order, at
//! `$PTXAS`, at `.tools/cuda`, and at `PATH` (a CUDA toolkit's own `ptxas`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fs};

use crate::paths;
use crate::ptx::Error;

/// The wheel that carries `ptxas`, pinned to the CUDA release of the H200
/// machine the results were measured on.
pub const WHEEL: &str = "nvidia-cuda-nvcc==13.0.88";

fn installed(root: &Path) -> PathBuf {
    paths::tools_dir(root).join("cuda/nvidia/cu13/bin/ptxas")
}

/// The `ptxas` to use, if there is one.
pub fn find(root: &Path) -> Option<PathBuf> {
    if let Some(path) = env::var_os("PTXAS") {
        return Some(PathBuf::from(path));
    }
    let local = installed(root);
    if local.exists() {
        return Some(local);
    }
    env::var_os("PATH").and_then(|path| {
        env::split_paths(&path)
            .map(|dir| dir.join("ptxas"))
            .find(|candidate| candidate.is_file())
    })
}

/// Returns a `ptxas`, installing [`WHEEL`] under `.tools/cuda` when none is
/// found.
pub fn find_or_install(root: &Path) -> Result<PathBuf, Error> {
    if let Some(path) = find(root) {
        return Ok(path);
    }
    let target = paths::tools_dir(root).join("cuda");
    fs::create_dir_all(&target).map_err(|e| Error(format!("cannot create {}: {e}", target.display())))?;
    eprintln!("installing ptxas ({WHEEL}) under {}", target.display());
    let status = Command::new("python3")
        .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--target"])
        .arg(&target)
        .arg(WHEEL)
        .status()
        .map_err(|e| Error(format!("cannot run python3 -m pip: {e}")))?;
    let path = installed(root);
    if status.success() && path.exists() {
        Ok(path)
    } else {
        Err(Error(format!("pip could not install {WHEEL} ({status})")))
    }
}
