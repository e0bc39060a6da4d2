//! `histogram`'s report: both kernels per size and distribution, and the
//! exact check; every launch in CSV; a line per histogram that differs. No
//! plot.

use tabled::builder::Builder;

use super::{HistogramMismatch, HistogramReport};
use crate::device::DeviceInfo;
use crate::report::csv::{HEADER, Row};
use crate::report::launch_time;
use crate::report::table::{Check, Look, check_sentence, device_header, render, timing_cells};
use crate::report::{Checks, Csv, Report};

impl Report for HistogramReport {
    /// Every launch's counts have a bin for each bin the CPU counted.
    fn validate(&self) -> Result<(), String> {
        for row in &self.rows {
            for m in &row.measurements {
                if let Some(counts) = m.counts.iter().find(|c| c.len() != row.expected.len()) {
                    return Err(format!(
                        "`{}` at n = {} has a launch of {} bins where the CPU counted {}",
                        m.kernel.key(),
                        row.n,
                        counts.len(),
                        row.expected.len()
                    ));
                }
            }
        }
        Ok(())
    }

    fn tables(&self, device: &DeviceInfo, look: Look) -> String {
        device_header(device, Some(self.options.block)) + "\n" + &histogram(self, look)
    }

    fn csv(&self) -> Csv {
        let block = self.options.block.threads();
        let mut rows = Vec::new();
        for row in &self.rows {
            let case = format!("{} bins, {}", self.options.bins, row.distribution.name());
            for m in &row.measurements {
                for (k, counts) in m.counts.iter().enumerate() {
                    rows.push(
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
        Csv { header: &HEADER, rows }
    }

    fn checks(&self) -> Checks {
        Checks::from_lines(histogram_mismatches(&self.mismatches()))
    }
}

/// The histogram table: median milliseconds and input GB/s per kernel, and a
/// line on the exact check.
pub fn histogram(report: &HistogramReport, look: Look) -> String {
    let o = &report.options;
    let mut builder = Builder::default();
    builder.push_record(["n", "distribution", "global ms", "privatized ms", "gl GB/s", "pr GB/s", "fastest"]);
    for row in &report.rows {
        let mut record = vec![row.n.to_string(), row.distribution.name().to_owned()];
        record.extend(timing_cells(row.n, row.measurements.iter().map(|m| (m.kernel.short, m.times_ms.as_slice()))));
        builder.push_record(record);
    }
    let check = Check {
        checked: report.rows.iter().flat_map(|r| &r.measurements).map(|m| m.counts.len()).sum(),
        wrong: report.mismatches().len(),
        things: "histograms (every launch)",
        reference: "the CPU counts",
        how: "exactly, bin for bin",
    };
    format!(
        "Histogram: {} bins, block {}, {} timed runs after {} warm-ups, median of the runs\n{}\n{}",
        o.bins,
        o.block,
        o.runs,
        o.warmup,
        render(builder, look),
        check_sentence(&check)
    )
}

/// One line per histogram launch that differs from the CPU counts.
pub fn histogram_mismatches(list: &[HistogramMismatch]) -> String {
    list.iter()
        .map(|m| {
            format!(
                "mismatch: histogram {} at n = {}, {}, launch {}: bin {} expected {}, found {}\n",
                m.kernel.short,
                m.n,
                m.distribution.name(),
                m.launch,
                m.bin,
                m.expected,
                m.found
            )
        })
        .collect()
}
