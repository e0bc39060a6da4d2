//! Builds the kernels to PTX before the host is compiled, through the same
//! builder as `cargo xtask build-ptx` (the `ptx-builder` crate), so `cargo run -p host` works on a fresh
//! clone with no earlier step. The host embeds both PTX modules
//! (`gpu::EMBEDDED_PTX` and `gpu::EMBEDDED_HOPPER_PTX`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::process::ExitCode;

fn main() -> ExitCode {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("host/ sits inside the workspace root");
    for watched in ["kernels/src", "kernels/Cargo.toml", "layout/src", "rust-toolchain.toml"] {
        println!("cargo::rerun-if-changed={}", root.join(watched).display());
    }
    commit(root);
    let cargo = std::env::var_os("CARGO").map_or_else(|| PathBuf::from("cargo"), PathBuf::from);
    match ptx_builder::build(root, &cargo) {
        Ok(built) => {
            println!("cargo::rustc-env=KERNELS_PTX={}", built.base.display());
            println!("cargo::rustc-env=KERNELS_HOPPER_PTX={}", built.hopper.display());
            println!("cargo::rustc-env=LAB_KERNEL_COMPILER={}", ptx_builder::compiler_version(root));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Tells the host which commit it is built from, for `evidence`'s manifest:
/// `LAB_GIT_COMMIT` (the abbreviated hash, or `unknown` without git) and
/// `LAB_GIT_DIRTY` (`true` when tracked files differ from that commit).
/// Reruns when `HEAD` moves or the index changes.
fn commit(root: &Path) {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git").arg("-C").arg(root).args(args).output().ok()?;
        out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
    };
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        // `logs/HEAD` grows on every commit and checkout, also in a worktree,
        // where a commit moves the branch and leaves `HEAD` itself unchanged.
        for watched in ["HEAD", "index", "logs/HEAD"] {
            println!("cargo::rerun-if-changed={}", Path::new(&dir).join(watched).display());
        }
    }
    let hash = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".to_owned());
    let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    println!("cargo::rustc-env=LAB_GIT_COMMIT={hash}");
    println!("cargo::rustc-env=LAB_GIT_DIRTY={dirty}");
}
