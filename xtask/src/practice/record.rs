//! The record of a GPU run of every kept answer (`results/practice/`):
//! the lines the GPU test binary prints for the learner's puzzles, read
//! back into the tables the book shows.
//!
//! A record is the GPU test binary's output for `practice`, after a header
//! of `# key: value` lines (the GPU's driver, the date, the commit). Each
//! answer's line is `    practice KEY/ANSWER: WHAT THE RUN SAID`.

use super::{PUZZLES, Puzzle};

/// Where the record lives in the checkout.
pub const FILE: &str = "results/practice/on-gpu.txt";

/// One answer's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The puzzle's key.
    pub key: String,
    /// `solution` or the wrong answer's name.
    pub answer: String,
    /// What the run said.
    pub said: String,
}

/// A record, read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The GPU, from the test binary's first line.
    pub gpu: String,
    /// The header's `# key: value` lines.
    pub header: Vec<(String, String)>,
    /// The GPU run's line of each answer.
    pub runs: Vec<Line>,
    /// The sanitizer's line of each solution.
    pub sanitized: Vec<Line>,
}

impl Record {
    /// Reads a record's text.
    pub fn parse(text: &str) -> Record {
        let mut record = Record::default();
        for line in text.lines() {
            if let Some((key, value)) = line.strip_prefix("# ").and_then(|l| l.split_once(": ")) {
                record.header.push((key.to_owned(), value.trim().to_owned()));
            } else if let Some(gpu) = line.strip_prefix("running GPU tests on ") {
                record.gpu = gpu.split(" (compute").next().unwrap_or(gpu).to_owned();
            } else if let Some(at) = line.find(" practice ")
                && let rest = &line[at + " practice ".len()..]
                && let Some((who, said)) = rest.split_once(": ")
                && let Some((key, answer)) = who.split_once('/')
            {
                let line = Line { key: key.to_owned(), answer: answer.to_owned(), said: said.to_owned() };
                if said.contains("under compute-sanitizer") || said.starts_with("the sanitizer was not run") {
                    record.sanitized.push(line);
                } else {
                    record.runs.push(line);
                }
            }
        }
        record
    }

    /// A header value.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.header.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// One sentence on the solutions: how many passed the GPU run and the
    /// sanitizer, on which GPU and when.
    pub fn summary(&self) -> String {
        let solutions: Vec<&Line> = self.runs.iter().filter(|l| l.answer == "solution").collect();
        let passed = solutions.iter().filter(|l| l.said.starts_with("passed")).count();
        let clean = self.sanitized.iter().filter(|l| l.said.contains("under compute-sanitizer")).count();
        format!(
            "On {}, driver {}, {}: {passed} of {} solutions passed the GPU run, and {clean} of them \
             ran under compute-sanitizer's four tools without an error in their kernel. Every wrong answer ran to \
             the end.\n",
            self.gpu,
            self.get("driver").unwrap_or("?"),
            self.get("date").unwrap_or("?"),
            solutions.len()
        )
    }

    /// The wrong answers of puzzles `first..=last` (numbered from 1) as a
    /// Markdown table: what the GPU run said, and the check that catches
    /// each without a GPU.
    pub fn table(&self, first: usize, last: usize) -> String {
        let mut text = String::from("| # | wrong answer | on the GPU | caught without a GPU by |\n|---|---|---|---|\n");
        for (k, puzzle) in PUZZLES.iter().enumerate().filter(|(k, _)| (first..=last).contains(&(k + 1))) {
            for wrong in puzzle.wrong {
                let gpu = match self.runs.iter().find(|l| l.key == puzzle.kernel.key && l.answer == wrong.name) {
                    Some(line) => gpu_cell(&line.said),
                    None => not_run(puzzle, wrong.caught_by),
                };
                text.push_str(&format!(
                    "| {} | `{}/{}` | {gpu} | `{}` |\n",
                    k + 1,
                    puzzle.kernel.key,
                    wrong.name,
                    wrong.caught_by
                ));
            }
        }
        text
    }
}

/// Why a wrong answer has no GPU line.
fn not_run(puzzle: &Puzzle, caught_by: &str) -> String {
    if caught_by == super::BUILDS {
        "does not compile".to_owned()
    } else if puzzle.on_gpu.is_empty() {
        "nothing runs: the model judges it".to_owned()
    } else if super::sets::written(puzzle) {
        "not run: the GPU runs the kernels it is about".to_owned()
    } else {
        "not in this record".to_owned()
    }
}

/// A table cell for what the GPU run said of a wrong answer: `passed`, or
/// `caught:` and the first thing the host found, with a publication's stale
/// records counted from its table row.
fn gpu_cell(said: &str) -> String {
    if let Some(passed) = said.strip_prefix("passed the GPU run") {
        // What the run held, where the record says it: `(All 585 sums ...)`.
        let held = passed.strip_prefix(" (").and_then(|h| h.split(");").next()).filter(|h| !h.is_empty());
        return held.map_or_else(|| "passed".to_owned(), |h| format!("passed: {}", h.replace('|', "\\|")));
    }
    let Some(found) = said.strip_prefix("caught by the GPU run: ") else {
        return "passed".to_owned();
    };
    let found = found.split("` failed: ").nth(1).unwrap_or(found);
    let first = found.split(" / ").next().unwrap_or(found).split("; its output").next().unwrap_or(found);
    let columns: Vec<&str> = first.split(" | ").map(str::trim).collect();
    let what = match columns.get(4..6).and_then(|c| Some((c[0].parse::<u64>().ok()?, c[1].parse::<u64>().ok()?))) {
        Some((pairs, stale)) => {
            let timeouts = columns.get(7).and_then(|t| t.parse::<u64>().ok()).unwrap_or(0);
            format!("{stale} stale and {timeouts} timed out of {pairs} pairs")
        }
        None => first.split(": expected").next().unwrap_or(first).replace('|', "\\|"),
    };
    format!("caught: {what}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_into_its_lines_and_cells() {
        let text = "# driver: 580.159.04\n# date: 2026-12-06\n# commit: abc\n\
                    running GPU tests on NVIDIA H100 80GB HBM3 (compute capability (9, 0))\n\
                    test x ...     practice sum-global-atomic/solution: passed the GPU run\n\
                    \x20   practice sum-global-atomic/plain-add: caught by the GPU run: `host ...` failed: mismatch: \
                    global atomic at n = 4097, block 64, launch 0: expected 6144, found 0 / mismatch: more; its \
                    output: x\n\
                    \x20   practice publish-to-host/relaxed-flag: caught by the GPU run: `host ...` failed: \
                    gpu-cpu-release-sys | GPU to CPU | st.release.sys | Release/Acquire | 20971520 | 33607 | 1603 \
                    [1585, 1620] | 0 | 125 M/s | FAILED: stale; its output: y\n\
                    \x20   practice sum-global-atomic/solution: `host ...` under compute-sanitizer, errors in your \
                    kernel: memcheck 0\n";
        let record = Record::parse(text);
        assert_eq!(record.gpu, "NVIDIA H100 80GB HBM3");
        assert_eq!(record.get("commit"), Some("abc"));
        assert_eq!(record.runs.len(), 3);
        assert_eq!(record.sanitized.len(), 1);
        assert_eq!(gpu_cell(&record.runs[1].said), "caught: mismatch: global atomic at n = 4097, block 64, launch 0");
        assert_eq!(gpu_cell(&record.runs[2].said), "caught: 33607 stale and 0 timed out of 20971520 pairs");
        let held = "passed the GPU run (All 585 sums equal | x); `a` catches it without a GPU";
        assert_eq!(gpu_cell(held), "passed: All 585 sums equal \\| x");
        assert_eq!(gpu_cell("passed the GPU run; `a` catches it"), "passed");
        assert!(record.summary().contains("1 of 1 solutions passed"), "{}", record.summary());
        assert!(record.table(1, 1).contains("| 1 | `sum-global-atomic/plain-add` | caught: mismatch"));
    }
}
