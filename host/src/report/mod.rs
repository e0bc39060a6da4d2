//! Exporters: pure functions from a finished [`Record`] to text. None of them
//! measures, launches or prints; the command's output decides where the text
//! goes. One file per format; each reads the record's results through
//! [`crate::commands::Report`], so none knows the commands.

pub mod csv;
pub mod heatmap;
pub mod json;
pub mod plot;
pub mod table;

use crate::record::Record;

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

/// `record` in `format`. Markdown is the text tables drawn as Markdown.
pub fn export(record: &Record, format: Format) -> String {
    match format {
        Format::Table => table::record(record, table::Look::Plain),
        Format::Markdown => paragraphs(&table::record(record, table::Look::Markdown)),
        Format::Csv => csv::export(record),
        Format::Json => json::export(record),
    }
}

/// The text tables' lines kept as lines in Markdown: a line of prose (a
/// header, a caption, a check sentence) followed by another ends in a hard
/// line break (`\`, CommonMark's), where Markdown would join the two. Table
/// rows (`|`), HTML lines (`<`, such as a `<details>` that folds a long
/// table away) and blank lines are kept as they are.
fn paragraphs(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        out.push_str(line);
        let prose = |l: &str| !l.trim().is_empty() && !l.starts_with('|') && !l.starts_with('<');
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
mod golden;

#[cfg(test)]
mod tests {
    #[test]
    fn each_line_of_prose_keeps_its_line_and_tables_stay_whole() {
        let text = "GPU: X\nSMs: 1\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nAll 2 sums equal\nthe reference.\n";
        let expected = "GPU: X\\\nSMs: 1\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nAll 2 sums equal\\\nthe reference.\n";
        assert_eq!(super::paragraphs(text), expected);
    }
}
