//! The commands, wired: options → runner → result → exporter → stdout.

use crate::cli::{Cli, Command, SweepArgs};
use crate::error::LabError;
use crate::gpu::sum::SumKernels;
use crate::gpu::{Gpu, PtxSource};
use crate::report::table;
use crate::sweep::SweepOptions;
use crate::{determinism, sweep};

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
    }
}

fn run_sweep(ptx: &PtxSource, args: SweepArgs) -> Result<Outcome, LabError> {
    let options = SweepOptions {
        block: args.block,
        runs: args.runs as usize,
        warmup: args.warmup as usize,
        sizes: args.sizes,
    };
    let gpu = Gpu::open(ptx)?;
    let kernels = SumKernels::load(&gpu)?;
    print!("{}\n", table::device_header(&gpu.info, options.block));

    let report = sweep::run(&kernels, &options)?;
    print!("{}\n", table::sweep(&report));

    let det = determinism::run(&kernels, determinism::N, options.block, determinism::RUNS)?;
    print!("{}", table::determinism(&det));

    let mismatches = report.mismatches();
    if mismatches.is_empty() {
        Ok(Outcome::Passed)
    } else {
        eprint!("{}", table::mismatches(&mismatches));
        Ok(Outcome::ChecksFailed)
    }
}
