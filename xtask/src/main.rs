//! `cargo xtask <task>`: the lab's build tasks. This file only parses and
//! dispatches; each task is a module under `tasks/` (its flags and its run),
//! over the `xtask` library.

mod tasks;

use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;
use tasks::{Cli, Task};

/// The exit code of a command line clap refuses, as in the host; a task
/// exits 2 for input it cannot use, 1 when what it checks fails and 3 when
/// the machine fails it ([`tasks::Failure`]).
const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        // No task at all: the task list is the most useful answer.
        Err(e) if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            return ExitCode::from(EXIT_USAGE);
        }
        Err(e) => {
            // clap's first line names the flag or task and the problem; the
            // rest is a usage reminder that would bury it.
            let text = e.to_string();
            eprintln!("{}", text.lines().next().unwrap_or("error: invalid arguments"));
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let result = match &cli.task {
        Task::BuildPtx => tasks::build_ptx::run(),
        Task::Book(args) => tasks::book::run(args),
        Task::Ptxas => tasks::ptxas::run(),
        Task::Test => tasks::test::run(),
        Task::BrowserTest(args) => tasks::browser::run(args),
        Task::Sass(args) => tasks::sass::run(args),
        Task::Sanitize(args) => tasks::sanitize::run(args),
        Task::NvccCompare(args) => tasks::nvcc_compare::run(args),
        Task::Practice(args) => tasks::practice::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // One line, whatever a path in it holds: control characters (a
            // newline in a folder's name) are shown escaped.
            let line: String = e
                .to_string()
                .chars()
                .map(|c| if c.is_control() { c.escape_default().to_string() } else { c.to_string() })
                .collect();
            eprintln!("error: {line}");
            ExitCode::from(e.exit_code())
        }
    }
}
