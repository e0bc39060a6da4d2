//! The CSV exporter: one row per measurement, for spreadsheets and scripts.
//!
//! Sums, histograms and timings share one layout: `command, block, n, case,
//! kernel, launch, timed, time_ms, value, expected, exact`, where a launch
//! that was a warm-up has `timed = false` and no time, and `value` is the sum
//! the launch returned (empty for a histogram, whose counts are in the JSON).
//! In an accuracy run each row is one result of one method, `expected` the
//! exact sum and `exact` whether they are the same. The publication run has a
//! layout of its own, one row per variant.

use super::launch_time;
use crate::accuracy::{self, AccuracyReport};
use crate::bench::BenchReport;
use crate::gpu::sum::SumMeasurement;
use crate::histogram::HistogramReport;
use crate::litmus::LitmusRow;
use crate::publish::PublishRow;
use crate::record::{Record, Results};
use crate::reference;
use crate::sweep::SweepReport;

const HEADER: [&str; 11] =
    ["command", "block", "n", "case", "kernel", "launch", "timed", "time_ms", "value", "expected", "exact"];

const PUBLISH_HEADER: [&str; 12] = [
    "variant",
    "participants",
    "scope",
    "ordering",
    "launches",
    "pairs",
    "stale",
    "timeouts",
    "observed_id",
    "observed_score",
    "flags",
    "preload",
];

const LITMUS_HEADER: [&str; 16] = [
    "configuration",
    "test",
    "variant",
    "placement",
    "sequential",
    "model",
    "instances",
    "weak",
    "forbidden",
    "weak_per_million",
    "low_95",
    "high_95",
    "instances_per_second",
    "launches",
    "grid",
    "outcomes",
];

/// `record` as CSV, with a header row.
pub fn export(record: &Record) -> String {
    let (header, rows): (&[&str], Vec<Vec<String>>) = match &record.results {
        Results::Publish { rows, .. } => (&PUBLISH_HEADER, publish_rows(rows)),
        Results::Litmus { rows, .. } => (&LITMUS_HEADER, rows.iter().map(|r| litmus_row(0, r)).collect()),
        Results::LitmusTune { trials, .. } => (
            &LITMUS_HEADER,
            trials.iter().flat_map(|t| t.rows.iter().map(move |r| litmus_row(t.index + 1, r))).collect(),
        ),
        Results::Sweep { sweep, determinism } => {
            let mut out = sweep_rows("sweep", sweep);
            if let Some(d) = determinism {
                for (kernel, sums) in &d.sums {
                    let m = SumMeasurement { kernel: *kernel, times_ms: Vec::new(), sums: sums.clone() };
                    // The inexact input has no exact answer to compare with.
                    out.extend(launches("determinism", d.block.threads(), d.n, "inexact input", &m, None));
                }
            }
            (&HEADER, out)
        }
        Results::Exercise(e) => (&HEADER, e.runs.iter().flat_map(|r| sweep_rows("exercise", r)).collect()),
        Results::Bench(b) => (&HEADER, bench_rows(b)),
        Results::Histogram(h) => (&HEADER, histogram_rows(h)),
        Results::Accuracy(a) => (&HEADER, accuracy_rows(a)),
    };
    let mut w = csv::Writer::from_writer(Vec::new());
    for cells in std::iter::once(header.iter().map(|h| (*h).to_owned()).collect()).chain(rows) {
        w.write_record(&cells).expect("writing to memory cannot fail");
    }
    String::from_utf8(w.into_inner().expect("flushing to memory cannot fail")).expect("CSV of UTF-8 cells is UTF-8")
}

/// One litmus row; `configuration` is the tuning trial's number, 0 outside
/// a search. `outcomes` lists `registers:count` pairs, `;`-separated.
fn litmus_row(configuration: usize, row: &LitmusRow) -> Vec<String> {
    let (rate, (low, high)) = row.rate_per_million();
    let outcomes: Vec<String> = row.outcomes().iter().map(|(registers, n)| format!("{registers}:{n}")).collect();
    vec![
        configuration.to_string(),
        row.test().key().to_owned(),
        row.kernel.variant.key().to_owned(),
        row.placement.key().to_owned(),
        row.sequential.to_string(),
        row.model().to_owned(),
        row.counts.instances.to_string(),
        row.weak().to_string(),
        row.forbidden().to_string(),
        format!("{rate}"),
        format!("{low}"),
        format!("{high}"),
        format!("{:.0}", row.instances_per_second()),
        row.counts.launches.to_string(),
        row.grid.to_string(),
        outcomes.join(";"),
    ]
}

/// One row of the shared layout. `launch` is `(index, time if timed)`.
struct Row<'a> {
    command: &'a str,
    block: u32,
    n: usize,
    case: &'a str,
    kernel: &'a str,
    launch: (usize, Option<f32>),
    value: String,
    expected: String,
    exact: String,
}

impl Row<'_> {
    fn cells(self) -> Vec<String> {
        let (k, time) = self.launch;
        vec![
            self.command.to_owned(),
            self.block.to_string(),
            self.n.to_string(),
            self.case.to_owned(),
            self.kernel.to_owned(),
            k.to_string(),
            time.is_some().to_string(),
            time.map_or(String::new(), |t| t.to_string()),
            self.value,
            self.expected,
            self.exact,
        ]
    }
}

/// Rows of one sum kernel's launches: warm-ups (untimed) first, then timed
/// ones.
fn launches(
    command: &str,
    block: u32,
    n: usize,
    case: &str,
    m: &SumMeasurement,
    expected: Option<f64>,
) -> Vec<Vec<String>> {
    m.sums
        .iter()
        .enumerate()
        .map(|(k, &sum)| {
            Row {
                command,
                block,
                n,
                case,
                kernel: m.kernel.label,
                launch: (k, launch_time(m.sums.len(), &m.times_ms, k)),
                value: sum.to_string(),
                expected: expected.map_or(String::new(), |e| e.to_string()),
                exact: expected.map_or(String::new(), |e| reference::bit_exact(sum, e).to_string()),
            }
            .cells()
        })
        .collect()
}

fn sweep_rows(command: &str, report: &SweepReport) -> Vec<Vec<String>> {
    let block = report.options.block.threads();
    report
        .rows
        .iter()
        .flat_map(|row| {
            row.measurements
                .iter()
                .flat_map(move |m| launches(command, block, row.n, "exact input", m, Some(row.reference)))
        })
        .collect()
}

fn bench_rows(report: &BenchReport) -> Vec<Vec<String>> {
    let block = report.options.block.threads();
    let mut out = Vec::new();
    for row in &report.rows {
        let n = row.sums.n;
        for (kernel, times) in [("copy (read+write)", &row.copy_ms), ("empty launch", &row.empty_ms)] {
            for (k, &t) in times.iter().enumerate() {
                let (value, expected, exact) = (String::new(), String::new(), String::new());
                let launch = (k, Some(t));
                out.push(
                    Row { command: "bench", block, n, case: "baseline", kernel, launch, value, expected, exact }
                        .cells(),
                );
            }
        }
        for m in &row.sums.measurements {
            out.extend(launches("bench", block, n, "sparse exact input", m, Some(row.sums.reference)));
        }
    }
    out
}

fn histogram_rows(report: &HistogramReport) -> Vec<Vec<String>> {
    let block = report.options.block.threads();
    let mut out = Vec::new();
    for row in &report.rows {
        let case = format!("{} bins, {}", report.options.bins, row.distribution.name());
        for m in &row.measurements {
            for (k, counts) in m.counts.iter().enumerate() {
                out.push(
                    Row {
                        command: "histogram",
                        block,
                        n: row.n,
                        case: &case,
                        kernel: m.kernel.short,
                        launch: (k, launch_time(m.counts.len(), &m.times_ms, k)),
                        value: String::new(),
                        expected: String::new(),
                        exact: (*counts == row.expected).to_string(),
                    }
                    .cells(),
                );
            }
        }
    }
    out
}

fn accuracy_rows(report: &AccuracyReport) -> Vec<Vec<String>> {
    let block = report.options.block.threads();
    let mut out = Vec::new();
    for row in &report.rows {
        for r in &row.results {
            for (k, &sum) in r.sums.iter().enumerate() {
                out.push(
                    Row {
                        command: "accuracy",
                        block,
                        n: row.n,
                        case: &row.data,
                        kernel: r.method.label(),
                        launch: (k, None),
                        value: sum.to_string(),
                        expected: row.exact.to_string(),
                        exact: accuracy::same(sum, row.exact).to_string(),
                    }
                    .cells(),
                );
            }
        }
    }
    out
}

fn publish_rows(rows: &[PublishRow]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|r| {
            let c = &r.counts;
            vec![
                r.variant.symbol().to_owned(),
                r.variant.placement.text().to_owned(),
                r.variant.scope.text().to_owned(),
                r.variant.ordering.text().to_owned(),
                c.launches.to_string(),
                c.pairs.to_string(),
                c.stale.to_string(),
                c.timeouts.to_string(),
                c.observed.0.to_string(),
                c.observed.1.to_string(),
                // Both only shape the cross-block variants.
                format!("{:?}", r.geometry.flags),
                r.geometry.preload.to_string(),
            ]
        })
        .collect()
}
