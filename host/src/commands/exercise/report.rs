//! `exercise`'s report: three sweeps, the nine ratios beside the counting
//! argument, the fastest columns and the check (no verdict); each sweep's
//! launches in CSV; a line per kernel and block in the plot.

use tabled::builder::Builder;

use super::{BASELINE, ExerciseReport};
use crate::device::DeviceInfo;
use crate::report::csv::HEADER;
use crate::report::plot::Lines;
use crate::report::table::{Check, Look, check_sentence, device_header, render};
use crate::report::{Checks, Csv, Plot, Report};
use crate::sums::Mismatch;
use crate::sums::tables::{mismatches, sweep, sweep_rows};

impl Report for ExerciseReport {
    fn tables(&self, device: &DeviceInfo, look: Look) -> String {
        device_header(device, None) + &exercise(self, look)
    }

    fn csv(&self) -> Csv {
        Csv { header: &HEADER, rows: self.runs.iter().flat_map(|r| sweep_rows("exercise", r)).collect() }
    }

    fn plot(&self, _device: &DeviceInfo) -> Option<Plot> {
        let mut lines = Lines::default();
        for run in &self.runs {
            for row in &run.rows {
                for m in &row.measurements {
                    lines.add_timed(&format!("{}, block {}", m.kernel.label, run.options.block), row.n, &m.times_ms);
                }
            }
        }
        Some(Plot::Bandwidth { lines: lines.0, copy: None })
    }

    fn checks(&self) -> Checks {
        let list: Vec<Mismatch> = self.runs.iter().flat_map(|r| r.mismatches()).collect();
        Checks::from_lines(mismatches(&list))
    }
}

/// The exercise: each run's sweep, then the nine ratios with the counting
/// argument beside them, then each run's fastest column, then the check.
pub fn exercise(report: &ExerciseReport, look: Look) -> String {
    let mut out = String::new();
    for run in &report.runs {
        out += &format!("\nBlock {}:\n", run.options.block);
        out += &sweep(run, look);
    }
    let n = report.runs.first().and_then(|r| r.rows.last()).map_or(0, |row| row.n);
    let mut builder = Builder::default();
    builder.push_record([
        "kernel".to_owned(),
        "block".to_owned(),
        format!("time / time at {BASELINE}"),
        "global atomics per launch".to_owned(),
        "barriers per block".to_owned(),
    ]);
    for r in report.ratios() {
        builder.push_record([
            r.kernel.label.to_owned(),
            r.block.to_string(),
            format!("{:.2}", r.ratio),
            r.global_atomics.to_string(),
            r.barriers.to_string(),
        ]);
    }
    out += &format!(
        "\nThe nine ratios at n = {n}: each column's median time over the same column in the block-{BASELINE} run.\n\
         The counts beside them are the page's counting argument: n for the naive kernel, one per block\n\
         for the other two. Which column barely moves, and why, is the exercise's question.\n{}\n",
        render(builder, look)
    );
    out += "\nThe fastest column of each run, smallest size first:\n";
    for (block, column) in report.fastest() {
        let names: Vec<&str> = column.iter().map(|k| k.short).collect();
        out += &format!("  block {block}: {}\n", names.join(", "));
    }
    let check = Check {
        checked: report.runs.iter().flat_map(|r| &r.rows).flat_map(|r| &r.measurements).map(|m| m.sums.len()).sum(),
        wrong: report.runs.iter().map(|r| r.mismatches().len()).sum(),
        things: "sums at every size and block size",
        reference: "the Kahan double reference",
        how: "bit for bit, compared with == and not a tolerance",
    };
    out + "\n" + &check_sentence(&check)
}
