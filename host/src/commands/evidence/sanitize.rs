//! The sanitizer's plan: its tools, their flags, the host commands that
//! launch every registered kernel under them, and how a log's summary reads.

use std::ffi::OsString;

/// The sanitizer's tools, in the order the book discusses them.
pub const SANITIZER_TOOLS: [&str; 4] = ["memcheck", "racecheck", "synccheck", "initcheck"];

/// compute-sanitizer's flags for `tool`.
pub(super) fn sanitizer_arguments(tool: &str) -> Vec<OsString> {
    let mut args: Vec<OsString> =
        ["--tool", tool, "--print-limit", "20", "--show-backtrace", "no"].map(OsString::from).to_vec();
    if tool == "racecheck" {
        // racecheck's default "analysis" report was seen to crash the host
        // process on the publication kernels (exit 11, no hazard printed,
        // compute-sanitizer 2025.3 with CUDA 13.0); the per-hazard report
        // works and shows more.
        args.extend(["--racecheck-report", "hazard"].map(OsString::from));
    }
    args
}

/// The sanitizer's runs: host commands that launch every registered kernel
/// at a small size, named for their logs. Which runs there are follows the
/// registry in `layout`: one per family, and one per publication variant, so
/// a new kernel is sanitized without an edit here.
pub fn sanitizer_runs() -> Vec<(String, Vec<String>)> {
    use layout::Family;
    let strings = |args: &[&str]| args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>();
    let mut families: Vec<Family> = Vec::new();
    for entry in layout::entries() {
        if !families.contains(&entry.family) {
            families.push(entry.family);
        }
    }
    let mut runs = Vec::new();
    for family in families {
        match family {
            // The determinism table launches every sum kernel, not only the page's.
            Family::Sum => runs.push((
                "sweep".to_owned(),
                strings(&["sweep", "--sizes", "1,4097", "--block", "64", "--runs", "1", "--warmup", "1"])
                    .into_iter()
                    .chain(strings(&["--determinism-runs", "2"]))
                    .collect(),
            )),
            Family::Histogram => runs.push((
                "histogram".to_owned(),
                strings(&["histogram", "--sizes", "4097", "--runs", "1", "--warmup", "0"]),
            )),
            // The bench launches the baselines beside every sum kernel, and a
            // cold bench the flush and the hold before each timed launch. At
            // four chunks on its block of 256 the deterministic sum launches
            // its small entry (and, on a Hopper GPU, the correctly rounded
            // sum its cluster route), and one partial chunk past the handoff
            // route's limit it takes its ticket route: the sweep's sizes
            // reach none of them.
            Family::Baseline => {
                use layout::sum::deterministic::{CHUNK, HANDOFF_CHUNKS};
                let few_chunks = 3 * CHUNK + 1;
                let ticket_route = CHUNK * HANDOFF_CHUNKS + CHUNK / 2 + 1;
                let sizes = format!("4097,{few_chunks},{ticket_route}");
                let mut args = strings(&["bench", "--sizes"]);
                args.push(sizes);
                args.extend(strings(&["--runs", "1", "--warmup", "0", "--cold"]));
                runs.push(("bench".to_owned(), args));
            }
            // Every test, variant and placement, a few launches each.
            Family::Litmus => {
                runs.push(("litmus".to_owned(), strings(&["litmus", "--instances", "1", "--launches-per-check", "1"])))
            }
            // One run per pitfall, small, so each log holds one pitfall's
            // reports and the book can quote what each tool says of it (or
            // that it says nothing).
            Family::Pitfall => runs.extend(
                layout::pitfall::Pitfall::ALL
                    .iter()
                    .map(|p| (format!("pitfalls-{}", p.key()), strings(&["pitfalls", "--quick", "--only", p.key()]))),
            ),
            // The ladder's every round trip and fence loop, short.
            Family::Ladder => runs.push(("scopes".to_owned(), strings(&["scopes", "--quick"]))),
            // One run per variant, small, so each log holds one variant's
            // reports of the mapped host memory's accesses.
            Family::System => runs.extend(layout::system::VARIANTS.iter().map(|v| {
                (
                    format!("publish-sys-{}", v.name),
                    strings(&["publish-sys", "--launches", "1", "--slots", "4096", "--variant", v.name]),
                )
            })),
            // One run per variant, so each log holds one variant's reports.
            Family::Publish => runs.extend(layout::publish::VARIANTS.iter().map(|v| {
                (
                    format!("publish-{}", v.name),
                    strings(&["publish", "--launches", "1", "--rounds", "4", "--variant", v.name]),
                )
            })),
        }
    }
    runs
}

/// The sanitizer's `ERROR SUMMARY` (or `LEAK SUMMARY`, `RACECHECK SUMMARY`)
/// line, without its prefix.
pub fn sanitizer_summary(log: &str) -> String {
    log.lines()
        .rev()
        .find(|l| l.contains("SUMMARY"))
        .map_or("(no summary line: see the log)", |l| l.trim_start_matches("========= ").trim())
        .to_owned()
}
