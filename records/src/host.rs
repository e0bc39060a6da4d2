//! The host's records, as the lab's other processes read them.
//!
//! Every host command writes one record with `--format json`:
//! `{"tool", "kernel_compiler", "ptx", "device", "results": {"command", ...}}`.
//! The host's own types carry handles of its kernel registry and its GPU
//! wrappers, which serialize by name, so they stay in the host. This module
//! is the typed view of that JSON that `xtask` and `host compare` read: the
//! envelope, and of the results the sweep's and the bench's rows, the
//! accuracy run's sums, the scope ladder's round trips and the litmus
//! suite's counts, with kernel and placement names as strings. A field it
//! names and the host renames breaks the host's test
//! that reads every golden record through this view, not a figure.
//!
//! The view reads what it names and ignores the rest, so the host may add
//! fields and commands without a change here.

use serde::{Deserialize, Deserializer};

/// One record, as `host <command> --format json` writes it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Record {
    /// The host's name and version.
    pub tool: String,
    /// The toolchain that compiled the kernels to PTX.
    pub kernel_compiler: String,
    /// Where the PTX came from.
    pub ptx: String,
    /// The GPU and its driver.
    pub device: Device,
    /// What was measured.
    pub results: Results,
    /// Ctrl-C stopped the run before it finished; absent means false.
    #[serde(default)]
    pub partial: bool,
}

/// The GPU and its driver, as the host read them.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Device {
    /// The marketing name, e.g. `NVIDIA H200`.
    pub name: String,
    /// Compute capability (major, minor).
    pub compute_capability: (i32, i32),
    /// Streaming multiprocessors.
    pub sm_count: u32,
    /// The CUDA version the driver supports (major, minor).
    pub driver_cuda_version: (i32, i32),
    /// Bytes of L2 cache.
    pub l2_bytes: u64,
    /// The memory clock in kHz, if the driver reports one.
    pub memory_clock_khz: Option<u32>,
    /// The memory bus width in bits, if the driver reports one.
    pub memory_bus_bits: Option<u32>,
}

/// What the command measured, by the record's `command`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "command", rename_all = "kebab-case")]
pub enum Results {
    /// `host sweep`.
    Sweep(Sweep),
    /// `host bench`.
    Bench(BenchReport),
    /// `host accuracy`.
    Accuracy(AccuracyReport),
    /// `host scopes`.
    Scopes(ScopesResults),
    /// `host litmus`.
    Litmus(Litmus),
    /// `host litmus --tune`.
    LitmusTune(LitmusTune),
    /// Any other command: its results are not read here.
    #[serde(other)]
    Other,
}

/// `sweep`'s results: the sweep and its determinism table.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Sweep {
    /// The timed sums.
    pub sweep: SweepReport,
    /// The determinism table, where the sweep made one.
    #[serde(default)]
    pub determinism: Option<Determinism>,
}

/// The determinism table: each kernel's sums of one inexact array.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Determinism {
    /// Elements summed.
    pub n: u64,
    /// Each kernel's registry name and its sums, one per run.
    pub sums: Vec<(String, Vec<f32>)>,
}

/// The timed sums of a sweep, one row per size.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct SweepReport {
    /// One row per size, in the order given.
    pub rows: Vec<SweepRow>,
}

/// One size: the reference sum and each kernel's measurement.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct SweepRow {
    /// Elements summed.
    pub n: u64,
    /// The CPU's reference sum; NaN where the JSON has `null`, as
    /// `serde_json` writes a NaN.
    #[serde(deserialize_with = "number_or_nan")]
    pub reference: f64,
    /// One measurement per kernel, in the host's order.
    pub measurements: Vec<SumMeasurement>,
}

/// One kernel's launches at one size.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct SumMeasurement {
    /// The kernel's registry name, e.g. `tree_atomic` (its symbol without
    /// the family's `sum_` prefix).
    pub kernel: String,
    /// Milliseconds of each timed launch, in launch order.
    pub times_ms: Vec<f32>,
}

/// `bench`'s results, one row per size.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct BenchReport {
    /// One row per size.
    pub rows: Vec<BenchRow>,
}

/// One size of the bench: the sums and the two yardsticks.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct BenchRow {
    /// The sums, their reference and the kernels' timings.
    pub sums: SweepRow,
    /// Each timed copy of `n` floats, in ms.
    pub copy_ms: Vec<f32>,
    /// Each timed empty launch, in ms.
    pub empty_ms: Vec<f32>,
}

/// `accuracy`'s results: the arrays it summed and each method's sums.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct AccuracyReport {
    /// How the arrays were made; two runs with equal options summed the
    /// same arrays.
    pub options: AccuracyOptions,
    /// One row per array.
    pub rows: Vec<AccuracyRow>,
}

/// The accuracy run's arrays and block size.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct AccuracyOptions {
    /// Where the arrays came from.
    pub data: Data,
    /// Threads per block.
    pub block: u32,
}

/// The accuracy run's arrays.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Data {
    /// One array read from a file.
    File(String),
    /// Arrays drawn from a seed: each spread at each size.
    Generated {
        /// The spreads, by name.
        spreads: Vec<String>,
        /// The sizes.
        sizes: Vec<u64>,
        /// The generator's seed.
        seed: u64,
    },
}

/// One array of the accuracy run.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct AccuracyRow {
    /// Its spread (`uniform`, `normal`, ...) or file.
    pub data: String,
    /// Elements.
    pub n: u64,
    /// Each method's sums.
    pub results: Vec<MethodResult>,
}

/// One method's sums of one array.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct MethodResult {
    /// A GPU kernel or a CPU strategy.
    pub method: Method,
    /// The sum of each launch (or call), as `f32` bits: the host writes a
    /// NaN or an infinity by name.
    #[serde(deserialize_with = "f32_bits")]
    pub sums: Vec<u32>,
}

/// How a sum was made.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// A sum kernel, by its registry name.
    Gpu(String),
    /// A CPU strategy, by name.
    Cpu(String),
}

/// `scopes`' results: one row per rung of the ladder.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ScopesResults {
    /// The rungs, narrowest scope first.
    pub rungs: Vec<Rung>,
}

/// One rung: its agents and, where it ran, its round trips.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Rung {
    /// The rung's name (`cta`, `cluster`, `gpu`, `sys`).
    pub rung: String,
    /// The two agents of its round trip.
    pub agents: String,
    /// The round trips, where the rung ran.
    pub trips: Option<Trips>,
}

/// A rung's round trips.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Trips {
    /// One round trip as the device's clock timed it, if any completed.
    pub device: Option<Spread>,
}

/// A spread of timings.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Spread {
    /// The median, in ns.
    pub median_ns: f64,
}

/// `f32`s as their bits; `NaN`, `inf` and `-inf` as the host names them.
fn f32_bits<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u32>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Written {
        Number(f32),
        Name(String),
    }
    Vec::<Written>::deserialize(deserializer)?
        .into_iter()
        .map(|w| match w {
            Written::Number(x) => Ok(x.to_bits()),
            Written::Name(name) => match name.as_str() {
                "NaN" => Ok(f32::NAN.to_bits()),
                "inf" => Ok(f32::INFINITY.to_bits()),
                "-inf" => Ok(f32::NEG_INFINITY.to_bits()),
                other => Err(serde::de::Error::custom(format!("`{other}` is not a float"))),
            },
        })
        .collect()
}

/// `litmus`'s results: one row per test, variant and placement (the options
/// they ran with are not read here).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Litmus {
    /// The rows, in the order the host ran them.
    pub rows: Vec<LitmusRow>,
}

/// `litmus --tune`'s results: every kernel in each environment drawn.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct LitmusTune {
    /// One per environment, in the order drawn.
    pub trials: Vec<LitmusTrial>,
}

/// One environment of a tuning search (the environment itself is not read
/// here) and what every kernel counted in it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct LitmusTrial {
    /// Its place in the search, from 0.
    pub index: usize,
    /// One row per kernel and placement.
    pub rows: Vec<LitmusRow>,
}

/// One litmus kernel in one placement: what its instances did.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct LitmusRow {
    /// The test in its variant, e.g. `wrc_relaxed_gpu` (the kernel's symbol
    /// without its `litmus_` prefix).
    pub kernel: String,
    /// Where the instance's threads ran, e.g. `inter-block`.
    pub placement: String,
    /// Whether the run was the sequential control.
    pub sequential: bool,
    /// Whether the memory model allows the test's weak outcome here.
    pub allowed: bool,
    /// The counts.
    pub counts: LitmusCounts,
}

/// What one run of one litmus kernel counted.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct LitmusCounts {
    /// Instances run.
    pub instances: u64,
    /// Instances per outcome bin (`layout::litmus::outcome_bin`).
    pub histogram: Vec<u64>,
    /// Wall-clock seconds from the first launch to the last result.
    pub seconds: f64,
}

/// A number, or NaN for `null`.
fn number_or_nan<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(deserializer)?.unwrap_or(f64::NAN))
}
