//! The lab's sums beside NVIDIA CUB's `DeviceReduce::Sum`, part of `cargo
//! xtask nvcc-compare`.
//!
//! nvcc builds `xtask/nvcc/cub_sum.cu`, which times CUB on the bench's own
//! sparse exact input, warm and cold, with the lab's rule (CUDA events, median
//! of the timed launches after the warm-ups). In the same run the host's
//! `bench --format json` times every lab kernel, warm and cold, at the same
//! sizes; [`table`] sets them side by side. Parsing and the table are pure
//! functions, tested here.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use lab_records::host::{BenchReport, Record, Results};

use crate::Error;

/// The sizes compared unless told otherwise: the bench's defaults.
pub const SIZES: [&str; 5] = ["4096", "65536", "1048576", "16777216", "268435456"];

/// Timed launches and warm-ups, as the bench's defaults.
pub const RUNS: &str = "10";
/// Untimed launches before them.
pub const WARMUP: &str = "3";

/// Median milliseconds by (n, warm or cold): `(warm, cold)`.
pub type Times = BTreeMap<u64, (Option<f64>, Option<f64>)>;

/// What CUB measured: per mode (`default`, `gpu_to_gpu`) its times and sums,
/// and the program's line on whether `gpu_to_gpu` was available.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Cub {
    /// `mode -> n -> (warm, cold)` medians in ms.
    pub times: BTreeMap<String, Times>,
    /// `mode -> n -> sum` of the last launch.
    pub sums: BTreeMap<String, BTreeMap<u64, f64>>,
    /// The `# gpu_to_gpu: ...` line, without the `# `.
    pub gpu_to_gpu: String,
}

/// Reads `cub_sum`'s output: comment lines, a header, then
/// `mode,n,cache,median_ms,sum` lines.
pub fn parse_cub(text: &str) -> Result<Cub, Error> {
    let mut cub = Cub::default();
    for line in text.lines() {
        if let Some(comment) = line.strip_prefix("# ") {
            if comment.starts_with("gpu_to_gpu") {
                cub.gpu_to_gpu = comment.to_owned();
            }
            continue;
        }
        let cells: Vec<&str> = line.split(',').collect();
        let [mode, n, cache, ms, sum] = cells[..] else {
            return Err(Error(format!("cannot read the CUB line `{line}`")));
        };
        if mode == "mode" {
            continue;
        }
        let bad = || Error(format!("cannot read the CUB line `{line}`"));
        let n: u64 = n.parse().map_err(|_| bad())?;
        let ms: f64 = ms.parse().map_err(|_| bad())?;
        let entry = cub.times.entry(mode.to_owned()).or_default().entry(n).or_default();
        match cache {
            "warm" => entry.0 = Some(ms),
            "cold" => entry.1 = Some(ms),
            _ => return Err(bad()),
        }
        cub.sums.entry(mode.to_owned()).or_default().insert(n, sum.parse().map_err(|_| bad())?);
    }
    Ok(cub)
}

/// The row name of the bench's empty launch in [`Bench`], and the mode of
/// `cub_sum`'s own empty kernel: each program's launch floor.
pub const EMPTY: &str = "empty launch";

/// Per kernel label, the bench record's median times by n (the empty launch
/// as [`EMPTY`]), and each n's reference sum: `(kernel -> n -> ms, n ->
/// reference)`.
pub type Bench = (BTreeMap<String, BTreeMap<u64, f64>>, BTreeMap<u64, f64>);

/// Reads a host `bench --format json` record: each kernel's median and the
/// empty launch's at each n, and each n's reference sum.
pub fn parse_bench(record: &Record) -> Result<Bench, Error> {
    let Results::Bench(bench) = &record.results else {
        return Err(Error("the record is not a bench's".into()));
    };
    Ok(bench_medians(bench))
}

/// Each kernel's median (and the empty launch's) at each n of `bench`, and
/// each n's reference sum.
pub fn bench_medians(bench: &BenchReport) -> Bench {
    let mut kernels: BTreeMap<String, BTreeMap<u64, f64>> = BTreeMap::new();
    let mut references = BTreeMap::new();
    for row in &bench.rows {
        let n = row.sums.n;
        references.insert(n, row.sums.reference);
        let timed = row.sums.measurements.iter().map(|m| (m.kernel.as_str(), &m.times_ms));
        for (kernel, times) in timed.chain([(EMPTY, &row.empty_ms)]) {
            if let Some(median) = lab_stats::median(times) {
                kernels.entry(kernel.to_owned()).or_default().insert(n, f64::from(median));
            }
        }
    }
    (kernels, references)
}

/// The side-by-side table: for every size, every lab kernel's warm and cold
/// median against CUB's default mode, with the ratio lab / CUB (below 1.00:
/// the lab's kernel is faster), and the host's empty launch against
/// `cub_sum`'s (the two programs' floors); then CUB's `gpu_to_gpu` mode if it
/// ran, and whether CUB's sums equal the lab's reference.
pub fn table(warm: &Bench, cold: &Bench, cub: &Cub) -> String {
    let ratio = |lab: Option<f64>, cub: Option<f64>| match (lab, cub) {
        (Some(l), Some(c)) if c > 0.0 => format!("{:.2}", l / c),
        _ => "-".to_owned(),
    };
    let ms = |t: Option<f64>| t.map_or("-".to_owned(), |t| format!("{t:.4}"));
    let default = cub.times.get("default").cloned().unwrap_or_default();
    let floor = cub.times.get(EMPTY).cloned().unwrap_or_default();
    let mut out = format!(
        "CUB DeviceReduce::Sum (default: run-to-run determinism) beside the lab's kernels, same run,\n\
         median of {RUNS} timed launches after {WARMUP} warm-ups; ratio = lab / CUB (below 1.00: the lab is faster).\n\
         The `{EMPTY}` rows set the host's empty kernel beside cub_sum's: each program's launch floor.\n\
         {}\n\n{:<20} {:>10} {:>10} {:>10} {:>6} {:>10} {:>10} {:>6}\n",
        cub.gpu_to_gpu, "kernel", "n", "lab warm", "CUB warm", "ratio", "lab cold", "CUB cold", "ratio"
    );
    for (&n, &sum) in &default {
        for (kernel, times) in &warm.0 {
            let Some(&lab_warm) = times.get(&n) else { continue };
            let (cub_warm, cub_cold) = if kernel == EMPTY { floor.get(&n).copied().unwrap_or_default() } else { sum };
            let lab_cold = cold.0.get(kernel).and_then(|t| t.get(&n)).copied();
            out.push_str(&format!(
                "{kernel:<20} {n:>10} {:>10} {:>10} {:>6} {:>10} {:>10} {:>6}\n",
                ms(Some(lab_warm)),
                ms(cub_warm),
                ratio(Some(lab_warm), cub_warm),
                ms(lab_cold),
                ms(cub_cold),
                ratio(lab_cold, cub_cold)
            ));
        }
    }
    if let Some(g2g) = cub.times.get("gpu_to_gpu") {
        out.push_str("\nCUB with gpu_to_gpu determinism (environment API, its own temporary storage):\n");
        for (&n, &(w, c)) in g2g {
            out.push_str(&format!("{:<20} {n:>10} {:>10} {:>10}\n", "CUB gpu_to_gpu", ms(w), ms(c)));
        }
    }
    let wrong: Vec<String> = cub
        .sums
        .iter()
        .filter(|(mode, _)| *mode != EMPTY)
        .flat_map(|(mode, sums)| sums.iter().map(move |(n, s)| (mode, n, s)))
        .filter(|(_, n, s)| warm.1.get(n).is_some_and(|r| (*r as f32).to_bits() != (**s as f32).to_bits()))
        .map(|(mode, n, s)| format!("{mode} at n = {n}: {s}"))
        .collect();
    out.push_str(&if wrong.is_empty() {
        "\nEvery CUB sum equals the lab's reference (the input is exact).\n".to_owned()
    } else {
        format!("\nCUB sums that differ from the lab's reference: {}\n", wrong.join("; "))
    });
    out
}

/// Builds `cub_sum.cu`, runs the host's bench warm and cold and the CUB
/// program at `sizes`, and returns what they measured.
pub fn compare(nvcc: &Path, host: &Path, cu: &Path, out: &Path, sizes: &[String]) -> Result<Measured, Error> {
    std::fs::create_dir_all(out).map_err(|e| Error(format!("cannot create {}: {e}", out.display())))?;
    let program = out.join("cub_sum");
    let build = Command::new(nvcc)
        .args(["-O3", "-arch=native", "-std=c++17"])
        .arg(cu)
        .arg("-o")
        .arg(&program)
        .output()
        .map_err(|e| Error(format!("cannot run {}: {e}", nvcc.display())))?;
    if !build.status.success() {
        return Err(Error(format!("nvcc failed on {}: {}", cu.display(), String::from_utf8_lossy(&build.stderr))));
    }
    let list = sizes.join(",");
    let bench = |cold: bool| -> Result<Bench, Error> {
        let mut cmd = Command::new(host);
        cmd.args(["bench", "--sizes", &list, "--runs", RUNS, "--warmup", WARMUP, "--format", "json"]);
        if cold {
            cmd.arg("--cold");
        }
        let output = cmd.output().map_err(|e| Error(format!("cannot run {}: {e}", host.display())))?;
        if !output.status.success() {
            return Err(Error(format!("the bench failed: {}", String::from_utf8_lossy(&output.stderr))));
        }
        let record: Record = serde_json::from_slice(&output.stdout).map_err(|e| Error(format!("bench JSON: {e}")))?;
        parse_bench(&record)
    };
    let (warm, cold) = (bench(false)?, bench(true)?);
    let output = Command::new(&program)
        .args([RUNS, WARMUP])
        .args(sizes)
        .output()
        .map_err(|e| Error(format!("cannot run {}: {e}", program.display())))?;
    if !output.status.success() {
        return Err(Error(format!("cub_sum failed: {}", String::from_utf8_lossy(&output.stderr))));
    }
    let cub = parse_cub(&String::from_utf8_lossy(&output.stdout))?;
    Ok(Measured { warm, cold, cub })
}

/// The lab's bench, warm and cold, and CUB's times, from one run.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Measured {
    /// The host's bench, warm.
    pub warm: Bench,
    /// The host's bench with `--cold`.
    pub cold: Bench,
    /// `cub_sum`'s output.
    pub cub: Cub,
}

impl Measured {
    /// The side-by-side table ([`table`]).
    pub fn table(&self) -> String {
        table(&self.warm, &self.cold, &self.cub)
    }
}

#[cfg(test)]
mod tests {
    use lab_records::host::{BenchRow, SumMeasurement, SweepRow};

    use super::*;

    const CUB: &str = "# gpu_to_gpu: not available: CCCL 3.0.1 has no determinism requirement (it came in 3.1)\n\
                       mode,n,cache,median_ms,sum\n\
                       default,4096,warm,0.006800,96.0\n\
                       default,4096,cold,0.003900,96.0\n\
                       empty launch,4096,warm,0.003000,0.0\n\
                       empty launch,4096,cold,0.002500,0.0\n";

    fn bench(ms: f32) -> Bench {
        let measurement = SumMeasurement { kernel: "deterministic".to_owned(), times_ms: vec![ms, ms, 9.0] };
        let sums = SweepRow { n: 4096, reference: 96.0, measurements: vec![measurement] };
        bench_medians(&BenchReport {
            rows: vec![BenchRow { sums, copy_ms: Vec::new(), empty_ms: vec![0.0031, 0.0031, 0.0040] }],
        })
    }

    #[test]
    fn reads_cub_output_and_bench_records() {
        let cub = parse_cub(CUB).unwrap();
        assert_eq!(cub.times["default"][&4096], (Some(0.0068), Some(0.0039)));
        assert_eq!(cub.sums["default"][&4096], 96.0);
        assert!(cub.gpu_to_gpu.starts_with("gpu_to_gpu: not available"));
        assert!(parse_cub("default,4096,lukewarm,1,2").is_err());
        let (kernels, references) = bench(0.0076);
        assert_eq!(kernels["deterministic"][&4096], f64::from(0.0076f32));
        assert_eq!(references[&4096], 96.0);
    }

    #[test]
    fn the_table_sets_lab_beside_cub_with_the_ratio() {
        let text = table(&bench(0.0076), &bench(0.0099), &parse_cub(CUB).unwrap());
        let row = text.lines().find(|l| l.starts_with("deterministic")).unwrap();
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cells, ["deterministic", "4096", "0.0076", "0.0068", "1.12", "0.0099", "0.0039", "2.54"]);
        assert!(text.contains("Every CUB sum equals the lab's reference"));
        // The launch floors side by side, not the empty kernel against CUB's sum.
        let floor = text.lines().find(|l| l.starts_with(EMPTY)).unwrap();
        let cells: Vec<&str> = floor.split_whitespace().collect();
        assert_eq!(cells, ["empty", "launch", "4096", "0.0031", "0.0030", "1.03", "0.0031", "0.0025", "1.24"]);
    }
}
