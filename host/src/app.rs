//! The commands, wired: options → runner → result → exporter → stdout.

use crate::bench::BenchOptions;
use crate::cli::{BenchArgs, Cli, Command, HistogramArgs, PublishArgs, SweepArgs};
use crate::gpu::baseline::Baselines;
use crate::gpu::timing::Plan;
use crate::progress::Progress;
use crate::gpu::histogram::HistogramKernels;
use crate::gpu::publish::PublishKernels;
use crate::histogram::HistogramOptions;
use crate::gpu::publish::PublishVariant;
use crate::publish::{PublishOptions, Verdict};
use crate::error::LabError;
use crate::gpu::sum::SumKernels;
use crate::gpu::{Gpu, PtxSource};
use crate::report::table;
use crate::sweep::SweepOptions;
use crate::{bench, determinism, histogram, publish, sweep};

/// How a command that ran to the end came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every check passed.
    Passed,
    /// At least one check failed; the details were printed.
    ChecksFailed,
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<Outcome, LabError> {
    let ptx = cli.ptx.map_or(PtxSource::Embedded, PtxSource::File);
    match cli.command {
        Command::Sweep(args) => run_sweep(&ptx, args),
        Command::Publish(args) => run_publish(&ptx, args),
        Command::Histogram(args) => run_histogram(&ptx, args),
        Command::Bench(args) => run_bench(&ptx, args),
    }
}

fn run_sweep(ptx: &PtxSource, args: SweepArgs) -> Result<Outcome, LabError> {
    let options = SweepOptions {
        block: args.block,
        runs: args.runs as usize,
        warmup: args.warmup as usize,
        sizes: args.sizes.clone(),
    };
    let gpu = Gpu::open(ptx)?;
    let kernels = SumKernels::load(&gpu)?;
    print!("{}\n", table::device_header(&gpu.info, options.block));

    let report = sweep::run(&kernels, &options)?;
    print!("{}\n", table::sweep(&report));

    if args.determinism_runs > 0 {
        let det = determinism::run(&kernels, determinism::N, options.block, args.determinism_runs as usize)?;
        print!("{}", table::determinism(&det));
    }

    finish_sums(&report.mismatches())
}

fn run_publish(ptx: &PtxSource, args: PublishArgs) -> Result<Outcome, LabError> {
    let gpu = Gpu::open(ptx)?;
    let kernels = PublishKernels::load(&gpu)?;
    let (major, minor) = gpu.info.compute_capability;
    println!("GPU: {} (compute capability {major}.{minor}), SMs: {}\n", gpu.info.name, gpu.info.sm_count);
    let options = PublishOptions {
        variants: if args.variant.is_empty() {
            PublishVariant::ALL.to_vec()
        } else {
            args.variant.into_iter().map(PublishVariant::from).collect()
        },
        launches: args.iterations as usize,
        rounds: args.rounds,
        budget_ns: args.budget_ms * 1_000_000,
    };
    let rows = publish::run(&kernels, gpu.info.sm_count, &options)?;
    print!("{}", table::publish(&rows));
    if rows.iter().any(|r| Verdict::of(r) == Verdict::Failed) {
        Ok(Outcome::ChecksFailed)
    } else {
        Ok(Outcome::Passed)
    }
}

fn run_histogram(ptx: &PtxSource, args: HistogramArgs) -> Result<Outcome, LabError> {
    let options = HistogramOptions {
        bins: args.bins,
        block: args.block,
        runs: args.runs as usize,
        warmup: args.warmup as usize,
        sizes: args.sizes,
        distributions: args.distribution,
    };
    let gpu = Gpu::open(ptx)?;
    let kernels = HistogramKernels::load(&gpu)?;
    print!("{}\n", table::device_header(&gpu.info, options.block));
    let report = histogram::run(&kernels, &options)?;
    print!("{}", table::histogram(&report));
    let mismatches = report.mismatches();
    if mismatches.is_empty() {
        Ok(Outcome::Passed)
    } else {
        eprint!("{}", table::histogram_mismatches(&mismatches));
        Ok(Outcome::ChecksFailed)
    }
}

fn run_bench(ptx: &PtxSource, args: BenchArgs) -> Result<Outcome, LabError> {
    let options = BenchOptions {
        sizes: args.sizes,
        block: args.block,
        plan: Plan { warmup: args.warmup as usize, runs: args.runs as usize, cold: args.cold },
    };
    let gpu = Gpu::open(ptx)?;
    let kernels = SumKernels::load(&gpu)?;
    let baselines = Baselines::load(&gpu)?;
    print!("{}\n", table::device_header(&gpu.info, options.block));
    let report = bench::run(&kernels, &baselines, &options, &Progress::new(true))?;
    print!("{}", table::bench(&report));
    finish_sums(&report.mismatches())
}

/// Prints any mismatching sums to stderr and turns them into the outcome.
fn finish_sums(mismatches: &[crate::sweep::Mismatch]) -> Result<Outcome, LabError> {
    if mismatches.is_empty() {
        Ok(Outcome::Passed)
    } else {
        eprint!("{}", table::mismatches(mismatches));
        Ok(Outcome::ChecksFailed)
    }
}
