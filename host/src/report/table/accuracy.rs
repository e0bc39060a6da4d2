//! `accuracy`'s tables: per array, every method's results against the exact
//! sum, in units in the last place.

use layout::sum::Promise;
use tabled::builder::Builder;

use super::{Look, render_some};
use crate::accuracy::{AccuracyReport, AccuracyRow, Broken, MethodResult};

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
