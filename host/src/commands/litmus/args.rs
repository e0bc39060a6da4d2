//! `litmus`'s command line, and how it runs.

use std::path::PathBuf;

use clap::Args;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use layout::litmus::Split;

use super::flags::{HOPPER, parse_lane_multiplier, parse_litmus_threads, parse_location_stride, parse_seconds};
use super::{LitmusResults, MutantResults, TuneResults};
use crate::commands::{Command, Output, Written, progress, read_input};
use crate::device::kernel_driver_version;
use crate::error::LabError;
use crate::gpu::Gpu;
use crate::gpu::litmus::{Budget, LitmusKernel, LitmusKernels};
use crate::litmus::environment::{DEFAULT_LOCATION_STRIDE, Distance, Environment};
use crate::litmus::keys::Keyed;
use crate::litmus::tuned::{self, Winners};
use crate::litmus::{self, LitmusOptions, Preset, keys};
use crate::options::OutputArgs;

/// One value of `--placement`: a placement, or `all` of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlacementChoice {
    /// Every placement that fits each test ([`Split::ALL`]; the cluster
    /// ones only on a GPU that runs them).
    All,
    /// One placement.
    One(Split),
}

/// A clap parser for `--placement`: `all` or a placement's key.
fn placement_parser() -> impl TypedValueParser<Value = PlacementChoice> {
    let all = PossibleValue::new("all").help("every placement that fits each test (the cluster ones on sm_90 only)");
    let names = std::iter::once(all)
        .chain(Split::ALL.iter().map(|&s| PossibleValue::new(s.key()).help(Keyed::help(s).unwrap_or_default())));
    PossibleValuesParser::new(names).map(|key| match keys::from_key::<Split>(&key) {
        Some(split) => PlacementChoice::One(split),
        None => PlacementChoice::All,
    })
}

/// `litmus`'s flags. Every environment flag overrides the preset's value.
#[derive(Debug, Args)]
pub struct LitmusArgs {
    /// Tests, comma-separated; every test by default.
    #[arg(long, value_delimiter = ',', value_parser = keys::parser::<layout::litmus::Test>())]
    pub test: Vec<layout::litmus::Test>,

    /// Variants, comma-separated; every variant of each test by default, the
    /// `.cluster` ones (`relaxed-cluster`, `rel-acq-cluster`,
    /// `fence-acq-rel-cluster`, `fence-sc-cluster`: compute capability 9.0)
    /// only when a cluster placement is asked for.
    #[arg(long, value_delimiter = ',', value_parser = keys::parser::<layout::litmus::Variant>())]
    pub variant: Vec<layout::litmus::Variant>,

    /// Placements, comma-separated: intra-block and inter-block by default,
    /// `all` for every placement that fits each test. A block split
    /// (`blocks-01-2`: roles 0 and 1 share a block, role 2 has its own) runs
    /// the tests with its number of roles only. `intra-cluster` and
    /// `inter-cluster` put every thread in a block of its own, the blocks in
    /// one thread-block cluster or each in another (a cluster launch of 2
    /// blocks a cluster for two threads, 4 for three or four): compute
    /// capability 9.0, which `all` includes them on and only on.
    #[arg(long, value_delimiter = ',', value_parser = placement_parser())]
    pub placement: Vec<PlacementChoice>,

    /// Run each (test, variant, placement) for at least this many instances.
    #[arg(long, default_value_t = 10_000_000, value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "seconds")]
    pub instances: u64,

    /// Run each (test, variant, placement) for this many seconds instead.
    #[arg(long, value_parser = parse_seconds)]
    pub seconds: Option<f64>,

    /// The testing environment to start from.
    #[arg(long, value_enum, default_value_t = Preset::Parallel, conflicts_with = "tune")]
    pub preset: Preset,

    /// Threads per block: a power of two from 128 to 1024.
    #[arg(long, value_parser = parse_litmus_threads, conflicts_with = "tune")]
    pub threads: Option<u32>,

    /// Blocks per launch, if fewer than fit on the device at once (at least 4):
    /// with --threads and --testing-percent, the instances per launch.
    #[arg(long, value_parser = clap::value_parser!(u32).range(4..=1_000_000), conflicts_with = "tune")]
    pub blocks: Option<u32>,

    /// Percent of the blocks that test; the others stress memory.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100), conflicts_with = "tune")]
    pub testing_percent: Option<u32>,

    /// Odd multiplier of the lane permutation that picks partners, from 1 to
    /// 1023.
    #[arg(long, value_parser = parse_lane_multiplier, conflicts_with = "tune")]
    pub lane_multiplier: Option<u32>,

    /// Shuffle which hardware block plays which logical block.
    #[arg(long, conflicts_with = "tune")]
    pub shuffle_blocks: Option<bool>,

    /// Where an instance's y sits relative to its x.
    #[arg(long, value_enum, conflicts_with = "tune")]
    pub distance: Option<Distance>,

    /// Words of the location buffer per instance: 64 (the default) gives
    /// each instance two 128-byte lines of its own, 32 one, and 16, 8 and 4
    /// pack 2, 4 and 8 instances into each line, as cuda-litmus's small
    /// strides do (`different-lines` needs 64). With `--tune`, every
    /// environment of the search has this stride.
    #[arg(long, value_parser = parse_location_stride)]
    pub location_stride: Option<u32>,

    /// What stressing threads do to their line.
    #[arg(long, value_parser = keys::parser::<layout::litmus::StressPattern>(), conflicts_with = "tune")]
    pub stress_pattern: Option<layout::litmus::StressPattern>,

    /// Iterations of the stress pattern per stressing thread.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=1_000_000), conflicts_with = "tune")]
    pub stress_iterations: Option<u32>,

    /// Words of each stress line the threads touch.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=32), conflicts_with = "tune")]
    pub stress_line_words: Option<u32>,

    /// Distinct stress lines.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=4096), conflicts_with = "tune")]
    pub stress_lines: Option<u32>,

    /// Iterations of the stress pattern by each testing thread first.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=1_000_000), conflicts_with = "tune")]
    pub pre_stress_iterations: Option<u32>,

    /// Wait for every testing thread before the test.
    #[arg(long, conflicts_with = "tune")]
    pub sync_start: Option<bool>,

    /// Read a location before the test so a stale copy sits in L1.
    #[arg(long, value_parser = keys::parser::<layout::litmus::Preload>(), conflicts_with = "tune")]
    pub preload: Option<layout::litmus::Preload>,

    /// Fix the choices each row otherwise draws from --seed (where `y`
    /// lands, which block plays which): every row then lays its instances
    /// out the same way each run. `host tune` records one per environment.
    #[arg(long, conflicts_with = "tune")]
    pub layout_seed: Option<u64>,

    /// Run each test and variant in the environment `host tune` found for
    /// it on this GPU (or, with none, in its test's winner for another
    /// variant): a winners file, or a folder of them, one per GPU and driver
    /// (`runs/tuned` when no path is given). A test the search found no
    /// winner for runs in the preset's environment.
    #[arg(
        long,
        value_name = "PATH",
        num_args = 0..=1,
        default_missing_value = tuned::DEFAULT_FOLDER,
        conflicts_with_all = ["tune", "mutants", "sequential"]
    )]
    pub tuned: Option<PathBuf>,

    /// The sequential control: a barrier between roles, intra-block (or in
    /// one warp, with `--placement warp`) only; every outcome but the one
    /// program order predicts fails the run.
    #[arg(long)]
    pub sequential: bool,

    /// Search this many random environments instead, and rank them per test
    /// by weak outcomes per second. The search draws the environment itself
    /// (every knob but the stride; a launch takes all the blocks that fit), so
    /// the flags that set one (the preset included) are refused beside it;
    /// `--location-stride` holds the search at a stride.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub tune: Option<u32>,

    /// Mutation testing instead: for every selected row the model forbids,
    /// run each mutant (one synchronizing element weakened) whose weak
    /// outcome the model then allows, until its first weak outcome (killed)
    /// or the row budget (`--instances` or `--seconds`) is spent.
    #[arg(long, conflicts_with_all = ["tune", "sequential"])]
    pub mutants: bool,

    /// Launches between two looks at the clock or the instance count.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub launches_per_check: u32,

    /// The seed of every random choice.
    #[arg(long, default_value_t = 26)]
    pub seed: u64,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: OutputArgs,
}

impl LitmusArgs {
    /// The environment: the preset, with every flag given on top.
    pub fn environment(&self) -> Environment {
        let mut e = self.preset.environment();
        let set = |field: &mut u32, value: Option<u32>| {
            if let Some(v) = value {
                *field = v;
            }
        };
        set(&mut e.threads, self.threads);
        set(&mut e.testing_percent, self.testing_percent);
        set(&mut e.lane_multiplier, self.lane_multiplier);
        set(&mut e.stress_iterations, self.stress_iterations);
        set(&mut e.stress_line_words, self.stress_line_words);
        set(&mut e.stress_lines, self.stress_lines);
        set(&mut e.pre_stress_iterations, self.pre_stress_iterations);
        set(&mut e.location_stride, self.location_stride);
        e.blocks = self.blocks.or(e.blocks);
        e.shuffle_blocks = self.shuffle_blocks.unwrap_or(e.shuffle_blocks);
        e.distance = self.distance.unwrap_or(e.distance);
        e.stress_pattern = self.stress_pattern.unwrap_or(e.stress_pattern);
        e.sync_start = self.sync_start.unwrap_or(e.sync_start);
        e.preload = self.preload.unwrap_or(e.preload);
        e.layout_seed = self.layout_seed.or(e.layout_seed);
        e
    }

    /// The placements to run, in the order given (`all` where it stands,
    /// each once): intra-block and inter-block by default, intra-block alone
    /// for the sequential control.
    pub fn placements(&self) -> Vec<Split> {
        if self.placement.is_empty() {
            return if self.sequential { vec![Split::IntraBlock] } else { Split::DEFAULT.to_vec() };
        }
        let mut placements = Vec::new();
        for choice in &self.placement {
            let more = match *choice {
                PlacementChoice::All => Split::ALL.to_vec(),
                PlacementChoice::One(split) => vec![split],
            };
            for split in more {
                if !placements.contains(&split) {
                    placements.push(split);
                }
            }
        }
        placements
    }

    /// The kernels and placements this device runs of `kernels` and
    /// [`LitmusArgs::placements`]: all of them on compute capability 9.0 and
    /// above; below it, a `.cluster` variant or a cluster placement named on
    /// the command line is refused in one line, and those that only `all`
    /// or the default variants brought in are left out.
    pub fn for_device(
        &self,
        kernels: Vec<LitmusKernel>,
        compute_capability: (i32, i32),
    ) -> Result<(Vec<LitmusKernel>, Vec<Split>), LabError> {
        let placements = self.placements();
        if compute_capability >= HOPPER {
            return Ok((kernels, placements));
        }
        let (major, minor) = compute_capability;
        let named = self.placement.iter().find_map(|c| match *c {
            PlacementChoice::One(s) if s.needs_clusters() => Some(s.key()),
            _ => None,
        });
        let named = named.or_else(|| self.variant.iter().find(|v| v.needs_hopper()).map(|v| v.key()));
        if let Some(name) = named {
            return Err(LabError::Unrunnable(format!(
                "{name} needs a thread-block cluster (.cluster scope, cluster launch), which needs compute capability \
                 9.0 or above; this GPU is {major}.{minor}"
            )));
        }
        let kernels: Vec<LitmusKernel> = kernels.into_iter().filter(|k| !k.variant.needs_hopper()).collect();
        let placements: Vec<Split> = placements.into_iter().filter(|p| !p.needs_clusters()).collect();
        if kernels.is_empty() || !kernels.iter().any(|k| placements.iter().any(|p| p.fits(k.test))) {
            return Err(LabError::Unrunnable(format!(
                "nothing selected runs below compute capability 9.0 (this GPU is {major}.{minor})"
            )));
        }
        Ok((kernels, placements))
    }

    /// Refuses placements the kernels cannot run: a placement with two
    /// blocks in the sequential control (its barrier orders one block), and
    /// a block split that fits none of the tests selected.
    fn check_placements(&self, kernels: &[LitmusKernel]) -> Result<(), LabError> {
        for split in self.placements() {
            if self.sequential && !matches!(split, Split::Warp | Split::IntraBlock) {
                return Err(LabError::Unrunnable(format!(
                    "--sequential runs in one block or one warp only (intra-block, warp), not {}: its barrier \
                     cannot separate threads of different blocks",
                    split.key()
                )));
            }
            if !kernels.iter().any(|k| split.fits(k.test)) {
                return Err(LabError::Unrunnable(format!(
                    "placement {} splits {} roles, and none of the tests selected has that many",
                    split.key(),
                    split.roles().unwrap_or(0)
                )));
            }
        }
        Ok(())
    }
}

impl Command for LitmusArgs {
    type Device = Gpu;
    const STOPS_AT_CHECKS: bool = true;
    /// The kernels the flags select, in registry order.
    type Checked = Vec<LitmusKernel>;
    type Output = Box<dyn Output>;

    /// The litmus kernels the flags select: each test's variants among
    /// `--variant` (all if none), in registry order. A selection that names
    /// nothing to run is refused before the GPU is opened.
    fn check(&self) -> Result<Vec<LitmusKernel>, LabError> {
        // The `.cluster` variants come by default only with a cluster
        // placement: the default run is the same on every GPU.
        let clusters = self.placements().iter().any(|p| p.needs_clusters());
        let kernels: Vec<LitmusKernel> = LitmusKernel::all()
            .filter(|k| self.test.is_empty() || self.test.contains(&k.test))
            .filter(|k| {
                if self.variant.is_empty() {
                    clusters || !k.variant.needs_hopper()
                } else {
                    self.variant.contains(&k.variant)
                }
            })
            .collect();
        if kernels.is_empty() {
            return Err(LabError::Unrunnable(
                "no litmus kernel matches: none of the tests given has any of the variants given".to_owned(),
            ));
        }
        self.check_placements(&kernels)?;
        let environment = self.environment();
        if environment.distance == Distance::DifferentLines && environment.location_stride != DEFAULT_LOCATION_STRIDE {
            return Err(LabError::Unrunnable(format!(
                "--distance different-lines puts y in its slot's second 128-byte line, and a slot of {} words has \
                 one line: use --location-stride 64, or --distance same-line or random",
                environment.location_stride
            )));
        }
        if self.mutants {
            let placements = self.placements();
            let forbidden = kernels
                .iter()
                .any(|k| placements.iter().any(|&p| p.fits(k.test) && !litmus::verdict(k.test, k.variant, p).allowed));
            if !forbidden {
                return Err(LabError::Unrunnable(
                    "--mutants weakens rows the model forbids, and the model forbids no selected row".to_owned(),
                ));
            }
        }
        Ok(kernels)
    }

    fn run(self, kernels: Vec<LitmusKernel>, gpu: &Gpu) -> Result<Box<dyn Output>, LabError> {
        let environment = self.environment();
        let (kernels, placements) = self.for_device(kernels, gpu.info.compute_capability)?;
        let tuned = match &self.tuned {
            Some(path) => {
                let file = Winners::file_for(path, &gpu.info, kernel_driver_version().as_deref())?;
                Some(Winners::parse(&read_input(&file)?, &file, &gpu.info)?)
            }
            None => None,
        };
        let options = LitmusOptions {
            kernels,
            placements,
            budget: self.seconds.map_or(Budget::Instances(self.instances), Budget::Seconds),
            batch: self.launches_per_check,
            preset: (environment == self.preset.environment()).then_some(self.preset),
            environment,
            tuned,
            sequential: self.sequential,
            seed: self.seed,
        };
        let litmus_kernels = LitmusKernels::load(gpu)?;
        let bar = progress(&self.output);
        if self.mutants {
            let rows = litmus::mutants::run(&litmus_kernels, gpu, gpu.ptx_text(), &options, &bar)?;
            return Ok(Box::new(Written::run(gpu, MutantResults { options, rows }, self.output, None)));
        }
        Ok(match self.tune {
            Some(configurations) => {
                let trials = litmus::tune::run(&litmus_kernels, &options, configurations as usize, &bar)?;
                Box::new(Written::run(gpu, TuneResults { options, trials }, self.output, None))
            }
            None => {
                let rows = litmus::run(&litmus_kernels, &options, &bar)?;
                Box::new(Written::run(gpu, LitmusResults { options, rows }, self.output, None))
            }
        })
    }
}
