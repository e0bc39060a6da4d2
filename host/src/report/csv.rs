//! The CSV exporter: one row per measurement, for spreadsheets and scripts.
//!
//! Sums, histograms and timings share one layout: `command, block, n, case,
//! kernel, launch, timed, time_ms, value, expected, exact`, where a launch
//! that was a warm-up has `timed = false` and no time, and `value` is the sum
//! the launch returned (empty for a histogram, whose counts are in the JSON).
//! In an accuracy run each row is one result of one method, `expected` the
//! exact sum and `exact` whether they are the same. The publication run has a
//! layout of its own, one row per variant.

use super::{Csv, Document};

/// The columns of the layout that sums, histograms and timings share.
pub(crate) const HEADER: [&str; 11] =
    ["command", "block", "n", "case", "kernel", "launch", "timed", "time_ms", "value", "expected", "exact"];

/// `document` as CSV, with a header row.
pub fn export(document: &impl Document) -> String {
    let Csv { header, rows } = document.report().csv();
    let mut w = csv::Writer::from_writer(Vec::new());
    for cells in std::iter::once(header.iter().map(|h| (*h).to_owned()).collect()).chain(rows) {
        w.write_record(&cells).expect("writing to memory cannot fail");
    }
    String::from_utf8(w.into_inner().expect("flushing to memory cannot fail")).expect("CSV of UTF-8 cells is UTF-8")
}

/// One row of the shared layout. `launch` is `(index, time if timed)`.
pub(crate) struct Row<'a> {
    /// The command that measured it.
    pub(crate) command: &'a str,
    /// Threads per block.
    pub(crate) block: u32,
    /// Elements.
    pub(crate) n: usize,
    /// What the input was.
    pub(crate) case: &'a str,
    /// Who computed it.
    pub(crate) kernel: &'a str,
    /// The launch's index and, if it was timed, its time.
    pub(crate) launch: (usize, Option<f32>),
    /// The result.
    pub(crate) value: String,
    /// What it was compared with.
    pub(crate) expected: String,
    /// Whether the two are the same.
    pub(crate) exact: String,
}

impl Row<'_> {
    /// The row's cells, in [`HEADER`] order.
    pub(crate) fn cells(self) -> Vec<String> {
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
