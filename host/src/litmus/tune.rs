//! The tuning search: random environments, as MC Mutants and GPUHarbor
//! draw theirs. `host litmus --tune N` runs every chosen kernel in each of
//! N environments and ranks them per test by weak outcomes per second.
//! `host tune` ([`search`]) spends a time budget instead: most of it on
//! random environments, the rest on running each kernel's best few again, for
//! longer, beside the environment it started from, so that the winner it
//! keeps is the one that won a fair run rather than the luckiest short one.

use std::time::Instant;

use layout::litmus::Test;

use super::tuned::Winner;
use super::{Environment, LitmusOptions, LitmusRow, pairs, run_one};
use crate::error::LabError;
use crate::gpu::litmus::{Budget, LitmusKernel, LitmusKernels};
use crate::interrupt;
use crate::progress::Progress;
use crate::rng::splitmix64;

/// One configuration of the search and what every kernel showed in it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Trial {
    /// Its place in the search.
    pub index: usize,
    /// The environment drawn.
    pub environment: Environment,
    /// One row per kernel and placement.
    pub rows: Vec<LitmusRow>,
}

impl Trial {
    /// Weak outcomes of `test` per second, over its allowed rows.
    pub fn weak_per_second(&self, test: Test) -> f64 {
        let rows = self.rows.iter().filter(|r| r.test() == test && r.allowed);
        let (weak, seconds) = rows.fold((0u64, 0f64), |(w, s), r| (w + r.weak(), s + r.counts.seconds));
        if seconds > 0.0 { weak as f64 / seconds } else { 0.0 }
    }
}

/// Weak outcomes and instances of `kernel` over the rows of `rows` the
/// model allows its weak outcome in.
pub fn allowed_counts<'a>(rows: impl IntoIterator<Item = &'a LitmusRow>, kernel: LitmusKernel) -> (u64, u64) {
    rows.into_iter()
        .filter(|r| r.kernel == kernel && r.allowed)
        .fold((0, 0), |(w, n), r| (w + r.weak(), n + r.counts.instances))
}

/// `weak / instances`, 0 for no instances.
fn ratio((weak, instances): (u64, u64)) -> f64 {
    if instances == 0 { 0.0 } else { weak as f64 / instances as f64 }
}

/// Draws `configurations` environments from `options.seed` and runs every
/// kernel of `options` in each.
///
/// After Ctrl-C ([`interrupt::requested`]) it stops as [`super::run`] does;
/// the configuration running keeps the rows it finished.
pub fn run(
    kernels: &LitmusKernels<'_>,
    options: &LitmusOptions,
    configurations: usize,
    progress: &Progress,
) -> Result<Vec<Trial>, LabError> {
    let mut state = options.seed;
    progress.start((configurations * pairs(options).count()) as u64);
    let mut trials = Vec::new();
    for index in 0..configurations {
        if interrupt::requested() {
            break;
        }
        let environment = Environment::random(&mut state, options.environment.location_stride);
        progress.message(format!("configuration {}", index + 1));
        let rows = rows_in(kernels, options, &environment, |_| true, &mut state, || progress.step())?;
        if !rows.is_empty() {
            trials.push(Trial { index, environment, rows });
        }
    }
    progress.finish();
    Ok(trials)
}

/// Runs every (kernel, placement) of `options` that `keep` takes, in
/// `environment`, calling `after_row` after each; after Ctrl-C it stops
/// before the next row and keeps the rows it finished.
fn rows_in(
    kernels: &LitmusKernels<'_>,
    options: &LitmusOptions,
    environment: &Environment,
    keep: impl Fn(LitmusKernel) -> bool,
    state: &mut u64,
    mut after_row: impl FnMut(),
) -> Result<Vec<LitmusRow>, LabError> {
    let mut rows = Vec::new();
    for (kernel, placement) in pairs(options).filter(|&(k, _)| keep(k)) {
        if interrupt::requested() {
            break;
        }
        rows.push(run_one(kernels, kernel, placement, environment, options, state)?);
        after_row();
    }
    Ok(rows)
}

/// Per test, the trials in order of its weak outcomes per second, best
/// first, leaving out those that showed none.
pub fn ranking(trials: &[Trial], test: Test) -> Vec<(&Trial, f64)> {
    let mut ranked: Vec<(&Trial, f64)> =
        trials.iter().map(|t| (t, t.weak_per_second(test))).filter(|&(_, rate)| rate > 0.0).collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    ranked
}

/// The share of [`search`]'s budget spent drawing environments; the rest
/// confirms each kernel's finalists.
pub const SEARCH_SHARE: f64 = 0.7;

/// Environments per kernel that [`search`] runs again, beside the starting
/// one.
pub const FINALISTS: usize = 3;

/// One kernel in one environment, run again for longer by [`search`]'s
/// confirming round.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "ConfirmationRecord")]
pub struct Confirmation {
    /// The kernel: a test in one variant.
    pub kernel: LitmusKernel,
    /// The search's configuration it came from (its index), or `None` for
    /// the environment the search started from.
    pub configuration: Option<usize>,
    /// The environment.
    pub environment: Environment,
    /// The kernel's rows, one per placement.
    pub rows: Vec<LitmusRow>,
}

/// A [`Confirmation`] as JSON holds it. Records written while winners were
/// per test name the test instead of the kernel; their search ran one
/// variant (`relaxed-gpu`), so each confirmation's rows are one kernel's,
/// and the rows name it.
#[derive(serde::Deserialize)]
struct ConfirmationRecord {
    kernel: Option<LitmusKernel>,
    configuration: Option<usize>,
    environment: Environment,
    rows: Vec<LitmusRow>,
}

impl TryFrom<ConfirmationRecord> for Confirmation {
    type Error = String;
    fn try_from(c: ConfirmationRecord) -> Result<Self, String> {
        let mut kernels = c.rows.iter().map(|r| r.kernel);
        let kernel = match (c.kernel, kernels.next()) {
            (Some(kernel), _) => kernel,
            (None, Some(first)) if kernels.all(|k| k == first) => first,
            _ => return Err("a confirmation names no kernel, and its rows do not name one".to_owned()),
        };
        Ok(Confirmation { kernel, configuration: c.configuration, environment: c.environment, rows: c.rows })
    }
}

impl Confirmation {
    /// Weak outcomes and instances over its allowed rows.
    pub fn counts(&self) -> (u64, u64) {
        allowed_counts(&self.rows, self.kernel)
    }
}

/// Spends `budget_seconds` searching for each kernel's best environment:
/// random environments ([`Environment::random`], at the starting
/// environment's stride) for [`SEARCH_SHARE`] of it, every kernel of
/// `options` for `row_seconds` in each; then, per kernel, its [`FINALISTS`]
/// best by weak outcomes per instance and `options.environment` again (with a
/// layout seed drawn from `options.seed` if it has none), the
/// rest of the budget shared among them. Returns the draws and the
/// confirming runs; [`winners`] reads them.
///
/// After Ctrl-C it stops as [`run`] does, keeping what it finished.
pub fn search(
    kernels: &LitmusKernels<'_>,
    options: &LitmusOptions,
    budget_seconds: f64,
    row_seconds: f64,
    progress: &Progress,
) -> Result<(Vec<Trial>, Vec<Confirmation>), LabError> {
    let start = Instant::now();
    let elapsed = || start.elapsed().as_secs_f64();
    let rows = pairs(options).count().max(1);
    let short = LitmusOptions { budget: Budget::Seconds(row_seconds), ..options.clone() };
    let mut state = options.seed;
    // The start runs again beside the finalists in a layout of its own, so
    // that, should it win, its winner too runs again as it won.
    let start_environment = Environment {
        layout_seed: options.environment.layout_seed.or(Some(splitmix64(&mut state))),
        ..options.environment.clone()
    };
    let mut trials = Vec::new();
    // A draw is not started unless it can finish inside the search's share,
    // judged by the draws so far (each row runs at least its time).
    let mut per_draw = rows as f64 * row_seconds;
    progress.start((budget_seconds * 10.0) as u64);
    while elapsed() + per_draw <= budget_seconds * SEARCH_SHARE && !interrupt::requested() {
        let began = elapsed();
        let index = trials.len();
        let environment = Environment::random(&mut state, options.environment.location_stride);
        progress.message(format!("environment {}", index + 1));
        let rows = rows_in(kernels, &short, &environment, |_| true, &mut state, || {})?;
        if !rows.is_empty() {
            trials.push(Trial { index, environment, rows });
        }
        per_draw = per_draw.max(elapsed() - began);
        progress.step_to((elapsed() * 10.0) as u64);
    }
    let mut finalists: Vec<(LitmusKernel, Option<usize>, Environment)> = Vec::new();
    for &kernel in &options.kernels {
        let counts = |t: &Trial| allowed_counts(&t.rows, kernel);
        let mut ranked: Vec<&Trial> = trials.iter().filter(|t| counts(t).0 > 0).collect();
        ranked.sort_by(|a, b| ratio(counts(b)).total_cmp(&ratio(counts(a))));
        finalists.extend(ranked.iter().take(FINALISTS).map(|t| (kernel, Some(t.index), t.environment.clone())));
        finalists.push((kernel, None, start_environment.clone()));
    }
    let confirm_rows: usize =
        finalists.iter().map(|(kernel, _, _)| pairs(options).filter(|(k, _)| k == kernel).count()).sum();
    let seconds = ((budget_seconds - elapsed()) / confirm_rows.max(1) as f64).max(row_seconds);
    let long = LitmusOptions { budget: Budget::Seconds(seconds), ..options.clone() };
    let mut confirmations = Vec::new();
    for (kernel, configuration, environment) in finalists {
        if interrupt::requested() {
            break;
        }
        progress.message(format!("{} again", kernel.key()));
        let rows = rows_in(kernels, &long, &environment, |k| k == kernel, &mut state, || {})?;
        confirmations.push(Confirmation { kernel, configuration, environment, rows });
        progress.step_to((elapsed() * 10.0) as u64);
    }
    progress.finish();
    Ok((trials, confirmations))
}

/// Per kernel, the confirmed environment with the most weak outcomes per
/// instance, the starting one included, so a winner never does worse than
/// the start in the confirming round. A kernel that showed its weak outcome
/// in no confirming run has no winner.
pub fn winners(confirmations: &[Confirmation]) -> Vec<Winner> {
    let mut kernels: Vec<LitmusKernel> = confirmations.iter().map(|c| c.kernel).collect();
    kernels.dedup();
    kernels
        .into_iter()
        .filter_map(|kernel| {
            let of_kernel = confirmations.iter().filter(|c| c.kernel == kernel);
            let start = of_kernel.clone().find(|c| c.configuration.is_none());
            let (start_weak, start_instances) = start.map_or((0, 0), Confirmation::counts);
            let best = of_kernel.max_by(|a, b| ratio(a.counts()).total_cmp(&ratio(b.counts())))?;
            let (weak, instances) = best.counts();
            (weak > 0).then(|| Winner {
                test: kernel.test,
                variant: kernel.variant,
                environment: best.environment.clone(),
                summary: best.environment.summary(),
                found: match best.configuration {
                    Some(index) => format!("configuration #{}", index + 1),
                    None => "the starting environment".to_owned(),
                },
                weak,
                instances,
                start_weak,
                start_instances,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::litmus::{LitmusCounts, LitmusKernel};
    use crate::litmus::Preset;
    use layout::litmus::{KERNELS, Split, Variant};

    fn confirmation(symbol: &str, configuration: Option<usize>, weak: u64, instances: u64) -> Confirmation {
        let kernel = LitmusKernel::of(KERNELS.iter().find(|k| k.entry.symbol == symbol).unwrap());
        let mut histogram = vec![0; kernel.test.bins()];
        let weak_bin = kernel.test.weak() as usize;
        histogram[weak_bin] = weak;
        histogram[usize::from(weak_bin == 0)] = instances - weak;
        let counts = LitmusCounts { launches: 1, instances, histogram, seconds: 1.0 };
        let mut state = configuration.unwrap_or(0) as u64;
        Confirmation {
            kernel,
            configuration,
            environment: match configuration {
                Some(_) => Environment::random(&mut state, 8),
                None => Preset::TunedWrc.environment(),
            },
            rows: vec![LitmusRow::new(kernel, Split::InterBlock, false, 528, counts)],
        }
    }

    #[test]
    fn a_winner_is_the_best_per_instance_of_the_confirming_round_the_start_included() {
        let round = [
            // MP: a drawn environment beats the start per instance, though
            // it counted fewer weak outcomes in all.
            confirmation("litmus_mp_relaxed_gpu", Some(4), 30, 1_000_000),
            confirmation("litmus_mp_relaxed_gpu", None, 40, 4_000_000),
            // IRIW: the start wins its own round.
            confirmation("litmus_iriw_relaxed_gpu", Some(1), 1, 1_000_000),
            confirmation("litmus_iriw_relaxed_gpu", None, 5, 1_000_000),
            // MP fenced at block scope: a kernel of its own, with its own
            // winner, though the start showed nothing.
            confirmation("litmus_mp_fence_acq_rel_cta", Some(2), 3, 1_000_000),
            confirmation("litmus_mp_fence_acq_rel_cta", None, 0, 1_000_000),
            // SB: nothing showed it, so no winner.
            confirmation("litmus_sb_relaxed_gpu", Some(2), 0, 1_000_000),
            confirmation("litmus_sb_relaxed_gpu", None, 0, 1_000_000),
        ];
        let winners = winners(&round);
        let found: Vec<(Test, Variant, &str, u64, u64)> =
            winners.iter().map(|w| (w.test, w.variant, w.found.as_str(), w.weak, w.start_weak)).collect();
        assert_eq!(
            found,
            [
                (Test::Mp, Variant::RelaxedGpu, "configuration #5", 30, 40),
                (Test::Iriw, Variant::RelaxedGpu, "the starting environment", 5, 5),
                (Test::Mp, Variant::FenceAcqRelCta, "configuration #3", 3, 0),
            ]
        );
        assert_eq!(winners[1].environment, Preset::TunedWrc.environment());
    }

    #[test]
    fn a_record_from_when_winners_were_per_test_reads_as_its_one_kernel() {
        let new = confirmation("litmus_iriw_relaxed_gpu", Some(1), 7, 1_000_000);
        let text = serde_json::to_string(&new).unwrap();
        let old = text.replacen(r#""kernel":"iriw_relaxed_gpu""#, r#""test":"iriw""#, 1);
        assert!(old.contains(r#""test":"iriw""#), "{old}");
        assert_eq!(serde_json::from_str::<Confirmation>(&old).unwrap(), new);
        // With no rows there is nothing to name the kernel.
        let empty = Confirmation { rows: Vec::new(), ..new.clone() };
        let old =
            serde_json::to_string(&empty).unwrap().replacen(r#""kernel":"iriw_relaxed_gpu""#, r#""test":"iriw""#, 1);
        assert!(serde_json::from_str::<Confirmation>(&old).unwrap_err().to_string().contains("names no kernel"));
        // An old winner, with no variant, is its test's relaxed-gpu kernel's.
        let winner = &winners(std::slice::from_ref(&new))[0];
        let text = serde_json::to_string(winner).unwrap().replacen(r#""variant":"relaxed-gpu","#, "", 1);
        assert!(!text.contains("variant"), "{text}");
        assert_eq!(&serde_json::from_str::<Winner>(&text).unwrap(), winner);
    }
}
