//! The command-line side of each task: read its flags, find what it needs,
//! call the library, print. One module per task; this file holds what they
//! share.

pub mod book;
pub mod browser;
pub mod build_ptx;
pub mod nvcc_compare;
pub mod sanitize;
pub mod sass;
pub mod test;

use std::env;
use std::path::PathBuf;
use std::process::Command;

use xtask::{Error, paths};

/// A task's result; the error is printed as one line by `main`.
pub type Result = std::result::Result<(), Error>;

/// The cargo that invoked us (`$CARGO`), or `cargo` from `PATH`.
pub fn cargo() -> PathBuf {
    env::var_os("CARGO").map_or_else(|| PathBuf::from("cargo"), PathBuf::from)
}

/// `--name value` pairs from `args`; every name must be in `known`. Each
/// value is read as the type its task needs: [`Flags::path`],
/// [`Flags::text`] or [`Flags::list`].
#[derive(Debug)]
pub struct Flags(Vec<(String, String)>);

impl Flags {
    /// Reads `args`, refusing names not in `known` and names with no value.
    pub fn parse(args: &[String], known: &[&str]) -> std::result::Result<Flags, Error> {
        let mut pairs = Vec::new();
        let mut rest = args.iter();
        while let Some(name) = rest.next() {
            if !known.contains(&name.as_str()) {
                return Err(Error(format!("unknown flag {name} (expected one of {})", known.join(", "))));
            }
            let value = rest.next().ok_or_else(|| Error(format!("{name} needs a value")))?;
            pairs.push((name.clone(), value.clone()));
        }
        Ok(Flags(pairs))
    }

    /// The last value given for `name`, as text.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.0.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The last value given for `name`, as a path.
    pub fn path(&self, name: &str) -> Option<PathBuf> {
        self.text(name).map(PathBuf::from)
    }

    /// The last value given for `name`, as a comma-separated list of `T`,
    /// each item parsed; `what` names the item in the error ("a size").
    pub fn list<T: std::str::FromStr>(&self, name: &str, what: &str) -> std::result::Result<Option<Vec<T>>, Error> {
        let Some(text) = self.text(name) else { return Ok(None) };
        text.split(',')
            .map(|item| item.trim().parse::<T>().map_err(|_| Error(format!("{name}: `{item}` is not {what}"))))
            .collect::<std::result::Result<Vec<T>, Error>>()
            .map(Some)
    }
}

/// The host binary: `given`, or a fresh release build of it.
pub fn host_binary(given: Option<PathBuf>) -> std::result::Result<PathBuf, Error> {
    if let Some(path) = given {
        return Ok(path);
    }
    let root = paths::workspace_root();
    let status = Command::new(cargo())
        .current_dir(&root)
        .args(["build", "--release", "-p", "host"])
        .status()
        .map_err(|e| Error(format!("cannot run cargo: {e}")))?;
    if !status.success() {
        return Err(Error("building the host failed".to_owned()));
    }
    Ok(root.join("target/release/host"))
}

/// A CUDA toolkit program from `PATH` or `/usr/local/cuda/bin`.
pub fn cuda_tool(name: &str) -> std::result::Result<PathBuf, Error> {
    paths::on_path(name)
        .or_else(|| Some(PathBuf::from("/usr/local/cuda/bin").join(name)).filter(|p| p.is_file()))
        .ok_or_else(|| Error(format!("{name} not found on PATH or in /usr/local/cuda/bin")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn flags_are_read_as_their_types() {
        let flags =
            Flags::parse(&args(&["--sizes", "4096,65536", "--out", "a/b", "--out", "c"]), &["--sizes", "--out"])
                .unwrap();
        assert_eq!(flags.list::<u64>("--sizes", "a size").unwrap(), Some(vec![4096, 65536]));
        assert_eq!(flags.path("--out"), Some(PathBuf::from("c")));
        assert_eq!(flags.text("--host"), None);
        let bad = Flags::parse(&args(&["--sizes", "4096,lots"]), &["--sizes"]).unwrap();
        assert_eq!(bad.list::<u64>("--sizes", "a size").unwrap_err().0, "--sizes: `lots` is not a size");
    }

    #[test]
    fn unknown_flags_and_missing_values_are_refused() {
        assert!(Flags::parse(&args(&["--nope", "1"]), &["--out"]).unwrap_err().0.starts_with("unknown flag --nope"));
        assert_eq!(Flags::parse(&args(&["--out"]), &["--out"]).unwrap_err().0, "--out needs a value");
    }
}
