//! The lab's sums beside NVIDIA CUB's `DeviceReduce::Sum`, part of `cargo
//! xtask nvcc-compare`.
//!
//! nvcc builds `xtask/nvcc/cub_sum.cu`, against the pinned CCCL headers where
//! they are installed ([`crate::cccl`]), which times CUB on the bench's own
//! sparse exact input, warm and cold, with the lab's rule (CUDA events, median
//! of the timed launches after the warm-ups): its default through the
//! two-phase API, and where the CCCL has them its three determinism modes
//! through the environment API, both with the lab's hold and as a user calls
//! them. In the same run the host's `bench --format json` times every lab
//! kernel, warm and cold, at the same sizes; [`table`] sets them side by side.
//! Then `cub_sum` sums the accuracy command's generated arrays 20 times in
//! every mode, and [`accuracy_table`] sets each mode's distinct results
//! beside its error against the exactly rounded sum. Parsing and the tables
//! are pure functions, tested here.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use lab_records::BENCH_LADDER_SIZES;
use lab_records::host::{BenchReport, Record, Results};

use crate::Error;
use crate::cccl::Headers;

/// The sizes compared unless told otherwise: the reference run's
/// `bench-ladder` sizes ([`BENCH_LADDER_SIZES`]).
pub fn sizes() -> Vec<String> {
    BENCH_LADDER_SIZES.split(',').map(str::to_owned).collect()
}

/// Timed launches and warm-ups, as the bench's defaults.
pub const RUNS: &str = "10";
/// Untimed launches before them.
pub const WARMUP: &str = "3";

/// Median milliseconds by (n, warm or cold): `(warm, cold)`.
pub type Times = BTreeMap<u64, (Option<f64>, Option<f64>)>;

/// CUB's determinism modes through the environment API, in the order of
/// their promises: none, the same bits run to run on one GPU, the same bits
/// on every GPU.
pub const ENV_MODES: [&str; 3] = ["not_guaranteed", "run_to_run", "gpu_to_gpu"];

/// The default mode: the two-phase API, run-to-run determinism.
pub const DEFAULT: &str = "default";

/// The suffix of an environment mode timed as a user calls it: no hold, the
/// GPU idle when the call begins, so the host's work inside the call (the
/// temporary storage it allocates) is timed too.
pub const AS_CALLED: &str = " as called";

/// Runs of every mode on every array in the accuracy comparison, as
/// `host accuracy` launches each kernel.
pub const ACCURACY_RUNS: usize = 20;

/// What CUB measured: per mode (`default`, each environment mode held and
/// [`AS_CALLED`]) its times and sums, the program's line on which modes its
/// CCCL has, where its headers came from, and its accuracy on the generated
/// arrays.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Cub {
    /// `mode -> n -> (warm, cold)` medians in ms.
    pub times: BTreeMap<String, Times>,
    /// `mode -> n -> sum` of the last launch.
    pub sums: BTreeMap<String, BTreeMap<u64, f64>>,
    /// The `# modes: ...` line, without the `# ` (a run before part 13
    /// wrote a `# gpu_to_gpu: ...` line, kept here as it was).
    #[serde(alias = "gpu_to_gpu")]
    pub modes: String,
    /// Where the CCCL headers came from ([`crate::cccl::Headers::line`]);
    /// empty in a run before part 13.
    #[serde(default)]
    pub headers: String,
    /// Every mode on the accuracy command's arrays; `None` in a run before
    /// part 13.
    #[serde(default)]
    pub accuracy: Option<Accuracy>,
}

/// Reads `cub_sum`'s timing output: comment lines, a header, then
/// `mode,n,cache,median_ms,sum` lines.
pub fn parse_cub(text: &str) -> Result<Cub, Error> {
    let mut cub = Cub::default();
    for line in text.lines() {
        if let Some(comment) = line.strip_prefix("# ") {
            if comment.starts_with("modes") || comment.starts_with("gpu_to_gpu") {
                cub.modes = comment.to_owned();
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
/// `cub_sum`'s (the two programs' floors); then CUB's environment modes that
/// ran, held and as called, the lab's two promising kernels beside the mode
/// of the same promise, and whether CUB's sums equal the lab's reference.
pub fn table(warm: &Bench, cold: &Bench, cub: &Cub) -> String {
    let default = cub.times.get(DEFAULT).cloned().unwrap_or_default();
    let floor = cub.times.get(EMPTY).cloned().unwrap_or_default();
    let mut out = String::from(
        "CUB DeviceReduce::Sum (default: run-to-run determinism, two-phase API) beside the lab's kernels, same run,\n",
    );
    out.push_str(&format!(
        "median of {RUNS} timed launches after {WARMUP} warm-ups; ratio = lab / CUB (below 1.00: the lab is faster).\n\
         The `{EMPTY}` rows set the host's empty kernel beside cub_sum's: each program's launch floor.\n"
    ));
    for line in [&cub.headers, &cub.modes] {
        if !line.is_empty() {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push_str(&format!(
        "\n{:<20} {:>10} {:>10} {:>10} {:>6} {:>10} {:>10} {:>6}\n",
        "kernel", "n", "lab warm", "CUB warm", "ratio", "lab cold", "CUB cold", "ratio"
    ));
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
    out.push_str(&modes_table(cub));
    out.push_str(&promises_table(warm, cold, cub));
    out.push_str(&sums_checked(warm, cub));
    out
}

/// The chapter's view of [`table`]: one row per size, and in it only
/// ratios, lab / CUB, warm then cold: the bandwidth, deterministic and
/// correctly rounded kernels against CUB's default, then the two promising
/// kernels against CUB's mode of the same promise where those modes ran.
/// The CCCL and modes lines, and whether CUB's sums were right, as in
/// [`table`].
pub fn summary(warm: &Bench, cold: &Bench, cub: &Cub) -> String {
    const AGAINST_DEFAULT: [(&str, &str); 3] =
        [("bandwidth", "bandwidth"), ("deterministic", "deterministic"), ("correctly_rounded", "corr. rounded")];
    const PROMISES: [(&str, &str, &str); 2] =
        [("deterministic", "deterministic", "run_to_run"), ("correctly_rounded", "corr. rounded", "gpu_to_gpu")];
    let default = cub.times.get(DEFAULT).cloned().unwrap_or_default();
    let promises: Vec<_> = PROMISES.into_iter().filter(|(_, _, mode)| cub.times.contains_key(*mode)).collect();
    let mut out = format!(
        "lab / CUB DeviceReduce::Sum: ratios of medians ({RUNS} timed launches after {WARMUP} warm-ups),\n\
         warm then cold; below 1.00 the lab is faster. CUB's default is its run-to-run mode.\n"
    );
    for line in [&cub.headers, &cub.modes] {
        if !line.is_empty() {
            out.push_str(line);
            out.push('\n');
        }
    }
    // Two header lines, the lab's kernel over the CUB mode it is set beside;
    // a bar between the columns against the default and the promises.
    let mut names = format!("\n{:>10}", "n");
    let mut modes = format!("{:>10}", "vs CUB:");
    for (_, name) in AGAINST_DEFAULT {
        names.push_str(&format!("  {name:>13}"));
        modes.push_str(&format!("  {DEFAULT:>13}"));
    }
    if !promises.is_empty() {
        names.push_str("  |");
        modes.push_str("  |");
    }
    for (_, name, mode) in &promises {
        names.push_str(&format!("  {name:>13}"));
        modes.push_str(&format!("  {mode:>13}"));
    }
    out.push_str(&format!("{names}\n{modes}\n"));
    let cell = |kernel: &str, mode: &Times, n: u64| {
        let (cub_warm, cub_cold) = mode.get(&n).copied().unwrap_or_default();
        let lab = |bench: &Bench| bench.0.get(kernel).and_then(|t| t.get(&n)).copied();
        format!("  {:>8} {:>4}", ratio(lab(warm), cub_warm), ratio(lab(cold), cub_cold))
    };
    for &n in default.keys() {
        let mut row = format!("{n:>10}");
        for (kernel, _) in AGAINST_DEFAULT {
            row.push_str(&cell(kernel, &default, n));
        }
        if !promises.is_empty() {
            row.push_str("  |");
        }
        for (kernel, _, mode) in &promises {
            row.push_str(&cell(kernel, &cub.times[*mode], n));
        }
        out.push_str(&row);
        out.push('\n');
    }
    out.push_str(&sums_checked(warm, cub));
    out
}

/// Whether every CUB sum equals the lab's reference at its size, in one
/// line, naming each that does not with its mode.
fn sums_checked(warm: &Bench, cub: &Cub) -> String {
    let wrong: Vec<String> = cub
        .sums
        .iter()
        .filter(|(mode, _)| *mode != EMPTY)
        .flat_map(|(mode, sums)| sums.iter().map(move |(n, s)| (mode, n, s)))
        .filter(|(_, n, s)| warm.1.get(n).is_some_and(|r| (*r as f32).to_bits() != (**s as f32).to_bits()))
        .map(|(mode, n, s)| format!("{mode} at n = {n}: {s}"))
        .collect();
    if wrong.is_empty() {
        "\nEvery CUB sum equals the lab's reference (the input is exact).\n".to_owned()
    } else {
        format!("\nCUB sums that differ from the lab's reference: {}\n", wrong.join("; "))
    }
}

/// `lab / cub` to two places, or `-`.
fn ratio(lab: Option<f64>, cub: Option<f64>) -> String {
    match (lab, cub) {
        (Some(l), Some(c)) if c > 0.0 => format!("{:.2}", l / c),
        _ => "-".to_owned(),
    }
}

/// Milliseconds to four places, or `-`.
fn ms(t: Option<f64>) -> String {
    t.map_or("-".to_owned(), |t| format!("{t:.4}"))
}

/// Each environment mode that ran, held and as called, warm and cold, with
/// the difference (as called − held): the host's work inside the call that
/// the hold hides. Empty when no environment mode ran.
pub fn modes_table(cub: &Cub) -> String {
    let ran: Vec<&str> = ENV_MODES.into_iter().filter(|m| cub.times.contains_key(*m)).collect();
    if ran.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\nCUB's determinism modes through the environment API, `Sum(in, out, n, env)` with the stream and\n\
         `cuda::execution::require(determinism)` in `env`; every call allocates and frees its own temporary\n\
         storage (cudaMallocAsync, cudaFreeAsync). held: behind the 50 us hold, as `default` and the lab are\n\
         timed, which hides the host's work inside the call as far as it fits in the hold. as called: no hold\n\
         and an idle GPU at the start event, as for one call from a user, so the host's work inside the call\n\
         is timed too. diff = called - held.\n",
    );
    out.push_str(&format!(
        "\n{:<20} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}\n",
        "mode", "n", "held warm", "called", "diff", "held cold", "called", "diff"
    ));
    let diff = |held: Option<f64>, called: Option<f64>| match (held, called) {
        (Some(h), Some(c)) => format!("{:+.4}", c - h),
        _ => "-".to_owned(),
    };
    for mode in ran {
        let called = cub.times.get(&format!("{mode}{AS_CALLED}"));
        for (&n, &(hw, hc)) in &cub.times[mode] {
            let (cw, cc) = called.and_then(|t| t.get(&n)).copied().unwrap_or_default();
            out.push_str(&format!(
                "{mode:<20} {n:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}\n",
                ms(hw),
                ms(cw),
                diff(hw, cw),
                ms(hc),
                ms(cc),
                diff(hc, cc)
            ));
        }
    }
    out
}

/// The lab's two kernels that promise something beside the CUB mode of the
/// same kind of promise, both held: the deterministic kernel against
/// `run_to_run` (the same bits on every run), the correctly rounded one
/// against `gpu_to_gpu` (the same bits on every GPU; the lab's is also the
/// exactly rounded sum). Empty when neither mode ran.
pub fn promises_table(warm: &Bench, cold: &Bench, cub: &Cub) -> String {
    const PAIRS: [(&str, &str); 2] = [("deterministic", "run_to_run"), ("correctly_rounded", "gpu_to_gpu")];
    let pairs: Vec<_> = PAIRS.into_iter().filter(|(_, mode)| cub.times.contains_key(*mode)).collect();
    if pairs.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "\nThe lab's promising kernels beside CUB's mode of the same promise, both held; ratio = lab / CUB.\n\n\
         {:<20} {:<16} {:>10} {:>10} {:>10} {:>6} {:>10} {:>10} {:>6}\n",
        "kernel", "CUB mode", "n", "lab warm", "CUB warm", "ratio", "lab cold", "CUB cold", "ratio"
    );
    for (kernel, mode) in pairs {
        for (&n, &(cub_warm, cub_cold)) in &cub.times[mode] {
            let lab_warm = warm.0.get(kernel).and_then(|t| t.get(&n)).copied();
            let lab_cold = cold.0.get(kernel).and_then(|t| t.get(&n)).copied();
            out.push_str(&format!(
                "{kernel:<20} {mode:<16} {n:>10} {:>10} {:>10} {:>6} {:>10} {:>10} {:>6}\n",
                ms(lab_warm),
                ms(cub_warm),
                ratio(lab_warm, cub_warm),
                ms(lab_cold),
                ms(cub_cold),
                ratio(lab_cold, cub_cold)
            ));
        }
    }
    out
}

/// Every CUB mode on one array: the accuracy command's generated array of
/// `data` at `n`, its exactly rounded sum, and each mode's result bits, run
/// by run.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AccuracyRow {
    /// The spread (`uniform`, `normal`, `wide`, `cancel`, `tiny`).
    pub data: String,
    /// Elements.
    pub n: u64,
    /// The bits of the exact sum rounded once to the nearest `f32`
    /// (`layout::exact::sum`, on the CPU).
    pub exact: u32,
    /// `mode -> the bits of each run's result`, in run order.
    pub modes: BTreeMap<String, Vec<u32>>,
}

impl AccuracyRow {
    /// The exactly rounded sum.
    pub fn exact(&self) -> f32 {
        f32::from_bits(self.exact)
    }

    /// `mode`'s results as floats, if it ran.
    pub fn sums(&self, mode: &str) -> Option<Vec<f32>> {
        self.modes.get(mode).map(|bits| bits.iter().map(|&b| f32::from_bits(b)).collect())
    }
}

/// CUB on every generated array of `host accuracy`'s defaults.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Accuracy {
    /// Runs of each mode per array.
    pub runs: usize,
    /// One row per array, in the accuracy command's order.
    pub rows: Vec<AccuracyRow>,
}

/// Reads `cub_sum --accuracy`'s output: comment lines, a header, then
/// `file,mode,run,bits` lines, runs in order from 0. Returns `file -> mode ->
/// bits`.
pub fn parse_accuracy(text: &str) -> Result<BTreeMap<String, BTreeMap<String, Vec<u32>>>, Error> {
    let mut out: BTreeMap<String, BTreeMap<String, Vec<u32>>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && *l != "file,mode,run,bits") {
        let bad = || Error(format!("cannot read the CUB accuracy line `{line}`"));
        // The file comes first and may hold commas; the rest cannot.
        let mut cells = line.rsplitn(4, ',');
        let (Some(bits), Some(run), Some(mode), Some(file)) = (cells.next(), cells.next(), cells.next(), cells.next())
        else {
            return Err(bad());
        };
        let bits = u32::from_str_radix(bits, 16).map_err(|_| bad())?;
        let run: usize = run.parse().map_err(|_| bad())?;
        let runs = out.entry(file.to_owned()).or_default().entry(mode.to_owned()).or_default();
        if run != runs.len() {
            return Err(Error(format!("the CUB accuracy line `{line}` is out of order (expected run {})", runs.len())));
        }
        runs.push(bits);
    }
    Ok(out)
}

/// The spread and size of a file that `host accuracy --save-arrays` named
/// `SPREAD-N.f32`.
pub fn array_name(path: &Path) -> Option<(String, u64)> {
    let stem = path.file_name()?.to_str()?.strip_suffix(".f32")?;
    let (spread, n) = stem.rsplit_once('-')?;
    Some((spread.to_owned(), n.parse().ok()?))
}

/// The accuracy table, in Markdown: per array, each mode's distinct results
/// over its runs and its worst error in ulps of the exactly rounded sum.
pub fn accuracy_table(accuracy: &Accuracy) -> String {
    let order: Vec<&str> = [DEFAULT].into_iter().chain(ENV_MODES).collect();
    let ran: Vec<&str> = order.into_iter().filter(|m| accuracy.rows.iter().any(|r| r.modes.contains_key(*m))).collect();
    let mut out = format!(
        "Each cell: distinct results over {} runs / the worst error in ulps of the exactly rounded sum \
         (0: every run exact; NaN: a run returned NaN). `default` is the two-phase API; the others are the \
         environment API with that determinism requirement.\n\n| spread | n |",
        accuracy.runs
    );
    for mode in &ran {
        out.push_str(&format!(" `{mode}` |"));
    }
    out.push_str("\n|---|---:|");
    out.push_str(&"---|".repeat(ran.len()));
    out.push('\n');
    for row in &accuracy.rows {
        out.push_str(&format!("| {} | {} |", row.data, row.n));
        for mode in &ran {
            let cell = match row.sums(mode) {
                None => "-".to_owned(),
                Some(sums) => {
                    let worst: Option<Vec<u64>> =
                        sums.iter().map(|&s| lab_stats::ulps_between(s, row.exact())).collect();
                    let worst = worst.and_then(|w| w.into_iter().max()).map_or("NaN".to_owned(), |w| w.to_string());
                    format!("{} / {worst}", lab_stats::distinct_bits(&sums))
                }
            };
            out.push_str(&format!(" {cell} |"));
        }
        out.push('\n');
    }
    out
}

/// Builds `cub_sum.cu` (against `headers` where found), runs the host's
/// bench warm and cold and the CUB program at `sizes`, then CUB on the
/// accuracy command's arrays, and returns what they measured.
pub fn compare(
    nvcc: &Path,
    host: &Path,
    cu: &Path,
    out: &Path,
    sizes: &[String],
    headers: &Headers,
) -> Result<Measured, Error> {
    std::fs::create_dir_all(out).map_err(|e| Error(format!("cannot create {}: {e}", out.display())))?;
    let program = out.join("cub_sum");
    let mut build = Command::new(nvcc);
    build.args(["-O3", "-arch=native", "-std=c++17"]);
    // `-I` is searched before the toolkit's own CCCL, which nvcc adds with
    // `-isystem`.
    if let Some(include) = headers.include() {
        build.arg("-I").arg(include);
    }
    let build = build
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
    let mut cub = parse_cub(&String::from_utf8_lossy(&output.stdout))?;
    cub.headers = headers.line();
    cub.accuracy = Some(accuracy(host, &program, out)?);
    Ok(Measured { warm, cold, cub })
}

/// CUB on the accuracy command's default arrays: the host writes them
/// (`host accuracy --save-arrays`), `cub_sum --accuracy` sums each
/// [`ACCURACY_RUNS`] times in every mode, and each array's exactly rounded
/// sum comes from the CPU's superaccumulator, `layout::exact::sum`, the one
/// the accuracy command uses. The arrays (320 MiB at the default sizes) are
/// removed afterwards.
fn accuracy(host: &Path, program: &Path, out: &Path) -> Result<Accuracy, Error> {
    let dir = out.join("arrays");
    let saved = Command::new(host)
        .args(["accuracy", "--save-arrays"])
        .arg(&dir)
        .output()
        .map_err(|e| Error(format!("cannot run {}: {e}", host.display())))?;
    if !saved.status.success() {
        return Err(Error(format!("host accuracy --save-arrays failed: {}", String::from_utf8_lossy(&saved.stderr))));
    }
    let files: Vec<PathBuf> = String::from_utf8_lossy(&saved.stdout).lines().map(PathBuf::from).collect();
    let output = Command::new(program)
        .arg("--accuracy")
        .arg(ACCURACY_RUNS.to_string())
        .args(&files)
        .output()
        .map_err(|e| Error(format!("cannot run {}: {e}", program.display())))?;
    if !output.status.success() {
        return Err(Error(format!("cub_sum --accuracy failed: {}", String::from_utf8_lossy(&output.stderr))));
    }
    let mut results = parse_accuracy(&String::from_utf8_lossy(&output.stdout))?;
    let mut rows = Vec::new();
    for file in &files {
        let (data, n) =
            array_name(file).ok_or_else(|| Error(format!("{}: not a SPREAD-N.f32 file", file.display())))?;
        let bytes = std::fs::read(file).map_err(|e| Error(format!("cannot read {}: {e}", file.display())))?;
        let values: Vec<f32> = bytes.chunks_exact(4).map(|w| f32::from_le_bytes([w[0], w[1], w[2], w[3]])).collect();
        let exact = layout::exact::sum(&values).to_bits();
        let modes = results
            .remove(&file.display().to_string())
            .ok_or_else(|| Error(format!("cub_sum --accuracy printed nothing for {}", file.display())))?;
        if let Some((mode, bits)) = modes.iter().find(|(_, bits)| bits.len() != ACCURACY_RUNS) {
            return Err(Error(format!("cub_sum --accuracy ran {mode} {} times on {}", bits.len(), file.display())));
        }
        rows.push(AccuracyRow { data, n, exact, modes });
    }
    std::fs::remove_dir_all(&dir).map_err(|e| Error(format!("cannot remove {}: {e}", dir.display())))?;
    Ok(Accuracy { runs: ACCURACY_RUNS, rows })
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

    /// The ratios alone, a row per size ([`summary`]).
    pub fn summary(&self) -> String {
        summary(&self.warm, &self.cold, &self.cub)
    }

    /// The accuracy table ([`accuracy_table`]), if the run has one.
    pub fn accuracy_table(&self) -> Option<String> {
        self.cub.accuracy.as_ref().map(accuracy_table)
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
        assert!(cub.modes.starts_with("gpu_to_gpu: not available"));
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

    /// A run with CCCL 3.5: every mode, held and as called.
    const MODES: &str = "# modes: not_guaranteed, run_to_run and gpu_to_gpu available (CCCL 3.5.0)\n\
                         mode,n,cache,median_ms,sum\n\
                         default,4096,warm,0.006800,96.0\n\
                         default,4096,cold,0.003900,96.0\n\
                         not_guaranteed,4096,warm,0.004000,96.0\n\
                         not_guaranteed,4096,cold,0.005000,96.0\n\
                         not_guaranteed as called,4096,warm,0.070000,96.0\n\
                         not_guaranteed as called,4096,cold,0.021100,96.0\n\
                         run_to_run,4096,warm,0.006000,96.0\n\
                         run_to_run,4096,cold,0.007000,96.0\n\
                         run_to_run as called,4096,warm,0.072000,96.0\n\
                         run_to_run as called,4096,cold,0.018800,96.0\n\
                         gpu_to_gpu,4096,warm,0.010000,96.0\n\
                         gpu_to_gpu,4096,cold,0.012000,95.0\n\
                         gpu_to_gpu as called,4096,warm,0.080000,96.0\n\
                         gpu_to_gpu as called,4096,cold,0.030500,96.0\n";

    fn cells(text: &str, start: &str) -> Vec<String> {
        let row = text.lines().find(|l| l.starts_with(start)).unwrap_or_else(|| panic!("no row {start}:\n{text}"));
        row.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn the_modes_are_read_held_and_as_called() {
        let cub = parse_cub(MODES).unwrap();
        assert!(cub.modes.starts_with("modes: not_guaranteed, run_to_run and gpu_to_gpu available"));
        assert_eq!(cub.times["gpu_to_gpu"][&4096], (Some(0.01), Some(0.012)));
        assert_eq!(cub.times["run_to_run as called"][&4096], (Some(0.072), Some(0.0188)));
        assert_eq!(cub.times.len(), 7);
    }

    #[test]
    fn the_table_sets_held_beside_as_called_and_each_promise_beside_its_mode() {
        let cub = Cub { headers: "CUB from the CCCL 3.5.0 headers".to_owned(), ..parse_cub(MODES).unwrap() };
        let text = table(&bench(0.0076), &bench(0.0099), &cub);
        assert!(text.contains("CUB from the CCCL 3.5.0 headers\nmodes: not_guaranteed"), "{text}");
        // held, called and their difference, warm then cold.
        assert_eq!(
            cells(&text, "run_to_run "),
            ["run_to_run", "4096", "0.0060", "0.0720", "+0.0660", "0.0070", "0.0188", "+0.0118"]
        );
        assert_eq!(cells(&text, "not_guaranteed ")[2..5], ["0.0040", "0.0700", "+0.0660"]);
        // The deterministic kernel beside run_to_run, both held; no
        // correctly rounded kernel in this bench, so its row has no times.
        assert_eq!(
            cells(&text, "deterministic        run_to_run"),
            ["deterministic", "run_to_run", "4096", "0.0076", "0.0060", "1.27", "0.0099", "0.0070", "1.41"]
        );
        assert_eq!(cells(&text, "correctly_rounded")[3..6], ["-", "0.0100", "-"]);
        // The one wrong sum is named, with its mode.
        assert!(text.contains("CUB sums that differ from the lab's reference: gpu_to_gpu at n = 4096: 95"), "{text}");
        // A run without the modes has neither section.
        let old = table(&bench(0.0076), &bench(0.0099), &parse_cub(CUB).unwrap());
        assert!(!old.contains("environment API") && !old.contains("promising kernels"));
    }

    #[test]
    fn the_summary_is_a_row_of_ratios_per_size_each_promise_beside_its_mode() {
        let cub = Cub { headers: "CUB from the CCCL 3.5.0 headers".to_owned(), ..parse_cub(MODES).unwrap() };
        let text = summary(&bench(0.0076), &bench(0.0099), &cub);
        assert!(text.contains("CUB from the CCCL 3.5.0 headers\nmodes: not_guaranteed"), "{text}");
        // Bandwidth (not in this bench), deterministic and correctly rounded
        // (not in it either) against the default, warm then cold; then the
        // deterministic kernel beside run_to_run and the correctly rounded
        // one beside gpu_to_gpu.
        let row: Vec<&str> =
            text.lines().find(|l| l.trim_start().starts_with("4096")).unwrap().split_whitespace().collect();
        assert_eq!(row, ["4096", "-", "-", "1.12", "2.54", "-", "-", "|", "1.27", "1.41", "-", "-"]);
        assert!(text.contains("CUB sums that differ from the lab's reference: gpu_to_gpu at n = 4096: 95"), "{text}");
        // A run without the modes has no promise columns.
        let old = summary(&bench(0.0076), &bench(0.0099), &parse_cub(CUB).unwrap());
        assert!(!old.contains('|') && !old.contains("  run_to_run"), "{old}");
    }

    #[test]
    fn the_reference_runs_json_before_part_13_still_parses() {
        let path = crate::paths::workspace_root().join("results/h200/nvcc-compare.json");
        let text = std::fs::read_to_string(&path).unwrap();
        let comparison: crate::nvcc::Comparison = serde_json::from_str(&text).unwrap();
        assert!(comparison.cub.cub.times.contains_key(DEFAULT));
        // Whichever line it kept, the report renders; a run without the
        // accuracy has no table, and the book says so.
        assert!(comparison.report().contains("CUB DeviceReduce::Sum"));
        if comparison.cub.cub.accuracy.is_none() {
            assert!(crate::book::cub_accuracy(&comparison, "h200").starts_with("*Not in this run: h200/"));
        }
        // What this version writes, it reads back.
        let again: crate::nvcc::Comparison =
            serde_json::from_str(&serde_json::to_string(&comparison).unwrap()).unwrap();
        assert_eq!(again, comparison);
    }

    #[test]
    fn accuracy_lines_are_read_in_run_order_and_bad_ones_refused() {
        let text = "# modes: ...\nfile,mode,run,bits\n\
                    d/uniform-4096.f32,default,0,44fff333\nd/uniform-4096.f32,default,1,44fff333\n\
                    d/uniform-4096.f32,not_guaranteed,0,44fff334\n";
        let read = parse_accuracy(text).unwrap();
        assert_eq!(read["d/uniform-4096.f32"]["default"], [0x44fff333, 0x44fff333]);
        assert_eq!(read["d/uniform-4096.f32"]["not_guaranteed"], [0x44fff334]);
        assert!(parse_accuracy("f,default,1,0").unwrap_err().0.contains("out of order (expected run 0)"));
        assert!(parse_accuracy("f,default,0,xyz").is_err());
        assert!(parse_accuracy("f,default,0").is_err());
        assert_eq!(array_name(Path::new("a/b/cancel-1048576.f32")), Some(("cancel".to_owned(), 1 << 20)));
        assert_eq!(array_name(Path::new("a/uniform.f32")), None);
        assert_eq!(array_name(Path::new("a/uniform-12.npy")), None);
    }

    #[test]
    fn the_accuracy_table_shows_distinct_results_beside_the_worst_error() {
        let exact = 1.0f32;
        let up = |k: u32| exact.to_bits() + k;
        let modes = BTreeMap::from([
            ("default".to_owned(), vec![up(1); 3]),
            ("not_guaranteed".to_owned(), vec![up(0), up(2), up(1)]),
            ("gpu_to_gpu".to_owned(), vec![f32::NAN.to_bits(); 3]),
        ]);
        let row = AccuracyRow { data: "uniform".to_owned(), n: 4096, exact: exact.to_bits(), modes };
        let text = accuracy_table(&Accuracy { runs: 3, rows: vec![row] });
        assert!(text.starts_with("Each cell: distinct results over 3 runs / the worst error in ulps"));
        // Columns in the order of the promises, only the modes that ran.
        assert!(
            text.contains("| spread | n | `default` | `not_guaranteed` | `gpu_to_gpu` |\n|---|---:|---|---|---|\n")
        );
        assert!(text.contains("| uniform | 4096 | 1 / 1 | 3 / 2 | 1 / NaN |\n"), "{text}");
    }
}
