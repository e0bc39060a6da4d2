//! `cargo xtask sanitize`: every kernel of the lab under each of NVIDIA's
//! Compute Sanitizer tools, with a one-line summary per run.
//!
//! The runs are the host's own subcommands at small sizes, so the sanitizer
//! sees exactly the launches the lab makes. Full logs go to the output folder;
//! the summary prints each log's `SUMMARY` line.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::Error;

/// The tools, in the order the README discusses them.
pub const TOOLS: [&str; 4] = ["memcheck", "racecheck", "synccheck", "initcheck"];

/// The host commands that together launch every kernel: name and arguments.
pub const RUNS: [(&str, &[&str]); 6] = [
    (
        "sweep",
        &["sweep", "--sizes", "1,4097", "--block", "64", "--runs", "1", "--warmup", "1", "--determinism-runs", "2"],
    ),
    (
        "publish-block-release-acquire",
        &["publish", "--iterations", "1", "--rounds", "4", "--variant", "block-release-acquire"],
    ),
    ("publish-block-relaxed", &["publish", "--iterations", "1", "--rounds", "4", "--variant", "block-relaxed"]),
    (
        "publish-grid-release-acquire",
        &["publish", "--iterations", "1", "--rounds", "4", "--variant", "grid-release-acquire"],
    ),
    ("publish-grid-wrong-scope", &["publish", "--iterations", "1", "--rounds", "4", "--variant", "grid-wrong-scope"]),
    ("histogram", &["histogram", "--sizes", "4097", "--runs", "1", "--warmup", "0"]),
];

/// Runs every tool over every command with `host`, writing
/// `<out>/<tool>-<run>.log`, and returns the summary table as text.
pub fn run(sanitizer: &Path, host: &Path, out: &Path) -> Result<String, Error> {
    fs::create_dir_all(out).map_err(|e| Error(format!("cannot create {}: {e}", out.display())))?;
    let mut summary = format!("{:<10} {:<31} {:>4}  summary\n", "tool", "run", "exit");
    for tool in TOOLS {
        for (name, args) in RUNS {
            let log_path = out.join(format!("{tool}-{name}.log"));
            let mut cmd = Command::new(sanitizer);
            cmd.args(["--tool", tool, "--print-limit", "20", "--show-backtrace", "no"]);
            if tool == "racecheck" {
                // racecheck's default "analysis" report made the host process
                // crash (exit 11, no hazards printed) on the publish kernels
                // with compute-sanitizer 2025.3 / CUDA 13.0; the per-hazard
                // report works and shows more.
                cmd.args(["--racecheck-report", "hazard"]);
            }
            let output = cmd
                .arg(host)
                .args(args)
                .output()
                .map_err(|e| Error(format!("cannot run {}: {e}", sanitizer.display())))?;
            let log = format!(
                "$ {cmd:?}\n{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
            fs::write(&log_path, &log).map_err(|e| Error(format!("cannot write {}: {e}", log_path.display())))?;
            let line = log
                .lines()
                .rev()
                .find(|l| l.contains("SUMMARY"))
                .unwrap_or("(no summary line: see the log)")
                .trim_start_matches("========= ")
                .to_owned();
            let code = output.status.code().map_or("sig".to_owned(), |c| c.to_string());
            summary.push_str(&format!("{tool:<10} {name:<31} {code:>4}  {line}\n"));
        }
    }
    Ok(summary)
}
