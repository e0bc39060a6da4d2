//! Where things are, found from this crate's manifest rather than the current
//! directory, so every task works from any directory inside the checkout.

use std::path::{Path, PathBuf};

/// The workspace root: the parent of `xtask/`.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask/ sits inside the workspace root").to_path_buf()
}

/// The first file named `name` in a directory of `PATH`.
pub fn on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .and_then(|path| std::env::split_paths(&path).map(|dir| dir.join(name)).find(|candidate| candidate.is_file()))
}

/// Where tools installed by the tasks live (`.tools/`, ignored by git).
pub fn tools_dir(root: &Path) -> PathBuf {
    root.join(".tools")
}

/// A CUDA toolkit program from `PATH` or `/usr/local/cuda/bin`.
pub fn cuda_tool(name: &str) -> Result<PathBuf, crate::Error> {
    on_path(name)
        .or_else(|| Some(PathBuf::from("/usr/local/cuda/bin").join(name)).filter(|p| p.is_file()))
        .ok_or_else(|| crate::Error(format!("{name} not found on PATH or in /usr/local/cuda/bin")))
}
