//! `host litmus`: the suite's runner. Each (test, variant, placement) runs in
//! one environment for a budget; its outcomes are counted on the GPU, and
//! each row carries the model's verdict on its weak outcome. Every other bin
//! of its histogram is judged by the model too ([`model::allowed_bins`]):
//! a count in any bin the model forbids fails the run, not only in the weak
//! one.

pub mod environment;
pub mod keys;
pub mod model;
pub mod mutants;
pub mod tune;
pub mod tuned;

use layout::litmus::{Location, OTHER_BIN, REGISTERS, Split, Test, final_digits};

pub use environment::{Environment, Preset};
pub use model::{Verdict, allowed_bins, verdict};

use crate::error::LabError;
use crate::gpu::litmus::{Budget, LitmusCounts, LitmusKernel, LitmusKernels};
use crate::interrupt;
use crate::progress::Progress;
use crate::rng::splitmix64;

/// What one `litmus` run does.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LitmusOptions {
    /// The kernels (tests in variants), in registry order.
    pub kernels: Vec<LitmusKernel>,
    /// The placements to run each kernel in (a block split runs only the
    /// kernels whose test has its number of roles: [`Split::fits`]).
    #[serde(with = "keys::list")]
    pub placements: Vec<Split>,
    /// How long each row runs.
    pub budget: Budget,
    /// Launches between two looks at the clock.
    pub batch: u32,
    /// The preset the environment came from, if it was not changed.
    pub preset: Option<Preset>,
    /// The environment.
    pub environment: Environment,
    /// Environments tuned for this GPU (`--tuned`): each test with a winner
    /// runs in it, the others in `environment`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tuned: Option<tuned::Winners>,
    /// The sequential control: roles one after the other (in one block or
    /// one warp only).
    pub sequential: bool,
    /// The seed of every random choice (multipliers, block rotations).
    pub seed: u64,
}

/// One (test, variant, placement) and what it counted.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LitmusRow {
    /// The test in its variant.
    pub kernel: LitmusKernel,
    /// Where the instance's threads ran.
    #[serde(with = "keys::one")]
    pub placement: Split,
    /// Whether the run was the sequential control.
    pub sequential: bool,
    /// Blocks per launch (testing and stressing).
    pub grid: u32,
    /// Whether the model allows the weak outcome.
    pub allowed: bool,
    /// The model's reason.
    pub reason: String,
    /// The counts.
    pub counts: LitmusCounts,
    /// The bins this run counted that break a rule
    /// ([`LitmusRow::forbidden_bins`]), as it judged them: normally none.
    /// Empty in a record written before every bin was judged; reading such
    /// a record, [`LitmusRow::forbidden_bins`] judges its histogram again.
    #[serde(default)]
    pub forbidden_seen: Vec<ForbiddenBin>,
    /// The environment the row ran in, where it is not the run's
    /// ([`LitmusOptions::environment`]): its test's tuned winner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<Environment>,
}

/// A histogram bin that breaks a rule, and the instances counted in it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ForbiddenBin {
    /// The bin ([`layout::litmus::outcome_bin`], [`layout::litmus::final_bin`]).
    pub bin: usize,
    /// Its outcome, as [`outcome_text`] writes it: `"r0=0 x=2"`.
    pub outcome: String,
    /// The instances that ended in it.
    pub count: u64,
}

/// Which rule a bin breaks ([`LitmusRow::broken_rule`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Broken {
    /// A register (or final value) holds a value no thread wrote
    /// ([`OTHER_BIN`]).
    Garbage,
    /// The sequential control ended in an outcome program order does not give.
    Sequential,
    /// The model forbids the test's weak outcome here.
    Weak,
    /// The model forbids this outcome, which is not the test's weak one.
    Other,
}

impl LitmusRow {
    /// The row of `kernel` in `placement` that counted `counts`: the model's
    /// verdict on its weak outcome, with its reason, and the bins it counted
    /// that break a rule ([`LitmusRow::forbidden_seen`]).
    pub fn new(kernel: LitmusKernel, placement: Split, sequential: bool, grid: u32, counts: LitmusCounts) -> LitmusRow {
        let v = verdict(kernel.test, kernel.variant, placement);
        let mut row = LitmusRow {
            kernel,
            placement,
            sequential,
            grid,
            allowed: v.allowed,
            reason: v.reason.to_owned(),
            counts,
            forbidden_seen: Vec::new(),
            environment: None,
        };
        let test = row.test();
        row.forbidden_seen = row
            .forbidden_bins()
            .map(|(bin, count)| ForbiddenBin { bin, outcome: outcome_text(bin, test), count })
            .collect();
        row
    }

    /// The test.
    pub fn test(&self) -> Test {
        self.kernel.test
    }

    /// The environment it ran in: its own, or else the run's.
    pub fn environment_in<'a>(&'a self, options: &'a LitmusOptions) -> &'a Environment {
        self.environment.as_ref().unwrap_or(&options.environment)
    }

    /// What the row is held to, in one word: `sequential` (the control),
    /// `allowed` or `forbidden` (the model's verdict on the weak outcome).
    pub fn model(&self) -> &'static str {
        if self.sequential {
            "sequential"
        } else if self.allowed {
            "allowed"
        } else {
            "forbidden"
        }
    }

    /// Its histogram has a bin for every outcome its test can have, which
    /// [`LitmusRow::weak`] and [`LitmusRow::forbidden`] read.
    pub fn validate(&self) -> Result<(), String> {
        let (have, want) = (self.counts.histogram.len(), self.test().bins());
        if have < want {
            return Err(format!(
                "the {} row's histogram has {have} bins where its outcomes need {want}",
                self.test().name()
            ));
        }
        Ok(())
    }

    /// Instances that ended in the weak outcome.
    pub fn weak(&self) -> u64 {
        self.counts.histogram[self.test().weak() as usize]
    }

    /// Instances whose outcome breaks a rule: any outcome the model forbids
    /// here, the weak one or another ([`allowed_bins`]); in the sequential
    /// control, any outcome but the sequential one; and always a register
    /// holding a value no thread wrote.
    pub fn forbidden(&self) -> u64 {
        self.forbidden_bins().map(|(_, count)| count).sum()
    }

    /// The histogram bins that break a rule (as [`LitmusRow::forbidden`]
    /// counts them) and their counts, the empty ones left out. Each bin is
    /// judged by the model checker now, so a record written before every
    /// bin was judged is held to the same rules as a new one.
    pub fn forbidden_bins(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        let allowed = allowed_bins(self.test(), self.kernel.variant, self.placement);
        self.counts.histogram.iter().enumerate().filter_map(move |(bin, &count)| {
            (count > 0 && self.rule_broken(bin, &allowed).is_some()).then_some((bin, count))
        })
    }

    /// The rule an instance ending in `bin` breaks, if any.
    pub fn broken_rule(&self, bin: usize) -> Option<Broken> {
        self.rule_broken(bin, &allowed_bins(self.test(), self.kernel.variant, self.placement))
    }

    /// [`LitmusRow::broken_rule`], given the model's verdict on every bin.
    fn rule_broken(&self, bin: usize, allowed: &[bool]) -> Option<Broken> {
        let test = self.test();
        if bin == OTHER_BIN {
            Some(Broken::Garbage)
        } else if self.sequential && bin != test.sequential() as usize {
            Some(Broken::Sequential)
        } else if allowed.get(bin).copied().unwrap_or(false) {
            None
        } else if bin == test.weak() as usize {
            Some(Broken::Weak)
        } else {
            Some(Broken::Other)
        }
    }

    /// The weak outcomes per million instances, with the 95% interval.
    pub fn rate_per_million(&self) -> (f64, (f64, f64)) {
        let n = self.counts.instances;
        let scale = |x: f64| x * 1e6;
        let rate = if n == 0 { 0.0 } else { self.weak() as f64 / n as f64 };
        let (lo, hi) = lab_stats::wilson_interval_95(self.weak(), n);
        (scale(rate), (scale(lo), scale(hi)))
    }

    /// Instances per second.
    pub fn instances_per_second(&self) -> f64 {
        if self.counts.seconds > 0.0 { self.counts.instances as f64 / self.counts.seconds } else { 0.0 }
    }

    /// Each non-empty outcome as `(outcome, count)`, `outcome` as
    /// `"r0=1 r1=0"` (or `"r0=2 x=1"` for a test with final values), or
    /// `"other"` for a value no thread wrote.
    pub fn outcomes(&self) -> Vec<(String, u64)> {
        let test = self.test();
        self.counts
            .histogram
            .iter()
            .enumerate()
            .filter(|&(_, &count)| count > 0)
            .map(|(bin, &count)| (outcome_text(bin, test), count))
            .collect()
    }
}

/// `"r0=1 r1=0"` for histogram bin `bin` of `test`: each register's value,
/// then, for a test with final values ([`Test::finals`]), each final
/// location's (`"r0=2 x=1"`); `"other"` for [`OTHER_BIN`] or a bin that is no
/// outcome of the test.
pub fn outcome_text(bin: usize, test: Test) -> String {
    let registers = (test.registers() as usize).min(REGISTERS);
    if bin == OTHER_BIN {
        return "other".to_owned();
    }
    if test.finals().is_empty() {
        return (0..registers).map(|r| format!("r{r}={}", (bin >> r) & 1)).collect::<Vec<_>>().join(" ");
    }
    let Some(digits) = final_digits(bin) else { return "other".to_owned() };
    let registers = (0..registers).map(|r| format!("r{r}={}", digits[r]));
    let finals = test.finals().iter().enumerate().map(|(k, &location)| {
        let name = match location {
            Location::X => "x",
            Location::Y => "y",
            Location::Z => "z",
        };
        format!("{name}={}", digits[test.registers() as usize + k])
    });
    registers.chain(finals).collect::<Vec<_>>().join(" ")
}

/// Runs one kernel in one placement and environment.
pub fn run_one(
    kernels: &LitmusKernels<'_>,
    kernel: LitmusKernel,
    placement: Split,
    environment: &Environment,
    options: &LitmusOptions,
    state: &mut u64,
) -> Result<LitmusRow, LabError> {
    run_one_with(kernels, None, kernel, placement, environment, options, state)
}

/// As [`run_one`], launching `function` (a mutant of `kernel`, with its
/// arguments) in place of `kernel` when given. The row's verdict is still
/// `kernel`'s: a mutant's own is its [`mutants::Mutant::allowed`].
pub fn run_one_with(
    kernels: &LitmusKernels<'_>,
    function: Option<&crate::gpu::Function>,
    kernel: LitmusKernel,
    placement: Split,
    environment: &Environment,
    options: &LitmusOptions,
    state: &mut u64,
) -> Result<LitmusRow, LabError> {
    // A cluster placement launches whole clusters, as many as fit at once.
    let grid = match placement.cluster_blocks(kernel.test.threads()) {
        Some(cluster) => {
            environment.cluster_grid(kernels.resident_cluster_blocks(kernel, environment.threads, cluster)?, cluster)
        }
        None => environment.grid(kernels.resident_blocks(kernel, environment.threads)?),
    };
    // The environment's layout seed, where it has one, fixes the multipliers
    // and the block rotations; otherwise they come from the run's seed.
    let mut layout = environment.layout_seed;
    let mut draw = || match layout.as_mut() {
        Some(seed) => splitmix64(seed),
        None => splitmix64(state),
    };
    let params = environment.params(kernel.test, placement, grid, options.sequential, draw());
    let blocks = placement.min_testing_blocks(kernel.test.threads());
    if params.testing_blocks < blocks {
        // Fewer testing blocks than blocks per instance (or clusters than
        // roles): two of an instance's threads meant for different blocks
        // would share one, and the row would not run in its placement.
        return Err(LabError::Unrunnable(format!(
            "{} {} needs {blocks} testing blocks and only {} run at once here: try fewer --threads",
            kernel.test.name(),
            placement.key(),
            params.testing_blocks
        )));
    }
    let testing = u64::from(params.testing_blocks);
    let mut shift_state = draw();
    let shuffle = environment.shuffle_blocks;
    let shift = || if shuffle { (splitmix64(&mut shift_state) % testing) as u32 } else { 0 };
    let counts = match function {
        Some(f) => kernels.run_function(f, kernel, params, grid, options.budget, options.batch, shift)?,
        None => kernels.run(kernel, params, grid, options.budget, options.batch, shift)?,
    };
    Ok(LitmusRow::new(kernel, placement, options.sequential, grid, counts))
}

/// The (kernel, placement) pairs of `options`, kernel by kernel: each kernel
/// in each of the placements that fit its test.
pub fn pairs(options: &LitmusOptions) -> impl Iterator<Item = (LitmusKernel, Split)> + '_ {
    options.kernels.iter().flat_map(move |&kernel| {
        options.placements.iter().filter(move |p| p.fits(kernel.test)).map(move |&p| (kernel, p))
    })
}

/// Runs every kernel of `options` in every placement that fits its test.
///
/// After Ctrl-C ([`interrupt::requested`]) the row running stops at its next
/// look at the clock, after a whole batch of launches, and keeps what it
/// counted; the rows after it do not run.
pub fn run(
    kernels: &LitmusKernels<'_>,
    options: &LitmusOptions,
    progress: &Progress,
) -> Result<Vec<LitmusRow>, LabError> {
    let mut state = options.seed;
    progress.start(pairs(options).count() as u64);
    let mut rows = Vec::new();
    for (kernel, placement) in pairs(options) {
        if interrupt::requested() {
            break;
        }
        progress.message(format!("{} {}", kernel.key(), placement.key()));
        let tuned = options.tuned.as_ref().and_then(|t| t.environment(kernel.test, kernel.variant));
        let mut row = run_one(kernels, kernel, placement, tuned.unwrap_or(&options.environment), options, &mut state)?;
        row.environment = tuned.cloned();
        rows.push(row);
        progress.step();
    }
    progress.finish();
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::litmus::LitmusCounts;
    use layout::litmus::KERNELS;

    use layout::Placement;

    fn row(symbol: &str, placement: Placement, sequential: bool, histogram: &[(usize, u64)]) -> LitmusRow {
        let kernel = LitmusKernel::of(KERNELS.iter().find(|k| k.entry.symbol == symbol).unwrap());
        let mut h = vec![0; kernel.test.bins()];
        for &(bin, count) in histogram {
            h[bin] = count;
        }
        let counts = LitmusCounts { launches: 1, instances: h.iter().sum(), histogram: h, seconds: 0.5 };
        LitmusRow::new(kernel, placement.into(), sequential, 264, counts)
    }

    #[test]
    fn a_weak_outcome_counts_against_a_forbidding_verdict_only() {
        let allowed = row("litmus_mp_relaxed_gpu", Placement::InterBlock, false, &[(0b11, 90), (0b01, 10)]);
        assert_eq!((allowed.weak(), allowed.forbidden()), (10, 0));
        let forbidden = row("litmus_mp_rel_acq_gpu", Placement::InterBlock, false, &[(0b11, 90), (0b01, 10)]);
        assert_eq!(forbidden.forbidden(), 10);
        let garbage = row("litmus_mp_relaxed_gpu", Placement::InterBlock, false, &[(OTHER_BIN, 1)]);
        assert_eq!(garbage.forbidden(), 1);
    }

    #[test]
    fn a_test_with_final_values_counts_its_own_bins() {
        let weak = Test::Cowr.weak() as usize;
        let r = row(
            "litmus_cowr_relaxed_gpu",
            Placement::InterBlock,
            false,
            &[(Test::Cowr.sequential() as usize, 9), (weak, 1)],
        );
        assert!(!r.allowed);
        assert_eq!((r.weak(), r.forbidden()), (1, 1));
        // Bins in code order: r0 is the low digit, so r0=2 x=1 comes before r0=1 x=2.
        assert_eq!(r.outcomes(), [("r0=2 x=1".to_owned(), 1), ("r0=1 x=2".to_owned(), 9)]);
    }

    /// The outcomes the model forbids that are not the test's weak one:
    /// CoWR's load that misses its own thread's earlier store, and CoRW2's
    /// load that sees its own thread's later store, even with weak accesses
    /// (two accesses of one thread are morally strong relative to each
    /// other), and in a row whose weak outcome the model allows.
    #[test]
    fn every_bin_the_model_forbids_counts_not_only_the_weak_one() {
        let missed = layout::litmus::final_bin(&[0, 2]) as usize;
        let seq = Test::Cowr.sequential() as usize;
        let r = row("litmus_cowr_weak", Placement::InterBlock, false, &[(seq, 9), (missed, 3)]);
        assert!(r.allowed, "CoWR's weak outcome is allowed with weak accesses");
        assert_eq!((r.weak(), r.forbidden()), (0, 3));
        assert_eq!(r.broken_rule(missed), Some(Broken::Other));
        assert_eq!(r.forbidden_seen, [ForbiddenBin { bin: missed, outcome: "r0=0 x=2".to_owned(), count: 3 }]);
        let own_later = layout::litmus::final_bin(&[1, 2]) as usize;
        let r = row("litmus_corw2_relaxed_gpu", Placement::IntraBlock, false, &[(own_later, 1)]);
        assert_eq!(r.forbidden(), 1);
        // An allowed outcome that is not the weak one breaks nothing.
        let mp = row("litmus_mp_rel_acq_gpu", Placement::InterBlock, false, &[(0b00, 5), (0b10, 5), (0b11, 5)]);
        assert_eq!(mp.forbidden(), 0);
        assert!(mp.forbidden_seen.is_empty());
    }

    /// A record written before every bin was judged has no `forbidden_seen`;
    /// read back, its bins are judged again.
    #[test]
    fn an_old_record_without_bin_verdicts_is_judged_again() {
        let missed = layout::litmus::final_bin(&[0, 1]) as usize;
        let r = row("litmus_cowr_relaxed_gpu", Placement::InterBlock, false, &[(missed, 2)]);
        let mut json = serde_json::to_value(&r).unwrap();
        json.as_object_mut().unwrap().remove("forbidden_seen");
        let old: LitmusRow = serde_json::from_value(json).unwrap();
        assert!(old.forbidden_seen.is_empty());
        assert_eq!(old.forbidden_bins().collect::<Vec<_>>(), [(missed, 2)]);
    }

    #[test]
    fn the_sequential_control_accepts_only_the_sequential_outcome() {
        let good = row("litmus_sb_relaxed_gpu", Placement::IntraBlock, true, &[(0b10, 100)]);
        assert_eq!(good.forbidden(), 0);
        let bad = row("litmus_sb_relaxed_gpu", Placement::IntraBlock, true, &[(0b10, 99), (0b11, 1)]);
        assert_eq!(bad.forbidden(), 1);
    }

    #[test]
    fn outcomes_name_their_registers() {
        assert_eq!(outcome_text(0b01, Test::Mp), "r0=1 r1=0");
        assert_eq!(outcome_text(0b0101, Test::Iriw), "r0=1 r1=0 r2=1 r3=0");
        assert_eq!(outcome_text(OTHER_BIN, Test::Iriw), "other");
        // The tests with final values: registers, then the final locations.
        assert_eq!(outcome_text(Test::Cowr.weak() as usize, Test::Cowr), "r0=2 x=1");
        assert_eq!(outcome_text(Test::TwoPlusTwoW.weak() as usize, Test::TwoPlusTwoW), "x=1 y=1");
        assert_eq!(outcome_text(Test::R.weak() as usize, Test::R), "r0=0 y=2");
        assert_eq!(outcome_text(Test::Coww.sequential() as usize, Test::Coww), "x=2");
        assert_eq!(outcome_text(OTHER_BIN, Test::Coww), "other");
        assert_eq!(outcome_text(3, Test::Coww), "other");
        let r = row("litmus_iriw_weak", Placement::InterBlock, false, &[(15, 3), (0b0101, 2)]);
        assert_eq!(r.outcomes(), [("r0=1 r1=0 r2=1 r3=0".to_owned(), 2), ("r0=1 r1=1 r2=1 r3=1".to_owned(), 3)]);
        assert_eq!(r.instances_per_second(), 10.0);
        let (rate, (lo, hi)) = r.rate_per_million();
        assert!((rate - 400_000.0).abs() < 1e-6 && lo < rate && rate < hi);
    }

    #[test]
    fn a_row_keys_its_placement_in_json_and_splits_run_where_they_fit() {
        let split = Split::ALL.into_iter().find(|s| s.key() == "blocks-0-12").unwrap();
        let mut r = row("litmus_wrc_relaxed_gpu", Placement::InterBlock, false, &[(0, 1)]);
        r.placement = split;
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["placement"], "blocks-0-12");
        assert_eq!(serde_json::from_value::<LitmusRow>(json).unwrap(), r);
        let kernels: Vec<LitmusKernel> = ["litmus_mp_weak", "litmus_wrc_weak", "litmus_iriw_weak"]
            .iter()
            .map(|s| LitmusKernel::of(KERNELS.iter().find(|k| k.entry.symbol == *s).unwrap()))
            .collect();
        let options = LitmusOptions {
            kernels,
            placements: Split::ALL.to_vec(),
            budget: crate::gpu::litmus::Budget::Instances(1),
            batch: 1,
            preset: None,
            environment: Preset::Parallel.environment(),
            tuned: None,
            sequential: false,
            seed: 1,
        };
        // MP: warp, intra and inter, and the two cluster placements; WRC:
        // three splits more; IRIW: thirteen.
        assert_eq!(pairs(&options).count(), 5 + 8 + 18);
        assert!(pairs(&options).all(|(k, p)| p.fits(k.test)));
    }
}
