//! `cargo xtask practice`: the learner's puzzles. `list`, `check NAME`,
//! `hint NAME`, `reset NAME` and `watch`; the checker is
//! `xtask::practice`.

use std::collections::HashMap;
use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, SystemTime};

use layout::Module;
use xtask::practice::build::{self, Answer};
use xtask::practice::check::{self, Report};
use xtask::practice::machine::Machine;
use xtask::practice::outcome::Outcome;
use xtask::practice::{self, PUZZLES, Puzzle, gpu};
use xtask::{Error, paths};

/// `practice`'s flags.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub action: Action,
}

/// The practice commands.
#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Every puzzle, done or not, and the next one to do.
    List,
    /// Build your kernels and hold one puzzle's to its checks, each named.
    Check {
        /// The puzzle (`cargo xtask practice list` names them).
        #[arg(value_parser = puzzle_key())]
        name: String,
        /// Also write what page 2's practice task asks you to keep into
        /// DIR: your source, the launch, the checker's report, the GPU run's
        /// output and the sanitizer's logs where they ran, and your written
        /// invariant (`producer-consumer` keeps its relaxed twin's too).
        #[arg(long, value_name = "DIR")]
        evidence: Option<std::path::PathBuf>,
    },
    /// The puzzle's next hint, one more each time.
    Hint {
        /// The puzzle.
        #[arg(value_parser = puzzle_key())]
        name: String,
    },
    /// Put the puzzle's file back as your last commit has it (the stub, if
    /// you have not committed it): `git checkout HEAD -- practice/src/FILE`.
    Reset {
        /// The puzzle.
        #[arg(value_parser = puzzle_key())]
        name: String,
    },
    /// Check the first unsolved puzzle, then check again each puzzle you
    /// save, until Ctrl-C.
    Watch,
    /// Compile every solution and every wrong answer the repository keeps
    /// into DIR, with a manifest, for the GPU test binary (`cargo test
    /// --release --test gpu -- practice`) on a machine without Rust.
    Sets {
        /// The folder to write them to.
        #[arg(default_value = "target/practice-sets")]
        dir: std::path::PathBuf,
    },
}

/// clap's parser for a puzzle's name: one of the list's keys.
fn puzzle_key() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(PUZZLES.iter().map(|p| p.kernel.key))
}

/// The puzzle called `key` and its number, from 1; clap has checked it.
fn puzzle(key: &str) -> (usize, &'static Puzzle) {
    let at = PUZZLES.iter().position(|p| p.kernel.key == key).expect("clap accepts only the list's keys");
    (at + 1, &PUZZLES[at])
}

/// Runs the task.
pub fn run(args: &Args) -> super::Result {
    let root = paths::workspace_root();
    match &args.action {
        Action::List => list(&root),
        Action::Check { name, evidence } => {
            let (number, puzzle) = puzzle(name);
            check_one(&root, number, puzzle, evidence.as_deref())
        }
        Action::Hint { name } => hint(&root, puzzle(name).1),
        Action::Reset { name } => reset(&root, puzzle(name).1),
        Action::Watch => watch(&root),
        Action::Sets { dir } => {
            let members = practice::sets::write(&root, &super::cargo(), dir)?;
            println!("{} answers compiled into {}", members.len(), dir.display());
            Ok(())
        }
    }
}

/// The learner's file of `puzzle`, as it is now (empty if it cannot be read:
/// the build has said why).
fn source(root: &Path, puzzle: &Puzzle) -> String {
    fs::read_to_string(Answer::Learner.path(root, puzzle)).unwrap_or_default()
}

/// Builds the learner's crate and checks every puzzle in it: `Err` (rustc
/// has printed why) when its base build fails. The Hopper build, for the
/// puzzles that need clusters, comes second: where only it fails, those
/// puzzles fail `builds` and the others are checked.
fn check_all(root: &Path) -> Result<Vec<Report>, Error> {
    let cargo = super::cargo();
    let base = build::learner(root, &cargo, Module::Base)?;
    let hopper = PUZZLES
        .iter()
        .any(|p| p.kernel.module() == Module::Hopper)
        .then(|| build::learner(root, &cargo, Module::Hopper));
    let machine = Machine::of(root, &base);
    Ok(PUZZLES
        .iter()
        .map(|p| match (p.kernel.module(), &hopper) {
            (Module::Hopper, Some(built)) => practice::report(root, p, built, &source(root, p)),
            _ => check::run(p, &base, &source(root, p), &machine),
        })
        .collect())
}

/// Checks `puzzle` in the learner's crate, layer by layer, prints the
/// report and its verdict and, with `evidence`, keeps what page 2 asks for.
fn check_one(root: &Path, number: usize, puzzle: &'static Puzzle, evidence: Option<&Path>) -> super::Result {
    let built = build::learner(root, &super::cargo(), puzzle.kernel.module());
    let report = checked(root, puzzle, &built);
    print!("{}", check::render(number, puzzle, &report));
    let verdict = check::verdict(puzzle, &report);
    if let Some(dir) = evidence {
        let twins: Vec<(usize, &'static Puzzle, Report)> = practice::puzzles::evidence_with(puzzle.kernel.key)
            .iter()
            .map(|key| {
                let (n, p) = self::puzzle(key);
                (n, p, checked(root, p, &built))
            })
            .collect();
        let mut kept = vec![(number, puzzle, &report)];
        kept.extend(twins.iter().map(|(n, p, r)| (*n, *p, r)));
        let files = practice::evidence::write(root, dir, &kept)?;
        println!("evidence: {} files in {} (README.txt lists them)", files.len(), dir.display());
    }
    verdict.map(|done| println!("{done}")).map_err(|e| super::Failure::Failed(Error(e)))
}

/// Every layer of `puzzle` on one build of the learner's crate, the GPU's
/// and the sanitizer's included where this machine can run them.
fn checked(root: &Path, puzzle: &Puzzle, built: &Result<String, Error>) -> Report {
    let report = practice::report(root, puzzle, built, &source(root, puzzle));
    match built {
        Ok(ptx) => match write_ptx(root, puzzle.kernel.module(), ptx) {
            Ok(()) => report.on_the_gpu(|| on_the_gpu(root, puzzle), || sanitize(root, puzzle)),
            Err(why) => report.on_the_gpu(|| Outcome::Failed(why), || Outcome::NotRun(String::new())),
        },
        Err(_) => report,
    }
}

/// The GPU layer, where this machine has a GPU: the learner's PTX (which
/// the build wrote to `target/practice/practice.ptx`, or `practice-sm90.ptx`
/// for a puzzle of the Hopper build) run by a release build of `host`, its
/// output in `target/practice/gpu/KEY.txt`.
fn on_the_gpu(root: &Path, puzzle: &Puzzle) -> Outcome {
    if let Some(why) = gpu::unavailable() {
        return Outcome::NotRun(why);
    }
    match super::host_binary(None) {
        Ok(host) => gpu::run(&host, puzzle, &practice_ptx(root, puzzle.kernel.module()), &gpu_log(root, puzzle)),
        Err(e) => Outcome::Failed(e.0),
    }
}

/// The sanitizer layer, after the GPU layer passed: its logs in
/// `target/practice/sanitizer/`.
fn sanitize(root: &Path, puzzle: &Puzzle) -> Outcome {
    match super::host_binary(None) {
        Ok(host) => {
            let ptx = practice_ptx(root, puzzle.kernel.module());
            gpu::sanitize(&host, puzzle, &ptx, &root.join("target/practice/sanitizer"))
        }
        Err(e) => Outcome::Failed(e.0),
    }
}

/// Writes the learner's PTX for `module` where the GPU layers read it.
fn write_ptx(root: &Path, module: Module, ptx: &str) -> Result<(), String> {
    let file = practice_ptx(root, module);
    fs::create_dir_all(root.join("target/practice"))
        .and_then(|()| fs::write(&file, ptx))
        .map_err(|e| format!("cannot write {}: {e}", file.display()))
}

/// The learner's PTX for `module`, as the last check wrote it.
fn practice_ptx(root: &Path, module: Module) -> std::path::PathBuf {
    root.join("target/practice").join(format!("practice{}.ptx", module.suffix()))
}

/// Where the GPU layer keeps the host's output for `puzzle`.
fn gpu_log(root: &Path, puzzle: &Puzzle) -> std::path::PathBuf {
    root.join("target/practice/gpu").join(format!("{}.txt", puzzle.kernel.key))
}

fn list(root: &Path) -> super::Result {
    // The learner's code that does not compile is a puzzle not solved yet.
    let reports = check_all(root).map_err(super::Failure::Failed)?;
    let mut next = None;
    let width = |column: fn(&Puzzle) -> &str| PUZZLES.iter().map(|p| column(p).chars().count()).max().unwrap_or(0);
    let (keys, lessons, titles) = (width(|p| p.kernel.key), width(|p| p.lesson), width(|p| p.title));
    for (k, (puzzle, report)) in PUZZLES.iter().zip(&reports).enumerate() {
        let state = match report.first_failure() {
            None if puzzle.on_gpu.is_empty() => "done".to_owned(),
            None => "done, without the GPU layer".to_owned(),
            Some(line) => {
                next.get_or_insert(puzzle.kernel.key);
                format!("not yet: `{}` fails", line.check)
            }
        };
        println!(
            "{:>2}. {:<keys$}  {:<lessons$}  {:<titles$}  {state}",
            k + 1,
            puzzle.kernel.key,
            puzzle.lesson,
            puzzle.title
        );
    }
    match next {
        Some(key) => println!("next: cargo xtask practice check {key}"),
        None => println!("every puzzle passes the checks this machine can run"),
    }
    Ok(())
}

/// The file that counts the hints already shown for `puzzle`.
fn hints_file(root: &Path, puzzle: &Puzzle) -> std::path::PathBuf {
    root.join("target/practice/hints").join(puzzle.kernel.key)
}

fn hint(root: &Path, puzzle: &Puzzle) -> super::Result {
    let file = hints_file(root, puzzle);
    let shown: usize = fs::read_to_string(&file).ok().and_then(|s| s.trim().parse().ok()).unwrap_or(0);
    let total = puzzle.hints.len();
    let Some(text) = puzzle.hints.get(shown) else {
        println!("no more hints for {} ({total} shown); the solution is {}", puzzle.kernel.key, puzzle.solution);
        return Ok(());
    };
    for (k, earlier) in puzzle.hints[..shown].iter().enumerate() {
        println!("hint {} of {total}: {earlier}", k + 1);
    }
    println!("hint {} of {total}: {text}", shown + 1);
    fs::create_dir_all(file.parent().expect("the hints file has a folder"))
        .and_then(|()| fs::write(&file, (shown + 1).to_string()))
        .map_err(|e| Error(format!("cannot record the hint in {}: {e}", file.display())).into())
}

fn reset(root: &Path, puzzle: &Puzzle) -> super::Result {
    let path = format!("practice/src/{}", puzzle.kernel.file);
    let status = Command::new("git")
        .current_dir(root)
        .args(["checkout", "HEAD", "--", &path])
        .status()
        .map_err(|e| Error(format!("cannot run git: {e}")))?;
    if !status.success() {
        return Err(Error(format!("git could not restore {path} ({status})")).into());
    }
    let _ = fs::remove_file(hints_file(root, puzzle));
    println!("{path} is as your last commit has it; its hints start again from the first");
    Ok(())
}

/// The modification time of each puzzle file.
fn stamps(root: &Path) -> HashMap<&'static str, SystemTime> {
    PUZZLES
        .iter()
        .filter_map(|p| {
            let modified = fs::metadata(Answer::Learner.path(root, p)).and_then(|m| m.modified()).ok()?;
            Some((p.kernel.key, modified))
        })
        .collect()
}

fn watch(root: &Path) -> super::Result {
    let first = match check_all(root) {
        Ok(reports) => reports.iter().position(|r| !r.passed()).unwrap_or(0),
        Err(e) => {
            eprintln!("error: {e}");
            0
        }
    };
    let _ = check_one(root, first + 1, &PUZZLES[first], None).map_err(|e| println!("{e}"));
    println!("watching practice/src/: save a puzzle's file to check it again (Ctrl-C stops)");
    let mut seen = stamps(root);
    loop {
        std::thread::sleep(Duration::from_millis(500));
        let now = stamps(root);
        for (k, puzzle) in PUZZLES.iter().enumerate() {
            if now.get(puzzle.kernel.key) != seen.get(puzzle.kernel.key) {
                let _ = check_one(root, k + 1, puzzle, None).map_err(|e| println!("{e}"));
            }
        }
        seen = now;
    }
}
