//! The command line: the tasks and their flags, read by clap's derive as in
//! the host, and what the tasks share. One module per task holds its flags
//! (`Args`) and its `run`: read what it needs, call the `xtask` library,
//! print.

pub mod book;
pub mod browser;
pub mod build_ptx;
pub mod nvcc_compare;
pub mod practice;
pub mod ptxas;
pub mod sanitize;
pub mod sass;
pub mod test;

use std::env;
use std::path::PathBuf;
use std::process::Command;

use clap::{CommandFactory, Parser, Subcommand};
use xtask::{Error, paths};

/// The lab's build tasks: compile the kernels, build the book, run the
/// tests, and the checks and comparisons that need NVIDIA's tools or a GPU.
///
/// Each task's flags are under `cargo xtask TASK --help`. A flag given twice
/// takes its last value.
#[derive(Debug, Parser)]
#[command(name = "cargo xtask", bin_name = "cargo xtask", arg_required_else_help = true, args_override_self = true)]
pub struct Cli {
    /// The task to run.
    #[command(subcommand)]
    pub task: Task,
}

/// The tasks, in the order `--help` lists them. Each one's first paragraph
/// is its line in the list; the rest is under its own `--help`.
#[derive(Debug, Subcommand)]
pub enum Task {
    /// Compile kernels/ to PTX (both modules) and print the two PTX paths.
    BuildPtx,
    /// Generate the book from a results directory and build it into
    /// target/book/.
    ///
    /// Makes the book's tables, plots and SASS listings from the results
    /// (by default the reference run, results/h200; make your own with `host
    /// evidence DIR`), checks its sources and links, and builds it with the
    /// pinned mdBook.
    Book(book::Args),
    /// Print the ptxas the tests use, installing it if missing.
    Ptxas,
    /// The README's test command: formatting, clippy, every test, the book.
    ///
    /// cargo fmt --check and clippy -D warnings on both workspaces, every test
    /// in release mode (installing ptxas, cuobjdump and nvdisasm if missing),
    /// then the book from the reference run, then the browser test on it.
    Test,
    /// Open every page of the built book in headless Chromium at 1280×800
    /// and fail on what a reader would see broken.
    ///
    /// The sidebar open, as mdBook shows it at that width: a table, code
    /// block or image wider than its column, an image that does not load, or
    /// a broken link or anchor fails the task, one line each. Installs
    /// Debian's chromium and chromium-driver with apt-get if missing.
    BrowserTest(browser::Args),
    /// Print each kernel's SASS and its synchronizing instructions; no GPU
    /// needed.
    ///
    /// Each kernel's SASS (cuobjdump), then a summary: its synchronizing
    /// instructions, its ptxas -v resources and, for sm_90, whether it has
    /// the instructions its registry entry promises.
    Sass(sass::Args),
    /// Run every kernel under compute-sanitizer's four tools; needs a GPU.
    ///
    /// memcheck, racecheck, synccheck and initcheck, through `host evidence
    /// DIR --only sanitize`, then one line per run from the manifest it
    /// writes. Logs go to DIR/sanitizer/.
    Sanitize(sanitize::Args),
    /// Time the page's kernels and the lab's sums against nvcc -O3 and CUB;
    /// needs nvcc and a GPU.
    ///
    /// In one run: the page's kernels compiled by rustc and by nvcc -O3,
    /// alternately; every lab sum beside CUB's DeviceReduce::Sum (its default,
    /// and with CCCL 3.1 or later its not_guaranteed, run_to_run and
    /// gpu_to_gpu modes, held and as called), warm and cold; and CUB's
    /// accuracy on the accuracy command's arrays. Writes
    /// DIR/nvcc-compare.json. Builds against the CCCL headers in target/cccl
    /// (or --cccl DIR) if they are there, else against the toolkit's own, and
    /// never runs pip (that is --install-only).
    NvccCompare(nvcc_compare::Args),
    /// Your turn: puzzles you complete in practice/src/, checked by the
    /// lab's instruments.
    ///
    /// `list` shows every puzzle, done or not; `check NAME` builds your
    /// kernels and holds one to its checks (the machine code's promises and
    /// the memory model's verdict on your orderings, each named); `hint
    /// NAME` gives the next hint; `watch` checks again on every save; `reset
    /// NAME` puts a file back as your last commit has it.
    Practice(practice::Args),
}

/// `cargo xtask --help`, then every task's `--help`, each under the command
/// line that prints it: the book's command-line appendix shows this
/// (`cli/xtask.txt`), so it is always the help of the binary that built it.
pub fn usage() -> String {
    let mut cli = Cli::command();
    // Building propagates the binary's name, so each task's usage line reads
    // `cargo xtask TASK`.
    cli.build();
    let mut text = format!("$ cargo xtask --help\n{}", cli.render_long_help());
    for task in cli.get_subcommands_mut().filter(|task| task.get_name() != "help") {
        let help = task.render_long_help();
        text.push_str(&format!("\n$ cargo xtask {} --help\n{help}", task.get_name()));
    }
    text.trim_end().to_owned()
}

/// A task's result; the failure is printed as one line by `main`, which
/// exits with its code.
pub type Result = std::result::Result<(), Failure>;

/// Why a task failed, as the exit code tells it: the lab's convention, as
/// the host keeps it.
#[derive(Debug)]
pub enum Failure {
    /// What the task was given cannot be used (a results directory that is
    /// not a run): change the command line. Exit 2.
    Usage(Error),
    /// The task ran and what it checks failed (a test, the book's sources,
    /// a puzzle not solved yet, the browser's reading): exit 1.
    Failed(Error),
    /// The machine failed a valid command (a tool that cannot be found or
    /// installed, a build of the lab's own crates, a file that cannot be
    /// written): exit 3. An error a task raises is this unless it says
    /// otherwise.
    Environment(Error),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        Failure::Environment(e)
    }
}

impl From<ptx_builder::Error> for Failure {
    fn from(e: ptx_builder::Error) -> Failure {
        Failure::Environment(e.into())
    }
}

impl Failure {
    /// The process exit code.
    pub fn exit_code(&self) -> u8 {
        match self {
            Failure::Usage(_) => 2,
            Failure::Failed(_) => 1,
            Failure::Environment(_) => 3,
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Usage(e) | Failure::Failed(e) | Failure::Environment(e) => e.fmt(f),
        }
    }
}

/// The cargo that invoked us (`$CARGO`), or `cargo` from `PATH`.
pub fn cargo() -> PathBuf {
    env::var_os("CARGO").map_or_else(|| PathBuf::from("cargo"), PathBuf::from)
}

/// The host binary: `given`, or a fresh release build of it.
pub fn host_binary(given: Option<PathBuf>) -> std::result::Result<PathBuf, Error> {
    if let Some(path) = given {
        return Ok(path);
    }
    let root = paths::workspace_root();
    let status = Command::new(cargo())
        .current_dir(&root)
        .args(["build", "--release", "-p", "host"])
        .status()
        .map_err(|e| Error(format!("cannot run cargo: {e}")))?;
    if !status.success() {
        return Err(Error("building the host failed".to_owned()));
    }
    Ok(root.join("target/release/host"))
}

#[cfg(test)]
mod tests {
    use clap::error::ErrorKind;

    use super::*;

    fn parse(args: &[&str]) -> std::result::Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("xtask").chain(args.iter().copied()))
    }

    /// clap's own consistency checks of the definition (no two flags with
    /// one name, every conflict naming a real flag).
    #[test]
    fn the_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn flags_are_read_as_their_types_and_the_last_one_given_wins() {
        let cli = parse(&["nvcc-compare", "--sizes", "4096,65536", "--out", "a/b", "--out", "c"]).unwrap();
        let Task::NvccCompare(args) = cli.task else { panic!("read as {:?}", cli.task) };
        assert_eq!(args.sizes, Some(vec![4096, 65536]));
        assert_eq!(args.out, Some(PathBuf::from("c")));
        assert_eq!((args.host, args.install_only), (None, false));
        let cli = parse(&["nvcc-compare", "--sizes", "1,2", "--sizes", "3"]).unwrap();
        let Task::NvccCompare(args) = cli.task else { panic!("read as {:?}", cli.task) };
        assert_eq!(args.sizes, Some(vec![3]));
        let cli = parse(&["sass", "--kernel", "sum_tree_atomic"]).unwrap();
        let Task::Sass(args) = cli.task else { panic!("read as {:?}", cli.task) };
        assert_eq!((args.arch.as_str(), args.kernel.as_deref(), args.ptx), ("sm_90", Some("sum_tree_atomic"), None));
        let cli = parse(&["book", "--results", "runs/mine"]).unwrap();
        let Task::Book(args) = cli.task else { panic!("read as {:?}", cli.task) };
        assert_eq!(args.results, Some(PathBuf::from("runs/mine")));
    }

    /// Each kind of bad command line is refused by clap, whose first line
    /// (the one `main` prints) names the flag or the task.
    #[test]
    fn bad_command_lines_are_refused_in_their_first_line() {
        let refused = |args: &[&str], kind: ErrorKind, named: &str| {
            let e = parse(args).unwrap_err();
            let first = e.to_string().lines().next().unwrap_or_default().to_owned();
            assert_eq!(e.kind(), kind, "{args:?}: {e}");
            assert!(first.starts_with("error: ") && first.contains(named), "{args:?}: {first}");
        };
        refused(&["book", "--nope", "1"], ErrorKind::UnknownArgument, "--nope");
        refused(&["sanitize", "--out"], ErrorKind::InvalidValue, "--out");
        refused(&["nvcc-compare", "--sizes", "4096,lots"], ErrorKind::ValueValidation, "lots");
        refused(&["nvcc-compare", "--install-only", "--sizes", "4096"], ErrorKind::ArgumentConflict, "--install-only");
        refused(&["sass", "--arch", "ampere"], ErrorKind::ValueValidation, "ampere");
        refused(&["build-ptx", "--out", "x"], ErrorKind::UnknownArgument, "--out");
        refused(&["compile"], ErrorKind::InvalidSubcommand, "compile");
        assert_eq!(parse(&[]).unwrap_err().kind(), ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand);
    }

    /// The book's appendix shows every task with every flag it takes.
    #[test]
    fn the_usage_shows_every_task_and_its_flags() {
        let usage = usage();
        for task in ["build-ptx", "book", "ptxas", "test", "sass", "sanitize", "nvcc-compare"] {
            assert!(usage.contains(&format!("$ cargo xtask {task} --help\n")), "{task}:\n{usage}");
            assert!(usage.contains(&format!("Usage: cargo xtask {task}")), "{task}:\n{usage}");
        }
        for flag in ["--results", "--arch", "--kernel", "--ptx", "--host", "--out", "--cu", "--cub-cu", "--cccl"] {
            assert!(usage.contains(&format!("{flag} <")), "{flag}:\n{usage}");
        }
        assert!(usage.contains("--sizes <N,N>") && usage.contains("--install-only"), "{usage}");
    }
}
