//! `cargo xtask browser-test [--book DIR] [--screenshots DIR]`: open every
//! chapter of the built book in headless Chromium at 1280×800 (see
//! [`xtask::browser`]), print a one-line summary of what it checked, then one
//! line per table, code block or image wider than its column, image that does
//! not load and broken link or anchor, and fail if there is one.

use std::path::PathBuf;

use xtask::{Error, browser, paths};

/// `browser-test`'s flags.
#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// The built book (default target/book).
    #[arg(long, value_name = "DIR")]
    pub book: Option<PathBuf>,
    /// Also save a screenshot of every page into this directory.
    #[arg(long, value_name = "DIR")]
    pub screenshots: Option<PathBuf>,
}

/// Runs the task.
pub fn run(args: &Args) -> super::Result {
    let book = args.book.clone().unwrap_or_else(|| paths::workspace_root().join("target/book"));
    if !book.join("index.html").is_file() {
        return Err(super::Failure::Usage(Error(format!(
            "{} holds no built book (build it with `cargo xtask book`)",
            book.display()
        ))));
    }
    browser::find_or_install()?;
    let report = browser::check(&book, args.screenshots.as_deref())?;
    println!("{report}");
    if report.failures.is_empty() {
        return Ok(());
    }
    for failure in &report.failures {
        println!("{failure}");
    }
    Err(super::Failure::Failed(Error(format!(
        "the browser found {} problem(s) in {} at {}×{}",
        report.failures.len(),
        book.display(),
        browser::WINDOW.0,
        browser::WINDOW.1
    ))))
}
