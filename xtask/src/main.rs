//! `cargo xtask <task>`: the lab's build tasks. This file only dispatches;
//! each task is a module of the `xtask` library or a function below it.

use std::path::PathBuf;
use std::process::{Command, ExitCode};
use std::env;

use xtask::{paths, ptx, ptxas, sanitize};

const USAGE: &str = "usage: cargo xtask <task>

tasks:
  build-ptx   compile kernels/ to PTX and print the PTX path
  ptxas       print the ptxas the tests use, installing it if missing
  test        install ptxas if missing, then run every test (the README's test command)
  sanitize [--host FILE] [--out DIR]
              run every kernel under compute-sanitizer (memcheck, racecheck,
              synccheck, initcheck); needs a GPU. Without --host, builds the
              release host first. Logs go to DIR (default target/sanitizer).";

fn main() -> ExitCode {
    let task = env::args().nth(1);
    let result = match task.as_deref() {
        Some("build-ptx") => build_ptx(),
        Some("ptxas") => ptxas::find_or_install(&paths::workspace_root()).map(|p| println!("{}", p.display())),
        Some("test") => test(),
        Some("sanitize") => sanitize(env::args().skip(2).collect()),
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

/// `cargo xtask sanitize`: see [`sanitize`].
fn sanitize(args: Vec<String>) -> Result<(), ptx::Error> {
    let root = paths::workspace_root();
    let mut host = None;
    let mut out = root.join("target/sanitizer");
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let value = rest.next().ok_or_else(|| ptx::Error(format!("{flag} needs a value")))?;
        match flag.as_str() {
            "--host" => host = Some(PathBuf::from(value)),
            "--out" => out = PathBuf::from(value),
            other => return Err(ptx::Error(format!("unknown flag {other} for sanitize"))),
        }
    }
    let sanitizer = sanitize::find_sanitizer()
        .ok_or_else(|| ptx::Error("compute-sanitizer not found on PATH or in /usr/local/cuda/bin".to_owned()))?;
    let host = match host {
        Some(path) => path,
        None => {
            let status = Command::new(cargo())
                .current_dir(&root)
                .args(["build", "--release", "-p", "host"])
                .status()
                .map_err(|e| ptx::Error(format!("cannot run cargo: {e}")))?;
            if !status.success() {
                return Err(ptx::Error("building the host failed".to_owned()));
            }
            root.join("target/release/host")
        }
    };
    print!("{}", sanitize::run(&sanitizer, &host, &out)?);
    println!("logs: {}", out.display());
    Ok(())
}
