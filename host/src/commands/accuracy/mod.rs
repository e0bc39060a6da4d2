//! How accurate is each sum: every sum kernel and the CPU strategies a reader
//! knows, on generated arrays or the user's own, against the exact sum rounded
//! once ([`exact`]). The GPU kernels run many times, since an atomic sum can
//! differ between runs; the CPU strategies are functions of the array and run
//! once.

pub mod args;
pub mod report;

pub use args::AccuracyArgs;

use std::path::PathBuf;
use std::time::Instant;

use layout::sum::Promise;

use crate::error::LabError;
use crate::gpu::sum::{SumKernel, SumKernels};
use crate::gpu::timing::Plan;
use crate::input::{self, Spread};
use crate::launch::Block;
use crate::progress::Progress;
use crate::strategies::CpuSum;
use crate::{exact, interrupt, stats};

/// The default sizes of generated arrays: 2^12 to 2^24 in steps of 16.
pub const DEFAULT_SIZES: [usize; 4] = [4096, 65_536, 1 << 20, 1 << 24];

/// Where the arrays come from.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Data {
    /// The user's file, read and checked before the GPU was opened.
    File(PathBuf),
    /// Generated arrays: every spread at every size, from one seed.
    Generated {
        /// The spreads.
        spreads: Vec<Spread>,
        /// The sizes.
        sizes: Vec<usize>,
        /// The seed of every array.
        seed: u64,
    },
}

/// What one accuracy run measures.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct AccuracyOptions {
    /// The arrays.
    pub data: Data,
    /// Threads per block for every kernel.
    pub block: Block,
    /// Launches per GPU kernel.
    pub runs: usize,
}

/// Who computed a sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// A sum kernel on the GPU.
    Gpu(SumKernel),
    /// A strategy on the CPU.
    Cpu(CpuSum),
}

impl Method {
    /// The name in tables and plots.
    pub fn label(self) -> &'static str {
        match self {
            Method::Gpu(kernel) => kernel.label,
            Method::Cpu(strategy) => strategy.label(),
        }
    }

    /// What the method promises about its results.
    pub fn promise(self) -> Promise {
        match self {
            Method::Gpu(kernel) => kernel.promise,
            // A CPU strategy is a function of the array: reproducible, and
            // no more.
            Method::Cpu(_) => Promise::Reproducible,
        }
    }
}

/// Every result of one method on one array.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MethodResult {
    /// Who.
    pub method: Method,
    /// Each run's sum, in run order.
    #[serde(with = "crate::float_json::many")]
    pub sums: Vec<f32>,
}

/// Whether two results are the same answer: the same bits, or both NaN
/// (whose payloads say nothing about a sum).
pub fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

impl MethodResult {
    /// Bitwise-distinct results.
    pub fn distinct(&self) -> usize {
        stats::distinct_bits(&self.sums)
    }

    /// Each run's error against `exact`, in units in the last place; `None`
    /// for a run where either is NaN.
    pub fn ulps(&self, exact: f32) -> Vec<Option<u64>> {
        self.sums.iter().map(|&s| stats::ulps_between(s, exact)).collect()
    }

    /// The largest error in ulps, if every run has one.
    pub fn worst_ulps(&self, exact: f32) -> Option<u64> {
        self.ulps(exact).into_iter().collect::<Option<Vec<_>>>()?.into_iter().max()
    }

    /// The median error in ulps, if every run has one.
    pub fn median_ulps(&self, exact: f32) -> Option<u64> {
        stats::median_u64(&self.ulps(exact).into_iter().collect::<Option<Vec<_>>>()?)
    }

    /// The largest relative error, if every run has one.
    pub fn worst_relative(&self, exact: f32) -> Option<f64> {
        self.sums.iter().map(|&s| stats::relative_error(s, exact)).try_fold(0.0f64, |worst, e| Some(worst.max(e?)))
    }

    /// Whether the results keep the method's promise: one value for a
    /// reproducible one, the exact sum for a correctly rounded one.
    pub fn keeps_promise(&self, exact: f32) -> bool {
        match self.method.promise() {
            Promise::Nothing => true,
            Promise::Reproducible => self.sums.iter().all(|&s| same(s, self.sums[0])),
            Promise::CorrectlyRounded => self.sums.iter().all(|&s| same(s, exact)),
        }
    }
}

/// One array: its exact sum and every method's results.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AccuracyRow {
    /// The spread's name, or the file's.
    pub data: String,
    /// Elements.
    pub n: usize,
    /// The exact sum rounded once to the nearest `f32` (CPU).
    #[serde(with = "crate::float_json::one")]
    pub exact: f32,
    /// Milliseconds the CPU reference took, on one core.
    pub reference_ms: f64,
    /// Every method, GPU kernels first, in registry order.
    pub results: Vec<MethodResult>,
}

/// A finished accuracy run.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AccuracyReport {
    /// The options it ran with.
    pub options: AccuracyOptions,
    /// One row per array.
    pub rows: Vec<AccuracyRow>,
}

/// A method that broke its promise on one array.
#[derive(Clone, Debug, PartialEq)]
pub struct Broken {
    /// The array.
    pub data: String,
    /// Its size.
    pub n: usize,
    /// Who.
    pub method: Method,
    /// The exact sum.
    pub exact: f32,
    /// What it returned, run by run.
    pub sums: Vec<f32>,
}

impl AccuracyReport {
    /// Every method that broke its promise.
    pub fn broken(&self) -> Vec<Broken> {
        self.rows
            .iter()
            .flat_map(|row| {
                row.results.iter().filter(|r| !r.keeps_promise(row.exact)).map(|r| Broken {
                    data: row.data.clone(),
                    n: row.n,
                    method: r.method,
                    exact: row.exact,
                    sums: r.sums.clone(),
                })
            })
            .collect()
    }
}

/// Runs every method on `values`, named `data`.
pub fn measure(
    kernels: &SumKernels<'_>,
    data: &str,
    values: &[f32],
    options: &AccuracyOptions,
    progress: &Progress,
) -> Result<AccuracyRow, LabError> {
    let n = values.len();
    let start = Instant::now();
    let exact = exact::sum(values);
    let reference_ms = start.elapsed().as_secs_f64() * 1e3;
    let device_input = kernels.upload(values)?;
    let mut results = Vec::new();
    // The same kernels as `bench`: a per-element atomic kernel sits out
    // past 2^24.
    for kernel in crate::sums::kernels_at(n) {
        progress.message(format!("{data}, n = {n}: {}", kernel.label));
        let plan = Plan { warmup: options.runs, runs: 0, cold: false };
        let sums = kernels.measure(kernel, &device_input, options.block, plan)?.sums;
        results.push(MethodResult { method: Method::Gpu(kernel), sums });
    }
    for strategy in CpuSum::ALL {
        results.push(MethodResult { method: Method::Cpu(strategy), sums: vec![strategy.sum(values)] });
    }
    progress.step();
    Ok(AccuracyRow { data: data.to_owned(), n, exact, reference_ms, results })
}

/// Runs the whole report: the user's `values` if given (read from the file
/// the options name), else every generated array.
///
/// After Ctrl-C ([`interrupt::requested`]) it stops before the next array
/// and returns the arrays it finished.
pub fn run(
    kernels: &SumKernels<'_>,
    options: &AccuracyOptions,
    file_values: Option<&[f32]>,
    progress: &Progress,
) -> Result<AccuracyReport, LabError> {
    let mut rows = Vec::new();
    match (&options.data, file_values) {
        (Data::File(path), Some(values)) => {
            progress.start(1);
            let name = path.file_name().map_or_else(|| path.display().to_string(), |f| f.to_string_lossy().into());
            if !interrupt::requested() {
                rows.push(measure(kernels, &name, values, options, progress)?);
            }
        }
        (Data::Generated { spreads, sizes, seed }, _) => {
            progress.start((spreads.len() * sizes.len()) as u64);
            'arrays: for &spread in spreads {
                for &n in sizes {
                    if interrupt::requested() {
                        break 'arrays;
                    }
                    let values = input::spread(spread, n, *seed);
                    rows.push(measure(kernels, spread.name(), &values, options, progress)?);
                }
            }
        }
        (Data::File(path), None) => unreachable!("app reads {} before the GPU is opened", path.display()),
    }
    progress.finish();
    Ok(AccuracyReport { options: options.clone(), rows })
}

#[cfg(test)]
mod tests {
    use layout::sum;

    use super::*;

    fn result(method: Method, sums: &[f32]) -> MethodResult {
        MethodResult { method, sums: sums.to_vec() }
    }

    #[test]
    fn errors_in_ulps_and_their_summaries() {
        let one_up = 1.0 + f32::EPSILON;
        let r =
            result(Method::Gpu(SumKernel::of(&sum::GLOBAL_ATOMIC)), &[1.0, one_up, one_up, 1.0 + 3.0 * f32::EPSILON]);
        assert_eq!(r.distinct(), 3);
        assert_eq!(r.worst_ulps(1.0), Some(3));
        assert_eq!(r.median_ulps(1.0), Some(1));
        assert_eq!(r.worst_relative(1.0), Some(3.0 * f64::from(f32::EPSILON)));
        let nan = result(Method::Cpu(CpuSum::Sequential), &[f32::NAN]);
        assert_eq!((nan.worst_ulps(1.0), nan.worst_relative(1.0)), (None, None));
    }

    #[test]
    fn promises_are_held_to_their_words() {
        let rounded = Method::Gpu(SumKernel::of(&sum::CORRECTLY_ROUNDED));
        assert!(result(rounded, &[2.0, 2.0]).keeps_promise(2.0));
        assert!(!result(rounded, &[2.0, 2.0]).keeps_promise(2.5), "reproducible is not enough");
        assert!(result(rounded, &[f32::NAN]).keeps_promise(-f32::NAN), "NaN is NaN whatever its payload");
        let deterministic = Method::Gpu(SumKernel::of(&sum::DETERMINISTIC));
        assert!(result(deterministic, &[2.5, 2.5]).keeps_promise(2.0));
        assert!(!result(deterministic, &[2.5, 2.0]).keeps_promise(2.0));
        assert!(!result(deterministic, &[0.0, -0.0]).keeps_promise(0.0), "a changed sign bit is a change");
        let atomic = Method::Gpu(SumKernel::of(&sum::GLOBAL_ATOMIC));
        assert!(result(atomic, &[1.0, 3.0]).keeps_promise(2.0), "no promise, nothing broken");
    }
}
