//! `cargo xtask sanitize`: every kernel of the lab under each of NVIDIA's
//! Compute Sanitizer tools, with a one-line summary per run.
//!
//! The runs are the host's own subcommands at small sizes, so the sanitizer
//! sees exactly the launches the lab makes. Which runs there are follows the
//! kernel registry in `layout`: one run per family, and one per publication
//! variant, so a new kernel is sanitized without an edit here. Full logs go to
//! the output folder; the summary prints each log's `SUMMARY` line.

use std::fs;
use std::path::Path;
use std::process::Command;

use layout::Family;

use crate::Error;

/// The tools, in the order the README discusses them.
pub const TOOLS: [&str; 4] = ["memcheck", "racecheck", "synccheck", "initcheck"];

/// A host command that launches kernels: a name for its log, and its
/// arguments.
pub type Run = (String, Vec<String>);

/// The host command that launches every kernel of `family` at a small size,
/// and the run's name. The publication family has one run per variant
/// instead ([`runs`]).
fn family_run(family: Family) -> Option<Run> {
    use layout::sum::deterministic::{CHUNK, HANDOFF_CHUNKS};
    // `HANDOFF_CHUNKS + 1` chunks, the last of 4,097 floats: one chunk past
    // the handoff route's limit, so the deterministic sum takes its ticket
    // route, which the sweep's sizes do not reach.
    let ticket_route = format!("4097,{}", HANDOFF_CHUNKS * CHUNK + 4097);
    let args: &[&str] = match family {
        // The determinism table launches every sum kernel, not only the page's.
        Family::Sum => {
            &["sweep", "--sizes", "1,4097", "--block", "64", "--runs", "1", "--warmup", "1", "--determinism-runs", "2"]
        }
        Family::Histogram => &["histogram", "--sizes", "4097", "--runs", "1", "--warmup", "0"],
        // The bench launches the baselines beside every sum kernel, and a
        // cold bench the flush and the hold before each timed launch, at the
        // sweep's small size and at `ticket_route`.
        Family::Baseline => &["bench", "--sizes", &ticket_route, "--runs", "1", "--warmup", "0", "--cold"],
        // Every test, variant and placement, a few launches each.
        Family::Litmus => &["litmus", "--instances", "1", "--launches-per-check", "1"],
        Family::Publish => return None,
    };
    Some((args[0].to_owned(), args.iter().map(|a| (*a).to_owned()).collect()))
}

/// Every run: one per family that has kernels, one per publication variant.
pub fn runs() -> Vec<Run> {
    let mut families: Vec<Family> = Vec::new();
    for entry in layout::entries() {
        if !families.contains(&entry.family) {
            families.push(entry.family);
        }
    }
    let mut out = Vec::new();
    for family in families {
        match family_run(family) {
            Some(run) => out.push(run),
            None => out.extend(layout::publish::VARIANTS.iter().map(|v| {
                let args = ["publish", "--launches", "1", "--rounds", "4", "--variant", v.name];
                (format!("publish-{}", v.name), args.map(str::to_owned).to_vec())
            })),
        }
    }
    out
}

/// Runs every tool over every run with `host`, writing
/// `<out>/<tool>-<run>.log`, and returns the summary table as text.
pub fn run(sanitizer: &Path, host: &Path, out: &Path) -> Result<String, Error> {
    fs::create_dir_all(out).map_err(|e| Error(format!("cannot create {}: {e}", out.display())))?;
    let mut summary = format!("{:<10} {:<31} {:>4}  summary\n", "tool", "run", "exit");
    for tool in TOOLS {
        for (name, args) in runs() {
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
                .args(&args)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_family_and_variant_has_a_run() {
        let runs = runs();
        let names: Vec<&str> = runs.iter().map(|(name, _)| name.as_str()).collect();
        assert!(["sweep", "histogram", "bench", "litmus"].iter().all(|run| names.contains(run)));
        for v in layout::publish::VARIANTS {
            let run = runs.iter().find(|(name, _)| name == &format!("publish-{}", v.name)).expect("a run per variant");
            assert!(run.1.iter().any(|a| a == v.name));
        }
        assert_eq!(runs.len(), 4 + layout::publish::VARIANTS.len());
    }

    /// The bench run's largest size has more chunks than the handoff route
    /// takes, so the sanitizer sees the deterministic sum's ticket route.
    #[test]
    fn the_bench_run_reaches_the_deterministic_sums_ticket_route() {
        use layout::sum::deterministic::{CHUNK, HANDOFF_CHUNKS};
        let (_, args) = runs().into_iter().find(|(name, _)| name == "bench").expect("a bench run");
        let sizes = args.iter().skip_while(|a| *a != "--sizes").nth(1).expect("--sizes and its value");
        let largest = sizes.split(',').map(|n| n.parse::<usize>().expect("a size")).max().expect("a size");
        assert!(largest.div_ceil(CHUNK) > HANDOFF_CHUNKS, "{largest} floats stay on the handoff route");
    }
}
