//! A lesson's view of a run's table or plot: the rows it teaches. A command
//! prints every kernel and variant it ran, those of later chapters
//! included; a lesson shows the ones it has taught by then, and links to the
//! chapter that shows the rest. A view only leaves rows out: every cell it
//! shows is the host's, from the same record, and every line around them; a
//! plot is the host's, drawn from the record without the rows left out.

use std::fs;
use std::path::Path;

use super::columns::{self, Table};
use super::{Error, Made, Sources, read, render, run_name};

/// One view: the generated file a chapter includes, the record it reads and
/// the rows it keeps.
pub struct View {
    /// The generated file, `NAME.md` or `NAME.svg`.
    pub file: &'static str,
    /// The record's stem: the run's `STEM.json`.
    pub record: &'static str,
    /// The rows kept: in a table, those whose first column (of this
    /// header) passes; in the record, for a plot, those whose field of this
    /// name does.
    rows: Rows,
}

/// Which rows of a table a view keeps, by their first cell.
struct Rows {
    /// The header of the tables the filter applies to, and the field of the
    /// record's rows it reads.
    first_column: &'static str,
    /// Whether a row whose first cell is this is kept.
    keep: fn(&str) -> bool,
}

/// Every view a chapter may include.
pub const VIEWS: &[View] = &[
    // Lesson 1's determinism table: the page's three kernels, whose order
    // of additions the lesson has explained; the lab's other sums are in
    // the appendix's full sweep.
    View {
        file: "sweep-256-page.md",
        record: "sweep-256",
        rows: Rows {
            first_column: "kernel",
            keep: |kernel| matches!(kernel, "global atomic" | "shared atomic" | "tree + atomic"),
        },
    },
    // Lesson 2's publication table: the page's variants, within one block
    // and across two; the cluster variants are the scope ladder's.
    View {
        file: "publish-page.md",
        record: "publish",
        rows: Rows { first_column: "variant", keep: |variant| !variant.starts_with("cluster_") },
    },
    // Lesson 2's figure: the same variants under stress.
    View {
        file: "publish-stale-page.svg",
        record: "publish-stale",
        rows: Rows { first_column: "variant", keep: |variant| !variant.starts_with("cluster_") },
    },
];

/// The view a generated file's name asks for, if any.
pub fn find(file: &str) -> Option<&'static View> {
    VIEWS.iter().find(|v| v.file == file)
}

impl View {
    /// `markdown` (the host's export of the record) without the rows the
    /// view leaves out.
    pub fn apply(&self, markdown: &str) -> String {
        super::columns::each_table(markdown, |_, table| self.narrow(table).render(false))
    }

    /// `json` (a record as the host wrote it) without the rows the view
    /// leaves out, for the host to draw; why not, if it has no rows of
    /// objects with the field.
    pub fn record(&self, json: &str) -> Result<String, String> {
        let mut record: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
        let field = self.rows.first_column;
        let rows = record
            .pointer_mut("/results/rows")
            .and_then(serde_json::Value::as_array_mut)
            .ok_or("the record has no results.rows")?;
        if !rows.iter().all(|row| row.get(field).is_some_and(serde_json::Value::is_string)) {
            return Err(format!("a row of the record has no {field}"));
        }
        rows.retain(|row| row.get(field).and_then(serde_json::Value::as_str).is_some_and(self.rows.keep));
        serde_json::to_string(&record).map_err(|e| e.to_string())
    }

    /// The view's file, made from the run `s` names, into `target`: the
    /// table as the host renders it less the rows left out, or the plot the
    /// host draws from the record less those rows (written beside `target`
    /// for the host to read, and removed).
    pub(super) fn make(&self, s: &Sources<'_>, target: &Path) -> Result<Made, Error> {
        let results = run_name(s.results);
        let json = s.results.join(format!("{}.json", self.record));
        if !json.is_file() {
            return Ok(Made::Missing(format!("{results} has no {}.json", self.record)));
        }
        if self.file.ends_with(".svg") {
            let text = fs::read_to_string(&json).map_err(|e| Error(format!("{}: {e}", json.display())))?;
            let narrowed = self.record(&text).map_err(|why| Error(format!("{}: {why}", json.display())))?;
            let kept = target.with_extension("json");
            fs::write(&kept, narrowed).map_err(|e| Error(format!("cannot write {}: {e}", kept.display())))?;
            render(s.host, &kept, &["--plot", &target.to_string_lossy()])?;
            fs::remove_file(&kept).map_err(|e| Error(format!("cannot remove {}: {e}", kept.display())))?;
            return Ok(Made::Text(read(target)?));
        }
        let table = self.apply(&render(s.host, &json, &["--format", "markdown"])?);
        Ok(Made::Text(columns::measured(&table)))
    }

    /// One table without the rows the view leaves out.
    fn narrow(&self, mut table: Table) -> Table {
        if table.header.first().is_some_and(|h| h == self.rows.first_column) {
            table.rows.retain(|row| (self.rows.keep)(&row[0]));
        }
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_keeps_the_lessons_rows_and_every_line_around_them() {
        let text = "Publication: a line.\n\n| variant | stale |\n|---|---|\n\
| block_release_acquire | 0 |\n| cluster_barrier | 0 |\n";
        let out = find("publish-page.md").expect("the view").apply(text);
        assert_eq!(out, "Publication: a line.\n\n| variant | stale |\n| --- | --- |\n| block_release_acquire | 0 |\n");
    }

    #[test]
    fn a_row_filter_touches_only_its_own_table() {
        let text = "| n | ms |\n|---|---|\n| 4096 | 0.01 |\n\n| kernel | distinct |\n|---|---|\n\
| global atomic | 19 |\n| deterministic | 1 |\n";
        let out = find("sweep-256-page.md").expect("the view").apply(text);
        assert!(out.contains("| 4096 | 0.01 |"), "{out}");
        assert!(out.contains("| global atomic | 19 |") && !out.contains("deterministic"), "{out}");
    }

    #[test]
    fn a_plot_view_draws_the_record_without_its_rows() {
        let view = find("publish-stale-page.svg").expect("the view");
        let json = r#"{"tool":"host","results":{"command":"publish","rows":[{"variant":"grid_relaxed","counts":1},{"variant":"cluster_barrier","counts":2}]}}"#;
        let kept = view.record(json).expect("a record with rows");
        assert!(kept.contains("grid_relaxed") && !kept.contains("cluster_barrier"), "{kept}");
        assert!(view.record(r#"{"results":{"rows":[{"kernel":"x"}]}}"#).is_err());
    }

    #[test]
    fn every_view_has_its_own_file() {
        let mut files: Vec<&str> = VIEWS.iter().map(|v| v.file).collect();
        files.sort_unstable();
        files.dedup();
        assert_eq!(files.len(), VIEWS.len());
        assert!(
            VIEWS.iter().all(|v| (v.file.ends_with(".md") || v.file.ends_with(".svg"))
                && !v.file.starts_with(&format!("{}.", v.record)))
        );
    }
}
