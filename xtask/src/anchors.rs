//! The published litmus figures the book sets beside the reference run, one
//! file per published run in `results/anchors/`, each row one cuda-litmus
//! test binary mapped to the lab's (test, variant) with every thread in its
//! own block: [`HOPPER`], the Hopper tuning run the suite's anchors first came
//! from, and [`GH200`], cuda-litmus's later run on a GH200.
//!
//! [`table`] is a pure function: the anchors and the lab's litmus records in,
//! Markdown out. For each anchor it finds the lab's best weak rate for the
//! same row over every litmus run of the results directory, per million
//! instances and per second, and says whether it reaches the published best.

use std::path::Path;

use crate::Error;

/// cuda-litmus's Hopper tuning run (`output-files/hopper.zip`), relative to
/// the workspace root.
pub const HOPPER: &str = "results/anchors/cuda-litmus-hopper.csv";

/// cuda-litmus's GH200 run (`pldi26-output/gh200.txt`), relative to the
/// workspace root.
pub const GH200: &str = "results/anchors/cuda-litmus-gh200.csv";

/// One published row.
#[derive(Clone, Debug, PartialEq)]
pub struct Anchor {
    /// The lab's test key (`wrc`).
    pub test: String,
    /// The lab's variant key (`relaxed-gpu`).
    pub variant: String,
    /// cuda-litmus's binary name.
    pub binary: String,
    /// Random environments it ran in.
    pub environments: u64,
    /// Instances over all of them.
    pub instances: u64,
    /// Weak outcomes over all of them.
    pub weak: u64,
    /// The best environment's weak outcomes per million instances.
    pub best_per_million: f64,
    /// The best environment's weak outcomes per second.
    pub best_per_second: f64,
}

impl Anchor {
    /// The lab kernel's name in records (`wrc_relaxed_gpu`).
    fn kernel(&self) -> String {
        format!("{}_{}", self.test, self.variant.replace('-', "_"))
    }
}

/// Parses an anchors file's `text` (`file` names it in errors): a header,
/// then one row per anchor, no quoted fields. A row that names no lab kernel
/// is an error.
pub fn parse(text: &str, file: &str) -> Result<Vec<Anchor>, Error> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let column =
        |name: &str| header.iter().position(|h| *h == name).ok_or_else(|| Error(format!("{file}: no column `{name}`")));
    let [test, variant, binary, environments, instances, weak, per_million, per_second] = [
        "test",
        "lab_variant",
        "cuda_litmus_binary",
        "environments",
        "instances",
        "weak",
        "weak_per_million_max",
        "weak_per_second_max",
    ]
    .map(column);
    let (test, variant, binary, environments) = (test?, variant?, binary?, environments?);
    let (instances, weak, per_million, per_second) = (instances?, weak?, per_million?, per_second?);
    lines
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| {
            let cells: Vec<&str> = line.split(',').collect();
            let bad = |what: &str| Error(format!("{file}, row {}: {what}", i + 1));
            let cell = |k: usize| cells.get(k).copied().ok_or_else(|| bad("too few cells"));
            let int = |k: usize| cell(k)?.parse::<u64>().map_err(|_| bad("a count that is not a whole number"));
            let real = |k: usize| cell(k)?.parse::<f64>().map_err(|_| bad("a rate that is not a number"));
            let anchor = Anchor {
                test: cell(test)?.to_owned(),
                variant: cell(variant)?.to_owned(),
                binary: cell(binary)?.to_owned(),
                environments: int(environments)?,
                instances: int(instances)?,
                weak: int(weak)?,
                best_per_million: real(per_million)?,
                best_per_second: real(per_second)?,
            };
            let symbol = format!("litmus_{}", anchor.kernel());
            if !layout::litmus::KERNELS.iter().any(|k| k.entry.symbol == symbol) {
                return Err(bad(&format!("no lab kernel {symbol}")));
            }
            Ok(anchor)
        })
        .collect()
}

/// Reads and parses the anchors file `file` ([`HOPPER`] or [`GH200`]) under
/// `root`.
pub fn read(root: &Path, file: &str) -> Result<Vec<Anchor>, Error> {
    let path = root.join(file);
    let text = std::fs::read_to_string(&path).map_err(|e| Error(format!("cannot read {}: {e}", path.display())))?;
    parse(&text, file)
}

/// The lab's best rate for one row over `runs`, with the step that gave it
/// and that step's instances (what a zero is out of).
#[derive(Clone, Debug, PartialEq)]
struct Rate {
    rate: f64,
    step: String,
    instances: f64,
}

/// (best per million, best per second) for one row over `runs` (step name,
/// `host litmus` record).
type Best = (Option<Rate>, Option<Rate>);

fn best(anchor: &Anchor, runs: &[(String, serde_json::Value)]) -> Best {
    let kernel = anchor.kernel();
    let Some(k) = layout::litmus::KERNELS.iter().find(|k| k.entry.symbol == format!("litmus_{kernel}")) else {
        return (None, None);
    };
    let weak_bin = k.test.weak() as usize;
    let (mut per_million, mut per_second): Best = (None, None);
    // A plain run's rows, and each environment of a tuning search's as a
    // run of its own: the published best is the best of many environments.
    let mut sets: Vec<(String, &[serde_json::Value])> = Vec::new();
    for (step, record) in runs {
        if let Some(rows) = record["results"]["rows"].as_array() {
            sets.push((step.clone(), rows));
        }
        for trial in record["results"]["trials"].as_array().map(Vec::as_slice).unwrap_or_default() {
            if let Some(rows) = trial["rows"].as_array() {
                sets.push((format!("{step} #{}", trial["index"]), rows));
            }
        }
    }
    for (step, rows) in &sets {
        for row in rows
            .iter()
            .filter(|r| r["kernel"] == kernel.as_str() && r["placement"] == "inter-block" && r["sequential"] == false)
        {
            let counts = &row["counts"];
            let weak = counts["histogram"][weak_bin].as_f64().unwrap_or(0.0);
            let instances = counts["instances"].as_f64().unwrap_or(0.0);
            let seconds = counts["seconds"].as_f64().unwrap_or(0.0);
            // A tie goes to the run with more instances: a larger zero.
            let better = |best: &Option<Rate>, rate: f64| {
                best.as_ref().is_none_or(|b| rate > b.rate || (rate == b.rate && instances > b.instances))
            };
            if instances > 0.0 {
                let rate = weak / instances * 1e6;
                if better(&per_million, rate) {
                    per_million = Some(Rate { rate, step: step.clone(), instances });
                }
            }
            if seconds > 0.0 {
                let rate = weak / seconds;
                if better(&per_second, rate) {
                    per_second = Some(Rate { rate, step: step.clone(), instances });
                }
            }
        }
    }
    (per_million, per_second)
}

/// `x` as a whole number from 100 up, and with three significant digits
/// below, so that no rate above zero prints as zero.
fn rate(x: f64) -> String {
    if x == 0.0 {
        "0".to_owned()
    } else if x >= 100.0 {
        format!("{x:.0}")
    } else {
        let decimals = (2 - x.log10().floor() as i32).max(0) as usize;
        format!("{x:.decimals$}")
    }
}

/// The comparison table, in Markdown.
pub fn table(anchors: &[Anchor], runs: &[(String, serde_json::Value)]) -> String {
    let mut out = String::from(
        "| test | variant | cuda-litmus: environments | pooled /M | best environment /M | best /s | \
         this run: best /M | best /s | /M reached | /s reached |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---|---|\n",
    );
    for a in anchors {
        let pooled = match a.weak {
            0 => format!("0 in {}", a.instances),
            weak => rate(weak as f64 / a.instances.max(1) as f64 * 1e6),
        };
        let (per_million, per_second) = best(a, runs);
        // A zero is shown with what it is out of, never as a bare rate.
        let shown = |b: &Option<Rate>| match b {
            None => "not run".to_owned(),
            Some(b) if b.rate == 0.0 => format!("0 in {:.0} (`{}`)", b.instances, b.step),
            Some(b) => format!("{} (`{}`)", rate(b.rate), b.step),
        };
        // Reaching a published zero says nothing.
        let reached = |b: &Option<Rate>, target: f64| match b {
            None => "not run",
            Some(_) if target == 0.0 => "—",
            Some(b) if b.rate >= target => "yes",
            Some(_) => "no",
        };
        out.push_str(&format!(
            "| {} | `{}` | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            a.test.to_uppercase(),
            a.variant,
            a.environments,
            pooled,
            rate(a.best_per_million),
            rate(a.best_per_second),
            shown(&per_million),
            shown(&per_second),
            reached(&per_million, a.best_per_million),
            reached(&per_second, a.best_per_second),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const CSV: &str = "test,lab_variant,cuda_litmus_binary,environments,instances,weak,weak_per_million_mean,weak_per_million_max,weak_per_second_max,source_repo,source_commit,source_path
wrc,relaxed-gpu,wrc-TB_0_1_2-SCOPE_DEVICE-NO_FENCE-RELAXED,97,1000000,500,1.0,800.0,900000,r,c,p
";

    #[test]
    fn parses_rows_and_finds_the_best_run() {
        let anchors = parse(CSV, HOPPER).unwrap();
        assert_eq!(anchors.len(), 1);
        assert_eq!(anchors[0].environments, 97);
        let weak = layout::litmus::Test::Wrc.weak() as usize;
        let run = |weak_count: u64, seconds: f64| {
            let mut histogram = vec![0u64; layout::litmus::BINS];
            histogram[weak] = weak_count;
            serde_json::json!({"results": {"rows": [{"kernel": "wrc_relaxed_gpu", "placement": "inter-block",
                "sequential": false, "counts": {"instances": 1_000_000, "histogram": histogram, "seconds": seconds}}]}})
        };
        let runs = vec![("a".to_owned(), run(900, 1.0)), ("b".to_owned(), run(100, 0.0001))];
        let t = table(&anchors, &runs);
        assert!(t.contains("| 900 (`a`) | 1000000 (`b`) | yes | yes |"), "{t}");
        assert!(t.contains("| 97 | 500 | 800 | 900000 |"), "{t}");
        // A tuning search's environments count one by one.
        let search =
            serde_json::json!({"results": {"trials": [{"index": 7, "rows": run(950, 1.0)["results"]["rows"]}]}});
        let t = table(&anchors, &[("s".to_owned(), search)]);
        assert!(t.contains("| 950 (`s #7`) |"), "{t}");
    }

    #[test]
    fn a_broken_row_is_one_clear_error() {
        let e = parse(&CSV.replace(",97,", ",many,"), GH200).unwrap_err();
        assert!(e.0.contains(GH200) && e.0.contains("row 1") && e.0.contains("whole number"), "{}", e.0);
        let e = parse(&CSV.replace("wrc,relaxed-gpu", "wrc,relaxed-sys"), HOPPER).unwrap_err();
        assert!(e.0.contains("no lab kernel litmus_wrc_relaxed_sys"), "{}", e.0);
        assert_eq!([rate(0.0004), rate(12.34), rate(917.2)], ["0.000400", "12.3", "917"]);
    }

    #[test]
    fn both_published_files_parse_into_the_same_rows() {
        let root = crate::paths::workspace_root();
        let [hopper, gh200] = [HOPPER, GH200].map(|file| read(&root, file).unwrap());
        let rows =
            |a: &[Anchor]| a.iter().map(|a| (a.test.clone(), a.variant.clone(), a.binary.clone())).collect::<Vec<_>>();
        assert_eq!(rows(&hopper), rows(&gh200));
        assert!(hopper.iter().chain(&gh200).all(|a| a.weak <= a.instances && a.environments > 0));
    }
}
