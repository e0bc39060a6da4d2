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
/// workspace, `cargo fmt --check` in `kernels/`, `cargo clippy --workspace
/// --all-targets --release -- -D warnings` in the root workspace, and clippy
/// with `-D warnings` on the kernels for their real target.
pub fn check(root: &Path, cargo: &OsStr) -> Result<(), Error> {
    let kernels = root.join("kernels");

    let mut fmt_root = Command::new(cargo);
    fmt_root.current_dir(root).args(["fmt", "--all", "--check"]);
    run(fmt_root, "formatting (root workspace)", "run `cargo fmt --all`")?;

    // No `--all` here: with it, cargo fmt also takes the path dependency
    // `layout` and, through it, every member of the root workspace, so this
    // check would repeat the one above and blame kernels/ for host files.
    let mut fmt_kernels = Command::new(cargo);
    fmt_kernels.current_dir(&kernels).args(["fmt", "--check"]);
    run(fmt_kernels, "formatting (kernels/)", "run `cargo fmt` in kernels/")?;

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
    for module in layout::Module::ALL {
        let dir = root.join("target").join(format!("ptx-lint-{}", module.arch()));
        let mut clippy_kernels = ptx_builder::kernels_cargo(root, cargo, "clippy", &dir, module)?;
        clippy_kernels.args(["--", "-D", "warnings"]);
        run(
            clippy_kernels,
            &format!("clippy (kernels/, {}, {})", ptx_builder::TARGET, module.arch()),
            "fix the warnings above; `cargo xtask test` repeats the check",
        )?;
    }
    Ok(())
}

/// Runs one check, its output going to the terminal, and turns a failure
/// into one line: `<check> failed: <fix>`.
fn run(mut cmd: Command, check: &str, fix: &str) -> Result<(), Error> {
    let status = cmd.status().map_err(|e| Error(format!("{check}: cannot run {cmd:?}: {e}")))?;
    if status.success() { Ok(()) } else { Err(Error(format!("{check} failed ({status}): {fix}"))) }
}
