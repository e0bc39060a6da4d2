//! `cargo xtask book`: the book's generated files, its source checks, and
//! the mdBook build.
//!
//! No figure is typed into the book. A chapter pulls in a table, plot or
//! listing from `book/src/generated/` (`{{#include generated/sweep-64.md}}`,
//! `![…](generated/bench.svg)`), and this module makes exactly the files the
//! chapters name, from one results directory:
//!
//! - `provenance.md`: the one line naming the run (GPU, driver, CUDA,
//!   commit, date, from the directory's manifest), which each chapter
//!   includes once, under its first figure or table;
//! - `NAME.md` for a run `NAME.json`: the host's own Markdown exporter
//!   (`host render NAME.json --format markdown`), one table per result, a
//!   table wider than the page wrapping its words ([`columns`]); a lesson's
//!   view of a record keeps the rows it has taught (`views.rs`);
//! - `NAME.svg` for a run `NAME.json`: the host's plot of it
//!   (`host render NAME.json --plot`), drawn when the book is built, so a
//!   change to the plot code reaches the book without a GPU;
//! - `NAME.csv` for a run `NAME.json`: the host's CSV exporter, every row;
//! - `NAME.txt`: the results directory's file, copied;
//! - `litmus-headline.md`: the litmus chapter's few rows, from the runs of
//!   every preset; `litmus-coverage.md` and `litmus-unseen.md`: how many
//!   allowed rows showed their weak outcome, and each that did not, with its
//!   instances and bound ([`litmus`]);
//! - `sanitizer.md` and `reference-run.md`: tables of the manifest's steps;
//! - `nvcc-compare.md`: `cargo xtask nvcc-compare`'s tables, from its JSON,
//!   every row; `nvcc-compare-summary.md`: their ratios alone, a row per
//!   size;
//! - `cub-accuracy.md`: CUB's modes on the accuracy command's arrays, from
//!   the same JSON (a line saying it is not in the run when the JSON
//!   predates it);
//! - `litmus-anchors.md` and `litmus-anchors-gh200.md`: cuda-litmus's
//!   published Hopper and GH200 rates ([`crate::anchors`]) beside the best of
//!   the run's litmus records;
//! - `litmus-tuned-runs.md`: every tuned run's search and coverage
//!   (`tuned.rs`);
//! - `litmus-peer.md`: the lab beside cuda-litmus, one device call per GPU
//!   ([`crate::peer`]);
//! - `sass-page.txt` and `sass-ladder.txt`: the synchronizing SASS of the
//!   page's kernels and of the scope ladder's ([`SassListing`]), made here
//!   from the PTX (it needs no GPU);
//! - `cli/COMMAND.txt`: `host COMMAND --help`, and `cli/xtask.txt`.
//!
//! A chapter that names a file the results directory cannot provide fails
//! the build for the reference run. For a learner's own `--results DIR`, the
//! file says which run is missing instead, so a partial run still renders.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use lab_records::{MANIFEST, Manifest, SANITIZE, StepOutcome};

use crate::Error;

mod check;
pub mod columns;
pub mod litmus;
pub mod page;
mod practice;
mod tuned;
mod views;

pub use check::{check, heading_ids, links, references};

/// Where the chapters find what this module generates, inside `book/src/`.
pub const GENERATED: &str = "generated";

/// What a generation run reads.
pub struct Sources<'a> {
    /// The results directory (an evidence run).
    pub results: &'a Path,
    /// The host binary, for `render` and `--help`.
    pub host: &'a Path,
    /// Fail on a file the results cannot provide (the reference run), rather
    /// than write a note in its place (a learner's run).
    pub strict: bool,
    /// `cargo xtask`'s usage text, for `cli/xtask.txt`.
    pub xtask_usage: &'a str,
    /// A SASS summary listing, made by the caller (it needs the PTX and the
    /// NVIDIA tools).
    pub sass: &'a dyn Fn(SassListing) -> Result<String, Error>,
}

/// The SASS summaries the book lists, each `sass-NAME.txt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SassListing {
    /// `sass-page.txt`: the page's three kernels.
    Page,
    /// `sass-histogram.txt`: the two histograms of Lesson 2.
    Histogram,
    /// `sass-publication.txt`: the worked example, its relaxed twin, and the
    /// publication at block and at device scope.
    Publication,
    /// `sass-ladder.txt`: the scope ladder's round trips and fences, the
    /// cluster publications and the host-scope kernels.
    Ladder,
}

impl SassListing {
    /// The listing a generated file's name asks for.
    pub fn of_file(name: &str) -> Option<Self> {
        match name {
            "sass-page.txt" => Some(SassListing::Page),
            "sass-histogram.txt" => Some(SassListing::Histogram),
            "sass-publication.txt" => Some(SassListing::Publication),
            "sass-ladder.txt" => Some(SassListing::Ladder),
            _ => None,
        }
    }

    /// The listing's first line's words for what it summarizes.
    pub fn what(self) -> &'static str {
        match self {
            SassListing::Page => "the page's kernels",
            SassListing::Histogram => "the histograms",
            SassListing::Publication => "the worked example, its twin and two publications",
            SassListing::Ladder => "the scope ladder's kernels",
        }
    }

    /// Where `entry` goes in the listing (smaller first): the registry's
    /// order for the page; for the ladder, its fences, then its round trips,
    /// then the cluster publications and the host-scope kernels, each group
    /// by registry order, which is rung by rung.
    pub fn rank(self, entry: &layout::Entry) -> (u8, usize) {
        let position = layout::registry::entries().position(|e| e.symbol == entry.symbol).unwrap_or(usize::MAX);
        let group = match self {
            SassListing::Page | SassListing::Histogram | SassListing::Publication => 0,
            SassListing::Ladder if entry.symbol.starts_with("ladder_fence") => 0,
            SassListing::Ladder if entry.family == layout::Family::Ladder => 1,
            SassListing::Ladder if entry.family == layout::Family::Publish => 2,
            SassListing::Ladder => 3,
        };
        (group, position)
    }

    /// Whether the listing shows `entry`.
    pub fn shows(self, entry: &layout::Entry) -> bool {
        use layout::Family;
        match self {
            SassListing::Page => layout::sum::KERNELS.iter().any(|k| k.on_page && k.entry.symbol == entry.symbol),
            SassListing::Histogram => entry.family == Family::Histogram,
            SassListing::Publication => matches!(
                entry.symbol,
                "pitfall_page_demo"
                    | "pitfall_page_demo_relaxed"
                    | "publish_block_release_acquire"
                    | "publish_grid_release_acquire"
            ),
            SassListing::Ladder => match entry.family {
                Family::Ladder | Family::System => true,
                Family::Publish => entry.symbol.starts_with("publish_cluster_"),
                _ => false,
            },
        }
    }
}

/// Every `generated/…` file that a chapter under `src` names, as paths
/// relative to the generated directory, sorted.
pub fn wanted(src: &Path) -> Result<BTreeSet<String>, Error> {
    let mut out = BTreeSet::new();
    for chapter in markdown_files(src)? {
        if chapter.starts_with(src.join(GENERATED)) {
            continue;
        }
        let text = read(&chapter)?;
        // Includes and images, and links to a generated file (a CSV).
        let linked = links(&text).into_iter().map(|(file, _)| file).filter(|f| !f.is_empty());
        for target in references(&text).into_iter().chain(linked) {
            let resolved = normalize(&chapter.parent().unwrap_or(src).join(target));
            if let Ok(rel) = resolved.strip_prefix(src.join(GENERATED)) {
                out.insert(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    Ok(out)
}

/// Writes every file the chapters name into a fresh folder beside
/// `src/generated/`, and puts it in that folder's place only once every file
/// is made: a run that cannot be read, or a file that cannot be made, leaves
/// the book's generated files as they were. Returns one warning per file
/// written as a note instead.
pub fn generate(src: &Path, sources: &Sources<'_>) -> Result<Vec<String>, Error> {
    let out = src.join(GENERATED);
    let fresh = src.join(format!(".{GENERATED}.partial"));
    let clear = |dir: &Path| match fs::remove_dir_all(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(Error(format!("cannot remove {}: {e}", dir.display())))
        }
        _ => Ok(()),
    };
    clear(&fresh)?;
    match generate_into(&fresh, src, sources) {
        Ok(warnings) => {
            clear(&out)?;
            fs::rename(&fresh, &out)
                .map_err(|e| Error(format!("cannot move {} to {}: {e}", fresh.display(), out.display())))?;
            Ok(warnings)
        }
        Err(e) => {
            let _ = fs::remove_dir_all(&fresh);
            Err(e)
        }
    }
}

/// [`generate`]'s work: every file the chapters under `src` name, made into
/// `out`.
fn generate_into(out: &Path, src: &Path, sources: &Sources<'_>) -> Result<Vec<String>, Error> {
    let manifest_path = sources.results.join(MANIFEST);
    let manifest: Manifest = serde_json::from_str(&read(&manifest_path)?)
        .map_err(|e| Error(format!("{}: not a manifest written by `host evidence` ({e})", manifest_path.display())))?;
    if sources.strict {
        index_lists_every_file(sources.results, &manifest)?;
    }
    let from = from_line(&manifest, sources.results);
    let wanted = wanted(src)?;
    // The command-line reference shows every command the host has.
    for command in host_commands(sources.host)? {
        if !wanted.contains(&format!("cli/{command}.txt")) {
            return Err(Error(format!(
                "the book has no {GENERATED}/cli/{command}.txt for `host {command}`: add it to appendix/cli.md"
            )));
        }
    }
    let mut warnings = Vec::new();
    for name in wanted {
        let target = out.join(&name);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).map_err(|e| Error(format!("cannot create {}: {e}", parent.display())))?;
        }
        let text = match make(&name, sources, &manifest, &from, &target)? {
            Made::Text(text) => text,
            Made::Missing(why) if sources.strict => {
                return Err(Error(format!("the book includes {GENERATED}/{name}, but {why}")));
            }
            Made::Missing(why) => {
                warnings.push(format!("{GENERATED}/{name}: {why}"));
                missing_note(&name, &why)
            }
        };
        fs::write(&target, text).map_err(|e| Error(format!("cannot write {}: {e}", target.display())))?;
    }
    Ok(warnings)
}

/// The reference run's `README.md` (in the directory above it, the index
/// of `results/`) names every file the run wrote, so none is there unexplained.
fn index_lists_every_file(results: &Path, manifest: &Manifest) -> Result<(), Error> {
    let index_path = results.parent().unwrap_or(results).join("README.md");
    let index = read(&index_path)?;
    let mut files: BTreeSet<String> = BTreeSet::from([MANIFEST.to_owned()]);
    for file in manifest.steps.iter().flat_map(|s| &s.files) {
        // The sanitizer's logs are listed as their folder.
        files.insert(if file.starts_with("sanitizer/") { "sanitizer/".to_owned() } else { file.clone() });
    }
    for entry in fs::read_dir(results).map_err(|e| Error(format!("cannot read {}: {e}", results.display())))? {
        let entry = entry.map_err(|e| Error(format!("cannot read {}: {e}", results.display())))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        files.insert(if entry.path().is_dir() { format!("{name}/") } else { name });
    }
    // Each record's CSV beside its JSON is the same rows again: listed with
    // the JSON.
    let listed = |f: &String| {
        let json = f.strip_suffix(".csv").map(|stem| format!("{stem}.json"));
        index.contains(&format!("`{f}`")) || json.is_some_and(|json| index.contains(&format!("`{json}`")))
    };
    let missing: Vec<String> = files.into_iter().filter(|f| !listed(f)).collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(Error(format!("{} does not list {}", index_path.display(), missing.join(", "))))
    }
}

/// One generated file, or why it cannot be made.
enum Made {
    Text(String),
    Missing(String),
}

/// Makes the generated file `name`; `target` is where it goes, which the
/// host's plot is drawn into.
fn make(name: &str, s: &Sources<'_>, manifest: &Manifest, from: &str, target: &Path) -> Result<Made, Error> {
    let results = run_name(s.results);
    if let Some(command) = name.strip_prefix("cli/").and_then(|n| n.strip_suffix(".txt")) {
        return Ok(Made::Text(if command == "xtask" {
            format!("{}\n", s.xtask_usage)
        } else {
            help(s.host, command)?
        }));
    }
    if let Some(made) = practice::file(name) {
        return Ok(made);
    }
    if let Some(log) = name.strip_prefix("sanitizer-").and_then(|n| n.strip_suffix(".txt")) {
        return Ok(match fs::read_to_string(s.results.join("sanitizer").join(format!("{log}.log"))) {
            Ok(text) => Made::Text(sanitizer_excerpt(&text)),
            Err(_) => Made::Missing(format!("{results} has no sanitizer/{log}.log")),
        });
    }
    if let Some(view) = views::find(name) {
        return view.make(s, target);
    }
    Ok(match name {
        "provenance.md" => Made::Text(from.to_owned()),
        "litmus-tuned-runs.md" => match tuned::runs(s)? {
            text if text.is_empty() => Made::Missing(format!("no tuned run in {results} or beside it")),
            text => Made::Text(text),
        },
        "page-demo-relaxed.diff" => Made::Text(page_demo_diff()?),
        "page-t4.md" => match page::tables(&crate::paths::workspace_root(), s.results)? {
            Some(tables) => Made::Text(format!("<div class=\"measured\">\n\n{tables}\n</div>\n")),
            None => Made::Missing(format!("{results} has no sweep-256.json")),
        },
        "compare-h100.md" => {
            let second = crate::paths::workspace_root().join(SECOND_GPU);
            let out = Command::new(s.host)
                .arg("compare")
                .args([s.results, &second])
                .args(["--format", "markdown"])
                .output()
                .map_err(|e| Error(format!("cannot run {}: {e}", s.host.display())))?;
            // Exit 1 is a comparison that found different bits: the table
            // says so, and the book shows it.
            if !matches!(out.status.code(), Some(0 | 1)) {
                return Err(Error(format!("host compare failed: {}", String::from_utf8_lossy(&out.stderr).trim())));
            }
            Made::Text(without_machine_paths(&String::from_utf8_lossy(&out.stdout)))
        }
        "sanitizer.md" => Made::Text(sanitizer_table(manifest)),
        "reference-run.md" => Made::Text(steps_table(manifest)),
        "litmus-headline.md" => match litmus::headline(s.results)? {
            // Not a `measured` block: its last columns are words, which
            // wrap; its variants' names do not (theme/wide.css).
            Some(table) => Made::Text(format!("<div class=\"headline\">\n\n{table}\n</div>\n")),
            None => Made::Missing(format!("{results} has no litmus.json")),
        },
        "litmus-coverage.md" => {
            match litmus::coverage(s.results, &crate::anchors::read_coverage(&crate::paths::workspace_root())?)? {
                // As the headline: its variant lists wrap, the names in them do not.
                Some(text) => Made::Text(format!("<div class=\"headline\">\n\n{text}\n</div>\n")),
                None => Made::Missing(format!("{results} has no litmus.json")),
            }
        }
        "litmus-unseen.md" => match litmus::unseen(s.results)? {
            // Not a measured block: its last column of run names wraps in a
            // headline block.
            Some(table) => Made::Text(format!("<div class=\"headline\">\n\n{table}\n</div>\n")),
            None => Made::Missing(format!("{results} has no litmus.json")),
        },
        "sass-page.txt" | "sass-ladder.txt" | "sass-histogram.txt" | "sass-publication.txt" => {
            Made::Text((s.sass)(SassListing::of_file(name).expect("a listing's name"))?)
        }
        "litmus-peer.md" | "litmus-peer-summary.md" => {
            let calls = crate::peer::read(&crate::paths::workspace_root())?;
            Made::Text(match name {
                "litmus-peer.md" => calls
                    .iter()
                    .map(|c| format!("{}\n{}", crate::peer::caption(c), columns::measured(&crate::peer::table(c))))
                    .collect(),
                _ => crate::peer::summary(&calls),
            })
        }
        "litmus-anchors.md" | "litmus-anchors-gh200.md" => {
            let file = if name == "litmus-anchors.md" { crate::anchors::HOPPER } else { crate::anchors::GH200 };
            let anchors = crate::anchors::read(&crate::paths::workspace_root(), file)?;
            let runs = crate::anchors::runs(s.results)?;
            if runs.is_empty() {
                Made::Missing(format!("{results} has no litmus run"))
            } else {
                Made::Text(columns::measured(&crate::anchors::table(&anchors, &runs)))
            }
        }
        "nvcc-compare.md" | "nvcc-compare-summary.md" | "cub-accuracy.md" => {
            match fs::read_to_string(s.results.join("nvcc-compare.json")) {
                Ok(text) => {
                    let mut comparison: crate::nvcc::Comparison =
                        serde_json::from_str(&text).map_err(|e| Error(format!("{results}/nvcc-compare.json: {e}")))?;
                    // The run recorded where its CCCL headers were on the machine
                    // that made it; the book names no machine's paths.
                    comparison.cub.cub.headers = without_machine_paths(&comparison.cub.cub.headers);
                    Made::Text(match name {
                        "nvcc-compare.md" => format!("```text\n{}```\n", comparison.report()),
                        "nvcc-compare-summary.md" => format!("```text\n{}```\n", comparison.summary()),
                        _ => cub_accuracy(&comparison, &results),
                    })
                }
                Err(_) => {
                    Made::Missing(format!("{results} has no nvcc-compare.json (`cargo xtask nvcc-compare --out DIR`)"))
                }
            }
        }
        _ => {
            let Some((stem, ext)) = name.rsplit_once('.') else {
                return Err(Error(format!("the book includes {GENERATED}/{name}, which names no kind of file")));
            };
            match ext {
                "md" | "svg" | "csv" => {
                    // A step made later than the run lives in its later part
                    // ([`litmus::LATER`]), a run of its own.
                    let json = s.results.join(format!("{stem}.json"));
                    let later = s.results.join(litmus::LATER).join(format!("{stem}.json"));
                    let json = if json.is_file() { json } else { later };
                    if !json.is_file() {
                        return Ok(Made::Missing(format!("{results} has no {stem}.json")));
                    }
                    Made::Text(match ext {
                        // One table per result, in a measured block
                        // ([`columns::measured`]).
                        "md" => columns::measured(&render(s.host, &json, &["--format", "markdown"])?),
                        "csv" => render(s.host, &json, &["--format", "csv"])?,
                        _ => {
                            // The plot goes to its file; the table on
                            // standard output is not needed.
                            render(s.host, &json, &["--plot", &target.to_string_lossy()])?;
                            read(target)?
                        }
                    })
                }
                "txt" => match fs::read_to_string(s.results.join(name)) {
                    Ok(text) => Made::Text(text),
                    Err(_) => Made::Missing(format!("{results} has no {name}")),
                },
                _ => return Err(Error(format!("the book includes {GENERATED}/{name}: no rule makes .{ext} files"))),
            }
        }
    })
}

/// The evidence run on a second GPU, an H100 (every step but the litmus
/// suite's and the sanitizer's): the second run of the Setup chapter's
/// `host compare` example.
pub const SECOND_GPU: &str = "results/h100";

/// The reference run, relative to the workspace root: the run the book is
/// built from by default.
pub const REFERENCE: &str = "results/h200";

/// `cub-accuracy.md`: CUB's accuracy table from a comparison, or, for a run
/// made before nvcc-compare measured it, a line saying it is not in the run.
/// That line is text, not a missing file, so the reference run still builds
/// the book until a run with the table replaces it.
pub fn cub_accuracy(comparison: &crate::nvcc::Comparison, results: &str) -> String {
    match comparison.cub.accuracy_table() {
        Some(table) => format!("<div class=\"measured\">\n\n{table}\n</div>\n"),
        None => format!(
            "*Not in this run: {results}/nvcc-compare.json has no CUB accuracy (made before nvcc-compare measured it; \
             re-run `cargo xtask nvcc-compare`).*\n"
        ),
    }
}

/// What stands in for a file a learner's run lacks.
fn missing_note(name: &str, why: &str) -> String {
    match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("svg") => format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"40\"><text x=\"8\" y=\"24\">{}</text></svg>\n",
            why.replace('&', "&amp;").replace('<', "&lt;")
        ),
        Some("txt") => format!("(not in this run: {why})\n"),
        _ => format!("*Not in this run: {why}.*\n"),
    }
}

/// How the book names a results directory: its last component (`h200`,
/// `my-run`), never a path of the machine that built the book.
fn run_name(results: &Path) -> String {
    results.file_name().map_or_else(|| results.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// `text` with each absolute path cut to what follows its last `target/`
/// (`/home/me/lab/target/cccl/include` as `target/cccl/include`), or, with
/// none, to its last component: what a run recorded about the machine it
/// ran on, fit for the book.
pub fn without_machine_paths(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    // A path starts with `/` at the start of the text or of a word, and
    // names a folder and something in it: a `/` alone is a division ("B /
    // A"), and one name after it a unit ("< 0.2 /M").
    let end_of = |tail: &str| tail.find([' ', ')', '`', ',']).unwrap_or(tail.len());
    let starts = |s: &str| {
        s.char_indices().find(|&(i, c)| {
            c == '/'
                && (i == 0 || s[..i].ends_with([' ', '(', '`', '=']))
                && s[i + 1..i + end_of(&s[i..])].contains('/')
        })
    };
    while let Some((start, _)) = starts(rest) {
        out.push_str(&rest[..start]);
        let tail = &rest[start..];
        let end = end_of(tail);
        let path = &tail[..end];
        out.push_str(match path.rfind("/target/") {
            Some(k) => &path[k + 1..],
            None => path.rsplit('/').next().unwrap_or(path),
        });
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// The one line naming the run, `provenance.md`, which each chapter
/// includes once.
pub fn from_line(m: &Manifest, results: &Path) -> String {
    let date = m.started.get(..10).unwrap_or(&m.started);
    format!(
        "*Every figure on this page is from the run `{}`: {}, driver {}, CUDA {}, commit `{}`, {date}.*\n",
        run_name(results),
        m.gpu.name,
        m.gpu.driver.as_deref().unwrap_or("unknown"),
        m.gpu.cuda,
        m.commit.describe(),
    )
}

/// The sanitizer's runs: tool, host command, exit code and summary line.
pub fn sanitizer_table(m: &Manifest) -> String {
    let mut out = String::from("\n| tool | run | exit | summary |\n|---|---|---|---|\n");
    let mut any = false;
    for step in &m.steps {
        if step.outcome == StepOutcome::Skipped && step.name == SANITIZE {
            return format!("*The sanitizer did not run: {}.*\n\n", step.note.as_deref().unwrap_or("skipped"));
        }
        let Some((tool, run)) = step.sanitizer_parts() else { continue };
        let exit = step.exit_code.map_or("-".to_owned(), |c| c.to_string());
        let note = step.note.as_deref().unwrap_or("");
        out.push_str(&format!("| {tool} | `{run}` | {exit} | {note} |\n"));
        any = true;
    }
    if !any {
        return "*This run has no sanitizer steps.*\n\n".to_owned();
    }
    out + "\n"
}

/// The lines a sanitizer log's reader needs: the command, the tool's own
/// lines (those it marks `=========`) up to the first three reports, and its
/// summary. The lab's own tables in the log are the host's, which the book
/// shows from the run's records instead.
pub fn sanitizer_excerpt(log: &str) -> String {
    const REPORTS: usize = 3;
    let mut out = String::new();
    let mut lines = log.lines();
    if let Some(command) = lines.next().filter(|l| l.starts_with("$ ")) {
        out.push_str(command);
        out.push('\n');
    }
    let tool: Vec<&str> = lines.filter(|l| l.starts_with("=========")).collect();
    let mut reports = 0;
    for line in &tool {
        let body = line.trim_start_matches('=').trim();
        let summary = body.contains("SUMMARY");
        // A report starts at a line the tool does not indent ("Error: ...",
        // "Invalid __global__ read ...", "Program hit ..."); its details are
        // indented under it.
        let indented = line.trim_start_matches('=').starts_with("  ");
        let starts_report = !indented && !body.is_empty() && !summary && body != "COMPUTE-SANITIZER";
        if starts_report {
            reports += 1;
        }
        if summary || reports <= REPORTS {
            out.push_str(line);
            out.push('\n');
        }
        if starts_report && reports == REPORTS + 1 {
            out.push_str("========= (more reports in the log)\n");
        }
    }
    out
}

/// Every step of the run: its command line, outcome and time.
pub fn steps_table(m: &Manifest) -> String {
    let mut out = format!(
        "\n{} steps, {:.0} s in all, started {}.\n\n| step | outcome | seconds | command |\n|---|---|---|---|\n",
        m.steps.len(),
        m.wall_s,
        m.started
    );
    for step in &m.steps {
        out.push_str(&format!(
            "| {} | {} | {:.1} | `{}` |\n",
            step.name,
            step.outcome.word(),
            step.wall_s,
            step.command.replace('|', "\\|")
        ));
    }
    out + "\n"
}

/// `host render JSON ARGS…`'s standard output.
fn render(host: &Path, json: &Path, args: &[&str]) -> Result<String, Error> {
    let out = Command::new(host)
        .arg("render")
        .arg(json)
        .args(args)
        .output()
        .map_err(|e| Error(format!("cannot run {}: {e}", host.display())))?;
    if !out.status.success() {
        return Err(Error(format!(
            "host render {} failed: {}",
            json.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The subcommands `host --help` lists, without `help`.
fn host_commands(host: &Path) -> Result<Vec<String>, Error> {
    let text = help(host, "host")?;
    let commands = text
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_owned)
        .collect::<Vec<_>>();
    if commands.is_empty() {
        return Err(Error("`host --help` lists no commands".to_owned()));
    }
    Ok(commands)
}

fn help(host: &Path, command: &str) -> Result<String, Error> {
    let mut cmd = Command::new(host);
    if command != "host" {
        cmd.arg(command);
    }
    let out = cmd.arg("--help").output().map_err(|e| Error(format!("cannot run {}: {e}", host.display())))?;
    if !out.status.success() {
        return Err(Error(format!("the book includes the help of `host {command}`, which is not a host command")));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Builds the book with `mdbook` into the directory `book.toml` names, and
/// returns the path of its front page.
pub fn build(mdbook: &Path, book: &Path, root: &Path) -> Result<PathBuf, Error> {
    let out = Command::new(mdbook)
        .arg("build")
        .arg(book)
        .output()
        .map_err(|e| Error(format!("cannot run {}: {e}", mdbook.display())))?;
    let log = String::from_utf8_lossy(&out.stderr);
    // mdBook reports an include it cannot read as an error and builds on; so
    // does a chapter missing from SUMMARY.md. Either is a broken book.
    let errors: Vec<&str> = log.lines().filter(|l| l.contains("[ERROR]") || l.contains("[WARN]")).collect();
    if !out.status.success() || !errors.is_empty() {
        let shown = if errors.is_empty() { log.trim().to_owned() } else { errors.join("\n") };
        return Err(Error(format!("mdbook build failed:\n{shown}")));
    }
    let index = root.join("target/book/index.html");
    if !index.is_file() {
        return Err(Error(format!("mdbook built no {}", index.display())));
    }
    Ok(index)
}

pub(crate) fn markdown_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    let entries = fs::read_dir(dir).map_err(|e| Error(format!("cannot read {}: {e}", dir.display())))?;
    for entry in entries {
        let path = entry.map_err(|e| Error(format!("cannot read {}: {e}", dir.display())))?.path();
        if path.is_dir() {
            out.extend(markdown_files(&path)?);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
    out.sort();
    Ok(out)
}

pub(crate) fn read(path: &Path) -> Result<String, Error> {
    fs::read_to_string(path).map_err(|e| Error(format!("cannot read {}: {e}", path.display())))
}

/// `a/b/../c` as `a/c`, without touching the file system.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The practice task's relaxed twin as a unified diff against the page's
/// demo: the two kernels of `kernels/src/pitfall/page_demo.rs`, each
/// between its `ANCHOR` lines, so that the book shows what the twin changes
/// as the source has it.
fn page_demo_diff() -> Result<String, Error> {
    const FILE: &str = "kernels/src/pitfall/page_demo.rs";
    let text = fs::read_to_string(crate::paths::workspace_root().join(FILE))
        .map_err(|e| Error(format!("cannot read {FILE}: {e}")))?;
    let anchored = |name: &str| {
        let open = format!("// ANCHOR: {name}\n");
        let start = text.find(&open)? + open.len();
        let end = start + text[start..].find(&format!("// ANCHOR_END: {name}"))?;
        Some(&text[start..end])
    };
    let (Some(demo), Some(twin)) = (anchored("kernel"), anchored("relaxed")) else {
        return Err(Error(format!("{FILE} has no `kernel` and `relaxed` anchors")));
    };
    let diff = similar::TextDiff::from_lines(demo, twin);
    Ok(diff.unified_diff().context_radius(1).header("pitfall_page_demo", "pitfall_page_demo_relaxed").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ladder_listing_shows_every_rung_fences_first() {
        assert_eq!(SassListing::of_file("sass-ladder.txt"), Some(SassListing::Ladder));
        assert_eq!(SassListing::of_file("sass-other.txt"), None);
        let ladder = SassListing::Ladder;
        let mut shown: Vec<&layout::Entry> = layout::registry::entries().filter(|e| ladder.shows(e)).collect();
        shown.sort_by_key(|e| ladder.rank(e));
        let symbols: Vec<&str> = shown.iter().map(|e| e.symbol).collect();
        // Both modules' kernels, every rung's fence before any round trip.
        assert_eq!(symbols[0], "ladder_fence_none");
        assert!(symbols.contains(&"ladder_fence_acq_rel_cluster") && symbols.contains(&"ladder_trip_sys"));
        let last_fence = symbols.iter().rposition(|s| s.starts_with("ladder_fence")).unwrap();
        let first_trip = symbols.iter().position(|s| s.starts_with("ladder_trip")).unwrap();
        assert!(last_fence < first_trip, "{symbols:?}");
        assert!(symbols.contains(&"publish_cluster_dsmem_wrong_scope"));
        assert!(!symbols.contains(&"publish_grid_relaxed"), "lesson 2's publications are not the ladder's");
        let page: Vec<&str> =
            layout::registry::entries().filter(|e| SassListing::Page.shows(e)).map(|e| e.symbol).collect();
        assert_eq!(page, ["sum_global_atomic", "sum_shared_atomic", "sum_tree_atomic"]);
    }

    #[test]
    fn a_run_that_cannot_be_read_leaves_the_generated_files_as_they_were() {
        let src = std::env::temp_dir().join(format!("lab-book-swap-{}", std::process::id()));
        let generated = src.join(GENERATED);
        fs::create_dir_all(&generated).unwrap();
        fs::write(src.join("chapter.md"), "{{#include generated/sweep-64.md}}\n").unwrap();
        fs::write(generated.join("sweep-64.md"), "the last good run").unwrap();
        let no_run = src.join("no-run");
        let sass = |_| Ok(String::new());
        let sources = Sources { results: &no_run, host: Path::new("host"), strict: true, xtask_usage: "", sass: &sass };
        let e = generate(&src, &sources).unwrap_err();
        assert!(e.0.contains("manifest"), "{e}");
        assert_eq!(fs::read_to_string(generated.join("sweep-64.md")).unwrap(), "the last good run");
        assert!(!src.join(format!(".{GENERATED}.partial")).exists(), "no half-made folder is left");
        let _ = fs::remove_dir_all(&src);
    }

    #[test]
    fn no_machine_path_reaches_the_book() {
        let line =
            "CUB from the CCCL 3.5.0 headers of nvidia-cuda-cccl==13.3.5.0.6 (/work/main/target/cccl/nvidia/include)";
        assert_eq!(
            without_machine_paths(line),
            "CUB from the CCCL 3.5.0 headers of nvidia-cuda-cccl==13.3.5.0.6 (target/cccl/nvidia/include)"
        );
        assert_eq!(without_machine_paths("built by /opt/cuda/bin/nvcc, 2 ms"), "built by nvcc, 2 ms");
        assert_eq!(without_machine_paths("n = 2^20, 1/2 of it"), "n = 2^20, 1/2 of it");
        assert_eq!(without_machine_paths("| B, median ms | B / A |"), "| B, median ms | B / A |");
        assert_eq!(without_machine_paths("| 0 (< 0.00268 /M) |"), "| 0 (< 0.00268 /M) |");
    }

    #[test]
    fn a_sanitizer_excerpt_keeps_the_command_three_reports_and_the_summary() {
        let report = |n: u32| format!("========= Error: hazard {n}\n=========     Write Thread (0,0,0)\n=========\n");
        let log = format!(
            "$ compute-sanitizer --tool racecheck host pitfalls\n========= COMPUTE-SANITIZER\nGPU: NVIDIA H200\n{}\
             ========= RACECHECK SUMMARY: 4 hazards displayed (4 errors, 0 warnings)\n",
            (1..=4).map(report).collect::<String>()
        );
        let excerpt = sanitizer_excerpt(&log);
        assert!(excerpt.starts_with("$ compute-sanitizer"));
        assert!(excerpt.contains("hazard 3") && !excerpt.contains("hazard 4") && !excerpt.contains("GPU:"));
        assert!(excerpt.contains("(more reports in the log)") && excerpt.ends_with("0 warnings)\n"));
    }
}
