//! The learner's puzzles on a GPU: every solution the repository keeps
//! passes the host's own run in the place of the lab kernel it stands for,
//! and then compute-sanitizer's four tools; every typical wrong answer runs
//! to the end, caught by that run or, where the GPU lets it pass, by the
//! check the puzzle names for it (which `xtask/tests/practice.rs` proves
//! without a GPU).
//!
//! The answers are compiled by `cargo xtask practice sets` (all of them, in
//! a handful of PTX files, with a manifest). A machine without Rust gets the
//! folder and the host binary from one that has it: `LAB_PRACTICE_SETS` and
//! `LAB_HOST` name them; otherwise the test builds the sets into
//! `target/practice-sets` and runs `target/release/host`. The host's output
//! and the sanitizer's logs go to `LAB_PRACTICE_LOGS` (by default
//! `target/practice-gpu`).

use std::path::{Path, PathBuf};

use xtask::practice::outcome::Outcome;
use xtask::practice::sets::{self, Member};
use xtask::practice::{Puzzle, gpu};

/// The checkout's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A folder named by `variable`, or `default` under the checkout.
fn folder(variable: &str, default: &str) -> PathBuf {
    std::env::var_os(variable).map_or_else(|| root().join(default), PathBuf::from)
}

/// The folder of compiled answers, built here if it is not there yet.
fn sets_dir() -> Result<PathBuf, String> {
    let dir = folder("LAB_PRACTICE_SETS", "target/practice-sets");
    if !dir.join(sets::MANIFEST).is_file() {
        let cargo = std::env::var_os("CARGO").map_or_else(|| PathBuf::from("cargo"), PathBuf::from);
        sets::write(&root(), &cargo, &dir).map_err(|e| format!("cannot build the practice sets: {e}"))?;
    }
    Ok(dir)
}

/// The host binary that runs an answer.
fn host() -> Result<PathBuf, String> {
    let host = folder("LAB_HOST", "target/release/host");
    if host.is_file() {
        Ok(host)
    } else {
        Err(format!("no host binary at {}: build it or set LAB_HOST", host.display()))
    }
}

/// The compiled answers to `puzzle`, and the folder that holds them.
fn answers(puzzle: &Puzzle) -> Result<(PathBuf, Vec<Member>), String> {
    let dir = sets_dir()?;
    let members: Vec<Member> =
        sets::read(&dir).map_err(|e| e.0)?.into_iter().filter(|m| m.key == puzzle.kernel.key).collect();
    if members.is_empty() {
        return Err(format!("{} has no compiled answer in {}", puzzle.kernel.key, dir.display()));
    }
    Ok((dir, members))
}

/// Runs every kept answer to `puzzle` on the GPU through the host, as the
/// GPU layer of `cargo xtask practice check` does, and prints one line per
/// answer: what the run said and, for a wrong answer the GPU passed, the
/// check that catches it without a GPU.
pub(super) fn answers_run_as_the_puzzle_says(puzzle: &'static Puzzle) -> Result<(), String> {
    let (dir, members) = answers(puzzle)?;
    let (host, logs) = (host()?, folder("LAB_PRACTICE_LOGS", "target/practice-gpu"));
    let mut problems = Vec::new();
    for member in members {
        let log = logs.join(format!("{}-{}.txt", puzzle.kernel.key, member.answer));
        let outcome = gpu::run(&host, puzzle, &dir.join(&member.ptx), &log);
        let line = match (member.answer.as_str(), outcome) {
            ("solution", Outcome::Passed(_)) => "passed the GPU run".to_owned(),
            ("solution", other) => {
                problems.push(format!("the solution: {other:?}"));
                format!("FAILED: {other:?}")
            }
            (_, Outcome::Failed(said)) if said.contains("failed:") => format!("caught by the GPU run: {said}"),
            (name, Outcome::Passed(said)) => {
                let by = puzzle.wrong.iter().find(|w| w.name == name).map_or("?", |w| w.caught_by);
                // What the run held, with its denominator: a pass is a count,
                // not a proof.
                let held = said.split(gpu::PASSED).nth(1).and_then(|h| h.split("; its output").next()).unwrap_or("");
                format!("passed the GPU run ({held}); `{by}` catches it without a GPU")
            }
            (name, other) => {
                problems.push(format!("{name} did not run to the end: {other:?}"));
                format!("did not run to the end: {other:?}")
            }
        };
        println!("    practice {}/{}: {line}", puzzle.kernel.key, member.answer);
    }
    if problems.is_empty() { Ok(()) } else { Err(problems.join("\n")) }
}

/// Runs `puzzle`'s solution under compute-sanitizer's four tools, as the
/// sanitizer layer of `cargo xtask practice check` does; not run (and said
/// so) where compute-sanitizer is not installed.
pub(super) fn solution_passes_the_sanitizer(puzzle: &'static Puzzle) -> Result<(), String> {
    let (dir, members) = answers(puzzle)?;
    let solution = members.iter().find(|m| m.answer == "solution").ok_or("no compiled solution")?;
    let (host, logs) = (host()?, folder("LAB_PRACTICE_LOGS", "target/practice-gpu"));
    match gpu::sanitize(&host, puzzle, &dir.join(&solution.ptx), &logs) {
        Outcome::Passed(said) => {
            println!("    practice {}/solution: {said}", puzzle.kernel.key);
            Ok(())
        }
        Outcome::NotRun(why) => {
            println!("    practice {}/solution: the sanitizer was not run: {why}", puzzle.kernel.key);
            Ok(())
        }
        Outcome::Failed(why) => Err(why),
    }
}

/// `cargo xtask practice check producer-consumer --evidence DIR` on a GPU
/// machine, without the Rust toolchain it builds with: the two solutions of
/// page 2's practice task in a checkout of their own, checked layer by layer
/// from the compiled set (the GPU and sanitizer layers included), and the
/// evidence written from those reports. What was written is listed, and the
/// folder kept beside the logs.
pub(super) fn evidence_keeps_what_page_2_asks() -> Result<(), String> {
    use xtask::practice::check;
    use xtask::practice::machine::Machine;
    use xtask::practice::{evidence, find};

    let logs = folder("LAB_PRACTICE_LOGS", "target/practice-gpu");
    let checkout = logs.join("evidence-checkout");
    // The learner's files, as if they had written the solutions.
    let sources = [
        ("producer-consumer", include_str!("../../practice/solutions/producer_consumer.rs")),
        ("relaxed-twin", include_str!("../../practice/solutions/relaxed_twin.rs")),
    ];
    let host = host()?;
    let mut reports = Vec::new();
    for (key, source) in sources {
        let puzzle = find(key).ok_or(format!("no puzzle {key}"))?;
        let file = checkout.join("practice/src").join(puzzle.kernel.file);
        std::fs::create_dir_all(file.parent().unwrap_or(&checkout)).map_err(|e| e.to_string())?;
        std::fs::write(&file, source).map_err(|e| e.to_string())?;
        let (dir, members) = answers(puzzle)?;
        let solution = members.iter().find(|m| m.answer == "solution").ok_or("no compiled solution")?;
        let ptx_file = dir.join(&solution.ptx);
        let ptx = std::fs::read_to_string(&ptx_file).map_err(|e| e.to_string())?;
        // The paths `check` writes to and `evidence` reads from.
        let gpu_log = checkout.join("target/practice/gpu").join(format!("{key}.txt"));
        let sanitizer_logs = checkout.join("target/practice/sanitizer");
        let report = check::run(puzzle, &ptx, source, &Machine::of(&checkout, &ptx)).on_the_gpu(
            || gpu::run(&host, puzzle, &ptx_file, &gpu_log),
            || gpu::sanitize(&host, puzzle, &ptx_file, &sanitizer_logs),
        );
        let number = xtask::practice::PUZZLES.iter().position(|p| p.kernel.key == key).map_or(0, |k| k + 1);
        println!("{}", check::render(number, puzzle, &report));
        check::verdict(puzzle, &report)?;
        reports.push((number, puzzle, report));
    }
    let kept: Vec<evidence::Checked<'_>> = reports.iter().map(|(n, p, r)| (*n, *p, r)).collect();
    let files = evidence::write(&checkout, &logs.join("evidence"), &kept).map_err(|e| e.0)?;
    for (name, what) in &files {
        println!("    evidence {name}: {what}");
    }
    let kept = |name: &str| files.iter().any(|(f, _)| f == name);
    let wanted = ["gpu-producer-consumer.txt", "gpu-relaxed-twin.txt", "invariant-producer-consumer.txt"];
    match wanted.iter().find(|f| !kept(f)) {
        Some(missing) => Err(format!("the evidence lacks {missing}")),
        None if !files.iter().any(|(f, _)| f.starts_with("sanitizer-")) => {
            Err("the evidence kept no sanitizer log".to_owned())
        }
        None => Ok(()),
    }
}
