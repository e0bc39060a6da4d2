//! `host scopes`: the scope ladder. Per rung (`.cta`, `.cluster`, `.gpu`,
//! `.sys`), who the scope includes, the ping-pong round trip's median and
//! spread with its ratio to the `.cta` one, and the cost of one fence at that
//! scope with its ratio to the `.cta` fence.
//!
//! A round-trip sample is one batch of round trips timed on the GPU's
//! `%globaltimer` by agent A, divided by the batch's round trips; the `.sys`
//! rung also reports the CPU agent's own batches, timed with `Instant`. A
//! fence's cost is the median loop with the fence minus the median loop
//! without it (`ladder_fence_none`), over the loop's fences.

pub mod args;
pub mod report;

pub use args::ScopesArgs;

use crate::error::LabError;
use crate::gpu::Gpu;
use crate::gpu::ladder::{self, Rung, TripShape};
use crate::gpu::litmus::{Budget, LitmusKernel, LitmusKernels};
use crate::gpu::publish::{PublishGeometry, PublishKernels, PublishVariant};
use crate::gpu::system::{SystemGeometry, SystemKernels, SystemVariant};
use crate::litmus::{self as suite, LitmusOptions, Preset};
use crate::progress::Progress;
use crate::verdict::PROGRESS_FAILURE;
use layout::litmus::Split;

/// What the runner does, from the flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ScopesOptions {
    /// Round-trip launches per rung.
    pub launches: u32,
    /// Each launch's batches, round trips per batch and spin budget.
    pub shape: TripShape,
    /// Fences per timed loop.
    pub iterations: u32,
    /// Timed loops per fence (one launch).
    pub repeats: u32,
    /// Whether each rung also runs its correct publication and its MP
    /// litmus row (`--quick` leaves them out: they have their own commands,
    /// and the sanitizer runs those).
    #[serde(default)]
    pub checks: bool,
}

/// Median and spread of one set of samples, in nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Spread {
    /// Samples.
    pub samples: usize,
    /// The median.
    pub median_ns: f64,
    /// The 10th percentile (nearest rank).
    pub p10_ns: f64,
    /// The 90th percentile (nearest rank).
    pub p90_ns: f64,
}

impl Spread {
    /// The spread of `values`, or `None` if there are none.
    pub fn of(values: &[f64]) -> Option<Spread> {
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        Some(Spread {
            samples: sorted.len(),
            median_ns: median_sorted(&sorted)?,
            p10_ns: nearest_rank(&sorted, 10)?,
            p90_ns: nearest_rank(&sorted, 90)?,
        })
    }
}

/// The median of sorted values: the middle one, or the mean of the two
/// middle ones.
fn median_sorted(sorted: &[f64]) -> Option<f64> {
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some(f64::midpoint(sorted[n / 2 - 1], sorted[n / 2])),
    }
}

/// The `percent`th percentile of sorted values by nearest rank: the value
/// at rank `ceil(percent * n / 100)`, counted from 1.
fn nearest_rank(sorted: &[f64], percent: usize) -> Option<f64> {
    let rank = (percent * sorted.len()).div_ceil(100).max(1);
    sorted.get(rank - 1).copied()
}

/// `value / base`, where the base is measured and positive.
pub fn ratio(value: f64, base: Option<f64>) -> Option<f64> {
    base.filter(|b| *b > 0.0).map(|b| value / b)
}

/// One rung's round trips, summed over its launches.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Trips {
    /// Launches.
    pub launches: u32,
    /// Round trips completed.
    pub trips: u64,
    /// Timeouts of either agent.
    pub timeouts: u64,
    /// Nanoseconds per round trip, from the GPU agent's batches.
    pub device: Option<Spread>,
    /// Nanoseconds per round trip, from the CPU agent's batches (`.sys`).
    pub host: Option<Spread>,
    /// The median's ratio to the `.cta` round trip's.
    pub ratio_to_cta: Option<f64>,
    /// The SMs (`%smid`) agents A and B ran on, per launch.
    pub sms: Vec<(u32, u32)>,
}

/// One fence's cost.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FenceCost {
    /// The fence as PTX writes it.
    pub fence: String,
    /// Median nanoseconds of the loop with the fence, over its fences,
    /// minus the same of the loop without: the fence's cost.
    pub ns_per_fence: f64,
    /// Its ratio to the `.cta` fence of the same kind.
    pub ratio_to_cta: Option<f64>,
}

/// One rung of the ladder.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RungRow {
    /// The rung.
    pub rung: Rung,
    /// Who its scope includes.
    pub includes: String,
    /// The round trip's two agents.
    pub agents: String,
    /// Its round trips, or `None` if this GPU cannot run the rung.
    pub trips: Option<Trips>,
    /// Its fences (acq_rel, then sc), empty if this GPU cannot run them.
    pub fences: Vec<FenceCost>,
    /// Why the rung did not run (a GPU below compute capability 9.0 for
    /// `.cluster`), in one line.
    pub unavailable: Option<String>,
    /// The rung's correct publication (one launch of the `publish` or
    /// `publish-sys` variant that releases and acquires at this scope) in
    /// one line: stale records of pairs, with the bound of a zero; not
    /// printed when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publication: Option<String>,
    /// The rung's MP litmus row (release/acquire at this scope, in the
    /// placement the rung's agents have) in one line: weak outcomes of
    /// instances, with the model's verdict; not printed when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub litmus: Option<String>,
}

/// What `host scopes` measured.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ScopesResults {
    /// The settings.
    pub options: ScopesOptions,
    /// The baseline loop's median nanoseconds per iteration (no fence).
    pub loop_ns: Option<f64>,
    /// One row per rung, narrowest first.
    pub rungs: Vec<RungRow>,
}

/// What one round-trip launch adds to its rung's samples.
fn per_trip(batch_ns: &[u64], per_batch: u32) -> impl Iterator<Item = f64> + '_ {
    batch_ns.iter().map(move |&ns| ns as f64 / f64::from(per_batch))
}

/// The median per-iteration nanoseconds of fence-loop samples.
fn per_iteration(loop_ns: &[u64], iterations: u32) -> Option<f64> {
    let values: Vec<f64> = loop_ns.iter().map(|&ns| ns as f64 / f64::from(iterations)).collect();
    Spread::of(&values).map(|s| s.median_ns)
}

/// The one line a rung this GPU cannot run says.
pub const NEEDS_HOPPER: &str = "needs compute capability 9.0";

/// Runs the ladder on `gpu`.
pub fn run(gpu: &Gpu, options: &ScopesOptions) -> Result<ScopesResults, LabError> {
    let base_loop = ladder::fence_loop(gpu, &layout::ladder::FENCE_NONE, options.iterations, options.repeats)?;
    let loop_ns = per_iteration(&base_loop, options.iterations);
    let mut rungs = Vec::new();
    for rung in Rung::ALL {
        let mut row = RungRow {
            rung,
            includes: rung.includes().to_owned(),
            agents: rung.agents().to_owned(),
            trips: None,
            fences: Vec::new(),
            unavailable: None,
            publication: None,
            litmus: None,
        };
        if rung == Rung::Cluster && gpu.hopper().is_err() {
            row.unavailable = Some(NEEDS_HOPPER.to_owned());
            rungs.push(row);
            continue;
        }
        let mut trips = Trips {
            launches: options.launches,
            trips: 0,
            timeouts: 0,
            device: None,
            host: None,
            ratio_to_cta: None,
            sms: Vec::new(),
        };
        let (mut device, mut host) = (Vec::new(), Vec::new());
        for _ in 0..options.launches {
            let launch = ladder::round_trips(gpu, rung, options.shape)?;
            device.extend(per_trip(&launch.device_ns, options.shape.per_batch));
            host.extend(per_trip(&launch.host_ns, options.shape.per_batch));
            trips.trips += launch.trips;
            trips.timeouts += launch.timeouts;
            trips.sms.push(launch.sms);
        }
        trips.device = Spread::of(&device);
        trips.host = Spread::of(&host);
        row.trips = Some(trips);
        for entry in rung.fences() {
            let samples = ladder::fence_loop(gpu, entry, options.iterations, options.repeats)?;
            if let (Some(with), Some(without)) = (per_iteration(&samples, options.iterations), loop_ns) {
                let fence = entry.ptx_has.first().map_or("", |f| f.trim_end_matches(';')).to_owned();
                row.fences.push(FenceCost { fence, ns_per_fence: with - without, ratio_to_cta: None });
            }
        }
        if options.checks {
            row.publication = Some(publication(gpu, rung)?);
            row.litmus = Some(litmus(gpu, rung)?);
        }
        rungs.push(row);
    }
    fill_ratios(&mut rungs);
    Ok(ScopesResults { options: *options, loop_ns, rungs })
}

/// Instances of each rung's MP row: enough that a zero's bound is below 0.04 per
/// million.
pub const LITMUS_INSTANCES: u64 = 100_000_000;

/// The publication variant that is correct at `rung`'s scope between the
/// rung's agents, by name: a `publish` variant for the device's rungs, a
/// `publish-sys` one for the host's.
pub const fn publication_variant(rung: Rung) -> &'static str {
    match rung {
        Rung::Cta => "block-release-acquire",
        Rung::Cluster => "cluster-dsmem-release-acquire",
        Rung::Gpu => "grid-release-acquire",
        Rung::Sys => "gpu-cpu-release-sys",
    }
}

/// The MP kernel and placement that test `rung`'s release/acquire between
/// agents placed as the rung's are; `None` for `.sys`, where no litmus test
/// has a host thread.
pub const fn litmus_row(rung: Rung) -> Option<(&'static str, Split)> {
    match rung {
        Rung::Cta => Some(("litmus_mp_rel_acq_cta", Split::IntraBlock)),
        Rung::Cluster => Some(("litmus_mp_rel_acq_cluster", Split::IntraCluster)),
        Rung::Gpu => Some(("litmus_mp_rel_acq_gpu", Split::InterBlock)),
        Rung::Sys => None,
    }
}

/// `k` events in `n` trials as the lab writes a count: a zero with the
/// rule of three's 95% bound (`3/n`), the bound of the publication and
/// litmus tables' zeros; anything else with its rate and its 95% Wilson
/// interval, as the litmus tables give it; both per million.
pub fn count_line(k: u64, n: u64, what: &str, of: &str) -> String {
    if k == 0 {
        format!("0 {what} in {n} {of} (< {:.3} per million)", lab_stats::rule_of_three(n) * 1e6)
    } else {
        let (low, high) = lab_stats::wilson_interval_95(k, n);
        format!(
            "{k} {what} in {n} {of} ({:.3} per million, 95% [{:.3}, {:.3}])",
            k as f64 / n as f64 * 1e6,
            low * 1e6,
            high * 1e6
        )
    }
}

/// One launch of the rung's correct publication, in one line.
fn publication(gpu: &Gpu, rung: Rung) -> Result<String, LabError> {
    let name = publication_variant(rung);
    let missing = || LabError::Unrunnable(format!("no publication variant `{name}`"));
    let (stale, pairs, timeouts) = if rung == Rung::Sys {
        let variant = SystemVariant::from_name(name).ok_or_else(missing)?;
        let geometry = SystemGeometry::for_device(gpu.info.sm_count, SystemGeometry::default_cpu_threads());
        let counts = SystemKernels::load(gpu)?.run(variant, geometry, 1)?.counts;
        (counts.stale, counts.pairs, counts.timeouts)
    } else {
        let variant = PublishVariant::all().find(|v| v.name == name).ok_or_else(missing)?;
        let counts =
            PublishKernels::load(gpu)?.run(variant, PublishGeometry::for_device(variant, gpu.info.sm_count), 1)?;
        (counts.stale, counts.pairs, counts.timeouts)
    };
    Ok(publication_line(name, stale, pairs, timeouts))
}

/// The rung's correct publication in one line: its stale records of pairs
/// and its timeouts, a timeout named as what it is, a progress failure and
/// not an ordering one.
pub fn publication_line(name: &str, stale: u64, pairs: u64, timeouts: u64) -> String {
    let progress = if timeouts > 0 { format!(" ({PROGRESS_FAILURE})") } else { String::new() };
    format!("{name}: {}, {timeouts} timeouts{progress}", count_line(stale, pairs, "stale", "pairs"))
}

/// The rung's MP row for [`LITMUS_INSTANCES`] instances in the default
/// environment, in one line.
fn litmus(gpu: &Gpu, rung: Rung) -> Result<String, LabError> {
    let Some((symbol, placement)) = litmus_row(rung) else {
        return Ok("none: no litmus test has a host thread".to_owned());
    };
    let kernel = LitmusKernel::all()
        .find(|k| k.symbol() == symbol)
        .ok_or_else(|| LabError::Unrunnable(format!("no litmus kernel `{symbol}`")))?;
    let preset = Preset::Parallel;
    let options = LitmusOptions {
        kernels: vec![kernel],
        placements: vec![placement],
        budget: Budget::Instances(LITMUS_INSTANCES),
        batch: 4,
        preset: Some(preset),
        environment: preset.environment(),
        tuned: None,
        sequential: false,
        seed: 26,
    };
    let rows = suite::run(&LitmusKernels::load(gpu)?, &options, &Progress::new(false))?;
    let row = rows.first().ok_or_else(|| LabError::Unrunnable(format!("{symbol} ran no row")))?;
    Ok(format!(
        "MP {} {}: {}, {}",
        kernel.key().trim_start_matches("mp_"),
        placement.key(),
        count_line(row.weak(), row.counts.instances, "weak", "instances"),
        row.model()
    ))
}

/// Sets every rung's ratios to the `.cta` rung's round trip and fences.
pub fn fill_ratios(rungs: &mut [RungRow]) {
    let cta = rungs.iter().find(|r| r.rung == Rung::Cta);
    let trip_base = cta.and_then(|r| r.trips.as_ref()).and_then(|t| t.device).map(|s| s.median_ns);
    let fence_base: Vec<f64> = cta.map_or_else(Vec::new, |r| r.fences.iter().map(|f| f.ns_per_fence).collect());
    for row in rungs.iter_mut() {
        if let Some(trips) = row.trips.as_mut() {
            trips.ratio_to_cta = trips.device.and_then(|s| ratio(s.median_ns, trip_base));
        }
        for (k, fence) in row.fences.iter_mut().enumerate() {
            fence.ratio_to_cta = ratio(fence.ns_per_fence, fence_base.get(k).copied());
        }
    }
}

/// One line per failed check: a rung that ran but completed no round trip,
/// timed out (a progress failure: the memory model has no progress axiom,
/// but the ladder's spins at their own scope must finish), or (`.gpu`) ran
/// both agents on one SM.
pub fn failures(results: &ScopesResults) -> Vec<String> {
    let mut lines = Vec::new();
    for row in &results.rungs {
        let Some(trips) = &row.trips else { continue };
        let scope = row.rung.scope();
        if trips.trips == 0 {
            lines.push(format!("{scope}: no round trip completed in {} launches", trips.launches));
        }
        if trips.timeouts > 0 {
            lines.push(format!(
                "{scope}: {} timeouts in {} launches: an agent {PROGRESS_FAILURE}",
                trips.timeouts, trips.launches
            ));
        }
        if row.rung == Rung::Gpu && trips.sms.iter().any(|(a, b)| a == b) {
            lines.push(format!("{scope}: both agents ran on one SM in a launch ({:?})", trips.sms));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_by_nearest_rank() {
        let values: Vec<f64> = (1..=10).map(f64::from).collect();
        let s = Spread::of(&values).unwrap();
        assert_eq!((s.samples, s.median_ns, s.p10_ns, s.p90_ns), (10, 5.5, 1.0, 9.0));
        let one = Spread::of(&[7.0]).unwrap();
        assert_eq!((one.median_ns, one.p10_ns, one.p90_ns), (7.0, 7.0, 7.0));
        assert_eq!(Spread::of(&[]), None);
    }

    #[test]
    fn a_batch_is_divided_by_its_round_trips() {
        assert_eq!(per_trip(&[1024, 2048], 256).collect::<Vec<_>>(), [4.0, 8.0]);
        assert_eq!(per_iteration(&[400, 200, 300], 100), Some(3.0));
    }

    #[test]
    fn ratios_are_to_the_cta_rung_and_absent_without_it() {
        assert_eq!(ratio(6.0, Some(2.0)), Some(3.0));
        assert_eq!(ratio(6.0, Some(0.0)), None);
        assert_eq!(ratio(6.0, None), None);
        let mut rows = report::tests::fixture().rungs;
        for row in &mut rows {
            row.trips.iter_mut().for_each(|t| t.ratio_to_cta = None);
        }
        fill_ratios(&mut rows);
        let trip = |k: usize| rows[k].trips.as_ref().and_then(|t| t.ratio_to_cta);
        assert_eq!(trip(0), Some(1.0));
        assert_eq!(trip(2), Some(4.0));
        assert_eq!(rows[3].fences[0].ratio_to_cta, Some(20.0));
    }

    #[test]
    fn a_publication_s_timeouts_are_named_a_progress_failure() {
        let clean = publication_line("grid-release-acquire", 0, 2_162_688, 0);
        assert_eq!(clean, "grid-release-acquire: 0 stale in 2162688 pairs (< 1.387 per million), 0 timeouts");
        let timed_out = publication_line("grid-release-acquire", 0, 2_162_600, 88);
        assert!(timed_out.ends_with(&format!("88 timeouts ({PROGRESS_FAILURE})")), "{timed_out}");
        assert!(timed_out.contains("0 stale in 2162600 pairs"), "{timed_out}");
    }

    #[test]
    fn failures_name_timeouts_empty_rungs_and_a_shared_sm() {
        let mut results = report::tests::fixture();
        assert_eq!(failures(&results), Vec::<String>::new());
        let gpu = results.rungs[2].trips.as_mut().unwrap();
        gpu.timeouts = 1;
        gpu.sms[0] = (3, 3);
        assert_eq!(
            failures(&results),
            [
                ".gpu: 1 timeouts in 2 launches: an agent never saw the flag before the deadline: a progress failure, \
                 not an ordering one",
                ".gpu: both agents ran on one SM in a launch ([(3, 3), (2, 4)])"
            ]
        );
        assert!(failures(&results)[0].contains(PROGRESS_FAILURE));
        results.rungs[0].trips.as_mut().unwrap().trips = 0;
        assert_eq!(failures(&results)[0], ".cta: no round trip completed in 2 launches");
    }
}
