//! `cargo xtask sanitize [--host FILE] [--out DIR]`: every kernel under
//! compute-sanitizer's four tools. The plan (which host commands launch every
//! registered kernel) is the host's own: this task runs `host evidence DIR
//! --only sanitize`, then prints one line per run from the manifest it wrote.

use std::path::PathBuf;
use std::process::Command;

use lab_records::{MANIFEST, Manifest};
use xtask::{Error, paths};

use super::host_binary;

/// `sanitize`'s flags.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The host binary to run [default: a fresh release build of it].
    #[arg(long, value_name = "FILE")]
    pub host: Option<PathBuf>,
    /// Where the evidence run writes its manifest, and the logs under
    /// DIR/sanitizer/ [default: target/sanitizer].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// Runs the task.
pub fn run(args: &Args) -> super::Result {
    let out = args.out.clone().unwrap_or_else(|| paths::workspace_root().join("target/sanitizer"));
    let sanitizer = paths::cuda_tool("compute-sanitizer")?;
    let host = host_binary(args.host.clone())?;
    // The host finds compute-sanitizer on PATH; put the one found here first.
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs: Vec<_> = sanitizer.parent().map(|d| d.to_path_buf()).into_iter().collect();
    dirs.extend(std::env::split_paths(&path));
    let status = Command::new(&host)
        .arg("evidence")
        .arg(&out)
        .args(["--force", "--only", "sanitize"])
        .env("PATH", std::env::join_paths(dirs).unwrap_or(path))
        .status()
        .map_err(|e| Error(format!("cannot run {}: {e}", host.display())))?;
    let manifest_path = out.join(MANIFEST);
    let text = std::fs::read_to_string(&manifest_path)
        .map_err(|e| Error(format!("host evidence wrote no {} ({status}): {e}", manifest_path.display())))?;
    let manifest: Manifest = serde_json::from_str(&text)
        .map_err(|e| Error(format!("{}: not an evidence manifest: {e}", manifest_path.display())))?;
    println!("{:<44} {:>4}  summary", "run", "exit");
    for step in &manifest.steps {
        let code = step.exit_code.map_or("-".to_owned(), |c| c.to_string());
        println!("{:<44} {code:>4}  {}", step.name, step.note.as_deref().unwrap_or(""));
    }
    println!("logs: {}", out.join("sanitizer").display());
    if status.success() {
        Ok(())
    } else {
        Err(super::Failure::Failed(Error(format!("host evidence reported a failed step ({status})"))))
    }
}
