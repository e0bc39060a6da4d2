//! The GPU layer: the learner's kernel run where the lab's would run, by the
//! host's own runner and checks (`host --practice FILE --puzzle KEY
//! <command>`), so a sum is compared with the CPU's bit for bit and a
//! publication's stale records are counted exactly as for the lab's
//! kernels.

use std::path::Path;
use std::process::Command;

use super::Puzzle;
use super::check::Outcome;

/// Why the GPU layer cannot run on this machine, if it cannot: no NVIDIA
/// driver's device node.
pub fn unavailable() -> Option<String> {
    (!Path::new("/dev/nvidiactl").exists())
        .then(|| "no NVIDIA GPU on this machine (no /dev/nvidiactl); check again on one that has it".to_owned())
}

/// The host's command line for `puzzle`, with the learner's PTX in `ptx`.
pub fn command_line(puzzle: &Puzzle, ptx: &Path) -> Vec<String> {
    let mut args =
        vec!["--practice".to_owned(), ptx.display().to_string(), "--puzzle".to_owned(), puzzle.kernel.key.to_owned()];
    args.extend(puzzle.on_gpu.iter().map(|a| (*a).to_owned()));
    args
}

/// Runs `puzzle`'s kernel from `ptx` through `host`, and reads how it went
/// from the host's exit code: 0 every check passed, 1 a check failed (its
/// lines are the evidence), 2 no device, anything else an environment
/// failure. What the host printed goes to `log`.
pub fn run(host: &Path, puzzle: &Puzzle, ptx: &Path, log: &Path) -> Outcome {
    let args = command_line(puzzle, ptx);
    let shown = format!("host {}", args.join(" "));
    let out = match Command::new(host).args(&args).output() {
        Ok(out) => out,
        Err(e) => return Outcome::Failed(format!("cannot run {}: {e}", host.display())),
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let kept = std::fs::create_dir_all(log.parent().unwrap_or(log))
        .and_then(|()| std::fs::write(log, format!("$ {shown}\n{stdout}{stderr}")))
        .map_or_else(|e| format!("(its output could not be kept: {e})"), |()| format!("its output: {}", log.display()));
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).take(4).collect();
    match out.status.code() {
        Some(0) => Outcome::Passed(format!("`{shown}` passed every check; {kept}")),
        Some(1) => Outcome::Failed(format!("`{shown}` failed: {}; {kept}", lines.join(" / "))),
        Some(2) => Outcome::NotRun(lines.first().map_or_else(|| "no CUDA device".to_owned(), |l| (*l).to_owned())),
        code => Outcome::Failed(format!("`{shown}` could not run ({code:?}): {}; {kept}", lines.join(" / "))),
    }
}
