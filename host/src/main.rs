//! `host`: the lab's command line. Parses, runs, and maps the outcome to an
//! exit code; every message for a user's mistake is one line.

use std::process::ExitCode;

use clap::error::ErrorKind;
use host::app;
use host::cli::Cli;
use host::commands::Outcome;
use host::error::{EXIT_CHECK_FAILED, EXIT_INTERRUPTED, EXIT_PASSED, EXIT_USAGE};

fn main() -> ExitCode {
    let cli = match Cli::try_parse_args() {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // clap's first line names the flag and the problem; the rest is a
            // usage reminder that would bury it.
            let text = e.to_string();
            eprintln!("{}", text.lines().next().unwrap_or("error: invalid arguments"));
            return ExitCode::from(EXIT_USAGE);
        }
    };
    match app::run(cli) {
        Ok(Outcome::Passed) => ExitCode::from(EXIT_PASSED),
        Ok(Outcome::ChecksFailed) => ExitCode::from(EXIT_CHECK_FAILED),
        Ok(Outcome::Interrupted) => ExitCode::from(EXIT_INTERRUPTED),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
