//! `cargo xtask <task>`: the lab's build tasks. This file only dispatches;
//! each task is a module of the `xtask` library or a function below it.

use std::env;
use std::path::PathBuf;
use std::process::{Command, ExitCode};

use xtask::{nvcc, paths, ptx, ptxas, sanitize, sass};

const USAGE: &str = "usage: cargo xtask <task>

tasks:
  build-ptx   compile kernels/ to PTX and print the PTX path
  ptxas       print the ptxas the tests use, installing it if missing
  test        install ptxas if missing, then run every test (the README's test command)
  sanitize [--host FILE] [--out DIR]
              run every kernel under compute-sanitizer (memcheck, racecheck,
              synccheck, initcheck); needs a GPU. Without --host, builds the
              release host first. Logs go to DIR (default target/sanitizer).
  sass [--arch sm_90] [--kernel NAME] [--ptx FILE]
              print each kernel's SASS (cuobjdump), its synchronizing
              instructions and its ptxas -v resources; no GPU needed
  nvcc-compare [--host FILE] [--out DIR] [--cu FILE]
              time the page's kernels compiled by rustc and by nvcc -O3,
              alternately, in one run; needs nvcc and a GPU.";

fn main() -> ExitCode {
    let task = env::args().nth(1);
    let result = match task.as_deref() {
        Some("build-ptx") => build_ptx(),
        Some("ptxas") => ptxas::find_or_install(&paths::workspace_root()).map(|p| println!("{}", p.display())),
        Some("test") => test(),
        Some("sanitize") => sanitize(env::args().skip(2).collect()),
        Some("nvcc-compare") => nvcc_compare(env::args().skip(2).collect()),
        Some("sass") => sass(env::args().skip(2).collect()),
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
    if status.success() { Ok(()) } else { Err(ptx::Error(format!("tests failed ({status})"))) }
}

/// Reads `--name value` pairs; every name must be in `known`.
fn flags(args: &[String], known: &[&str]) -> Result<Vec<(String, PathBuf)>, ptx::Error> {
    let mut out = Vec::new();
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        if !known.contains(&flag.as_str()) {
            return Err(ptx::Error(format!("unknown flag {flag} (expected one of {})", known.join(", "))));
        }
        let value = rest.next().ok_or_else(|| ptx::Error(format!("{flag} needs a value")))?;
        out.push((flag.clone(), PathBuf::from(value)));
    }
    Ok(out)
}

fn flag(flags: &[(String, PathBuf)], name: &str) -> Option<PathBuf> {
    flags.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.clone())
}

/// The host binary: `--host`, or a fresh release build.
fn host_binary(given: Option<PathBuf>) -> Result<PathBuf, ptx::Error> {
    if let Some(path) = given {
        return Ok(path);
    }
    let root = paths::workspace_root();
    let status = Command::new(cargo())
        .current_dir(&root)
        .args(["build", "--release", "-p", "host"])
        .status()
        .map_err(|e| ptx::Error(format!("cannot run cargo: {e}")))?;
    if !status.success() {
        return Err(ptx::Error("building the host failed".to_owned()));
    }
    Ok(root.join("target/release/host"))
}

/// A CUDA tool from `PATH` or `/usr/local/cuda/bin`.
fn cuda_tool(name: &str) -> Result<PathBuf, ptx::Error> {
    env::var_os("PATH")
        .and_then(|path| env::split_paths(&path).map(|dir| dir.join(name)).find(|p| p.is_file()))
        .or_else(|| Some(PathBuf::from("/usr/local/cuda/bin").join(name)).filter(|p| p.is_file()))
        .ok_or_else(|| ptx::Error(format!("{name} not found on PATH or in /usr/local/cuda/bin")))
}

/// `cargo xtask sanitize`: see [`sanitize`].
fn sanitize(args: Vec<String>) -> Result<(), ptx::Error> {
    let given = flags(&args, &["--host", "--out"])?;
    let out = flag(&given, "--out").unwrap_or_else(|| paths::workspace_root().join("target/sanitizer"));
    let sanitizer = cuda_tool("compute-sanitizer")?;
    let host = host_binary(flag(&given, "--host"))?;
    print!("{}", sanitize::run(&sanitizer, &host, &out)?);
    println!("logs: {}", out.display());
    Ok(())
}

/// `cargo xtask nvcc-compare`: see [`nvcc`].
fn nvcc_compare(args: Vec<String>) -> Result<(), ptx::Error> {
    let given = flags(&args, &["--host", "--out", "--cu"])?;
    let root = paths::workspace_root();
    let out = flag(&given, "--out").unwrap_or_else(|| root.join("target/nvcc"));
    let cu = flag(&given, "--cu").unwrap_or_else(|| root.join("xtask/nvcc/page_kernels.cu"));
    let nvcc = cuda_tool("nvcc")?;
    let host = host_binary(flag(&given, "--host"))?;
    print!("{}", nvcc::compare(&nvcc, &host, &cu, &out, 5)?);
    Ok(())
}

/// `cargo xtask sass`: see [`sass`].
fn sass(args: Vec<String>) -> Result<(), ptx::Error> {
    let given = flags(&args, &["--arch", "--kernel", "--ptx"])?;
    let root = paths::workspace_root();
    let arch = flag(&given, "--arch").map_or_else(|| "sm_90".to_owned(), |a| a.display().to_string());
    let ptx_file = match flag(&given, "--ptx") {
        Some(file) => file,
        None => ptx::build(&root, &cargo())?,
    };
    let ptxas = ptxas::find_or_install(&root)?;
    let cuobjdump = ptxas::find_tool(&root, "cuobjdump")
        .ok_or_else(|| ptx::Error("cuobjdump not found after installing it".to_owned()))?;
    let (text, resources) = sass::disassemble(&ptxas, &cuobjdump, &ptx_file, &arch, &root.join("target/sass"))?;
    let only = flag(&given, "--kernel").map(|k| k.display().to_string());
    let summaries = sass::summarize(&text);
    for (name, body) in sass::split_functions(&text) {
        if only.as_ref().is_some_and(|k| *k != name) {
            continue;
        }
        println!("==== {name} ({arch}) ====\n{body}");
    }
    println!("==== summary ({arch}) ====");
    for s in summaries.iter().filter(|s| only.as_ref().is_none_or(|k| *k == s.kernel)) {
        println!("{}\n    resources: {}", s.line(), sass::resources_of(&resources, &s.kernel));
    }
    Ok(())
}
