//! NVIDIA's PTX assembler and disassemblers, found or installed, so PTX and
//! machine code can be checked on a machine with no GPU and no CUDA toolkit.
//!
//! `ptxas` ships in NVIDIA's `nvidia-cuda-nvcc` wheel on PyPI, `cuobjdump`
//! and `nvdisasm` in wheels of their own. [`find_or_install`] puts all three
//! under `.tools/cuda` with one pip command; [`find`] looks for a tool, in
//! order, at `$PTXAS` (for `ptxas`), at `.tools/cuda`, and on `PATH` (a CUDA
//! toolkit's own).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fs};

use crate::Error;
use crate::paths;

/// The wheels, installed together (pip's `--target` will not add a second
/// package to a folder that already holds the first). `ptxas` is pinned to the
/// CUDA release of the H200 machine the results were measured on; the
/// disassemblers start at 13.2 on PyPI and read 13.0 cubins.
pub const WHEELS: [&str; 3] =
    ["nvidia-cuda-nvcc==13.0.88", "nvidia-cuda-cuobjdump==13.5.37", "nvidia-cuda-nvdisasm==13.5.37"];

/// The tools this module finds.
pub const TOOLS: [&str; 3] = ["ptxas", "cuobjdump", "nvdisasm"];

fn installed(root: &Path, tool: &str) -> PathBuf {
    paths::tools_dir(root).join("cuda/nvidia/cu13/bin").join(tool)
}

/// The `ptxas` to use, if there is one.
pub fn find(root: &Path) -> Option<PathBuf> {
    find_tool(root, "ptxas")
}

/// The named tool (`ptxas`, `cuobjdump` or `nvdisasm`), if there is one.
pub fn find_tool(root: &Path, tool: &str) -> Option<PathBuf> {
    if tool == "ptxas"
        && let Some(path) = env::var_os("PTXAS")
    {
        return Some(PathBuf::from(path));
    }
    let local = installed(root, tool);
    if local.exists() {
        return Some(local);
    }
    paths::on_path(tool)
}

/// Returns a `ptxas`, installing the [`WHEELS`] under `.tools/cuda` when any
/// of the three tools is missing.
pub fn find_or_install(root: &Path) -> Result<PathBuf, Error> {
    if TOOLS.iter().all(|t| find_tool(root, t).is_some()) {
        return find(root).ok_or_else(|| Error("ptxas vanished".to_owned()));
    }
    let target = paths::tools_dir(root).join("cuda");
    fs::create_dir_all(&target).map_err(|e| Error(format!("cannot create {}: {e}", target.display())))?;
    eprintln!("installing ptxas, cuobjdump and nvdisasm under {}", target.display());
    let status = Command::new("python3")
        .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--upgrade", "--target"])
        .arg(&target)
        .args(WHEELS)
        .status()
        .map_err(|e| Error(format!("cannot run python3 -m pip: {e}")))?;
    let path = installed(root, "ptxas");
    if status.success() && path.exists() {
        Ok(find(root).unwrap_or(path))
    } else {
        Err(Error(format!("pip could not install {} ({status})", WHEELS.join(" "))))
    }
}
