//! `cargo xtask practice check KEY --evidence DIR`: what page 2's practice
//! task asks the learner to keep, written from the check that just ran.
//!
//! "Evidence to keep: source for both variants, launch configuration,
//! correctness output over a stress loop, Compute Sanitizer results where
//! available, and a written scope-and-order invariant." For each puzzle
//! checked (the producer-consumer demo brings its relaxed twin): its source
//! as the learner wrote it, its kernel's parameters and launch, the
//! checker's report with the model's verdict, the host's output of the GPU
//! run with its denominators, the sanitizer's logs, and the invariant block
//! with the check that held it to the compiled flag. Nothing is kept that
//! was not run: a layer this machine could not run says so in the report.

use std::fs;
use std::path::Path;

use crate::Error;

use super::check::{self, Report};
use super::outcome::Outcome;
use super::{Check, Puzzle, gpu};

/// One checked puzzle: its number in the list, the puzzle and its report.
pub type Checked<'a> = (usize, &'static Puzzle, &'a Report);

/// The files written, relative to `dir`, each with what it holds.
pub fn write(root: &Path, dir: &Path, checked: &[Checked<'_>]) -> Result<Vec<(String, String)>, Error> {
    fs::create_dir_all(dir).map_err(|e| Error(format!("cannot create {}: {e}", dir.display())))?;
    let mut files = Vec::new();
    let mut put = |name: String, what: String, text: &str| -> Result<(), Error> {
        fs::write(dir.join(&name), text)
            .map_err(|e| Error(format!("cannot write {}: {e}", dir.join(&name).display())))?;
        files.push((name, what));
        Ok(())
    };
    for &(number, puzzle, report) in checked {
        let key = puzzle.kernel.key;
        let source_path = root.join("practice/src").join(puzzle.kernel.file);
        let source = fs::read_to_string(&source_path)
            .map_err(|e| Error(format!("cannot read {}: {e}", source_path.display())))?;
        put(puzzle.kernel.file.to_owned(), format!("puzzle {number}'s source, as you wrote it"), &source)?;
        put(format!("launch-{key}.txt"), "its kernel's parameters and launch".to_owned(), &launch(puzzle, &source))?;
        let verdict = check::verdict(puzzle, report).unwrap_or_else(|failed| format!("error: {failed}"));
        let text = format!("{}{verdict}\n", check::render(number, puzzle, report));
        put(format!("check-{key}.txt"), "the checker's report, layer by layer, and its verdict".to_owned(), &text)?;
        let gpu_log = root.join("target/practice/gpu").join(format!("{key}.txt"));
        if report.lines.iter().any(|l| l.check == super::ON_THE_GPU && !matches!(l.outcome, Outcome::NotRun(_)))
            && let Ok(text) = fs::read_to_string(&gpu_log)
        {
            put(format!("gpu-{key}.txt"), "the host's run of your kernel under the lab's stress".to_owned(), &text)?;
        }
        if report.lines.iter().any(|l| l.check == super::SANITIZER && !matches!(l.outcome, Outcome::NotRun(_))) {
            for tool in gpu::SANITIZER_TOOLS {
                let log = root.join("target/practice/sanitizer").join(format!("{key}-{tool}.log"));
                if let Ok(text) = fs::read_to_string(&log) {
                    put(format!("sanitizer-{key}-{tool}.log"), format!("compute-sanitizer's {tool}"), &text)?;
                }
            }
        }
        if puzzle.checks.iter().any(|c| matches!(c, Check::Invariant { .. })) {
            put(
                format!("invariant-{key}.txt"),
                "your scope-and-order invariant, and the check".to_owned(),
                &invariant(&source, report),
            )?;
        }
    }
    let index: String = files.iter().map(|(name, what)| format!("{name:<36} {what}\n")).collect();
    fs::write(dir.join("README.txt"), index).map_err(|e| Error(format!("cannot write the index: {e}")))?;
    Ok(files)
}

/// The kernel's parameters, the lab kernel whose launch it takes, the host
/// commands the GPU layers run, and the `# Launch` section of its docs.
fn launch(puzzle: &Puzzle, source: &str) -> String {
    let params: Vec<String> =
        puzzle.kernel.stands_for.params().iter().map(|p| format!("{}: {}", p.name, p.ty)).collect();
    let mut text = format!("kernel: {}({})\n", puzzle.kernel.symbol, params.join(", "));
    match puzzle.kernel.stands_for.lab() {
        Some(lab) => {
            text.push_str(&format!("launched as the lab's `{}` is\n", lab.symbol));
            text.push_str(&format!(
                "on the GPU: host --practice PTX --puzzle {} {}\n",
                puzzle.kernel.key,
                puzzle.on_gpu.join(" ")
            ));
            text.push_str(&format!(
                "under the sanitizer: host --practice PTX --puzzle {} {}\n",
                puzzle.kernel.key,
                gpu::small_command(puzzle).join(" ")
            ));
        }
        None => text.push_str("never launched: the model reads it\n"),
    }
    let doc: Vec<&str> = source
        .lines()
        .map(str::trim)
        .skip_while(|l| *l != "/// # Launch")
        .skip(1)
        .take_while(|l| l.starts_with("///") && !l.starts_with("/// #"))
        .map(|l| l.trim_start_matches("///").trim())
        .filter(|l| !l.is_empty())
        .collect();
    if !doc.is_empty() {
        text.push_str(&format!("launch, as its docs say: {}\n", doc.join(" ")));
    }
    text
}

/// The invariant block as written, and the check's line on it.
fn invariant(source: &str, report: &Report) -> String {
    let keys = ["scope:", "releases:", "acquires:", "protects:"];
    let mut text: String = source
        .lines()
        .map(|l| l.trim_start_matches("//!").trim())
        .filter(|l| keys.iter().any(|k| l.starts_with(k)))
        .map(|l| format!("{l}\n"))
        .collect();
    if let Some(line) = report.lines.iter().find(|l| l.check == "written invariant") {
        let said = match &line.outcome {
            Outcome::Passed(s) => format!("held: {s}"),
            Outcome::Failed(s) => format!("FAILED: {s}"),
            Outcome::NotRun(s) => format!("not run: {s}"),
        };
        text.push_str(&format!("\nthe check: {said}\n"));
    }
    text
}
