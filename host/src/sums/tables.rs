//! The sweep's tables, CSV rows and mismatch lines, which `sweep`,
//! `exercise` and `bench` all print.

use tabled::builder::Builder;

use super::{Mismatch, SweepReport};
use crate::gpu::sum::SumKernel;
use crate::gpu::sum::SumMeasurement;
use crate::reference;
use crate::report::csv::Row;
use crate::report::launch_time;
use crate::report::table::{Check, Look, check_sentence, render, timing_cells};

/// The CSV rows of one sweep's launches, each named `command`.
pub fn sweep_rows(command: &str, report: &SweepReport) -> Vec<Vec<String>> {
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

/// Rows of one sum kernel's launches: warm-ups (untimed) first, then timed
/// ones.
pub(crate) fn launches(
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

/// The sweep table: median milliseconds and input GB/s per kernel and size,
/// and the fastest kernel of each row; then the sentence on the exactness
/// check.
pub fn sweep(report: &SweepReport, look: Look) -> String {
    let o = &report.options;
    let mut builder = Builder::default();
    let mut header = vec!["n".to_owned()];
    header.extend(SumKernel::page().map(|k| format!("{} ms", k.short)));
    header.extend(SumKernel::page().map(|k| format!("{} GB/s", &k.short[..2])));
    header.push("fastest".to_owned());
    builder.push_record(header);

    for row in &report.rows {
        let mut record = vec![row.n.to_string()];
        record.extend(timing_cells(row.n, row.measurements.iter().map(|m| (m.kernel.short, m.times_ms.as_slice()))));
        builder.push_record(record);
    }
    let check = Check {
        checked: report.rows.iter().flat_map(|r| &r.measurements).map(|m| m.sums.len()).sum(),
        wrong: report.mismatches().len(),
        things: "sums (every launch, warm-ups included)",
        reference: "the Kahan double reference",
        how: "bit for bit, compared with == and not a tolerance",
    };
    format!(
        "Sweep: one sum three ways, {} timed runs after {} warm-ups, median of the runs\n{}\n{}",
        o.runs,
        o.warmup,
        render(builder, look),
        check_sentence(&check)
    )
}

/// One line per mismatching sum: kernel, n, block, expected and found.
pub fn mismatches(list: &[Mismatch]) -> String {
    list.iter()
        .map(|m| {
            format!(
                "mismatch: {} at n = {}, block {}, launch {}: expected {} (f32 bits {:#010x}), found {} (bits {:#010x})\n",
                m.kernel.label,
                m.n,
                m.block,
                m.launch,
                m.expected,
                (m.expected as f32).to_bits(),
                m.found,
                m.found.to_bits()
            )
        })
        .collect()
}
