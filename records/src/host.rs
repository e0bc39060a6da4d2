//! The host's records, as the lab's other processes read them.
//!
//! Every host command writes one record with `--format json`:
//! `{"tool", "kernel_compiler", "ptx", "device", "results": {"command", ...}}`.
//! The host's own types carry handles of its kernel registry and its GPU
//! wrappers, which serialize by name, so they stay in the host. This module
//! is the typed view of that JSON that `xtask` reads: the envelope, and of
//! the results the sweep's and the bench's rows and the litmus suite's
//! counts, with kernel and placement names as strings. A field it names and the host renames breaks the host's test
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
    /// `host litmus`.
    Litmus(Litmus),
    /// `host litmus --tune`.
    LitmusTune(LitmusTune),
    /// Any other command: its results are not read here.
    #[serde(other)]
    Other,
}

/// `sweep`'s results: the sweep (its determinism table is not read here).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Sweep {
    /// The timed sums.
    pub sweep: SweepReport,
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
