//! The published litmus figures the book sets beside the reference run, one
//! file per published run in `results/anchors/`, each row one cuda-litmus
//! test binary mapped to the lab's (test, variant) with every thread in its
//! own block: [`HOPPER`], the Hopper tuning run the suite's anchors first came
//! from, and [`GH200`], cuda-litmus's later run on a GH200.
//!
//! [`runs`] reads the litmus records of a results directory through
//! `lab-records`' typed view of the host's JSON. [`table`] is a pure
//! function: the anchors and those runs in, Markdown out. For each anchor it
//! finds the lab's best weak rate for the same row over every run, per
//! million instances and per second, and says whether it reaches the
//! published best.

use std::path::Path;

use lab_records::host::{LitmusRow, Record, Results};

use crate::Error;

/// cuda-litmus's Hopper tuning run (`output-files/hopper.zip`), relative to
/// the workspace root.
pub const HOPPER: &str = "results/anchors/cuda-litmus-hopper.csv";

/// cuda-litmus's GH200 run (`pldi26-output/gh200.txt`), relative to the
/// workspace root.
pub const GH200: &str = "results/anchors/cuda-litmus-gh200.csv";

/// cuda-litmus's coverage per GPU (`pldi26-output/results.csv`), relative to
/// the workspace root.
pub const COVERAGE: &str = "results/anchors/cuda-litmus-coverage.csv";

/// How many of cuda-litmus's tests showed their weak outcome on one GPU.
#[derive(Clone, Debug, PartialEq)]
pub struct Coverage {
    /// The GPU, as the published file names it (`h100`).
    pub gpu: String,
    /// Every test binary.
    pub tests: u64,
    /// The tests whose weak outcome the model allows.
    pub allowed: u64,
    /// Of those, the ones that showed it on this GPU.
    pub allowed_seen: u64,
    /// The tests whose weak outcome the model forbids.
    pub forbidden: u64,
    /// Of those, the ones that showed it on this GPU.
    pub forbidden_seen: u64,
}

/// Parses the coverage file's `text` (`file` names it in errors): a header,
/// then one row per GPU, no quoted fields.
pub fn parse_coverage(text: &str, file: &str) -> Result<Vec<Coverage>, Error> {
    let names = ["gpu", "tests", "allowed", "allowed_seen", "forbidden", "forbidden_seen"];
    rows(text, file, names)?
        .iter()
        .map(|row| {
            let coverage = Coverage {
                gpu: row.cells[0].to_owned(),
                tests: row.int(1)?,
                allowed: row.int(2)?,
                allowed_seen: row.int(3)?,
                forbidden: row.int(4)?,
                forbidden_seen: row.int(5)?,
            };
            if coverage.allowed + coverage.forbidden != coverage.tests
                || coverage.allowed_seen > coverage.allowed
                || coverage.forbidden_seen > coverage.forbidden
            {
                return Err(row.bad("counts that do not add up"));
            }
            Ok(coverage)
        })
        .collect()
}

/// Reads and parses [`COVERAGE`] under `root`.
pub fn read_coverage(root: &Path) -> Result<Vec<Coverage>, Error> {
    parse_coverage(&read_text(root, COVERAGE)?, COVERAGE)
}

/// One row of a published file: the cells of the columns asked for, in
/// that order.
struct Row<'t, const N: usize> {
    file: &'t str,
    /// Its line, counted from the first after the header.
    number: usize,
    cells: [&'t str; N],
}

impl<const N: usize> Row<'_, N> {
    /// An error naming the file, this row and `what` is wrong with it.
    fn bad(&self, what: &str) -> Error {
        Error(format!("{}, row {}: {what}", self.file, self.number))
    }

    /// Cell `k` as a count.
    fn int(&self, k: usize) -> Result<u64, Error> {
        self.cells[k].parse().map_err(|_| self.bad("a count that is not a whole number"))
    }

    /// Cell `k` as a rate.
    fn real(&self, k: usize) -> Result<f64, Error> {
        self.cells[k].parse().map_err(|_| self.bad("a rate that is not a number"))
    }
}

/// The rows of a published file's `text` (`file` names it in errors): a
/// header naming the columns, then one row per non-blank line, no quoted
/// fields; of each row, the cells of the columns `names`, in that order.
fn rows<'t, const N: usize>(text: &'t str, file: &'t str, names: [&str; N]) -> Result<Vec<Row<'t, N>>, Error> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let mut columns = [0; N];
    for (column, name) in columns.iter_mut().zip(names) {
        *column = header.iter().position(|h| *h == name).ok_or_else(|| Error(format!("{file}: no column `{name}`")))?;
    }
    lines
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| {
            let all: Vec<&str> = line.split(',').collect();
            let mut row = Row { file, number: i + 1, cells: [""; N] };
            if columns.iter().any(|&k| k >= all.len()) {
                return Err(row.bad("too few cells"));
            }
            row.cells = columns.map(|k| all[k]);
            Ok(row)
        })
        .collect()
}

/// The text of `file` under `root`.
fn read_text(root: &Path, file: &str) -> Result<String, Error> {
    let path = root.join(file);
    std::fs::read_to_string(&path).map_err(|e| Error(format!("cannot read {}: {e}", path.display())))
}

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
    let names = [
        "test",
        "lab_variant",
        "cuda_litmus_binary",
        "environments",
        "instances",
        "weak",
        "weak_per_million_max",
        "weak_per_second_max",
    ];
    rows(text, file, names)?
        .iter()
        .map(|row| {
            let anchor = Anchor {
                test: row.cells[0].to_owned(),
                variant: row.cells[1].to_owned(),
                binary: row.cells[2].to_owned(),
                environments: row.int(3)?,
                instances: row.int(4)?,
                weak: row.int(5)?,
                best_per_million: row.real(6)?,
                best_per_second: row.real(7)?,
            };
            let symbol = format!("litmus_{}", anchor.kernel());
            if !layout::litmus::KERNELS.iter().any(|k| k.entry.symbol == symbol) {
                return Err(row.bad(&format!("no lab kernel {symbol}")));
            }
            Ok(anchor)
        })
        .collect()
}

/// Reads and parses the anchors file `file` ([`HOPPER`] or [`GH200`]) under
/// `root`.
pub fn read(root: &Path, file: &str) -> Result<Vec<Anchor>, Error> {
    parse(&read_text(root, file)?, file)
}

/// One litmus record of a results directory: the step that wrote it and
/// what it counted.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The step, as the manifest names it: the file's stem
    /// (`litmus-tuned-wrc`).
    pub step: String,
    /// A [`Results::Litmus`] or a [`Results::LitmusTune`].
    pub results: Results,
}

/// The runs of `litmus` and `litmus --tune` in `results`, by file name: every
/// `litmus*.json` but the sequential control's, each read as a host record.
/// A file that is not one is an error naming it.
pub fn runs(results: &Path) -> Result<Vec<Run>, Error> {
    let entries = std::fs::read_dir(results).map_err(|e| Error(format!("cannot list {}: {e}", results.display())))?;
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("litmus") && n.ends_with(".json") && n != "litmus-sequential.json")
        .collect();
    names.sort();
    let mut runs = Vec::new();
    for name in names {
        let path = results.join(&name);
        let text = std::fs::read_to_string(&path).map_err(|e| Error(format!("cannot read {}: {e}", path.display())))?;
        let record: Record =
            serde_json::from_str(&text).map_err(|e| Error(format!("{}: not a host record: {e}", path.display())))?;
        if matches!(record.results, Results::Litmus(_) | Results::LitmusTune(_)) {
            runs.push(Run { step: name.trim_end_matches(".json").to_owned(), results: record.results });
        }
    }
    Ok(runs)
}

/// The lab's best rate for one row over `runs`, with the step that gave it
/// and that step's instances (what a zero is out of).
#[derive(Clone, Debug, PartialEq)]
struct Rate {
    rate: f64,
    step: String,
    instances: f64,
}

/// (best per million, best per second) for one row over `runs`.
type Best = (Option<Rate>, Option<Rate>);

fn best(anchor: &Anchor, runs: &[Run]) -> Best {
    let kernel = anchor.kernel();
    let Some(k) = layout::litmus::KERNELS.iter().find(|k| k.entry.symbol == format!("litmus_{kernel}")) else {
        return (None, None);
    };
    let weak_bin = k.test.weak() as usize;
    let (mut per_million, mut per_second): Best = (None, None);
    // A plain run's rows, and each environment of a tuning search's as a
    // run of its own: the published best is the best of many environments.
    let mut sets: Vec<(String, &[LitmusRow])> = Vec::new();
    for run in runs {
        match &run.results {
            Results::Litmus(litmus) => sets.push((run.step.clone(), &litmus.rows)),
            Results::LitmusTune(tune) => {
                sets.extend(tune.trials.iter().map(|t| (format!("{} #{}", run.step, t.index), &t.rows[..])));
            }
            _ => {}
        }
    }
    for (step, rows) in &sets {
        for row in rows.iter().filter(|r| r.kernel == kernel && r.placement == "inter-block" && !r.sequential) {
            let counts = &row.counts;
            let weak = counts.histogram.get(weak_bin).copied().unwrap_or(0) as f64;
            let instances = counts.instances as f64;
            let seconds = counts.seconds;
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
pub fn table(anchors: &[Anchor], runs: &[Run]) -> String {
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
    use lab_records::host::{Litmus, LitmusCounts, LitmusTrial, LitmusTune};

    use super::*;

    const CSV: &str = "test,lab_variant,cuda_litmus_binary,environments,instances,weak,weak_per_million_mean,weak_per_million_max,weak_per_second_max,source_repo,source_commit,source_path
wrc,relaxed-gpu,wrc-TB_0_1_2-SCOPE_DEVICE-NO_FENCE-RELAXED,97,1000000,500,1.0,800.0,900000,r,c,p
";

    /// A `wrc_relaxed_gpu` row across blocks: a million instances,
    /// `weak_count` of them weak, in `seconds`.
    fn wrc_row(weak_count: u64, seconds: f64) -> LitmusRow {
        let mut histogram = vec![0u64; layout::litmus::BINS];
        histogram[layout::litmus::Test::Wrc.weak() as usize] = weak_count;
        LitmusRow {
            kernel: "wrc_relaxed_gpu".to_owned(),
            placement: "inter-block".to_owned(),
            sequential: false,
            allowed: true,
            counts: LitmusCounts { instances: 1_000_000, histogram, seconds },
        }
    }

    fn run(step: &str, rows: Vec<LitmusRow>) -> Run {
        Run { step: step.to_owned(), results: Results::Litmus(Litmus { rows }) }
    }

    #[test]
    fn parses_rows_and_finds_the_best_run() {
        let anchors = parse(CSV, HOPPER).unwrap();
        assert_eq!(anchors.len(), 1);
        assert_eq!(anchors[0].environments, 97);
        let runs = [run("a", vec![wrc_row(900, 1.0)]), run("b", vec![wrc_row(100, 0.0001)])];
        let t = table(&anchors, &runs);
        assert!(t.contains("| 900 (`a`) | 1000000 (`b`) | yes | yes |"), "{t}");
        assert!(t.contains("| 97 | 500 | 800 | 900000 |"), "{t}");
        // The sequential control and the other placements are not the row.
        let elsewhere = LitmusRow { placement: "intra-block".to_owned(), ..wrc_row(999_999, 1.0) };
        let control = LitmusRow { sequential: true, ..wrc_row(999_999, 1.0) };
        let t = table(&anchors, &[run("c", vec![elsewhere, control, wrc_row(0, 2.0)])]);
        assert!(t.contains("| 0 in 1000000 (`c`) | 0 in 1000000 (`c`) | no | no |"), "{t}");
        // A tuning search's environments count one by one.
        let trials = vec![LitmusTrial { index: 7, rows: vec![wrc_row(950, 1.0)] }];
        let search = Run { step: "s".to_owned(), results: Results::LitmusTune(LitmusTune { trials }) };
        let t = table(&anchors, &[search]);
        assert!(t.contains("| 950 (`s #7`) |"), "{t}");
    }

    /// The reference run's litmus records read through the typed view: the
    /// plain runs and the tuning search, not the sequential control or the
    /// mutants.
    #[test]
    fn the_reference_runs_litmus_records_are_read() {
        let runs = runs(&crate::paths::workspace_root().join("results/h200")).unwrap();
        let steps: Vec<&str> = runs.iter().map(|r| r.step.as_str()).collect();
        assert!(steps.contains(&"litmus") && steps.contains(&"litmus-tune"), "{steps:?}");
        assert!(!steps.iter().any(|s| s.contains("sequential") || s.contains("mutants")), "{steps:?}");
        let rows = |r: &Run| match &r.results {
            Results::Litmus(l) => l.rows.len(),
            Results::LitmusTune(t) => t.trials.iter().map(|t| t.rows.len()).sum(),
            other => panic!("{}: {other:?}", r.step),
        };
        assert!(runs.iter().all(|r| rows(r) > 0), "{steps:?}");
    }

    #[test]
    fn a_litmus_file_that_is_no_record_is_one_clear_error() {
        let dir = std::env::temp_dir().join(format!("lab-anchors-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("litmus-broken.json"), "{\"results\": {\"command\": \"litmus\"}}").unwrap();
        let e = runs(&dir).unwrap_err();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(e.0.contains("litmus-broken.json: not a host record"), "{}", e.0);
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

    #[test]
    fn the_coverage_file_parses_and_a_row_that_does_not_add_up_is_refused() {
        let coverage = read_coverage(&crate::paths::workspace_root()).unwrap();
        assert_eq!(coverage.iter().map(|c| c.gpu.as_str()).collect::<Vec<_>>(), ["a100", "h100", "gh200"]);
        let text = "gpu,tests,allowed,allowed_seen,forbidden,forbidden_seen\nh100,10,8,3,2,0\n";
        let row = &parse_coverage(text, COVERAGE).unwrap()[0];
        assert_eq!((row.tests, row.allowed, row.allowed_seen, row.forbidden, row.forbidden_seen), (10, 8, 3, 2, 0));
        let e = parse_coverage(&text.replace("h100,10", "h100,11"), COVERAGE).unwrap_err();
        assert!(e.0.contains("row 1") && e.0.contains("do not add up"), "{}", e.0);
    }
}
