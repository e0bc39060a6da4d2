//! The one generic runner: a parsed command line → its [`Command`] → checks
//! made before any GPU → the device → the run → its results written →
//! its failures on standard error → an [`Outcome`].

use crate::cli::{Cli, Command as Subcommand};
use crate::commands::{Command, Device, Outcome, Output, accuracy};
use crate::error::LabError;
use crate::gpu::PtxSource;
use crate::interrupt;

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<Outcome, LabError> {
    let ptx = match (cli.ptx, cli.practice) {
        (Some(file), _) => PtxSource::File(file),
        (None, Some(file)) => {
            // clap accepts only the list's names.
            let puzzles: Vec<_> = cli.puzzle.iter().filter_map(|key| layout::practice::find(key)).collect();
            for (k, a) in puzzles.iter().enumerate() {
                if let Some(b) = puzzles[k + 1..].iter().find(|b| b.stands_for == a.stands_for) {
                    return Err(LabError::Unrunnable(format!(
                        "--puzzle {} and {} both stand in for the same lab kernel; name one of them",
                        a.key, b.key
                    )));
                }
            }
            PtxSource::Practice { file, puzzles }
        }
        (None, None) => PtxSource::Embedded,
    };
    match cli.command {
        Subcommand::Sweep(args) => execute(args, &ptx),
        Subcommand::Exercise(args) => execute(args, &ptx),
        Subcommand::Publish(args) => execute(args, &ptx),
        Subcommand::PublishSys(args) => execute(args, &ptx),
        Subcommand::Scopes(args) => execute(args, &ptx),
        Subcommand::Bench(args) => execute(args, &ptx),
        Subcommand::Histogram(args) => execute(args, &ptx),
        // `--save-arrays` writes the arrays and opens no GPU: a command of
        // its own, with no device.
        Subcommand::Accuracy(args) => match accuracy::args::SaveArrays::of(&args) {
            Some(save) => execute(save, &ptx),
            None => execute(args, &ptx),
        },
        Subcommand::Litmus(args) => execute(args, &ptx),
        Subcommand::Tune(args) => execute(args, &ptx),
        Subcommand::Pitfalls(args) => execute(args, &ptx),
        Subcommand::Evidence(args) => execute(args, &ptx),
        Subcommand::Render(args) => execute(args, &ptx),
        Subcommand::Compare(args) => execute(args, &ptx),
    }
}

/// Runs one command: checks what can be checked before the GPU, opens the
/// device it needs (none for `render`), runs it, writes its results, prints
/// the failures its checks found, and maps how it came out.
pub fn execute<C: Command>(command: C, ptx: &PtxSource) -> Result<Outcome, LabError> {
    let checked = command.check()?;
    if C::STOPS_AT_CHECKS {
        interrupt::catch();
    }
    let device = C::Device::open(ptx)?;
    let output = command.run(checked, &device)?;
    output.emit()?;
    let checks = output.checks();
    eprint!("{}", checks.lines);
    // A run that Ctrl-C stopped says so after its results and failures.
    if output.partial() {
        eprintln!("{}", interrupt::NOTE);
    }
    output.outcome(&checks)
}
