//! `cargo xtask nvcc-compare`: the page's three kernels compiled by rustc and
//! by nvcc, timed by the same host binary, alternately, in one run.
//!
//! nvcc compiles `xtask/nvcc/page_kernels.cu` to PTX; the host's `--ptx` flag
//! loads it in place of the Rust PTX, so the harness, the launch geometry and
//! the input are identical and only the compiler differs. Runs only where
//! `nvcc` and a GPU exist.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::Error;

/// The size and block the comparison uses: the page's largest size, its
/// default block.
pub const N: &str = "4194304";
/// The block size of the comparison.
pub const BLOCK: &str = "256";

/// The three medians (global, shared, tree, in ms) of one sweep row.
type Row = [f64; 3];

/// Compiles `cu` with `nvcc`, then alternates `rounds` times between the Rust
/// and the nvcc PTX, and returns a report with each round and the ratios.
pub fn compare(nvcc: &Path, host: &Path, cu: &Path, out: &Path, rounds: usize) -> Result<String, Error> {
    std::fs::create_dir_all(out).map_err(|e| Error(format!("cannot create {}: {e}", out.display())))?;
    let ptx = out.join("nvcc_page_kernels.ptx");
    let status = Command::new(nvcc)
        .args(["-ptx", "-O3", "-arch=native", "-std=c++17"])
        .arg(cu)
        .arg("-o")
        .arg(&ptx)
        .status()
        .map_err(|e| Error(format!("cannot run {}: {e}", nvcc.display())))?;
    if !status.success() {
        return Err(Error(format!("nvcc failed on {} ({status})", cu.display())));
    }

    let mut report = format!("n = {N}, block {BLOCK}, median of 20 timed runs after 5 warm-ups, per round\n");
    report.push_str("round  compiler   global ms   shared ms     tree ms\n");
    let (mut rust, mut cuda) = (Vec::new(), Vec::new());
    for round in 1..=rounds {
        for (label, file) in [("rustc", None), ("nvcc", Some(&ptx))] {
            let row = sweep_row(host, file)?;
            report.push_str(&format!("{round:>5}  {label:<8} {:>10.4}  {:>10.4}  {:>10.4}\n", row[0], row[1], row[2]));
            if file.is_some() { cuda.push(row) } else { rust.push(row) }
        }
    }
    report.push_str("\nmedian over rounds: rustc / nvcc time (below 1.00: the Rust kernel is faster)\n");
    for (k, name) in ["global atomic", "shared atomic", "tree + atomic"].iter().enumerate() {
        let r = median(rust.iter().map(|row| row[k]).collect());
        let c = median(cuda.iter().map(|row| row[k]).collect());
        report.push_str(&format!("  {name:<14} rustc {r:.4} ms  nvcc {c:.4} ms  ratio {:.3}\n", r / c));
    }
    Ok(report)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    if v.len() % 2 == 1 { v[mid] } else { (v[mid - 1] + v[mid]) / 2.0 }
}

/// Runs one sweep at [`N`] and reads the three median columns of its row.
fn sweep_row(host: &Path, ptx: Option<&PathBuf>) -> Result<Row, Error> {
    let mut cmd = Command::new(host);
    if let Some(file) = ptx {
        cmd.arg("--ptx").arg(file);
    }
    cmd.args(["sweep", "--sizes", N, "--block", BLOCK, "--runs", "20", "--warmup", "5", "--determinism-runs", "0"]);
    let output = cmd.output().map_err(|e| Error(format!("cannot run {}: {e}", host.display())))?;
    let text = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(Error(format!(
            "the sweep failed ({}): {}{}",
            output.status,
            text,
            String::from_utf8_lossy(&output.stderr)
        )));
    }
    let line = text
        .lines()
        .find(|l| l.split('|').next().is_some_and(|c| c.trim() == N))
        .ok_or_else(|| Error(format!("no row for n = {N} in:\n{text}")))?;
    let cells: Vec<f64> = line.split('|').skip(1).take(3).filter_map(|c| c.trim().parse().ok()).collect();
    cells.try_into().map_err(|_| Error(format!("cannot read three times from `{line}`")))
}
