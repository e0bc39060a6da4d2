//! The hygiene checks `cargo xtask test` runs before the tests: formatting
//! and clippy, with warnings denied, on both workspaces.
//!
//! The kernels are a workspace of their own (`kernels/`), compiled only for
//! `nvptx64-nvidia-cuda`, so every check is run twice: once in the root
//! workspace and once in `kernels/`. Clippy checks the kernels for that
//! target, through [`ptx_builder::kernels_cargo`], with the flags and `core` they are
//! built with: checked for the host, their inline PTX and `extern
//! "ptx-kernel"` entries would not compile at all.
//!
//! Each check prints what its tool prints (rustfmt's diff, clippy's
//! warnings) and fails with one line that names the check and the command
//! that fixes or repeats it.

use std::ffi::OsStr;
use std::path::Path;
use std::process::Command;

use crate::Error;

/// Runs every check through `cargo` (`$CARGO` from the caller), in order,
/// and stops at the first that fails: `cargo fmt --all --check` in the root
/// workspace, `cargo fmt --check` in each of [`GPU_CRATES`], `cargo clippy
/// --workspace --all-targets --release -- -D warnings` in the root
/// workspace, and clippy with `-D warnings` on `device/` and the kernels for
/// their real target.
pub fn check(root: &Path, cargo: &OsStr) -> Result<(), Error> {
    let mut fmt_root = Command::new(cargo);
    fmt_root.current_dir(root).args(["fmt", "--all", "--check"]);
    run(fmt_root, "formatting (root workspace)", "run `cargo fmt --all`")?;

    // No `--all` here: with it, cargo fmt also takes the path dependency
    // `layout` and, through it, every member of the root workspace, so this
    // check would repeat the one above and blame kernels/ for host files.
    for gpu_crate in GPU_CRATES {
        let mut fmt = Command::new(cargo);
        fmt.current_dir(root.join(gpu_crate)).args(["fmt", "--check"]);
        run(fmt, &format!("formatting ({gpu_crate}/)"), &format!("run `cargo fmt` in {gpu_crate}/"))?;
    }

    let mut clippy_root = Command::new(cargo);
    clippy_root.current_dir(root).args(["clippy", "--workspace", "--all-targets", "--release", "--", "-D", "warnings"]);
    run(
        clippy_root,
        "clippy (root workspace)",
        "fix the warnings above; `cargo clippy --workspace --all-targets --release -- -D warnings` repeats the check",
    )?;

    // Its own target directory per module: a check build of `core` for
    // nvptx64 beside the PTX build's would make each invalidate the other's
    // fingerprints. Each module is checked, since each compiles other code.
    // `device/` is linted on its own: clippy checks a workspace's members,
    // and `device/` is a path dependency outside `kernels/`'s workspace.
    // `practice/` is not: its files are the learner's to write.
    for module in layout::Module::ALL {
        let dir = root.join("target").join(format!("ptx-lint-{}", module.arch()));
        for gpu_crate in ["device", "kernels"] {
            let mut clippy = ptx_builder::crate_cargo(root, cargo, "clippy", &root.join(gpu_crate), &dir, module)?;
            clippy.args(["--", "-D", "warnings"]);
            run(
                clippy,
                &format!("clippy ({gpu_crate}/, {}, {})", ptx_builder::TARGET, module.arch()),
                "fix the warnings above; `cargo xtask test` repeats the check",
            )?;
        }
    }
    Ok(())
}

/// The crates compiled only for the GPU, outside the root workspace, whose
/// formatting is checked one by one: the vocabulary, the lab's kernels and
/// the learner's stubs.
const GPU_CRATES: [&str; 3] = ["device", "kernels", "practice"];

/// Runs one check, its output going to the terminal, and turns a failure
/// into one line: `<check> failed: <fix>`.
fn run(mut cmd: Command, check: &str, fix: &str) -> Result<(), Error> {
    let status = cmd.status().map_err(|e| Error(format!("{check}: cannot run {cmd:?}: {e}")))?;
    if status.success() { Ok(()) } else { Err(Error(format!("{check} failed ({status}): {fix}"))) }
}
