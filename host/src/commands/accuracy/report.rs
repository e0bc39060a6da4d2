//! `accuracy`'s report: per array, every method's results against the exact
//! sum, in units in the last place; every result in CSV; one plot panel per
//! array of the worst error against n; a line per broken promise.

use layout::sum::Promise;
use tabled::builder::Builder;

use super::{AccuracyReport, AccuracyRow, Broken, MethodResult};
use crate::device::DeviceInfo;
use crate::report::csv::{HEADER, Row};
use crate::report::plot::Series;
use crate::report::table::{Look, device_header, render_some};
use crate::report::{Checks, Csv, Plot, Report};

impl Report for AccuracyReport {
    fn tables(&self, device: &DeviceInfo, look: Look) -> String {
        device_header(device, Some(self.options.block)) + &accuracy(self, look)
    }

    fn csv(&self) -> Csv {
        let block = self.options.block.threads();
        let mut rows = Vec::new();
        for row in &self.rows {
            for r in &row.results {
                for (k, &sum) in r.sums.iter().enumerate() {
                    rows.push(
                        Row {
                            command: "accuracy",
                            block,
                            n: row.n,
                            case: &row.data,
                            kernel: r.method.label(),
                            launch: (k, None),
                            value: sum.to_string(),
                            expected: row.exact.to_string(),
                            exact: super::same(sum, row.exact).to_string(),
                        }
                        .cells(),
                    );
                }
            }
        }
        Csv { header: &HEADER, rows }
    }

    fn plot(&self, _device: &DeviceInfo) -> Option<Plot> {
        Some(Plot::Error(panels(self)))
    }

    fn checks(&self) -> Checks {
        Checks::from_lines(broken_promises(&self.broken()))
    }
}

/// The panels of an accuracy record: per array name, one line per method of
/// 1 + its worst error in ulps against n (the 1 puts an exact method on the
/// log axis, at 1).
pub fn panels(report: &AccuracyReport) -> Vec<(String, Vec<Series>)> {
    let mut panels: Vec<(String, Vec<Series>)> = Vec::new();
    for row in &report.rows {
        let panel = match panels.iter().position(|(name, _)| *name == row.data) {
            Some(i) => &mut panels[i].1,
            None => {
                panels.push((row.data.clone(), Vec::new()));
                &mut panels.last_mut().expect("just pushed").1
            }
        };
        for r in &row.results {
            let Some(worst) = r.worst_ulps(row.exact) else { continue };
            let point = (row.n as f64, 1.0 + worst as f64);
            match panel.iter_mut().find(|s| s.label == r.method.label()) {
                Some(s) => s.points.push(point),
                None => panel.push(Series { label: r.method.label().to_owned(), points: vec![point] }),
            }
        }
    }
    panels
}

/// The words for a promise.
fn promise(p: Promise) -> &'static str {
    match p {
        Promise::Nothing => "-",
        Promise::Reproducible => "reproducible",
        Promise::CorrectlyRounded => "correctly rounded",
    }
}

/// One method's cells.
fn cells(r: &MethodResult, exact: f32) -> Vec<String> {
    let (min, max) = crate::stats::min_max(&r.sums).unwrap_or((f32::NAN, f32::NAN));
    let result = if r.distinct() == 1 { format!("{min:e}") } else { format!("{min:e} .. {max:e}") };
    let or_dash = |x: Option<String>| x.unwrap_or_else(|| "-".to_owned());
    vec![
        r.method.label().to_owned(),
        promise(r.method.promise()).to_owned(),
        result,
        r.sums.len().to_string(),
        r.distinct().to_string(),
        or_dash(r.worst_ulps(exact).map(|u| u.to_string())),
        or_dash(r.median_ulps(exact).map(|u| u.to_string())),
        or_dash(r.worst_relative(exact).map(|e| format!("{e:.1e}"))),
    ]
}

/// One array's table, under a line with its exact sum and the reference's
/// speed.
fn row(row: &AccuracyRow, look: Look) -> String {
    let mut builder = Builder::default();
    builder.push_record([
        "method",
        "promise",
        "result",
        "runs",
        "distinct",
        "worst ulps",
        "median ulps",
        "worst rel. error",
    ]);
    for r in &row.results {
        builder.push_record(cells(r, row.exact));
    }
    let rate = row.n as f64 / (row.reference_ms * 1e-3) / 1e6;
    format!(
        "\n{}, n = {}: exact sum {:e} (f32 bits {:#010x}), found by the CPU reference in {:.2} ms ({rate:.0} M floats/s, one core)\n{}\n",
        row.data,
        row.n,
        row.exact,
        row.exact.to_bits(),
        row.reference_ms,
        render_some(builder, look, 3..8)
    )
}

/// The accuracy report: how it was made, one table per array, and whether
/// every promise held.
pub fn accuracy(report: &AccuracyReport, look: Look) -> String {
    let o = &report.options;
    let mut out = format!(
        "Accuracy: every sum against the exact sum of the same floats, rounded once to the nearest f32.\n\
         GPU kernels: {} launches each, block {}; CPU strategies run once (they are functions of the array).\n\
         An error in ulps counts the floats between a result and the exact sum; 0 is exact.\n",
        o.runs, o.block
    );
    for r in &report.rows {
        out += &row(r, look);
    }
    let broken = report.broken();
    out += &if broken.is_empty() {
        "\nEvery promise was kept: each correctly rounded result equals the exact sum bit for bit, and each\n\
         reproducible method gave one value per array.\n"
            .to_owned()
    } else {
        format!("\n{} results broke their method's promise; they are listed on stderr.\n", broken.len())
    };
    out
}

/// One line per broken promise.
pub fn broken_promises(list: &[Broken]) -> String {
    list.iter()
        .map(|b| {
            let sums: Vec<String> = b.sums.iter().map(|s| format!("{s:e} ({:#010x})", s.to_bits())).collect();
            format!(
                "broken promise: {} ({}) on {}, n = {}: exact sum {:e} ({:#010x}), returned {}\n",
                b.method.label(),
                promise(b.method.promise()),
                b.data,
                b.n,
                b.exact,
                b.exact.to_bits(),
                sums.join(", ")
            )
        })
        .collect()
}
