//! The comparison of two evidence runs: each run's records read through
//! `lab_records::host`, the headline figures paired with B's time as a ratio
//! of A's, and the check that the reproducible sums gave the same bits. The
//! flags (`args.rs`) and the tables (`report.rs`) both read these types.

use std::path::{Path, PathBuf};

use lab_records::host::{self as view, AccuracyReport, BenchReport, Method, Results, ScopesResults, Sweep};
use lab_records::{MANIFEST, Manifest};
use layout::sum::Promise;

use crate::error::LabError;
use crate::gpu::sum::SumKernel;
use crate::stats;

/// One evidence run, as read from its directory.
#[derive(Debug)]
pub struct Run {
    /// The directory, as given.
    pub dir: PathBuf,
    /// Its manifest: the GPU, driver, commit and date.
    pub manifest: Manifest,
    /// The page's sweep at block 256, if the run has it.
    pub sweep: Option<Sweep>,
    /// The bench ladder (warm), if the run has it.
    pub bench: Option<BenchReport>,
    /// The scope ladder, if the run has it.
    pub scopes: Option<ScopesResults>,
    /// The accuracy run, if the run has it.
    pub accuracy: Option<AccuracyReport>,
}

/// The records the comparison reads, by step name.
const SWEEP: &str = "sweep-256";
const BENCH: &str = "bench";
const SCOPES: &str = "scopes";
const ACCURACY: &str = "accuracy";

impl Run {
    /// The files the comparison reads in `dir`: its manifest and each
    /// record it takes, where the run made them.
    pub fn inputs(dir: &Path) -> Vec<PathBuf> {
        std::iter::once(dir.join(MANIFEST))
            .chain([SWEEP, BENCH, SCOPES, ACCURACY].map(|step| dir.join(format!("{step}.json"))))
            .filter(|path| path.exists())
            .collect()
    }

    /// Reads the run in `dir`: its manifest must be there; each record is
    /// read where the run made it, and a record that is there but does not
    /// read is an error, naming the file.
    pub fn read(dir: &Path) -> Result<Run, LabError> {
        let data_error = |path: &Path, reason: String| LabError::DataFile { path: path.to_path_buf(), reason };
        let manifest_path = dir.join(MANIFEST);
        if !manifest_path.exists() {
            return Err(data_error(
                &manifest_path,
                "not an evidence run (make one with `host evidence DIR`)".to_owned(),
            ));
        }
        let text = crate::commands::read_input(&manifest_path)?;
        let manifest: Manifest = serde_json::from_str(&text)
            .map_err(|e| data_error(&manifest_path, format!("not a manifest written by `host evidence` ({e})")))?;
        if manifest.tool != crate::commands::tool() {
            eprintln!(
                "warning: {} was written by {}, and this is {}: its records may read differently",
                manifest_path.display(),
                manifest.tool,
                crate::commands::tool()
            );
        }
        let run = Run {
            dir: dir.to_path_buf(),
            sweep: record(dir, &manifest, SWEEP, |r| if let Results::Sweep(r) = r { Some(r) } else { None })?,
            bench: record(dir, &manifest, BENCH, |r| if let Results::Bench(r) = r { Some(r) } else { None })?,
            scopes: record(dir, &manifest, SCOPES, |r| if let Results::Scopes(r) = r { Some(r) } else { None })?,
            accuracy: record(dir, &manifest, ACCURACY, |r| if let Results::Accuracy(r) = r { Some(r) } else { None })?,
            manifest,
        };
        run.times_are_measurements()?;
        Ok(run)
    }

    /// Every time the comparison divides is finite and above zero: a record
    /// whose times are not is refused, naming it, before any ratio is made
    /// of them.
    fn times_are_measurements(&self) -> Result<(), LabError> {
        let refuse = |step: &str, what: String, t: f64| LabError::DataFile {
            path: self.dir.join(format!("{step}.json")),
            reason: format!("{what} took {t} ms: a time is finite and above zero"),
        };
        let sums = |step: &str, n: u64, measurements: &[view::SumMeasurement]| {
            for m in measurements {
                if let Some(&t) = m.times_ms.iter().find(|t| !(t.is_finite() && **t > 0.0)) {
                    return Err(refuse(step, format!("`{}` at n = {n}", m.kernel), f64::from(t)));
                }
            }
            Ok(())
        };
        for row in self.sweep.iter().flat_map(|s| &s.sweep.rows) {
            sums(SWEEP, row.n, &row.measurements)?;
        }
        for row in self.bench.iter().flat_map(|b| &b.rows) {
            sums(BENCH, row.sums.n, &row.sums.measurements)?;
        }
        for rung in self.scopes.iter().flat_map(|s| &s.rungs) {
            if let Some(median) = rung.trips.as_ref().and_then(|t| t.device.as_ref()).map(|d| d.median_ns)
                && !(median.is_finite() && median > 0.0)
            {
                return Err(refuse(SCOPES, format!("the rung {}'s round trip", rung.rung), median / 1e6));
            }
        }
        Ok(())
    }
}

/// The record of `step` in `dir` as the command `pick` takes, if the run
/// made it; a file that does not read, holds another command's record, or
/// that the run's `manifest` lists and is not there, is an error naming it.
fn record<T>(
    dir: &Path,
    manifest: &Manifest,
    step: &str,
    pick: fn(Results) -> Option<T>,
) -> Result<Option<T>, LabError> {
    let file = format!("{step}.json");
    let path = dir.join(&file);
    if !path.exists() {
        if manifest.steps.iter().any(|s| s.files.contains(&file)) {
            return Err(LabError::DataFile {
                path,
                reason: "the run's manifest lists it, and it is not there: the run is incomplete".to_owned(),
            });
        }
        return Ok(None);
    }
    let data_error = |reason: String| LabError::DataFile { path: path.clone(), reason };
    let text = crate::commands::read_input(&path)?;
    let record: view::Record = serde_json::from_str(&text)
        .map_err(|e| data_error(format!("not a record written by `--format json` ({e})")))?;
    pick(record.results).map(Some).ok_or_else(|| data_error("holds another command's record".to_owned()))
}

/// One figure measured in both runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    /// What was measured: a kernel at a size, a rung.
    pub what: String,
    /// Run A's median.
    pub a: f64,
    /// Run B's median.
    pub b: f64,
}

impl Pair {
    /// B over A: above 1, B took longer.
    pub fn ratio(&self) -> f64 {
        self.b / self.a
    }
}

/// The bits of one reproducible sum on one array, in both runs.
#[derive(Clone, Debug, PartialEq)]
pub struct BitCheck {
    /// The array (its spread) and its size.
    pub data: String,
    /// Elements.
    pub n: u64,
    /// The method, as tables name it.
    pub method: &'static str,
    /// Which launch, from 0: every launch both runs made is compared.
    pub launch: usize,
    /// Run A's sum as `f32` bits.
    pub a: u32,
    /// Run B's.
    pub b: u32,
}

impl BitCheck {
    /// The two runs gave the same bits.
    pub fn same(&self) -> bool {
        self.a == self.b
    }
}

/// The comparison of two runs.
#[derive(Debug)]
pub struct Comparison {
    /// Run A and run B.
    pub runs: [Run; 2],
    /// The page's three sums at each size both sweeps ran: median ms.
    pub sweep: Vec<Pair>,
    /// Every kernel both benches ran at their largest common size: median ms.
    pub bench_large: Vec<Pair>,
    /// The same at their smallest common size, where launch overhead rules.
    pub bench_small: Vec<Pair>,
    /// Each rung both scope ladders measured: median round trip, ns.
    pub rungs: Vec<Pair>,
    /// Every reproducible GPU sum on every array both accuracy runs summed.
    pub bits: Vec<BitCheck>,
    /// Why the bits could not be compared, if they could not.
    pub bits_not_compared: Option<String>,
}

impl Comparison {
    /// Lays `a` and `b` side by side.
    pub fn of(a: Run, b: Run) -> Comparison {
        let sweep = match (&a.sweep, &b.sweep) {
            (Some(x), Some(y)) => sum_pairs(
                x.sweep.rows.iter().map(|r| (r.n, &r.measurements)),
                y.sweep.rows.iter().map(|r| (r.n, &r.measurements)),
            ),
            _ => Vec::new(),
        };
        let (bench_small, bench_large) = match (&a.bench, &b.bench) {
            (Some(x), Some(y)) => {
                let common: Vec<u64> =
                    x.rows.iter().map(|r| r.sums.n).filter(|n| y.rows.iter().any(|r| r.sums.n == *n)).collect();
                let at = |n: Option<&u64>| match n {
                    Some(&n) => sum_pairs(
                        x.rows.iter().filter(|r| r.sums.n == n).map(|r| (r.sums.n, &r.sums.measurements)),
                        y.rows.iter().filter(|r| r.sums.n == n).map(|r| (r.sums.n, &r.sums.measurements)),
                    ),
                    None => Vec::new(),
                };
                (at(common.iter().min()), at(common.iter().max()))
            }
            _ => (Vec::new(), Vec::new()),
        };
        let rungs = match (&a.scopes, &b.scopes) {
            (Some(x), Some(y)) => x
                .rungs
                .iter()
                .filter_map(|ra| {
                    let rb = y.rungs.iter().find(|rb| rb.rung == ra.rung)?;
                    let median = |r: &view::Rung| Some(r.trips.as_ref()?.device.as_ref()?.median_ns);
                    Some(Pair { what: format!("{} ({})", ra.rung, ra.agents), a: median(ra)?, b: median(rb)? })
                })
                .collect(),
            _ => Vec::new(),
        };
        let (bits, bits_not_compared) = match (&a.accuracy, &b.accuracy) {
            (Some(x), Some(y)) if x.options.data != y.options.data || x.options.block != y.options.block => {
                (Vec::new(), Some("the two accuracy runs summed different arrays (other options)".to_owned()))
            }
            (Some(x), Some(y)) => {
                let bits = bit_checks(x, y);
                let why = unearned(x, &bits);
                (bits, why)
            }
            _ => (Vec::new(), Some("an accuracy run is missing from one of the two".to_owned())),
        };
        Comparison { runs: [a, b], sweep, bench_large, bench_small, rungs, bits, bits_not_compared }
    }

    /// The first reproducible sum whose bits differ between the runs.
    pub fn first_difference(&self) -> Option<&BitCheck> {
        self.bits.iter().find(|c| !c.same())
    }
}

/// One pair per kernel that both runs measured at each size both ran.
fn sum_pairs<'a>(
    a: impl Iterator<Item = (u64, &'a Vec<view::SumMeasurement>)>,
    b: impl Iterator<Item = (u64, &'a Vec<view::SumMeasurement>)>,
) -> Vec<Pair> {
    let b: Vec<_> = b.collect();
    let mut pairs = Vec::new();
    for (n, measurements) in a {
        let Some((_, other)) = b.iter().find(|(m, _)| *m == n) else { continue };
        for ma in measurements {
            let Some(mb) = other.iter().find(|mb| mb.kernel == ma.kernel) else { continue };
            if let (Some(ta), Some(tb)) = (stats::median(&ma.times_ms), stats::median(&mb.times_ms)) {
                let name = kernel(&ma.kernel).map_or(ma.kernel.as_str(), |k| k.label);
                pairs.push(Pair { what: format!("{name} at n = {n}"), a: f64::from(ta), b: f64::from(tb) });
            }
        }
    }
    pairs
}

/// The sum kernel registered under `key`.
fn kernel(key: &str) -> Option<SumKernel> {
    SumKernel::all().find(|k| k.key() == key)
}

/// Every GPU sum that promises reproducibility, on each array both runs
/// summed, in run A's order.
fn bit_checks(a: &AccuracyReport, b: &AccuracyReport) -> Vec<BitCheck> {
    let mut checks = Vec::new();
    for ra in &a.rows {
        let Some(rb) = b.rows.iter().find(|rb| rb.data == ra.data && rb.n == ra.n) else { continue };
        for ma in &ra.results {
            let Method::Gpu(key) = &ma.method else { continue };
            // A kernel this build does not know promises nothing it can check.
            let Some(kernel) = kernel(key).filter(|k| k.promise != Promise::Nothing) else { continue };
            let Some(mb) = rb.results.iter().find(|mb| mb.method == ma.method) else { continue };
            for (launch, (&x, &y)) in ma.sums.iter().zip(&mb.sums).enumerate() {
                checks.push(BitCheck { data: ra.data.clone(), n: ra.n, method: kernel.label, launch, a: x, b: y });
            }
        }
    }
    checks
}

/// The reproducible sums of run A's accuracy record: one per array and
/// reproducible kernel, as `(array, n, kernel label)`.
fn reproducible_sums(a: &AccuracyReport) -> std::collections::BTreeSet<(String, u64, &'static str)> {
    a.rows
        .iter()
        .flat_map(|row| {
            row.results.iter().filter(|m| !m.sums.is_empty()).filter_map(|m| match &m.method {
                Method::Gpu(key) => {
                    kernel(key).filter(|k| k.promise != Promise::Nothing).map(|k| (row.data.clone(), row.n, k.label))
                }
                Method::Cpu(_) => None,
            })
        })
        .collect()
}

/// Why `bits` do not earn a verdict on the reference run `a`, if they do
/// not: a same-bits verdict needs every reproducible sum of run A (each
/// array by each reproducible kernel) compared in at least one launch, and
/// every launch both runs made compared.
fn unearned(a: &AccuracyReport, bits: &[BitCheck]) -> Option<String> {
    let wanted = reproducible_sums(a);
    if wanted.is_empty() {
        return Some("run A's accuracy record holds no sum of a reproducible kernel".to_owned());
    }
    let compared: std::collections::BTreeSet<(String, u64, &'static str)> =
        bits.iter().map(|b| (b.data.clone(), b.n, b.method)).collect();
    let missing = wanted.iter().filter(|w| !compared.contains(*w)).count();
    (missing > 0).then(|| {
        format!(
            "run B's accuracy record lacks {missing} of the {} reproducible sums of run A ({} arrays by the \
             reproducible kernels)",
            wanted.len(),
            a.rows.len()
        )
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn reference_run() -> Run {
        Run::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/h200")).unwrap()
    }

    #[test]
    fn a_run_beside_itself_is_level_and_gives_the_same_bits() {
        let c = Comparison::of(reference_run(), reference_run());
        assert!(!c.sweep.is_empty() && !c.bench_large.is_empty() && !c.bench_small.is_empty() && !c.rungs.is_empty());
        for pair in c.sweep.iter().chain(&c.bench_large).chain(&c.bench_small).chain(&c.rungs) {
            assert_eq!(pair.ratio(), 1.0, "{}", pair.what);
        }
        // Five spreads at four sizes, two reproducible sums each, every
        // launch of each.
        let sums: std::collections::BTreeSet<_> = c.bits.iter().map(|b| (&b.data, b.n, b.method)).collect();
        assert_eq!(sums.len(), 40);
        assert!(c.bits.len() > 40 && c.bits.iter().any(|b| b.launch > 0));
        assert!(c.first_difference().is_none());
        assert!(c.bits_not_compared.is_none());
    }

    #[test]
    fn one_flipped_bit_is_named() {
        let mut b = reference_run();
        let accuracy = b.accuracy.as_mut().unwrap();
        let row = &mut accuracy.rows[7];
        let result = row.results.iter_mut().find(|m| m.method == Method::Gpu("correctly_rounded".into())).unwrap();
        result.sums[0] ^= 1;
        let (data, n) = (row.data.clone(), row.n);
        let c = Comparison::of(reference_run(), b);
        let first = c.first_difference().expect("the flipped bit");
        assert_eq!((first.data.as_str(), first.n, first.method), (data.as_str(), n, "correctly rounded"));
        assert_eq!(c.bits.iter().filter(|b| !b.same()).count(), 1);
    }

    #[test]
    fn a_difference_in_a_later_launch_is_named() {
        let mut b = reference_run();
        let row = &mut b.accuracy.as_mut().unwrap().rows[3];
        let result = row.results.iter_mut().find(|m| m.method == Method::Gpu("deterministic".into())).unwrap();
        let last = result.sums.len() - 1;
        assert!(last > 0, "the record has more than one launch");
        result.sums[last] ^= 1;
        let c = Comparison::of(reference_run(), b);
        assert_eq!(c.first_difference().map(|d| d.launch), Some(last));
    }

    #[test]
    fn a_verdict_needs_every_reproducible_sum_of_run_a() {
        // Run B with no rows, or rows of other arrays, or empty sum lists:
        // nothing, or too little, to compare.
        let mutations: [fn(&mut AccuracyReport); 3] = [
            |r| r.rows.clear(),
            |r| r.rows.iter_mut().for_each(|row| row.n += 1),
            |r| r.rows.iter_mut().flat_map(|row| &mut row.results).for_each(|m| m.sums.clear()),
        ];
        for mutate in mutations {
            let mut b = reference_run();
            mutate(b.accuracy.as_mut().unwrap());
            let c = Comparison::of(reference_run(), b);
            let why = c.bits_not_compared.as_deref().expect("no verdict");
            assert!(why.contains("lacks 40 of the 40"), "{why}");
        }
    }

    #[test]
    fn a_time_that_is_not_a_measurement_is_refused() {
        for bad in [0.0, -5.0, f32::INFINITY, f32::NAN] {
            let mut run = reference_run();
            run.sweep.as_mut().unwrap().sweep.rows[0].measurements[0].times_ms[0] = bad;
            let e = run.times_are_measurements().unwrap_err().to_string();
            assert!(e.contains("sweep-256.json") && e.contains("finite and above zero"), "{e}");
        }
        reference_run().times_are_measurements().unwrap();
    }

    #[test]
    fn arrays_made_with_other_options_are_not_compared() {
        let mut b = reference_run();
        if let view::Data::Generated { seed, .. } = &mut b.accuracy.as_mut().unwrap().options.data {
            *seed += 1;
        }
        let c = Comparison::of(reference_run(), b);
        assert!(c.bits.is_empty() && c.bits_not_compared.is_some());
    }
}
