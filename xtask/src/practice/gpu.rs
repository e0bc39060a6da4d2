//! The GPU layers: the learner's kernel run where the lab's would run, by the
//! host's own runner and checks (`host --practice FILE --puzzle KEY
//! <command>`), so a sum is compared with the CPU's bit for bit and a
//! publication's stale records are counted exactly as for the lab's
//! kernels; then the same command, smaller, under compute-sanitizer's four
//! tools, each told to instrument the learner's kernel alone.

use std::path::Path;
use std::process::Command;

use layout::practice::StandsFor;

use super::outcome::Outcome;
use super::{Between, Check, Puzzle};

/// Why the GPU layer cannot run on this machine, if it cannot: no NVIDIA
/// driver's device node.
pub fn unavailable() -> Option<String> {
    (!Path::new("/dev/nvidiactl").exists())
        .then(|| "no NVIDIA GPU on this machine (no /dev/nvidiactl); check again on one that has it".to_owned())
}

/// The host's command line for `puzzle`, with the learner's PTX in `ptx`:
/// its own kernel in the place of the lab's or, for a written answer, the
/// kernels of the puzzles it is about.
pub fn command_line(puzzle: &Puzzle, ptx: &Path) -> Vec<String> {
    let kernels = match puzzle.kernel.stands_for {
        StandsFor::Written(keys) => keys.join(","),
        StandsFor::Lab(_) | StandsFor::Nothing(_) => puzzle.kernel.key.to_owned(),
    };
    let mut args = vec!["--practice".to_owned(), ptx.display().to_string(), "--puzzle".to_owned(), kernels];
    args.extend(puzzle.on_gpu.iter().map(|a| (*a).to_owned()));
    args
}

/// What follows the command in a passing run's outcome: what it held.
pub const PASSED: &str = ": ";

/// What the host's passing run held, with its denominator: the `All N ...`
/// line of a sum or histogram run, or the table row of the lab kernel the
/// learner's stands for (its version or variant named in the first column),
/// its columns squeezed.
fn held(puzzle: &Puzzle, stdout: &str) -> Option<String> {
    if let Some(all) = stdout.lines().find(|l| l.starts_with("All ")) {
        return Some(all.trim().to_owned());
    }
    let symbol = puzzle.kernel.stands_for.lab()?.symbol;
    stdout.lines().find_map(|line| {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let first = cells.first().filter(|c| !c.is_empty() && cells.len() > 4)?;
        symbol
            .ends_with(&first.replace('-', "_"))
            .then(|| cells.iter().take(8).filter(|c| !c.is_empty()).copied().collect::<Vec<_>>().join(" | "))
    })
}

/// The nine ratios of `host exercise`'s output, where it printed them: each
/// kernel's time at each block size over its time at 256, as the learner's
/// own run gave them.
fn nine_ratios(stdout: &str) -> Option<String> {
    let table = stdout.split("The nine ratios").nth(1)?;
    let mut columns: Vec<(String, Vec<String>)> = Vec::new();
    for row in table.lines().take_while(|l| !l.trim().is_empty()) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let [kernel, block, ratio, ..] = cells[..] else { continue };
        if block.parse::<u32>().is_err() {
            continue;
        }
        let entry = format!("{ratio} at {block}");
        match columns.iter_mut().find(|(k, _)| k == kernel) {
            Some((_, ratios)) => ratios.push(entry),
            None => columns.push((kernel.to_owned(), vec![entry])),
        }
    }
    let shown: Vec<String> = columns.iter().map(|(k, r)| format!("{k} {}", r.join(", "))).collect();
    (!shown.is_empty()).then(|| format!("your nine ratios, time over time at block 256: {}", shown.join("; ")))
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
    // What failed: the host's error lines, or, where it printed none, the
    // rows of its table whose verdict failed, their columns squeezed.
    let mut lines: Vec<String> =
        stderr.lines().filter(|l| !l.trim().is_empty()).take(4).map(|l| l.trim().to_owned()).collect();
    if lines.is_empty() {
        lines = stdout
            .lines()
            .filter(|l| l.contains("FAILED"))
            .take(4)
            .map(|l| l.split('|').map(str::trim).filter(|c| !c.is_empty()).collect::<Vec<_>>().join(" | "))
            .collect();
    }
    match out.status.code() {
        Some(0) => {
            let held = [held(puzzle, &stdout), nine_ratios(&stdout)].into_iter().flatten().collect::<Vec<_>>();
            Outcome::Passed(format!("`{shown}` passed every check{PASSED}{}; {kept}", held.join("; ")))
        }
        Some(1) => Outcome::Failed(format!("`{shown}` failed: {}; {kept}", lines.join(" / "))),
        Some(2) => Outcome::NotRun(lines.first().cloned().unwrap_or_else(|| "no CUDA device".to_owned())),
        code => Outcome::Failed(format!("`{shown}` could not run ({code:?}): {}; {kept}", lines.join(" / "))),
    }
}

/// compute-sanitizer's tools, in the order the layer runs them.
pub const SANITIZER_TOOLS: [&str; 4] = ["memcheck", "racecheck", "synccheck", "initcheck"];

/// `puzzle`'s host command at the size the sanitizer can afford (its tools
/// slow a kernel down a hundredfold and more).
pub fn small_command(puzzle: &Puzzle) -> Vec<String> {
    let mut args: Vec<String> = puzzle.on_gpu.iter().map(|a| (*a).to_owned()).collect();
    let extra: &[&str] = match puzzle.on_gpu.first() {
        Some(&"pitfalls") => &["--quick"],
        Some(&"publish") => &["--launches", "1", "--rounds", "16"],
        Some(&"publish-sys") => &["--launches", "1", "--slots", "4096"],
        Some(&"histogram") => &["--runs", "1", "--warmup", "0"],
        _ => &[],
    };
    if let Some(at) = args.iter().position(|a| a == "--sizes") {
        args[at + 1] = "1,4097".to_owned();
    }
    if let Some(at) = args.iter().position(|a| a == "--launches") {
        args.drain(at..at + 2);
    }
    args.extend(extra.iter().map(|a| (*a).to_owned()));
    args
}

/// Whether a racecheck hazard in `puzzle`'s kernel is a fault: not where
/// two threads of one block publish through a flag in shared memory, an
/// order racecheck cannot see (it knows barriers, not release and acquire;
/// the model's verdict decides those puzzles).
fn racecheck_decides(puzzle: &Puzzle) -> bool {
    !puzzle.checks.iter().any(|c| matches!(c, Check::Publication { between: Between::Warps, .. }))
}

/// The errors compute-sanitizer's summary line counts (`ERROR SUMMARY: N
/// errors`, or racecheck's `(N errors, ...)`), if the log has one, less the
/// errors of CUDA API calls (`Program hit CUDA_ERROR_...`): those are the
/// host's, such as the cooperative launch a pitfall asks the driver for so
/// that it refuses it, not the kernel's.
fn errors_in(log: &str) -> Option<u64> {
    let line = log.lines().rev().find(|l| l.contains("SUMMARY:"))?;
    let before = line.split(" error").next()?;
    let all: u64 = before.rsplit([' ', '(']).next()?.parse().ok()?;
    let api = log.lines().filter(|l| l.trim_start_matches('=').trim_start().starts_with("Program hit ")).count();
    Some(all.saturating_sub(api as u64))
}

/// Runs `puzzle`'s small command under each sanitizer tool, instrumenting
/// the learner's kernel alone, with each log in `logs`.
pub fn sanitize(host: &Path, puzzle: &Puzzle, ptx: &Path, logs: &Path) -> Outcome {
    let sanitizer = match crate::paths::cuda_tool("compute-sanitizer") {
        Ok(path) => path,
        Err(e) => return Outcome::NotRun(e.0),
    };
    let mut host_args = command_line(puzzle, ptx);
    host_args.truncate(4);
    host_args.extend(small_command(puzzle));
    let mut seen = Vec::new();
    let mut faults = Vec::new();
    for tool in SANITIZER_TOOLS {
        let mut args: Vec<String> = ["--tool", tool, "--print-limit", "20", "--show-backtrace", "no", "--kernel-name"]
            .map(str::to_owned)
            .to_vec();
        args.push(format!("kne={}", puzzle.kernel.symbol));
        if tool == "racecheck" {
            args.extend(["--racecheck-report", "hazard"].map(str::to_owned));
        }
        let out = match Command::new(&sanitizer).args(&args).arg(host).args(&host_args).output() {
            Ok(out) => out,
            Err(e) => return Outcome::Failed(format!("cannot run {}: {e}", sanitizer.display())),
        };
        let log = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        let file = logs.join(format!("{}-{tool}.log", puzzle.kernel.key));
        let _ = std::fs::create_dir_all(logs).and_then(|()| std::fs::write(&file, &log));
        let Some(errors) = errors_in(&log) else {
            return Outcome::NotRun(format!(
                "{tool} printed no summary (exit {:?}); its log: {}",
                out.status.code(),
                file.display()
            ));
        };
        seen.push(format!("{tool} {errors}"));
        if errors > 0 && (tool != "racecheck" || racecheck_decides(puzzle)) {
            faults.push(format!("{tool} reports {errors} in your kernel (its log: {})", file.display()));
        }
    }
    let shown =
        format!("`host {}` under compute-sanitizer, errors in your kernel: {}", host_args.join(" "), seen.join(", "));
    if faults.is_empty() {
        let note = if racecheck_decides(puzzle) {
            ""
        } else {
            "; racecheck knows barriers, not a flag's release and acquire, so its hazards here are the model's to judge"
        };
        Outcome::Passed(format!("{shown}{note}"))
    } else {
        Outcome::Failed(format!("{shown}: {}", faults.join("; ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_line_gives_its_error_count() {
        assert_eq!(errors_in("x\n========= ERROR SUMMARY: 0 errors\n"), Some(0));
        assert_eq!(
            errors_in("========= RACECHECK SUMMARY: 20 hazards displayed (15872 errors, 0 warnings)"),
            Some(15872)
        );
        assert_eq!(errors_in("no summary"), None);
        let refused = "========= Program hit CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE (error 720) due to \"too many \
                       blocks in cooperative launch\" on CUDA API call to cuLaunchKernelEx.\n========= ERROR SUMMARY: 1 error";
        assert_eq!(errors_in(refused), Some(0));
    }

    #[test]
    fn the_exercise_gives_its_nine_ratios() {
        let stdout = "The nine ratios at n = 4194304: ...\nwhy\n    kernel     | block | time / time at 256 | x\n\
                      ---------------+-------+--------------------+--\n global atomic |    64 |  1.00 | 4\n \
                      shared atomic |    64 |  0.72 | 6\n global atomic |   256 |  1.00 | 4\n\nlater | 1 | 9\n";
        assert_eq!(
            nine_ratios(stdout).unwrap(),
            "your nine ratios, time over time at block 256: global atomic 1.00 at 64, 1.00 at 256; shared atomic \
             0.72 at 64"
        );
        assert_eq!(nine_ratios("no table"), None);
        let exercise = super::super::find("block-size").unwrap();
        let line = command_line(exercise, Path::new("p.ptx"));
        assert_eq!(line[3], "sum-global-atomic,sum-shared-atomic,sum-tree-atomic");
    }

    #[test]
    fn the_small_commands_shrink_what_the_gpu_layer_runs() {
        let find = |key| super::super::find(key).unwrap();
        assert_eq!(small_command(find("barrier-every-thread")), ["pitfalls", "--only", "divergent-barrier", "--quick"]);
        assert!(small_command(find("sum-global-atomic")).contains(&"1,4097".to_owned()));
        let sys = small_command(find("publish-to-host"));
        assert_eq!(sys.iter().filter(|a| *a == "--launches").count(), 1, "{sys:?}");
    }
}
