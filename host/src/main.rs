//! `host`: the lab's command line. Parses, runs, and maps the outcome to an
//! exit code; every message for a user's mistake is one line.

use std::process::ExitCode;

use clap::error::ErrorKind;
use host::app;
use host::cli::Cli;
use host::commands::Outcome;
use host::error::{EXIT_CHECK_FAILED, EXIT_INTERRUPTED, EXIT_PASSED, EXIT_USAGE, LabError};

fn main() -> ExitCode {
    let cli = match Cli::try_parse_args() {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // clap's first line names the flag and the problem; the rest is a
            // usage reminder that would bury it. A missing argument is the
            // exception: clap names it on the line after, which joins the
            // first.
            let text = e.to_string();
            let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
            let first = lines.next().unwrap_or("error: invalid arguments");
            match (e.kind(), lines.next()) {
                (ErrorKind::MissingRequiredArgument, Some(missing)) => eprintln!("{first} {missing}"),
                _ => eprintln!("{first}"),
            }
            return ExitCode::from(EXIT_USAGE);
        }
    };
    match app::run(cli) {
        Ok(Outcome::Passed) => ExitCode::from(EXIT_PASSED),
        Ok(Outcome::ChecksFailed) => ExitCode::from(EXIT_CHECK_FAILED),
        Ok(Outcome::Interrupted) => ExitCode::from(EXIT_INTERRUPTED),
        // Whoever read standard output has gone: nothing to tell them.
        Err(e @ LabError::ClosedPipe) => ExitCode::from(e.exit_code()),
        Err(e) => {
            // One line, whatever a path in it holds: a file name with a
            // newline in it is shown escaped.
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
