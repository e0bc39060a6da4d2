//! The CCCL headers `cub_sum.cu` builds against: NVIDIA's `nvidia-cuda-cccl`
//! wheel from PyPI, pinned, installed under `target/cccl`.
//!
//! A CUDA toolkit carries the CCCL of its release (CUDA 13.0: CCCL 3.0.1),
//! and CUB's determinism requirements (`not_guaranteed`, `run_to_run`,
//! `gpu_to_gpu`) came in CCCL 3.1. The wheel carries newer headers only, no
//! library, so nvcc builds against them with `-I` ahead of the toolkit's own
//! (nvcc adds those with `-isystem`, which is searched after `-I`).
//!
//! Installing needs pip and the network; the GPU machine may have neither. So
//! [`install`] is a step of its own (`cargo xtask nvcc-compare
//! --install-only`), and [`find`] only looks: a machine that cannot install
//! gets the folder carried at the same path under the checkout.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::Error;

/// The pinned wheel: CCCL 3.5.0 (its `cuda/std/__cccl/version.h` defines
/// `CCCL_VERSION 3005000`), which nvcc 13.0 builds.
pub const WHEEL: &str = "nvidia-cuda-cccl==13.3.5.0.6";

/// The CCCL version the pinned wheel carries, as `(major, minor, patch)`.
pub const VERSION: (u32, u32, u32) = (3, 5, 0);

/// The folder pip installs into, under the checkout: `target/cccl`.
pub fn dir(root: &Path) -> PathBuf {
    root.join("target").join("cccl")
}

/// The include directory inside an install folder, the one that holds
/// `cub/`, `cuda/` and `thrust/`.
pub fn include(dir: &Path) -> PathBuf {
    dir.join("nvidia/cu13/include/cccl")
}

/// The header that defines `CCCL_VERSION`, inside an include directory.
const VERSION_HEADER: &str = "cuda/std/__cccl/version.h";

/// `(major, minor, patch)` from the text of CCCL's version header, whose
/// `#define CCCL_VERSION MMMmmmppp` encodes them as `major * 10^6 + minor *
/// 10^3 + patch`.
pub fn parse_version(header: &str) -> Option<(u32, u32, u32)> {
    let value = header.lines().find_map(|line| {
        let mut words = line.split_whitespace();
        (words.next() == Some("#define") && words.next() == Some("CCCL_VERSION")).then(|| words.next())?
    })?;
    let v: u32 = value.parse().ok()?;
    Some((v / 1_000_000, v / 1000 % 1000, v % 1000))
}

/// What [`find`] found: the include directory and its version, or why there
/// is none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Headers {
    /// The pinned headers, installed.
    Found {
        /// The directory to pass to nvcc with `-I`.
        include: PathBuf,
        /// Its CCCL version.
        version: (u32, u32, u32),
    },
    /// None usable; the reason, for the one line that says so.
    Missing(String),
}

impl Headers {
    /// The one line the comparison prints and keeps about the headers.
    pub fn line(&self) -> String {
        match self {
            Headers::Found { include, version: (a, b, c) } => {
                format!("CUB from the CCCL {a}.{b}.{c} headers of {WHEEL} ({})", include.display())
            }
            Headers::Missing(why) => format!(
                "CUB from the toolkit's own CCCL: {why}; `cargo xtask nvcc-compare --install-only` installs \
                 {WHEEL} where pip and the network are (then carry target/cccl); timing what that CCCL offers \
                 (before 3.1: CUB's default only)"
            ),
        }
    }

    /// The `-I` directory, if found.
    pub fn include(&self) -> Option<&Path> {
        match self {
            Headers::Found { include, .. } => Some(include),
            Headers::Missing(_) => None,
        }
    }
}

/// The pinned headers under `dir` if they are installed there and are the
/// pinned version; never runs pip.
pub fn find(dir: &Path) -> Headers {
    let include = include(dir);
    let header = include.join(VERSION_HEADER);
    let Ok(text) = fs::read_to_string(&header) else {
        return Headers::Missing(format!("no CCCL headers under {}", dir.display()));
    };
    match parse_version(&text) {
        Some(version) if version == VERSION => Headers::Found { include, version },
        Some((a, b, c)) => Headers::Missing(format!(
            "{} holds CCCL {a}.{b}.{c}, not the pinned {}.{}.{}",
            dir.display(),
            VERSION.0,
            VERSION.1,
            VERSION.2
        )),
        None => Headers::Missing(format!("{} defines no CCCL_VERSION", header.display())),
    }
}

/// Installs [`WHEEL`] into `dir` with pip (`--no-deps --target`), unless the
/// pinned headers are there already, and returns what [`find`] then finds.
pub fn install(dir: &Path) -> Result<PathBuf, Error> {
    if let Headers::Found { include, .. } = find(dir) {
        return Ok(include);
    }
    fs::create_dir_all(dir).map_err(|e| Error(format!("cannot create {}: {e}", dir.display())))?;
    eprintln!("installing {WHEEL} under {}", dir.display());
    let status = Command::new("python3")
        .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--upgrade", "--target"])
        .arg(dir)
        .arg(WHEEL)
        .status()
        .map_err(|e| Error(format!("cannot run python3 -m pip: {e}")))?;
    match find(dir) {
        Headers::Found { include, .. } if status.success() => Ok(include),
        Headers::Found { .. } => Err(Error(format!("pip could not install {WHEEL} ({status})"))),
        Headers::Missing(why) => Err(Error(format!("pip could not install {WHEEL} ({status}): {why}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_header_is_read_as_major_minor_patch() {
        let header = "#pragma once\n// CCCL_VERSION % 1000 is the patch\n#define CCCL_VERSION 3005000\n\
                      #define CCCL_MAJOR_VERSION (CCCL_VERSION / 1000000)\n";
        assert_eq!(parse_version(header), Some((3, 5, 0)));
        assert_eq!(parse_version("#define CCCL_VERSION 3000001"), Some((3, 0, 1)));
        assert_eq!(parse_version("#define CCCL_VERSION_NOT 3"), None);
        assert_eq!(parse_version("#define CCCL_VERSION abc"), None);
    }

    #[test]
    fn find_says_in_one_line_what_is_missing_or_which_version_is_there() {
        let dir = std::env::temp_dir().join(format!("lab-cccl-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let Headers::Missing(why) = find(&dir) else { panic!("an empty folder has no headers") };
        assert!(why.starts_with("no CCCL headers under"), "{why}");
        let header = include(&dir).join(VERSION_HEADER);
        fs::create_dir_all(header.parent().unwrap()).unwrap();
        fs::write(&header, "#define CCCL_VERSION 3000001\n").unwrap();
        let missing = find(&dir);
        assert!(matches!(&missing, Headers::Missing(why) if why.contains("CCCL 3.0.1, not the pinned 3.5.0")));
        assert_eq!(missing.line().lines().count(), 1);
        fs::write(&header, "#define CCCL_VERSION 3005000\n").unwrap();
        assert_eq!(find(&dir), Headers::Found { include: include(&dir), version: VERSION });
        assert!(find(&dir).line().starts_with("CUB from the CCCL 3.5.0 headers of nvidia-cuda-cccl==13.3.5.0.6"));
        let _ = fs::remove_dir_all(&dir);
    }
}
