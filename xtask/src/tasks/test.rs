//! `cargo xtask test`, the README's test command: formatting and clippy on
//! both workspaces, then every test of the workspace in release mode (the
//! mode the GPU tests run in), then the book from the reference run. It
//! installs what it needs first: NVIDIA's `ptxas`, `cuobjdump` and `nvdisasm`
//! for the PTX tests, the pinned mdBook, and Debian's Chromium for the browser
//! test that opens the built book.

use std::process::Command;

use xtask::{Error, browser, lint, paths, ptxas};

/// Runs the task.
pub fn run() -> super::Result {
    let root = paths::workspace_root();
    let cargo = super::cargo();
    lint::check(&root, cargo.as_os_str())?;
    let ptxas = ptxas::find_or_install(&root)?;
    browser::find_or_install()?;
    let status = Command::new(&cargo)
        .current_dir(&root)
        .args(["test", "--workspace", "--release"])
        .env("PTXAS", &ptxas)
        .status()
        .map_err(|e| Error(format!("cannot run cargo: {e}")))?;
    if !status.success() {
        return Err(super::Failure::Failed(Error(format!("tests failed ({status})"))));
    }
    // The book is part of what is tested: a missing include, a broken link or
    // a figure the reference run cannot provide fails here, not in a reader's
    // browser; one that overflows the reader's screen fails in ours.
    super::book::run(&super::book::Args::default())?;
    super::browser::run(&super::browser::Args::default())
}
