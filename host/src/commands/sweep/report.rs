//! `sweep`'s report: the timed sums, their check, and the determinism table;
//! a row per launch in CSV; GB/s against n in the plot; a line per wrong sum.

use tabled::builder::Builder;

use super::SweepResults;
use super::determinism::DeterminismReport;
use crate::sums::tables::{mismatches, sweep, sweep_rows};

use crate::device::DeviceInfo;
use crate::gpu::sum::SumMeasurement;
use crate::report::csv::HEADER;
use crate::report::plot::Lines;
use crate::report::table::{Look, device_header, render};
use crate::report::{Checks, Csv, Plot, Report};
use crate::stats;
use crate::sums::tables::launches;

impl Report for SweepResults {
    fn tables(&self, device: &DeviceInfo, look: Look) -> String {
        let mut out = device_header(device, Some(self.sweep.options.block)) + "\n" + &sweep(&self.sweep, look);
        if let Some(det) = &self.determinism {
            out += "\n";
            out += &determinism(det, look);
        }
        out
    }

    fn csv(&self) -> Csv {
        let mut rows = sweep_rows("sweep", &self.sweep);
        if let Some(d) = &self.determinism {
            for (kernel, sums) in &d.sums {
                let m = SumMeasurement { kernel: *kernel, times_ms: Vec::new(), sums: sums.clone(), entry: None };
                // The inexact input has no exact answer to compare with.
                rows.extend(launches("determinism", d.block.threads(), d.n, "inexact input", &m, None));
            }
        }
        Csv { header: &HEADER, rows }
    }

    fn plot(&self, _device: &DeviceInfo) -> Option<Plot> {
        let mut lines = Lines::default();
        for row in &self.sweep.rows {
            for m in &row.measurements {
                lines.add_timed(m.kernel.label, row.n, &m.times_ms);
            }
        }
        Some(Plot::Bandwidth { lines: lines.0, copy: None })
    }

    fn checks(&self) -> Checks {
        Checks::from_lines(mismatches(&self.sweep.mismatches()))
    }
}

/// The determinism table: distinct results and their range per kernel.
pub fn determinism(report: &DeterminismReport, look: Look) -> String {
    let mut builder = Builder::default();
    builder.push_record(["kernel", "distinct", "min", "max", "max - min"]);
    for (kernel, sums) in &report.sums {
        let (min, max) = stats::min_max(sums).unwrap_or((f32::NAN, f32::NAN));
        builder.push_record([
            kernel.label.to_owned(),
            stats::distinct_bits(sums).to_string(),
            min.to_string(),
            max.to_string(),
            (f64::from(max) - f64::from(min)).to_string(),
        ]);
    }
    let runs = report.sums.first().map_or(0, |(_, s)| s.len());
    format!(
        "Determinism at n = {}, block {}, {runs} runs each, input that is not exactly representable.\n\
         Kahan double reference: {:.2}\n{}\n",
        report.n,
        report.block,
        report.reference,
        render(builder, look)
    )
}

#[cfg(test)]
mod tests {
    use layout::sum;

    use super::*;
    use crate::gpu::sum::SumKernel;
    use crate::launch::Block;
    use crate::sums::SweepReport;
    use crate::sums::{SweepOptions, SweepRow};

    fn block(threads: u32) -> Block {
        Block::new(threads).unwrap()
    }

    fn measurement(kernel: &layout::sum::Sum, ms: f32, value: f32) -> SumMeasurement {
        SumMeasurement {
            kernel: SumKernel::of(kernel),
            times_ms: vec![ms, ms * 2.0, ms / 2.0],
            sums: vec![value; 4],
            entry: None,
        }
    }

    fn report(tree_sum: f32) -> SweepReport {
        SweepReport {
            options: SweepOptions { block: block(256), runs: 3, warmup: 1, sizes: vec![4096] },
            rows: vec![SweepRow {
                n: 4096,
                reference: 6144.0,
                measurements: vec![
                    measurement(&sum::GLOBAL_ATOMIC, 0.0175, 6144.0),
                    measurement(&sum::SHARED_ATOMIC, 0.03, 6144.0),
                    measurement(&sum::TREE_ATOMIC, 0.004, tree_sum),
                ],
            }],
        }
    }

    #[test]
    fn sweep_table_has_the_page_columns_and_values() {
        let text = sweep(&report(6144.0), Look::Plain);
        let expected = "\
Sweep: one sum three ways, 3 timed runs after 1 warm-ups, median of the runs
  n   | global ms | shared ms | tree ms | gl GB/s | sh GB/s | tr GB/s | fastest 
------+-----------+-----------+---------+---------+---------+---------+---------
 4096 |    0.0175 |    0.0300 |  0.0040 |     0.9 |     0.5 |     4.1 |    tree 
All 12 sums (every launch, warm-ups included) equal the Kahan double reference
bit for bit, compared with == and not a tolerance.
";
        assert_eq!(text, expected);
    }

    #[test]
    fn a_wrong_sum_is_counted_and_listed_with_kernel_size_and_values() {
        let r = report(6143.0);
        let text = sweep(&r, Look::Plain);
        assert!(text.contains("4 of 12 sums (every launch, warm-ups included) differ"), "{text}");
        let lines = mismatches(&r.mismatches());
        assert_eq!(lines.lines().count(), 4);
        assert!(lines.starts_with(
            "mismatch: tree + atomic at n = 4096, block 256, launch 0: expected 6144 (f32 bits 0x45c00000), found 6143 (bits 0x45bff800)"
        ));
    }

    #[test]
    fn determinism_table_counts_distinct_sums() {
        let r = DeterminismReport {
            n: 8,
            block: block(32),
            reference: 10.25,
            sums: vec![
                (SumKernel::of(&sum::GLOBAL_ATOMIC), vec![10.0, 10.5, 10.0]),
                (SumKernel::of(&sum::TREE_ATOMIC), vec![10.25; 3]),
            ],
        };
        let text = determinism(&r, Look::Plain);
        assert!(text.contains("Kahan double reference: 10.25"));
        let global = text.lines().find(|l| l.contains("global atomic")).unwrap();
        let cells: Vec<&str> = global.split('|').map(str::trim).collect();
        assert_eq!(cells, ["global atomic", "2", "10", "10.5", "0.5"]);
        let tree = text.lines().find(|l| l.contains("tree + atomic")).unwrap();
        assert!(tree.split('|').map(str::trim).eq(["tree + atomic", "1", "10.25", "10.25", "0"]));
    }
}
