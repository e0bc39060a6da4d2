//! `host litmus --tune`: a random search over the testing environment, as
//! MC Mutants and GPUHarbor tune theirs. Each configuration runs every
//! chosen kernel for the budget; per test, the configurations that showed
//! its weak outcome at the highest rate per second come first.

use layout::litmus::Test;

use super::{Environment, LitmusOptions, LitmusRow, pairs, run_one};
use crate::error::LabError;
use crate::gpu::litmus::LitmusKernels;
use crate::interrupt;
use crate::progress::Progress;

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
        let mut rows = Vec::new();
        for (kernel, placement) in pairs(options) {
            if interrupt::requested() {
                break;
            }
            rows.push(run_one(kernels, kernel, placement, &environment, options, &mut state)?);
            progress.step();
        }
        if !rows.is_empty() {
            trials.push(Trial { index, environment, rows });
        }
    }
    progress.finish();
    Ok(trials)
}

/// Per test, the trials in order of its weak outcomes per second, best
/// first, leaving out those that showed none.
pub fn ranking(trials: &[Trial], test: Test) -> Vec<(&Trial, f64)> {
    let mut ranked: Vec<(&Trial, f64)> =
        trials.iter().map(|t| (t, t.weak_per_second(test))).filter(|&(_, rate)| rate > 0.0).collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    ranked
}
