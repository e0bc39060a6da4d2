//! The Markdown exporter: the same tables as the text exporter, drawn as
//! GitHub-flavoured Markdown for a README or an issue.

use super::table::{self, Look};
use crate::record::Record;

/// `record` as Markdown.
pub fn export(record: &Record) -> String {
    table::record(record, Look::Markdown)
}
