//! A measured result as one table a reader can take in. A book page at 1280
//! pixels with its sidebar open has a column of about 900 pixels, and a
//! measured table keeps each cell on one line (`theme/wide.css`), so a table
//! of a dozen columns would run off the screen. [`fit`] keeps such a result
//! one table, never fragments stacked under one another: in a slightly
//! smaller type, its words (a condition, a verdict, a header) wrap, and a
//! number breaks only before its interval. A row that continues the row
//! above it (a second figure of the same version) repeats that row's name,
//! so no row reads blank where its name should be. A column with no cell
//! filled goes. A chapter that wants fewer rows than the run recorded asks
//! for a view of it (`views.rs`).

/// The pixels a table may take: the page's column at 1280 × 800 with the
/// sidebar open, less a margin.
pub const BUDGET: f64 = 860.0;

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
pub(super) struct Table {
    pub(super) header: Vec<String>,
    pub(super) align: Vec<String>,
    pub(super) rows: Vec<Vec<String>>,
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
    /// The table of a block of Markdown table lines, if they are one.
    pub(super) fn parse(lines: &[&str]) -> Option<Table> {
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

    /// Whether every filled cell of column `k` is a number in the lab's
    /// notation (`19`, `0.0101`, `1.00e6 [722467, 1.00e6]`, `0 (< 4762 /M)`,
    /// `{42, 3.5}`): no word of two letters or more, which a count with its
    /// unit (`10 wrong sums`) has.
    fn holds_numbers(&self, k: usize) -> bool {
        let number = |cell: &str| {
            cell.starts_with(|c: char| c.is_ascii_digit() || c == '{')
                && !cell.split(|c: char| !c.is_alphabetic()).any(|word| word.chars().count() >= 2)
        };
        let mut filled = self.rows.iter().map(|r| r[k].as_str()).filter(|c| !c.is_empty()).peekable();
        filled.peek().is_some() && filled.all(number)
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

    /// The row key: the first column, and the text columns after it up to
    /// the first number or sentence (a litmus table's `test`, `variant` and
    /// `placement`; a pitfall's `version` and `role`).
    fn key(&self) -> Vec<usize> {
        let more = (1..self.header.len()).take_while(|&k| !self.is_numeric(k) && !self.is_prose(k));
        std::iter::once(0).chain(more).collect()
    }

    /// The table with each continuation row (every key cell empty: a
    /// further figure of the row above) given the key of the row above, so
    /// that every row says what it is about.
    fn with_keys_repeated(mut self) -> Table {
        let key = self.key();
        for i in 1..self.rows.len() {
            if key.iter().all(|&k| self.rows[i][k].is_empty()) {
                for &k in &key {
                    self.rows[i][k] = self.rows[i - 1][k].clone();
                }
            }
        }
        self
    }

    /// The table without the columns whose every row is empty.
    fn without_empty_columns(self) -> Table {
        let keep: Vec<usize> = (0..self.header.len()).filter(|&k| self.rows.iter().any(|r| !r[k].is_empty())).collect();
        if keep.len() == self.header.len() { self } else { self.only(&keep) }
    }

    /// The table of columns `keep`, in that order.
    pub(super) fn only(&self, keep: &[usize]) -> Table {
        let pick = |cells: &[String]| keep.iter().map(|&k| cells[k].clone()).collect::<Vec<_>>();
        Table {
            header: pick(&self.header),
            align: pick(&self.align),
            rows: self.rows.iter().map(|r| pick(r)).collect(),
        }
    }

    /// The table as Markdown. `numbers_right` right-aligns the columns of
    /// numbers and only those, which is what the style of a wrapping table
    /// keeps on one line (`theme/wide.css`).
    pub(super) fn render(&self, numbers_right: bool) -> String {
        let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
        let align: Vec<String> = (0..self.header.len())
            .map(|k| match numbers_right {
                true if self.holds_numbers(k) => "---:".to_owned(),
                true => "---".to_owned(),
                false => self.align[k].clone(),
            })
            .collect();
        let mut out = line(&self.header);
        out.push_str(&line(&align));
        let numbers: Vec<bool> = (0..self.header.len()).map(|k| numbers_right && self.holds_numbers(k)).collect();
        for row in &self.rows {
            let cells: Vec<String> =
                row.iter().zip(&numbers).map(|(c, &n)| if n { unbroken(c) } else { c.clone() }).collect();
            out.push_str(&line(&cells));
        }
        out
    }
}

/// A number's cell that may wrap only before its interval or bound:
/// `4.88 [4.48, 5.32]` breaks into `4.88` and `[4.48, 5.32]`, never inside
/// either (no-break spaces everywhere else).
fn unbroken(cell: &str) -> String {
    cell.replace(' ', "\u{a0}").replace("\u{a0}[", " [").replace("\u{a0}(", " (")
}

/// `markdown` with each of its Markdown tables replaced by what `table`
/// makes of it (its lines as they were, and the table they hold); every
/// other line, and a block of `|` lines that is not a table, as it was.
pub(super) fn each_table(markdown: &str, mut table: impl FnMut(&[&str], Table) -> String) -> String {
    let lines: Vec<&str> = markdown.lines().collect();
    let mut out = String::with_capacity(markdown.len());
    let mut i = 0;
    while i < lines.len() {
        // A run of `|` lines, or one line of anything else (which is no
        // table: a table has a header and an alignment line).
        let start = i;
        while i < lines.len() && lines[i].starts_with('|') {
            i += 1;
        }
        i = i.max(start + 1);
        let block = &lines[start..i];
        match Table::parse(block) {
            Some(parsed) => out.push_str(&table(block, parsed)),
            None => block.iter().for_each(|line| {
                out.push_str(line);
                out.push('\n');
            }),
        }
    }
    out
}

/// `markdown` (the host's export of a record) in a block of its own, so the
/// book's style can keep a measured table's cells on one line
/// (`theme/wide.css`), its tables fitted ([`fit`]).
pub fn measured(markdown: &str) -> String {
    let fitted = fit(markdown);
    // A wrapping table that comes first closes the measured block before
    // anything is in it: open none, and let the table's block come first.
    // The blank line after the block ends it for Markdown too, so that text
    // right after (the next caption) is read as Markdown, not as HTML.
    match fitted.strip_prefix(CLOSED) {
        Some(rest) => format!("{rest}\n</div>\n\n"),
        None => format!("<div class=\"measured\">\n\n{fitted}\n</div>\n\n"),
    }
}

/// What [`fit`] writes where a wrapping table leaves the measured block.
const CLOSED: &str = "\n</div>\n";

/// `markdown` (the host's export, inside a `<div class="measured">`) with
/// every table one table a reader takes in: see the module's doc. A table
/// wider than [`BUDGET`] leaves the measured block for one whose words wrap.
pub fn fit(markdown: &str) -> String {
    let mut out = each_table(markdown, |block, table| {
        // A column with no cell filled (the times of a run that timed
        // nothing) says nothing: it goes.
        let original = table.clone();
        let table = table.without_empty_columns().with_keys_repeated();
        if (0..table.header.len()).map(|k| table.width(k)).sum::<f64>() > BUDGET {
            format!(
                "{CLOSED}<div class=\"measured wrap\">\n\n{}\n</div>\n<div class=\"measured\">\n",
                table.render(true)
            )
        } else if table == original {
            block.iter().map(|line| format!("{line}\n")).collect()
        } else {
            table.render(false)
        }
    });
    // A wrapping table that came last reopened a measured block with nothing
    // in it: leave it closed.
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
    fn a_wide_table_stays_one_table_whose_words_wrap() {
        let out = fit(WIDE);
        assert_eq!(out.matches("| variant |").count(), 1, "{out}");
        assert!(out.starts_with("\n</div>\n<div class=\"measured wrap\">\n\n| variant | participants |"), "{out}");
        // The numbers are right-aligned: the style keeps those on one line.
        assert!(out.contains("| --- | --- | --- | ---: | ---: | ---: | ---: | --- |"), "{out}");
        // Nothing reopens a measured block after the last table.
        assert_eq!((out.matches("<div").count(), out.matches("</div>").count()), (1, 1), "{out}");
    }

    #[test]
    fn a_wide_table_first_leaves_no_empty_measured_block_before_it() {
        let out = measured(WIDE);
        assert!(out.starts_with("<div class=\"measured wrap\">\n\n| variant |"), "{out}");
        assert_eq!((out.matches("<div").count(), out.matches("</div>").count()), (1, 1), "{out}");
        // Text before the table keeps its block.
        let out = measured(&format!("Measured on a GPU.\n\n{WIDE}"));
        assert!(out.starts_with("<div class=\"measured\">\n\nMeasured on a GPU."), "{out}");
        assert_eq!((out.matches("<div").count(), out.matches("</div>").count()), (2, 2), "{out}");
        // A blank line ends the block, so a caption after it is Markdown.
        assert!(out.ends_with("</div>\n\n"), "{out}");
    }

    #[test]
    fn a_continuation_row_repeats_the_name_of_the_row_above() {
        let text = "| version | role | went wrong | rate | verdict |
|---|---|---|---:|---|
| in_bounds | mistake | 10 wrong sums | 1.00e6 [722467, 1.00e6] | the mistake showed |
|  |  | 0 wrong sums | 0 (< 4762 /M) | not seen in 630 (not a proof it cannot happen) |
| every_thread | fix | 0 wrong sums | 0 (< 300000 /M) | held |
";
        let out = fit(text);
        assert!(out.contains("| in_bounds | mistake | 0 wrong sums |"), "{out}");
        assert!(!out.contains("|  |"), "{out}");
        // The table fits, so nothing is aligned anew; a wide one right-aligns
        // the rates, which stay on one line, and not the counts with their
        // units, which wrap.
        let wide = text.replace("in_bounds", &"a_long_version_name".repeat(8));
        assert!(fit(&wide).contains("| --- | --- | --- | ---: | --- |"), "{}", fit(&wide));
        // A rate may wrap before its interval, and nowhere else.
        assert!(fit(&wide).contains("| 1.00e6 [722467,\u{a0}1.00e6] |"), "{}", fit(&wide));
        assert_eq!(unbroken("0 (< 4762 /M)"), "0 (<\u{a0}4762\u{a0}/M)");
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
