//! Exporters: pure functions from a finished run, a [`Document`], to text.
//! None of them measures, launches or prints; the command's output decides
//! where the text goes. One file per format; each reads the command's result
//! through its [`Report`], so this module knows no command: it is a leaf
//! that the commands and the record point down to.

pub mod csv;
pub mod heatmap;
pub mod json;
pub mod plot;
pub mod table;

use crate::device::DeviceInfo;
use plot::Series;
use table::Look;

/// A finished run as the exporters read it: where it ran, what it measured
/// (through the result's [`Report`]) and whether Ctrl-C cut it short. The
/// JSON exporter writes the document itself, so it serializes.
pub trait Document: serde::Serialize {
    /// The GPU and its driver.
    fn device(&self) -> &DeviceInfo;
    /// The command's result.
    fn report(&self) -> &dyn Report;
    /// The run was interrupted and holds only what it measured first.
    fn partial(&self) -> bool;
}

/// What a command's result gives each exporter. Every command's result
/// type implements it, in its folder's `report.rs`.
pub trait Report {
    /// The device header and the command's tables, drawn with `look`.
    fn tables(&self, device: &DeviceInfo, look: Look) -> String;

    /// The CSV header and one row per measurement.
    fn csv(&self) -> Csv;

    /// What the plot draws, if the command draws one; `None` gives
    /// "nothing to plot".
    fn plot(&self, _device: &DeviceInfo) -> Option<Plot> {
        None
    }

    /// What the checks found: whether all passed, and the lines for
    /// standard error.
    fn checks(&self) -> Checks;

    /// Whether the result's parts agree in shape (counts against bins,
    /// histograms against outcomes), so that no exporter reads past one:
    /// checked once, when a saved record is read back. A result that
    /// indexes nothing agrees by construction.
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

/// A result as CSV: the header row and the rows under it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Csv {
    /// The column names.
    pub header: &'static [&'static str],
    /// One row per measurement, each as long as the header.
    pub rows: Vec<Vec<String>>,
}

/// What a result's plot draws.
#[derive(Clone, Debug, PartialEq)]
pub enum Plot {
    /// GB/s of input against n, one line per series, and the copy bandwidth
    /// as a horizontal line where it was measured.
    Bandwidth {
        /// The lines.
        lines: Vec<Series>,
        /// The bench's copy at its largest size, bytes read plus written.
        copy: Option<f64>,
    },
    /// One panel per array, each the worst error against n of every method.
    Error(Vec<(String, Vec<Series>)>),
    /// The litmus heat map: weak outcomes per million, one panel per placement.
    Heat(Vec<heatmap::Panel>),
    /// Events per million, one row per label: each rate on its 95% interval,
    /// or, where none was seen, its bound, drawn as what it is.
    Rates {
        /// What is counted, per what: "stale records per million pairs".
        what: String,
        /// The rows, top to bottom.
        rows: Vec<plot::Rate>,
    },
}

/// What a result's checks found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checks {
    /// Every check passed.
    pub passed: bool,
    /// One line per failed check, for standard error; empty if none (or if
    /// the command fails without naming each check, as `publish` does).
    pub lines: String,
}

impl Checks {
    /// Checks that passed exactly when `lines`, one per failure, is empty.
    pub fn from_lines(lines: String) -> Checks {
        Checks { passed: lines.is_empty(), lines }
    }

    /// Nothing was judged, so nothing failed.
    pub fn none() -> Checks {
        Checks { passed: true, lines: String::new() }
    }
}

/// The formats every table-producing command offers (`--format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Text tables for a terminal.
    #[default]
    Table,
    /// Markdown tables.
    Markdown,
    /// One row per measurement.
    Csv,
    /// The whole record: device, versions, options, every timing and sum.
    Json,
}

/// Bytes each kernel reads per element: one `f32` (or one `u32` bin index).
/// The GB/s columns and the plot count the input stream only: the atomic
/// traffic is what the kernels differ in, so putting it in the denominator
/// would hide the comparison (the page's note).
pub const INPUT_BYTES_PER_ELEMENT: u64 = size_of::<f32>() as u64;

/// `document` in `format`. Markdown is the text tables drawn as Markdown.
pub fn export(document: &impl Document, format: Format) -> String {
    match format {
        Format::Table => table::document(document, Look::Plain),
        Format::Markdown => paragraphs(&table::document(document, Look::Markdown)),
        Format::Csv => csv::export(document),
        Format::Json => json::export(document),
    }
}

/// The text tables' lines kept as lines in Markdown: a line of prose (a
/// header, a caption, a check sentence) followed by another ends in a hard
/// line break (`\`, CommonMark's), where Markdown would join the two. Table
/// rows (`|`), list items (`- `), HTML lines (`<`, such as a `<details>` that
/// folds a long table away) and blank lines are kept as they are.
fn paragraphs(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        out.push_str(line);
        let prose =
            |l: &str| !l.trim().is_empty() && !l.starts_with('|') && !l.starts_with('<') && !l.starts_with("- ");
        if prose(line) && lines.peek().is_some_and(|next| prose(next)) {
            out.push('\\');
        }
        out.push('\n');
    }
    out
}

/// The time of launch `k` of `launches`, of which the last `times_ms.len()`
/// were timed: `None` for a warm-up. Every measurement keeps a result for
/// each launch and a time for each timed one; this is where the two meet.
pub(crate) fn launch_time(launches: usize, times_ms: &[f32], k: usize) -> Option<f32> {
    k.checked_sub(launches.saturating_sub(times_ms.len())).and_then(|t| times_ms.get(t).copied())
}

#[cfg(test)]
mod tests {
    #[test]
    fn each_line_of_prose_keeps_its_line_and_tables_stay_whole() {
        let text =
            "GPU: X\nSMs: 1\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nAll 2 sums equal\nthe reference.\n\n- one\n- two\n";
        let expected = "GPU: X\\\nSMs: 1\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nAll 2 sums equal\\\nthe reference.\n\n- one\n- two\n";
        assert_eq!(super::paragraphs(text), expected);
    }
}
