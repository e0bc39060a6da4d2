//! A lesson's view of a run's table: the rows it teaches. A
//! command prints every kernel and variant it ran, those of later chapters
//! included; a lesson shows the ones it has taught by then, and links to the
//! chapter that shows the rest. A view only leaves rows out: every cell it
//! shows is the host's, from the same record, and every line around them.

use super::columns::Table;

/// One view: the generated file a chapter includes, the record it reads and
/// the rows it keeps.
pub struct View {
    /// The generated file, `NAME.md`.
    pub file: &'static str,
    /// The record's stem: the run's `STEM.json`.
    pub record: &'static str,
    /// The rows kept, in the tables whose first column has this header.
    rows: Rows,
}

/// Which rows of a table a view keeps, by their first cell.
struct Rows {
    /// The header of the tables the filter applies to.
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
    fn every_view_has_its_own_file() {
        let mut files: Vec<&str> = VIEWS.iter().map(|v| v.file).collect();
        files.sort_unstable();
        files.dedup();
        assert_eq!(files.len(), VIEWS.len());
        assert!(VIEWS.iter().all(|v| v.file.ends_with(".md") && v.file != format!("{}.md", v.record)));
    }
}
