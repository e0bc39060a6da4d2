//! `cargo xtask browser-test [--book DIR] [--screenshots DIR]`: open every
//! chapter of the built book in headless Chromium at 1280×800 (see
//! [`xtask::browser`]), print a one-line summary of what it checked, then one
//! line per table, code block or image wider than its column, image that does
//! not load and broken link or anchor, and fail if there is one.

use xtask::{Error, browser, paths};

use super::Flags;

/// Runs the task.
pub fn run(args: &[String]) -> super::Result {
    let flags = Flags::parse(args, &["--book", "--screenshots"])?;
    let book = flags.path("--book").unwrap_or_else(|| paths::workspace_root().join("target/book"));
    if !book.join("index.html").is_file() {
        return Err(Error(format!("{} holds no built book (build it with `cargo xtask book`)", book.display())));
    }
    browser::find_or_install()?;
    let report = browser::check(&book, flags.path("--screenshots").as_deref())?;
    println!("{report}");
    if report.failures.is_empty() {
        return Ok(());
    }
    for failure in &report.failures {
        println!("{failure}");
    }
    Err(Error(format!(
        "the browser found {} problem(s) in {} at {}×{}",
        report.failures.len(),
        book.display(),
        browser::WINDOW.0,
        browser::WINDOW.1
    )))
}
