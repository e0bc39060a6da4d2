//! The pinned `mdbook` the book is built with: found in the target
//! directory, or installed there from crates.io by `cargo install`, so no
//! machine needs one installed by hand and every machine builds the book with
//! the same version.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::Error;

/// The mdBook release the book is written for.
pub const VERSION: &str = "0.4.52";

/// Where the pinned `mdbook` is installed: `target/tools/`, with cargo's
/// `--root` layout (`bin/mdbook`).
pub fn root(workspace: &Path) -> PathBuf {
    workspace.join("target").join("tools")
}

/// The pinned `mdbook`, installing it first if it is missing or another
/// version.
pub fn find_or_install(workspace: &Path, cargo: &OsStr) -> Result<PathBuf, Error> {
    let bin = root(workspace).join("bin").join("mdbook");
    if version_of(&bin).is_some_and(|v| v == VERSION) {
        return Ok(bin);
    }
    eprintln!("installing mdbook {VERSION} into {} (once)", root(workspace).display());
    // Only the search feature: `serve` and `watch` pull in a web server the
    // build does not use.
    let status = Command::new(cargo)
        .args(["install", "mdbook", "--locked", "--no-default-features", "--features", "search"])
        .arg("--version")
        .arg(format!("={VERSION}"))
        .arg("--root")
        .arg(root(workspace))
        .status()
        .map_err(|e| Error(format!("cannot run cargo install: {e}")))?;
    if !status.success() {
        return Err(Error(format!("cargo install mdbook {VERSION} failed ({status})")));
    }
    match version_of(&bin) {
        Some(v) if v == VERSION => Ok(bin),
        other => Err(Error(format!("installed mdbook reports version {other:?}, expected {VERSION}"))),
    }
}

/// The version `mdbook --version` prints (`mdbook v0.4.52`), if it runs.
fn version_of(bin: &Path) -> Option<String> {
    let out = Command::new(bin).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.split_whitespace().last().map(|v| v.trim_start_matches('v').to_owned())
}
