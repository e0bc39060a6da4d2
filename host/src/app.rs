//! The commands, wired: options → runner → one [`Record`] → exporter →
//! standard output or a file. Mismatch details go to standard error.

use std::io::IsTerminal;
use std::path::Path;

use crate::accuracy::{AccuracyOptions, Data};
use crate::bench::BenchOptions;
use crate::cli::{
    AccuracyArgs, BenchArgs, Cli, Command, EvidenceArgs, ExerciseArgs, HistogramArgs, LitmusArgs, OutputArgs, PlotArgs,
    PublishArgs, RenderArgs, SweepArgs,
};
use crate::error::{EXIT_INTERRUPTED, LabError};
use crate::evidence::{self, EvidenceOptions};
use crate::gpu::baseline::Baselines;
use crate::gpu::histogram::HistogramKernels;
use crate::gpu::litmus::{Budget, LitmusKernel, LitmusKernels};
use crate::gpu::publish::{PublishKernels, PublishVariant};
use crate::gpu::sum::{SumKernel, SumKernels};
use crate::gpu::timing::Plan;
use crate::gpu::{Gpu, PtxSource};
use crate::histogram::HistogramOptions;
use crate::interrupt;
use crate::litmus::{LitmusOptions, LitmusRow};
use crate::progress::Progress;
use crate::publish::{PublishOptions, Verdict};
use crate::record::{KERNEL_COMPILER, Record, Results};
use crate::report::{self, Format, plot, table};
use crate::sweep::{Mismatch, SweepOptions};
use crate::{accuracy, bench, data_file, determinism, exercise, histogram, litmus, publish, sweep};
use lab_records::StepOutcome;

/// How a command that ran to the end came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every check passed.
    Passed,
    /// At least one check failed; the details were printed.
    ChecksFailed,
    /// Ctrl-C stopped the run; what it measured was printed, marked partial,
    /// and any failed check too.
    Interrupted,
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<Outcome, LabError> {
    // A saved record is rendered with no GPU at all.
    if let Command::Render(args) = &cli.command {
        return run_render(args);
    }
    // The evidence directory is checked before the GPU is opened.
    if let Command::Evidence(args) = &cli.command {
        return run_evidence(args, cli.ptx.clone());
    }
    let ptx = cli.ptx.map_or(PtxSource::Embedded, PtxSource::File);
    // A user's data file is read and checked before the GPU is opened, so a
    // wrong file is reported the same way on every machine, at once.
    let file_values = match &cli.command {
        Command::Accuracy(AccuracyArgs { input: Some(path), .. }) => {
            Some(data_file::load(path).map_err(|e| LabError::DataFile { path: path.clone(), reason: e.to_string() })?)
        }
        _ => None,
    };
    // So is a litmus selection that names nothing to run.
    let litmus_kernels = match &cli.command {
        Command::Litmus(args) => Some(litmus_selection(args)?),
        _ => None,
    };
    let gpu = Gpu::open(&ptx)?;
    match cli.command {
        Command::Sweep(args) => run_sweep(&gpu, args),
        Command::Exercise(args) => run_exercise(&gpu, args),
        Command::Publish(args) => run_publish(&gpu, args),
        Command::Histogram(args) => run_histogram(&gpu, args),
        Command::Bench(args) => run_bench(&gpu, args),
        Command::Accuracy(args) => run_accuracy(&gpu, args, file_values.as_deref()),
        Command::Litmus(args) => run_litmus(&gpu, args, litmus_kernels.unwrap_or_default()),
        Command::Evidence(_) | Command::Render(_) => unreachable!("handled before the GPU is opened"),
    }
}

fn run_render(args: &RenderArgs) -> Result<Outcome, LabError> {
    let path = &args.input;
    let data_error = |reason: String| LabError::DataFile { path: path.clone(), reason };
    let text = std::fs::read_to_string(path).map_err(|e| data_error(e.to_string()))?;
    let record = report::json::import(&text)
        .map_err(|e| data_error(format!("not a record written by `--format json` ({e})")))?;
    emit(&record, &args.output, Some(&args.plot))?;
    Ok(Outcome::Passed)
}

fn run_evidence(args: &EvidenceArgs, ptx: Option<std::path::PathBuf>) -> Result<Outcome, LabError> {
    let options = EvidenceOptions { dir: args.dir.clone(), force: args.force, ptx, only: args.only.clone() };
    evidence::prepare(&options)?;
    let info = evidence::device(&options.ptx.clone().map_or(PtxSource::Embedded, PtxSource::File))?;
    // Ctrl-C reaches the running step too, which stops at its next check and
    // writes what it measured; the evidence run then stops after that step
    // and still writes its manifest.
    interrupt::catch();
    let bar = Progress::new(true);
    let manifest = evidence::run(&options, &info, &bar)?;
    print!("{}", table::evidence(&manifest, &options.dir, table::Look::Plain));
    let failed: Vec<&lab_records::Step> =
        manifest.steps.iter().filter(|s| matches!(s.outcome, StepOutcome::ChecksFailed | StepOutcome::Error)).collect();
    for step in &failed {
        eprintln!("{} {}: {}", step.name, step.outcome.word(), step.note.as_deref().unwrap_or("see its output"));
    }
    if interrupt::requested() || manifest.steps.iter().any(|s| s.exit_code == Some(i32::from(EXIT_INTERRUPTED))) {
        return Ok(Outcome::Interrupted);
    }
    if let Some(step) = failed.iter().find(|s| s.outcome == StepOutcome::Error) {
        return Err(LabError::Step { step: step.name.clone(), note: step.note.clone().unwrap_or_default() });
    }
    Ok(if failed.is_empty() { Outcome::Passed } else { Outcome::ChecksFailed })
}

/// A progress bar only where someone watches a table being made: text
/// format, and both output streams on a terminal.
fn progress(output: &OutputArgs) -> Progress {
    let watched = output.format == Format::Table && output.output.is_none() && std::io::stdout().is_terminal();
    Progress::new(watched)
}

fn record(gpu: &Gpu, results: Results) -> Record {
    Record {
        tool: format!("host {}", env!("CARGO_PKG_VERSION")),
        kernel_compiler: KERNEL_COMPILER.to_owned(),
        ptx: gpu.ptx_name().to_owned(),
        device: gpu.info.clone(),
        results,
        partial: false,
    }
}

fn write(path: &Path, text: &str) -> Result<(), LabError> {
    std::fs::write(path, text).map_err(|e| LabError::Output { path: path.to_path_buf(), reason: e.to_string() })
}

/// Exports `record` as asked: to stdout or `--output`, and the plot if asked.
fn emit(record: &Record, output: &OutputArgs, plot_args: Option<&PlotArgs>) -> Result<(), LabError> {
    let text = report::export(record, output.format);
    match &output.output {
        Some(path) => write(path, &text)?,
        None => print!("{text}"),
    }
    if let Some(path) = plot_args.and_then(|p| p.plot.as_ref()) {
        match plot::svg(record) {
            Ok(svg) => write(path, &svg)?,
            // An interrupted run may have stopped before it measured anything
            // to plot: that is the interruption, not a file that cannot be
            // written.
            Err(reason) if record.partial => eprintln!("no plot written to {}: {reason}", path.display()),
            Err(reason) => return Err(LabError::Output { path: path.clone(), reason }),
        }
    }
    Ok(())
}

/// A run that Ctrl-C stopped (`partial`) says so on stderr, after its
/// results and failures, and is [`Outcome::Interrupted`] whatever its checks
/// found.
fn unless_interrupted(partial: bool, outcome: Outcome) -> Outcome {
    if partial {
        eprintln!("{}", interrupt::NOTE);
        Outcome::Interrupted
    } else {
        outcome
    }
}

/// Mismatching sums go to stderr, one line each, and fail the run.
fn outcome(mismatches: &[Mismatch]) -> Outcome {
    if mismatches.is_empty() {
        Outcome::Passed
    } else {
        eprint!("{}", table::mismatches(mismatches));
        Outcome::ChecksFailed
    }
}

fn run_sweep(gpu: &Gpu, args: SweepArgs) -> Result<Outcome, LabError> {
    let options = SweepOptions {
        block: args.block,
        runs: args.timing.runs as usize,
        warmup: args.timing.warmup as usize,
        sizes: args.sizes,
    };
    let kernels = SumKernels::load(gpu)?;
    let bar = progress(&args.output);
    bar.start((options.sizes.len() * SumKernel::page().count()) as u64);
    let report = sweep::run(&kernels, &options, &bar)?;
    bar.finish();
    let det = match args.determinism_runs {
        0 => None,
        runs => Some(determinism::run(&kernels, determinism::N, options.block, runs as usize)?),
    };
    let mismatches = report.mismatches();
    emit(&record(gpu, Results::Sweep { sweep: report, determinism: det }), &args.output, Some(&args.plot))?;
    Ok(outcome(&mismatches))
}

fn run_exercise(gpu: &Gpu, args: ExerciseArgs) -> Result<Outcome, LabError> {
    let template = SweepOptions {
        block: crate::gpu::launch::Block::DEFAULT,
        runs: args.timing.runs as usize,
        warmup: args.timing.warmup as usize,
        sizes: args.sizes,
    };
    let kernels = SumKernels::load(gpu)?;
    let report = exercise::run(&kernels, &template, &progress(&args.output))?;
    let mismatches: Vec<Mismatch> = report.runs.iter().flat_map(|r| r.mismatches()).collect();
    emit(&record(gpu, Results::Exercise(report)), &args.output, Some(&args.plot))?;
    Ok(outcome(&mismatches))
}

fn run_publish(gpu: &Gpu, args: PublishArgs) -> Result<Outcome, LabError> {
    let kernels = PublishKernels::load(gpu)?;
    let options = PublishOptions {
        variants: if args.variant.is_empty() { PublishVariant::all().collect() } else { args.variant },
        launches: args.launches as usize,
        rounds: args.rounds,
        budget_ns: args.budget_ms * 1_000_000,
        flags: args.flag,
        preload: args.preload,
    };
    let rows = publish::run(&kernels, gpu.info.sm_count, &options, &progress(&args.output))?;
    let failed = rows.iter().any(|r| Verdict::of(r) == Verdict::Failed);
    emit(&record(gpu, Results::Publish { options, rows }), &args.output, None)?;
    Ok(if failed { Outcome::ChecksFailed } else { Outcome::Passed })
}

fn run_histogram(gpu: &Gpu, args: HistogramArgs) -> Result<Outcome, LabError> {
    let options = HistogramOptions {
        bins: args.bins,
        block: args.block,
        runs: args.timing.runs as usize,
        warmup: args.timing.warmup as usize,
        sizes: args.sizes,
        distributions: args.distribution,
    };
    let kernels = HistogramKernels::load(gpu)?;
    let report = histogram::run(&kernels, &options, &progress(&args.output))?;
    let mismatches = report.mismatches();
    emit(&record(gpu, Results::Histogram(report)), &args.output, None)?;
    if mismatches.is_empty() {
        Ok(Outcome::Passed)
    } else {
        eprint!("{}", table::histogram_mismatches(&mismatches));
        Ok(Outcome::ChecksFailed)
    }
}

fn run_bench(gpu: &Gpu, args: BenchArgs) -> Result<Outcome, LabError> {
    let options = BenchOptions {
        sizes: args.sizes,
        block: args.block,
        plan: Plan { warmup: args.timing.warmup as usize, runs: args.timing.runs as usize, cold: args.cold },
    };
    let kernels = SumKernels::load(gpu)?;
    let baselines = Baselines::load(gpu)?;
    interrupt::catch();
    let report = bench::run(&kernels, &baselines, &options, &progress(&args.output))?;
    let partial = interrupt::requested();
    let mismatches = report.mismatches();
    emit(&Record { partial, ..record(gpu, Results::Bench(report)) }, &args.output, Some(&args.plot))?;
    Ok(unless_interrupted(partial, outcome(&mismatches)))
}

fn run_accuracy(gpu: &Gpu, args: AccuracyArgs, file_values: Option<&[f32]>) -> Result<Outcome, LabError> {
    let data = match args.input {
        Some(path) => Data::File(path),
        None => Data::Generated { spreads: args.spread, sizes: args.sizes, seed: args.seed },
    };
    let options = AccuracyOptions { data, block: args.block, runs: args.runs as usize };
    let kernels = SumKernels::load(gpu)?;
    interrupt::catch();
    let report = accuracy::run(&kernels, &options, file_values, &progress(&args.output))?;
    let partial = interrupt::requested();
    let broken = report.broken();
    emit(&Record { partial, ..record(gpu, Results::Accuracy(report)) }, &args.output, Some(&args.plot))?;
    let outcome = if broken.is_empty() {
        Outcome::Passed
    } else {
        eprint!("{}", table::broken_promises(&broken));
        Outcome::ChecksFailed
    };
    Ok(unless_interrupted(partial, outcome))
}

/// The litmus kernels `args` selects: each test's variants among `--variant`
/// (all if none), in registry order.
fn litmus_selection(args: &LitmusArgs) -> Result<Vec<LitmusKernel>, LabError> {
    let kernels: Vec<LitmusKernel> = LitmusKernel::all()
        .filter(|k| args.test.is_empty() || args.test.contains(&k.test))
        .filter(|k| args.variant.is_empty() || args.variant.contains(&k.variant))
        .collect();
    if kernels.is_empty() {
        return Err(LabError::NothingSelected(
            "no litmus kernel matches: none of the tests given has any of the variants given".to_owned(),
        ));
    }
    if args.sequential && args.placement.contains(&layout::Placement::InterBlock) {
        return Err(LabError::NothingSelected(
            "--sequential runs intra-block only: its barrier cannot separate threads of different blocks".to_owned(),
        ));
    }
    Ok(kernels)
}

fn run_litmus(gpu: &Gpu, args: LitmusArgs, kernels: Vec<LitmusKernel>) -> Result<Outcome, LabError> {
    use layout::Placement;
    let environment = args.environment();
    let placements = if args.sequential {
        vec![Placement::IntraBlock]
    } else if args.placement.is_empty() {
        Placement::ALL.to_vec()
    } else {
        args.placement.clone()
    };
    let options = LitmusOptions {
        kernels,
        placements,
        budget: args.seconds.map_or(Budget::Instances(args.instances), Budget::Seconds),
        batch: args.launches_per_check,
        preset: (environment == args.preset.environment()).then_some(args.preset),
        environment,
        sequential: args.sequential,
        seed: args.seed,
    };
    let litmus_kernels = LitmusKernels::load(gpu)?;
    let bar = progress(&args.output);
    interrupt::catch();
    let (results, failures) = match args.tune {
        Some(configurations) => {
            let trials = litmus::tune::run(&litmus_kernels, &options, configurations as usize, &bar)?;
            let failures = table::litmus_failures(
                &trials
                    .iter()
                    .flat_map(|t| t.rows.iter().map(move |r| (r, &t.environment)))
                    .filter(|(r, _)| r.forbidden() > 0)
                    .collect::<Vec<_>>(),
            );
            (Results::LitmusTune { options, trials }, failures)
        }
        None => {
            let rows = litmus::run(&litmus_kernels, &options, &bar)?;
            let bad: Vec<(&LitmusRow, &litmus::Environment)> =
                rows.iter().filter(|r| r.forbidden() > 0).map(|r| (r, &options.environment)).collect();
            let failures = table::litmus_failures(&bad);
            (Results::Litmus { options, rows }, failures)
        }
    };
    let partial = interrupt::requested();
    emit(&Record { partial, ..record(gpu, results) }, &args.output, None)?;
    let outcome = if failures.is_empty() {
        Outcome::Passed
    } else {
        eprint!("{failures}");
        Outcome::ChecksFailed
    };
    Ok(unless_interrupted(partial, outcome))
}
