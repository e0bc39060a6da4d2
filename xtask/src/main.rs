//! `cargo xtask <task>`: the lab's build tasks. This file only dispatches;
//! each task is a module of the `xtask` library or a function below it.

use std::path::PathBuf;
use std::process::{Command, ExitCode};
use std::env;

use xtask::{paths, ptx, ptxas};

const USAGE: &str = "usage: cargo xtask <task>

tasks:
  build-ptx   compile kernels/ to PTX and print the PTX path
  ptxas       print the ptxas the tests use, installing it if missing
  test        install ptxas if missing, then run every test (the README's test command)";

fn main() -> ExitCode {
    let task = env::args().nth(1);
    let result = match task.as_deref() {
        Some("build-ptx") => build_ptx(),
        Some("ptxas") => ptxas::find_or_install(&paths::workspace_root()).map(|p| println!("{}", p.display())),
        Some("test") => test(),
        Some("-h" | "--help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(ptx::Error(format!("unknown task `{other}`\n{USAGE}"))),
        None => Err(ptx::Error(USAGE.to_owned())),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn cargo() -> PathBuf {
    env::var_os("CARGO").map_or_else(|| PathBuf::from("cargo"), PathBuf::from)
}

fn build_ptx() -> Result<(), ptx::Error> {
    let path = ptx::build(&paths::workspace_root(), &cargo())?;
    println!("{}", path.display());
    Ok(())
}

/// The README's test command: make sure `ptxas` is there for the PTX tests,
/// then run the whole workspace's tests in release mode (the mode the GPU
/// tests are timed and shipped in).
fn test() -> Result<(), ptx::Error> {
    let root = paths::workspace_root();
    let ptxas = ptxas::find_or_install(&root)?;
    let status = Command::new(cargo())
        .current_dir(&root)
        .args(["test", "--workspace", "--release"])
        .env("PTXAS", &ptxas)
        .status()
        .map_err(|e| ptx::Error(format!("cannot run cargo: {e}")))?;
    if status.success() {
        Ok(())
    } else {
        Err(ptx::Error(format!("tests failed ({status})")))
    }
}
