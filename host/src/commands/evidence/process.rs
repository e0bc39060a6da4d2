//! A step as a child process: this binary run again with a step's command
//! line, its exit code read back as the lab's, its command line shown as a
//! user would type it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use lab_records::{Step, StepOutcome};

use super::EvidenceOptions;
use super::plan::Run;
use super::sanitize::sanitizer_summary;

/// The lab's exit codes, as a child process reports them.
pub(super) const PASSED: i32 = crate::error::EXIT_PASSED as i32;
pub(super) const CHECK_FAILED: i32 = crate::error::EXIT_CHECK_FAILED as i32;
pub(super) const INTERRUPTED: i32 = crate::error::EXIT_INTERRUPTED as i32;

/// The lab command of `step`, writing into `dir`, and the files it writes.
/// An argument `@NAME` names `NAME` in `dir` ([`super::plan::IN_RUN`]): a
/// file or folder one step writes and a later one reads.
pub(super) fn step_arguments(step: &Run, dir: &Path) -> (Vec<OsString>, Vec<String>) {
    let mut args: Vec<OsString> = step
        .args
        .iter()
        .map(|a| match a.strip_prefix(super::plan::IN_RUN) {
            Some(name) => dir.join(name).into_os_string(),
            None => OsString::from(a),
        })
        .collect();
    let json = format!("{}.json", step.name);
    args.extend(["--format".into(), "json".into(), "--output".into(), dir.join(&json).into_os_string()]);
    let mut files = vec![json];
    if step.plot {
        let svg = format!("{}.svg", step.name);
        args.extend(["--plot".into(), dir.join(&svg).into_os_string()]);
        files.push(svg);
    }
    (args, files)
}

/// Writes `NAME.csv` beside the step's `NAME.json` with `host render`,
/// returning its file name, or the line that says why it could not.
pub(super) fn csv_beside(exe: &Path, dir: &Path, name: &str) -> Result<String, String> {
    let csv = format!("{name}.csv");
    let output = Command::new(exe)
        .arg("render")
        .arg(dir.join(format!("{name}.json")))
        .args(["--format", "csv", "--output"])
        .arg(dir.join(&csv))
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("no CSV: cannot start {}: {e}", exe.display()))?;
    if output.status.success() {
        Ok(csv)
    } else {
        let stderr = String::from_utf8_lossy(&output.stderr);
        Err(format!("no CSV: {}", stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("render failed")))
    }
}

pub(super) fn ptx_arguments(options: &EvidenceOptions) -> Vec<OsString> {
    options.ptx.iter().flat_map(|p| [OsString::from("--ptx"), p.clone().into_os_string()]).collect()
}

/// Runs one step, keeping its standard error's last line when it fails.
/// With `log`, everything the process printed goes to that file and the
/// note is the sanitizer's summary line.
pub(super) fn run_step(name: &str, program: &Path, args: &[OsString], files: Vec<String>, log: Option<&Path>) -> Step {
    let command = command_line(program, args);
    let clock = Instant::now();
    let output = Command::new(program).args(args).stdin(Stdio::null()).output();
    let wall_s = clock.elapsed().as_secs_f64();
    let output = match output {
        Ok(output) => output,
        Err(e) => {
            return Step {
                name: name.to_owned(),
                command,
                files: Vec::new(),
                outcome: StepOutcome::Error,
                exit_code: None,
                wall_s,
                note: Some(format!("cannot start {}: {e}", program.display())),
            };
        }
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    // A child a signal ended has no exit code; it is given the one a shell
    // would report (128 + the signal), so Ctrl-C reads as 130 either way.
    let exit_code = output.status.code().or_else(|| {
        use std::os::unix::process::ExitStatusExt;
        output.status.signal().map(|signal| 128 + signal)
    });
    let (outcome, note) = match log {
        Some(log) => {
            let text = format!("$ {command}\n{}{stderr}", String::from_utf8_lossy(&output.stdout));
            let summary = sanitizer_summary(&text);
            if let Err(e) = std::fs::write(log, &text) {
                (StepOutcome::Error, Some(format!("cannot write {}: {e}", log.display())))
            } else {
                (outcome_of(exit_code), Some(summary))
            }
        }
        None => {
            let outcome = outcome_of(exit_code);
            let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).map(str::to_owned);
            (outcome, if outcome == StepOutcome::Passed { None } else { last })
        }
    };
    Step { name: name.to_owned(), command, files, outcome, exit_code, wall_s, note }
}

/// How a step's exit code reads: the lab's codes (0 passed, 1 a check
/// failed, 130 Ctrl-C, anything else an error of flags, device or
/// environment).
pub fn outcome_of(exit_code: Option<i32>) -> StepOutcome {
    match exit_code {
        Some(PASSED) => StepOutcome::Passed,
        Some(CHECK_FAILED) => StepOutcome::ChecksFailed,
        Some(INTERRUPTED) => StepOutcome::Interrupted,
        _ => StepOutcome::Error,
    }
}

/// The command line as a user would type it: this binary shown as `host`,
/// the evidence directory as given.
pub(super) fn command_line(program: &Path, args: &[OsString]) -> String {
    let exe = std::env::current_exe().ok();
    let word = |s: &std::ffi::OsStr| -> String {
        if exe.as_deref().is_some_and(|e| e.as_os_str() == s) {
            return "host".to_owned();
        }
        let s = s.to_string_lossy();
        if s.is_empty() || s.contains(|c: char| c.is_whitespace() || c == '\'') {
            format!("'{}'", s.replace('\'', r"'\''"))
        } else {
            s.into_owned()
        }
    };
    std::iter::once(word(program.as_os_str())).chain(args.iter().map(|a| word(a))).collect::<Vec<_>>().join(" ")
}

/// The first executable named `name` on `PATH`.
pub(super) fn find_on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).map(|dir| dir.join(name)).find(|p| p.is_file())
}
