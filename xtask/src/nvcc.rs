//! `cargo xtask nvcc-compare`: the page's three kernels compiled by rustc and
//! by nvcc, timed by the same host binary, alternately, in one run.
//!
//! nvcc compiles `xtask/nvcc/page_kernels.cu` to PTX; the host's `--ptx` flag
//! loads it in place of the Rust PTX, so the harness, the launch geometry and
//! the input are identical and only the compiler differs. Runs only where
//! `nvcc` and a GPU exist.

use std::path::{Path, PathBuf};
use std::process::Command;

use lab_records::host::{Record, Results, Sweep};

use crate::Error;

/// The size and block the comparison uses: the page's largest size, its
/// default block.
pub const N: &str = "4194304";
/// The block size of the comparison.
pub const BLOCK: &str = "256";

/// The three medians (global, shared, tree, in ms) of one sweep row.
type Row = [f32; 3];

/// Compiles `cu` with `nvcc`, then alternates `rounds` times between the Rust
/// and the nvcc PTX, and returns each round's medians.
pub fn compare(nvcc: &Path, host: &Path, cu: &Path, out: &Path, rounds: usize) -> Result<Rounds, Error> {
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

    let (mut rust, mut cuda) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        for file in [None, Some(&ptx)] {
            let row = sweep_row(host, file)?;
            if file.is_some() { cuda.push(row) } else { rust.push(row) }
        }
    }
    Ok(Rounds { rust, cuda })
}

/// The medians of every round, each compiler's PTX alternately: round `k`
/// ran `rust[k]`, then `cuda[k]`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rounds {
    /// The Rust kernels' medians, one row per round.
    pub rust: Vec<Row>,
    /// The nvcc kernels' medians, one row per round.
    pub cuda: Vec<Row>,
}

impl Rounds {
    /// Each round, then the median over rounds of each kernel and the ratio.
    pub fn report(&self) -> String {
        let mut report = format!("n = {N}, block {BLOCK}, median of 20 timed runs after 5 warm-ups, per round\n");
        report.push_str("round  compiler   global ms   shared ms     tree ms\n");
        for (round, (r, c)) in self.rust.iter().zip(&self.cuda).enumerate() {
            for (label, row) in [("rustc", r), ("nvcc", c)] {
                report.push_str(&format!(
                    "{:>5}  {label:<8} {:>10.4}  {:>10.4}  {:>10.4}\n",
                    round + 1,
                    row[0],
                    row[1],
                    row[2]
                ));
            }
        }
        report.push('\n');
        report.push_str(&self.medians());
        report
    }

    /// The median over rounds of each kernel, rustc's and nvcc's, and their
    /// ratio: the report's last lines, the chapter's whole view of it.
    pub fn medians(&self) -> String {
        let mut out = format!(
            "The page's kernels at n = {N}, block {BLOCK}, median over {} rounds: rustc / nvcc time\n\
             (below 1.00: the Rust kernel is faster)\n",
            self.rust.len()
        );
        for (k, name) in ["global atomic", "shared atomic", "tree + atomic"].iter().enumerate() {
            let median = |rows: &[Row]| lab_stats::median(&rows.iter().map(|row| row[k]).collect::<Vec<_>>());
            if let (Some(r), Some(c)) = (median(&self.rust), median(&self.cuda)) {
                out.push_str(&format!("  {name:<14} rustc {r:.4} ms  nvcc {c:.4} ms  ratio {:.3}\n", r / c));
            }
        }
        out
    }
}

/// What `cargo xtask nvcc-compare` measured, as it writes it to
/// `nvcc-compare.json` for the book.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Comparison {
    /// The page's kernels, rustc's PTX against nvcc's.
    pub page: Rounds,
    /// Every lab sum beside CUB.
    pub cub: crate::cub::Measured,
}

impl Comparison {
    /// Both reports, as the task prints them.
    pub fn report(&self) -> String {
        format!("{}\n{}", self.page.report(), self.cub.table())
    }

    /// The chapter's view: the page's kernels' medians and the lab's sums
    /// against CUB as ratios, a row per size; [`Comparison::report`] has
    /// every row.
    pub fn summary(&self) -> String {
        format!("{}\n{}", self.page.medians(), self.cub.summary())
    }
}

/// Runs one sweep at [`N`] with `--format json` and returns the median time
/// of each of the page's three kernels, read from the record.
fn sweep_row(host: &Path, ptx: Option<&PathBuf>) -> Result<Row, Error> {
    let mut cmd = Command::new(host);
    if let Some(file) = ptx {
        cmd.arg("--ptx").arg(file);
    }
    cmd.args(["sweep", "--sizes", N, "--block", BLOCK, "--runs", "20", "--warmup", "5", "--determinism-runs", "0"]);
    cmd.args(["--format", "json"]);
    let output = cmd.output().map_err(|e| Error(format!("cannot run {}: {e}", host.display())))?;
    if !output.status.success() {
        return Err(Error(format!(
            "the sweep failed ({}): {}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )));
    }
    let record: Record =
        serde_json::from_slice(&output.stdout).map_err(|e| Error(format!("the sweep's JSON did not parse: {e}")))?;
    match record.results {
        Results::Sweep(sweep) => page_medians(&sweep),
        _ => Err(Error("the record is not a sweep's".to_owned())),
    }
}

/// The median time of each measurement in the first row of a sweep.
fn page_medians(sweep: &Sweep) -> Result<Row, Error> {
    let row = sweep.sweep.rows.first().ok_or_else(|| Error("the sweep record has no measurements".to_owned()))?;
    let medians: Vec<f32> = row.measurements.iter().filter_map(|m| lab_stats::median(&m.times_ms)).collect();
    let medians: [f32; 3] =
        medians.try_into().map_err(|m: Vec<f32>| Error(format!("expected three kernels' times, found {}", m.len())))?;
    Ok(medians)
}

#[cfg(test)]
mod tests {
    use lab_records::host::{SumMeasurement, SweepReport, SweepRow};

    use super::*;

    #[test]
    fn reads_the_three_medians_from_a_sweep_record() {
        let measured =
            |kernel: &str, times_ms: &[f32]| SumMeasurement { kernel: kernel.to_owned(), times_ms: times_ms.to_vec() };
        let row = SweepRow {
            n: 4_194_304,
            reference: 0.0,
            measurements: vec![
                measured("global_atomic", &[7.0, 9.0, 8.0]),
                measured("shared_atomic", &[0.25, 0.5]),
                measured("tree_atomic", &[0.125]),
            ],
        };
        let sweep = |rows| Sweep { sweep: SweepReport { rows }, determinism: None };
        assert_eq!(page_medians(&sweep(vec![row])).unwrap(), [8.0, 0.375, 0.125]);
        assert!(page_medians(&sweep(Vec::new())).is_err());
    }
}
