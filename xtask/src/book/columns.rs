//! Wide measured tables split to fit the page. A book page at 1280 pixels with
//! its sidebar open has a column of about 900 pixels, and a measured table
//! keeps each cell on one line (`theme/wide.css`), so a table of a dozen
//! columns runs off the screen. [`fit`] splits such a table into tables that
//! fit: each repeats the row's key (its leading text columns, such as `test`,
//! `variant` and `placement`: those that fit two fifths of the page, then more
//! while two rows share a key), the first leads with the columns that carry
//! the lesson ([`LESSON`]: the stale and weak counts, timeouts, the model's
//! verdict, the times), later ones take the rest in the host's order, and
//! columns of sentences (a verdict, a reason) go last, into a table whose
//! cells may wrap. A table that fits is left as it is.

/// The pixels a table may take: the page's column at 1280 × 800 with the
/// sidebar open, less a margin.
pub const BUDGET: f64 = 860.0;

/// Headers (as substrings) of the columns that carry a table's lesson, in
/// the order the first table shows them after the key.
const LESSON: [&str; 14] = [
    "model", "stale", "weak", "timeouts", "ns per", "×", "median", "GB/s", "% of", "worst", "distinct", "exact",
    "result", "sum",
];

/// Headers of columns of sentences, which wrap.
const PROSE: [&str; 4] = ["verdict", "why", "reason", "note"];

/// Estimated pixels of a column whose widest cell has `chars` characters:
/// the book's table font is about 8.6 pixels a character (measured in
/// Chromium), plus the cell's padding.
fn pixels(chars: usize) -> f64 {
    chars as f64 * 8.6 + 24.0
}

/// One Markdown table: its header, alignment markers and rows of cells.
#[derive(Clone, Debug, PartialEq)]
struct Table {
    header: Vec<String>,
    align: Vec<String>,
    rows: Vec<Vec<String>>,
}

/// The cells of one table line, split at unescaped `|`.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut out = vec![String::new()];
    let mut escaped = false;
    for c in inner.chars() {
        if c == '|' && !escaped {
            out.push(String::new());
        } else {
            out.last_mut().expect("one cell at least").push(c);
        }
        escaped = c == '\\';
    }
    out.into_iter().map(|c| c.trim().to_owned()).collect()
}

impl Table {
    fn parse(lines: &[&str]) -> Option<Table> {
        let (header, rest) = lines.split_first()?;
        let (align, rows) = rest.split_first()?;
        let header = cells(header);
        let align = cells(align);
        let rows: Vec<Vec<String>> = rows.iter().map(|l| cells(l)).collect();
        (align.len() == header.len() && rows.iter().all(|r| r.len() == header.len())).then_some(Table {
            header,
            align,
            rows,
        })
    }

    fn width(&self, k: usize) -> f64 {
        let chars = self.rows.iter().map(|r| r[k].chars().count()).chain([self.header[k].chars().count()]);
        pixels(chars.max().unwrap_or(0))
    }

    fn is_numeric(&self, k: usize) -> bool {
        self.rows.iter().any(|r| r[k].starts_with(|c: char| c.is_ascii_digit()))
    }

    /// Whether column `k` holds sentences: its header says so ([`PROSE`]),
    /// or its filled cells are long and mostly words. Empty cells (a second
    /// figure of the same row, which repeats nothing) are not counted.
    fn is_prose(&self, k: usize) -> bool {
        let h = self.header[k].to_lowercase();
        let filled: Vec<&str> = self.rows.iter().map(|r| r[k].trim()).filter(|c| !c.is_empty()).collect();
        let rows = filled.len().max(1);
        let chars: usize = filled.iter().map(|c| c.chars().count()).sum();
        let spaced = filled.iter().filter(|c| c.matches(' ').count() >= 2).count();
        PROSE.iter().any(|p| h.contains(p)) || (chars / rows > 24 && spaced * 2 > rows)
    }

    /// Whether no two rows have the same cells in columns `key`. A row whose
    /// key cells are all empty continues the row above it (a second figure
    /// of the same row), and is not counted.
    fn tells_rows_apart(&self, key: &[usize]) -> bool {
        let mut seen = std::collections::HashSet::new();
        self.rows
            .iter()
            .map(|r| key.iter().map(|&k| r[k].as_str()).collect::<Vec<_>>())
            .filter(|cells| cells.iter().any(|c| !c.is_empty()))
            .all(|cells| seen.insert(cells))
    }

    /// The table without the columns whose every row is empty, and whether
    /// there were any.
    fn without_empty_columns(self) -> (Table, bool) {
        let keep: Vec<usize> = (0..self.header.len()).filter(|&k| self.rows.iter().any(|r| !r[k].is_empty())).collect();
        if keep.len() == self.header.len() {
            return (self, false);
        }
        let pick = |cells: &[String]| keep.iter().map(|&k| cells[k].clone()).collect::<Vec<_>>();
        let rows = self.rows.iter().map(|r| pick(r)).collect();
        (Table { header: pick(&self.header), align: pick(&self.align), rows }, true)
    }

    /// The table of columns `keep`, in that order.
    fn render(&self, keep: &[usize]) -> String {
        let line = |cells: &[String]| {
            format!("| {} |\n", keep.iter().map(|&k| cells[k].as_str()).collect::<Vec<_>>().join(" | "))
        };
        let mut out = line(&self.header);
        out.push_str(&line(&self.align));
        for row in &self.rows {
            out.push_str(&line(row));
        }
        out
    }

    /// The table split to fit [`BUDGET`]: the tables of one-line cells, then
    /// the table of sentences, if any.
    fn split(&self) -> (Vec<Vec<usize>>, Option<Vec<usize>>) {
        let n = self.header.len();
        // The key: the leading text columns, while they take at most two
        // fifths of the page, and always the first.
        let mut key = vec![0];
        let mut used = self.width(0);
        for k in 1..n {
            if self.is_numeric(k) || self.is_prose(k) || used + self.width(k) > BUDGET * 0.4 {
                break;
            }
            key.push(k);
            used += self.width(k);
        }
        // A key must also tell the rows apart: while two rows share it, the
        // next leading text column joins it, past two fifths if need be (a
        // litmus table's `placement`, when one test and variant ran at two).
        while key.len() < n && !self.tells_rows_apart(&key) {
            let k = key.len();
            if self.is_numeric(k) || self.is_prose(k) {
                break;
            }
            key.push(k);
            used += self.width(k);
        }
        let rest: Vec<usize> = (0..n).filter(|k| !key.contains(k)).collect();
        let prose: Vec<usize> = rest.iter().copied().filter(|&k| self.is_prose(k)).collect();
        let lesson = |k: usize| {
            let h = self.header[k].to_lowercase();
            LESSON.iter().position(|l| h.contains(&l.to_lowercase()))
        };
        let mut ordered: Vec<usize> =
            rest.iter().copied().filter(|&k| !self.is_prose(k) && lesson(k).is_some()).collect();
        ordered.sort_by_key(|&k| (lesson(k), k));
        ordered.extend(rest.iter().copied().filter(|&k| !self.is_prose(k) && lesson(k).is_none()));
        let mut tables: Vec<Vec<usize>> = Vec::new();
        let mut current = key.clone();
        let mut width = used;
        for k in ordered {
            if width + self.width(k) > BUDGET && current.len() > key.len() {
                tables.push(std::mem::replace(&mut current, key.clone()));
                width = used;
            }
            current.push(k);
            width += self.width(k);
        }
        if current.len() > key.len() {
            tables.push(current);
        }
        let prose = (!prose.is_empty()).then(|| key.iter().copied().chain(prose).collect());
        (tables, prose)
    }
}

/// `markdown` (the host's export, inside a `<div class="measured">`) with
/// every table wider than [`BUDGET`] split: see the module's doc. The table
/// of sentences leaves the measured block for one whose cells wrap.
pub fn fit(markdown: &str) -> String {
    let lines: Vec<&str> = markdown.lines().collect();
    let mut out = String::with_capacity(markdown.len());
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].starts_with('|') {
            out.push_str(lines[i]);
            out.push('\n');
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && lines[i].starts_with('|') {
            i += 1;
        }
        let block = &lines[start..i];
        let verbatim = |out: &mut String| {
            for line in block {
                out.push_str(line);
                out.push('\n');
            }
        };
        let Some(table) = Table::parse(block) else {
            verbatim(&mut out);
            continue;
        };
        // A column with no cell filled (the times of a run that timed
        // nothing) says nothing: it goes.
        let (table, dropped) = table.without_empty_columns();
        if (0..table.header.len()).map(|k| table.width(k)).sum::<f64>() <= BUDGET {
            if dropped {
                out.push_str(&table.render(&(0..table.header.len()).collect::<Vec<_>>()));
            } else {
                verbatim(&mut out);
            }
            continue;
        }
        let (tables, prose) = table.split();
        for (n, keep) in tables.iter().enumerate() {
            if n > 0 {
                out.push('\n');
            }
            out.push_str(&table.render(keep));
        }
        if let Some(keep) = prose {
            out.push_str("\n</div>\n<div class=\"measured prose\">\n\n");
            out.push_str(&table.render(&keep));
            out.push_str("\n</div>\n<div class=\"measured\">\n");
        }
    }
    // A split whose table of sentences came last reopened a measured block
    // with nothing in it: leave it closed.
    let reopened = "\n</div>\n<div class=\"measured\">\n";
    if out.trim_end().ends_with(reopened.trim_end()) {
        out.truncate(out.trim_end().len() - reopened.trim_end().len());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const WIDE: &str = "| variant | participants | scope | pairs observed | stale | stale per million | timeouts | verdict |
|---|---|---|---:|---:|---:|---:|---|
| grid_relaxed_with_a_long_name | two blocks of one grid, far apart | gpu (.gpu) | 108134400 | 12 | 0.111 [0.06, 0.19] | 0 | broken: relaxed orders nothing, so the record may be stale |
";

    #[test]
    fn a_wide_table_leads_with_its_lesson_and_keeps_its_key() {
        let out = fit(WIDE);
        let tables: Vec<&str> = out.split("\n\n").collect();
        // The first table: the key, then the counts the lesson is about.
        assert!(tables[0].starts_with("| variant | stale | stale per million | timeouts |"), "{out}");
        // The sentences (a long cell of words, or a verdict) go last, with the
        // key, into a table whose cells wrap.
        assert!(out.contains("<div class=\"measured prose\">\n\n| variant | participants | verdict |"), "{out}");
        // Every cell is still there.
        for cell in ["two blocks of one grid, far apart", "gpu (.gpu)", "108134400", "0.111 [0.06, 0.19]"] {
            assert!(out.contains(cell), "{cell}: {out}");
        }
    }

    #[test]
    fn a_split_that_ends_with_its_sentences_leaves_no_empty_block() {
        let out = fit(WIDE);
        // It closes the caller's measured block and opens the prose one,
        // which the caller closes.
        assert_eq!((out.matches("<div").count(), out.matches("</div>").count()), (1, 1), "{out}");
        assert!(out.trim_end().ends_with('|'), "{out}");
    }

    #[test]
    fn every_table_of_a_split_tells_its_rows_apart() {
        // One test and variant at two placements: the two fifths of the page
        // hold `test` and `variant`, which two rows share, so `placement`
        // joins the key of every table; a continuation row (empty key cells)
        // does not count as a third.
        let long = "a_variant_with_a_name_long_enough_to_fill_the_key";
        let table = format!(
            "| test | variant | placement | instances | weak | weak per million | forbidden seen | M inst/s | why |
|---|---|---|---:|---:|---:|---:|---:|---|
| MP | {long} | intra-block | 1085669376 | 46410 | 42.7 [42.4, 43.1] | 0 | 2169 | relaxed: nothing orders W x before W y |
| MP | {long} | inter-block | 1077018624 | 7750550 | 7196 [7191, 7201] | 0 | 2148 | relaxed: nothing orders W x before W y |
|  |  |  | 1077018624 | 7750550 | 7196 [7191, 7201] | 0 | 2148 |  |
"
        );
        let out = fit(&table);
        let headers: Vec<&str> = out.lines().filter(|l| l.starts_with("| test")).collect();
        assert!(headers.len() > 1, "{out}");
        for header in headers {
            assert!(header.starts_with("| test | variant | placement |"), "{out}");
        }
        // Where the first columns tell the rows apart, nothing joins them.
        let out = fit(WIDE);
        assert!(out.contains("| variant | stale |"), "{out}");
    }

    #[test]
    fn a_column_with_no_cell_filled_goes() {
        let text = "| version | rate | ms | verdict |\n|---|---:|---:|---|\n| a | 0 (< 30.0 /M) |  | held |\n";
        assert_eq!(fit(text), "| version | rate | verdict |\n| --- | ---: | --- |\n| a | 0 (< 30.0 /M) | held |\n");
    }

    #[test]
    fn a_table_that_fits_and_the_prose_around_it_stay() {
        let text = "GPU: X\\\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nA line.\n";
        assert_eq!(fit(text), text);
        assert_eq!(cells("| a \\| b | c |"), ["a \\| b", "c"]);
    }
}
