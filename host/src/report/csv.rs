//! The CSV exporter: one row per measurement, for spreadsheets and scripts.
//!
//! Sums and timings share one layout: `command, block, n, case, kernel,
//! launch, timed, time_ms, value, expected, exact`, where a launch that was a
//! warm-up has `timed = false` and no time, and `value` is the sum the launch
//! returned. The publication run has a layout of its own, one row per variant.

use crate::bench::BenchReport;
use crate::gpu::sum::SumMeasurement;
use crate::record::{Record, Results};
use crate::reference;
use crate::sweep::SweepReport;

const HEADER: [&str; 11] =
    ["command", "block", "n", "case", "kernel", "launch", "timed", "time_ms", "value", "expected", "exact"];

/// `record` as CSV, with a header row.
pub fn export(record: &Record) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut row = |cells: Vec<String>| w.write_record(&cells).expect("writing to memory cannot fail");
    match &record.results {
        Results::Publish { rows, .. } => {
            row([
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
            ]
            .map(str::to_owned)
            .to_vec());
            for r in rows {
                let c = &r.counts;
                row(vec![
                    r.variant.symbol().to_owned(),
                    r.variant.participants().to_owned(),
                    r.variant.scope().to_owned(),
                    r.variant.ordering().to_owned(),
                    c.launches.to_string(),
                    c.pairs.to_string(),
                    c.stale.to_string(),
                    c.timeouts.to_string(),
                    c.observed.0.to_string(),
                    c.observed.1.to_string(),
                ]);
            }
        }
        results => {
            row(HEADER.map(str::to_owned).to_vec());
            for cells in sum_rows(results) {
                row(cells);
            }
        }
    }
    String::from_utf8(w.into_inner().expect("flushing to memory cannot fail")).expect("CSV of UTF-8 cells is UTF-8")
}

/// Rows of one kernel's launches: warm-ups (untimed) first, then timed ones.
fn launches(
    command: &str,
    block: u32,
    n: usize,
    case: &str,
    m: &SumMeasurement,
    expected: Option<f64>,
) -> Vec<Vec<String>> {
    let warmups = m.sums.len().saturating_sub(m.times_ms.len());
    m.sums
        .iter()
        .enumerate()
        .map(|(k, &sum)| {
            let time = k.checked_sub(warmups).map_or(String::new(), |t| m.times_ms[t].to_string());
            vec![
                command.to_owned(),
                block.to_string(),
                n.to_string(),
                case.to_owned(),
                m.kernel.label().to_owned(),
                k.to_string(),
                (k >= warmups).to_string(),
                time,
                sum.to_string(),
                expected.map_or(String::new(), |e| e.to_string()),
                expected.map_or(String::new(), |e| reference::bit_exact(sum, e).to_string()),
            ]
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
        for (name, times) in [("copy (read+write)", &row.copy_ms), ("empty launch", &row.empty_ms)] {
            for (k, t) in times.iter().enumerate() {
                let cells = [
                    "bench",
                    &block.to_string(),
                    &n.to_string(),
                    "baseline",
                    name,
                    &k.to_string(),
                    "true",
                    &t.to_string(),
                    "",
                    "",
                    "",
                ];
                out.push(cells.map(str::to_owned).to_vec());
            }
        }
        for m in &row.sums.measurements {
            out.extend(launches("bench", block, n, "sparse exact input", m, Some(row.sums.reference)));
        }
    }
    out
}

fn sum_rows(results: &Results) -> Vec<Vec<String>> {
    match results {
        Results::Sweep { sweep, determinism } => {
            let mut out = sweep_rows("sweep", sweep);
            if let Some(d) = determinism {
                for (kernel, sums) in &d.sums {
                    let m = SumMeasurement { kernel: *kernel, times_ms: Vec::new(), sums: sums.clone() };
                    // The inexact input has no exact answer to compare with.
                    out.extend(launches("determinism", d.block.threads(), d.n, "inexact input", &m, None));
                }
            }
            out
        }
        Results::Exercise(e) => e.runs.iter().flat_map(|r| sweep_rows("exercise", r)).collect(),
        Results::Bench(b) => bench_rows(b),
        Results::Histogram(h) => h
            .rows
            .iter()
            .flat_map(|row| {
                row.measurements.iter().flat_map(move |m| {
                    let warmups = m.counts.len().saturating_sub(m.times_ms.len());
                    m.counts.iter().enumerate().map(move |(k, counts)| {
                        vec![
                            "histogram".to_owned(),
                            h.options.block.threads().to_string(),
                            row.n.to_string(),
                            format!("{} bins, {}", h.options.bins, row.distribution.name()),
                            m.kernel.short().to_owned(),
                            k.to_string(),
                            (k >= warmups).to_string(),
                            k.checked_sub(warmups).map_or(String::new(), |t| m.times_ms[t].to_string()),
                            String::new(),
                            String::new(),
                            (*counts == row.expected).to_string(),
                        ]
                    })
                })
            })
            .collect(),
        Results::Publish { .. } => unreachable!("publish has its own layout"),
    }
}
