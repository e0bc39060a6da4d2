//! The JSON exporter: the whole document, every raw timing and every
//! checked sum, so a run can be reloaded and compared later.

/// `document` as pretty-printed JSON, ending in a newline.
pub fn export(document: &impl serde::Serialize) -> String {
    let mut text = serde_json::to_string_pretty(document).expect("a document always serializes");
    text.push('\n');
    text
}
