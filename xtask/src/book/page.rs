//! `page-t4.md`: the first page's Tesla T4 tables beside a run's sweep at
//! block 256, for Lesson 1. The page's figures are data, transcribed once
//! into `results/page-t4/page1-t4.json` with the page named as their source;
//! the run's come from its `sweep-256.json`. Times are compared as ratios,
//! never as absolute differences: the page timed its own CUDA C++ on
//! another GPU, so what carries over is the order of the three kernels.

use std::path::Path;

use lab_records::host::{Record, Results, Sweep};
use serde::Deserialize;

use crate::Error;

/// Where the page's tables are kept, from the checkout's root.
pub const PAGE_T4: &str = "results/page-t4/page1-t4.json";

/// The page's tables, as transcribed.
#[derive(Debug, Deserialize)]
struct Page {
    source: Source,
    sweep: Table,
    determinism: Table,
}

/// Where the page measured.
#[derive(Debug, Deserialize)]
struct Source {
    page: String,
    device: String,
    driver: String,
    cuda: String,
    build: String,
}

/// One of the page's tables: its columns and its rows, cells as JSON values.
#[derive(Debug, Deserialize)]
struct Table {
    columns: Vec<String>,
    rows: Vec<Vec<serde_json::Value>>,
}

impl Table {
    /// The cell of `row` under `column`, as a number.
    fn number(&self, row: &[serde_json::Value], column: &str) -> Result<f64, Error> {
        let k =
            self.columns.iter().position(|c| c == column).ok_or_else(|| Error(format!("{PAGE_T4}: no {column}")))?;
        row.get(k).and_then(serde_json::Value::as_f64).ok_or_else(|| Error(format!("{PAGE_T4}: {column} not a number")))
    }

    /// The cell of `row` under `column`, as text.
    fn text<'a>(&self, row: &'a [serde_json::Value], column: &str) -> Result<&'a str, Error> {
        let k =
            self.columns.iter().position(|c| c == column).ok_or_else(|| Error(format!("{PAGE_T4}: no {column}")))?;
        row.get(k).and_then(serde_json::Value::as_str).ok_or_else(|| Error(format!("{PAGE_T4}: {column} not text")))
    }
}

/// The page's three kernels: the run's registry name, the page's column
/// stem, the page's name in its determinism table.
const KERNELS: [(&str, &str, &str); 3] = [
    ("global_atomic", "global", "global atomic"),
    ("shared_atomic", "shared", "shared atomic"),
    ("tree_atomic", "tree", "tree + atomic"),
];

/// The tables, or `None` if the run has no `sweep-256.json`.
pub fn tables(root: &Path, results: &Path) -> Result<Option<String>, Error> {
    let page_path = root.join(PAGE_T4);
    let page: Page = serde_json::from_str(
        &std::fs::read_to_string(&page_path).map_err(|e| Error(format!("{}: {e}", page_path.display())))?,
    )
    .map_err(|e| Error(format!("{PAGE_T4}: {e}")))?;
    let run_path = results.join("sweep-256.json");
    let Ok(text) = std::fs::read_to_string(&run_path) else { return Ok(None) };
    let record: Record = serde_json::from_str(&text).map_err(|e| Error(format!("{}: {e}", run_path.display())))?;
    let Results::Sweep(run) = record.results else {
        return Err(Error(format!("{}: not a sweep", run_path.display())));
    };
    let gpu = record.device.name.trim_start_matches("NVIDIA ").to_owned();
    let t4 = "T4";
    Ok(Some(format!(
        "{}\n{}\n{}\nThe page's figures: {}, on a {} (driver {}, CUDA {}, `{}`), one time per cell; the {gpu}'s: \
         medians of the run's timed launches.\n",
        ratios(&page, &run, t4, &gpu)?,
        over(&page, &run, t4, &gpu)?,
        determinism(&page, &run, t4, &gpu)?,
        page.source.page,
        page.source.device,
        page.source.driver,
        page.source.cuda,
        page.source.build,
    )))
}

/// The run's median time of `kernel` at `n`, in ms.
fn run_ms(run: &Sweep, n: u64, kernel: &str) -> Option<f64> {
    let row = run.sweep.rows.iter().find(|r| r.n == n)?;
    let m = row.measurements.iter().find(|m| m.kernel == kernel)?;
    lab_stats::median(&m.times_ms).map(f64::from)
}

/// Each kernel's time as a multiple of the tree's, on each GPU.
fn ratios(page: &Page, run: &Sweep, t4: &str, gpu: &str) -> Result<String, Error> {
    let mut text = format!(
        "Each kernel's time over the tree's, at block 256:\n\n| n | global ÷ tree, {t4} | global ÷ tree, {gpu} | \
         shared ÷ tree, {t4} | shared ÷ tree, {gpu} | fastest, {t4} / {gpu} |\n|---:|---:|---:|---:|---:|---|\n"
    );
    for row in &page.sweep.rows {
        let n = page.sweep.number(row, "n")? as u64;
        let Some(tree) = run_ms(run, n, "tree_atomic") else { continue };
        let page_tree = page.sweep.number(row, "tree_ms")?;
        let mut cells = vec![n.to_string()];
        for (key, stem, _) in &KERNELS[..2] {
            let page_ms = page.sweep.number(row, &format!("{stem}_ms"))?;
            cells.push(format!("{:.1}", page_ms / page_tree));
            cells.push(run_ms(run, n, key).map_or("-".to_owned(), |ms| format!("{:.1}", ms / tree)));
        }
        let fastest_run = KERNELS
            .iter()
            .filter_map(|(key, stem, _)| Some((*stem, run_ms(run, n, key)?)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map_or("-", |(stem, _)| stem);
        cells.push(format!("{} / {fastest_run}", page.sweep.text(row, "fastest")?));
        text += &format!("| {} |\n", cells.join(" | "));
    }
    Ok(text)
}

/// The T4's time over the run's GPU's, per kernel and size.
fn over(page: &Page, run: &Sweep, t4: &str, gpu: &str) -> Result<String, Error> {
    let mut text =
        format!("The {t4}'s time over the {gpu}'s:\n\n| n | global | shared | tree |\n|---:|---:|---:|---:|\n");
    for row in &page.sweep.rows {
        let n = page.sweep.number(row, "n")? as u64;
        let mut cells = vec![n.to_string()];
        for (key, stem, _) in KERNELS {
            let page_ms = page.sweep.number(row, &format!("{stem}_ms"))?;
            cells.push(run_ms(run, n, key).map_or("-".to_owned(), |ms| format!("{:.1}", page_ms / ms)));
        }
        text += &format!("| {} |\n", cells.join(" | "));
    }
    Ok(text)
}

/// The determinism tables side by side: how many distinct sums each kernel
/// gave, and their spread.
fn determinism(page: &Page, run: &Sweep, t4: &str, gpu: &str) -> Result<String, Error> {
    let Some(det) = &run.determinism else { return Ok(format!("The {gpu} run has no determinism table.\n")) };
    let mut text = format!(
        "Determinism: the same inexact array summed again and again (the page's array and the lab's differ, so \
         compare the counts and spreads, not the sums):\n\n| kernel | distinct, {t4} | distinct, {gpu} | max − min, \
         {t4} | max − min, {gpu} |\n|---|---:|---:|---:|---:|\n"
    );
    for (key, _, name) in KERNELS {
        let Some(row) = page.determinism.rows.iter().find(|r| page.determinism.text(r, "kernel").ok() == Some(name))
        else {
            continue;
        };
        let Some((_, sums)) = det.sums.iter().find(|(k, _)| k == key) else { continue };
        let mut bits: Vec<u32> = sums.iter().map(|s| s.to_bits()).collect();
        bits.sort_unstable();
        bits.dedup();
        let (min, max) = sums.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &s| (lo.min(s), hi.max(s)));
        text += &format!(
            "| {name} | {} | {} | {} | {} |\n",
            page.determinism.number(row, "distinct")?,
            bits.len(),
            page.determinism.number(row, "max_minus_min")?,
            max - min
        );
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_beside_the_reference_run_names_both_gpus_and_every_size() {
        let root = crate::paths::workspace_root();
        let text = tables(&root, &root.join("results/h200")).unwrap().expect("the reference run has sweep-256");
        for n in ["4096", "65536", "262144", "1048576", "4194304"] {
            assert!(text.contains(&format!("| {n} |")), "{n}");
        }
        assert!(text.contains("distinct, T4") && text.contains("distinct, H200") && text.contains("Tesla T4"));
        assert_eq!(text.matches("| tree + atomic |").count(), 1);
    }
}
