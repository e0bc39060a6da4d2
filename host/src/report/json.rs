//! The JSON exporter: the whole [`Record`], every raw timing and every checked
//! sum, so a run can be reloaded and compared later.

use crate::record::Record;

/// `record` as pretty-printed JSON, ending in a newline.
pub fn export(record: &Record) -> String {
    let mut text = serde_json::to_string_pretty(record).expect("a record always serializes");
    text.push('\n');
    text
}

/// Reads a record back from [`export`]'s output.
pub fn import(text: &str) -> Result<Record, serde_json::Error> {
    serde_json::from_str(text)
}
