//! `host evidence DIR`: every run the book shows, with the settings of
//! record, on the GPU it finds, into one directory.
//!
//! Each step is this same binary run again as a child process with one of the
//! lab's own command lines plus `--format json --output DIR/<step>.json` (and
//! `--plot DIR/<step>.svg` where the command draws one). So a step is exactly
//! what a user gets by typing its command line, the manifest can record that
//! line, and one step's failure cannot take the others down. Where
//! `compute-sanitizer` is on `PATH`, the sanitizer's runs follow, each with
//! its log; where it is not, one skipped step says so.
//!
//! The run needs only this binary and a GPU: no Rust, no CUDA toolkit. The
//! same command makes the reference run and a learner's run on their own card,
//! and `cargo xtask book --results DIR` renders the book from either.

pub mod args;
pub mod manifest;
pub mod plan;
pub mod process;
pub mod report;
pub mod sanitize;

pub use args::EvidenceArgs;

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::{Instant, SystemTime};

use lab_records::{MANIFEST, Manifest, SANITIZE, Step, StepOutcome, sanitizer_step};

use self::manifest::{build_commit, existing_manifest, gpu_record, merge};
use self::plan::{RUNS, Run};
use self::process::{csv_beside, find_on_path, ptx_arguments, run_step, step_arguments};
use self::sanitize::{SANITIZER_TOOLS, sanitizer_arguments, sanitizer_runs};
use crate::device::DeviceInfo;
use crate::error::LabError;
use crate::progress::Progress;

/// What `evidence` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvidenceOptions {
    /// Where the files go.
    pub dir: PathBuf,
    /// Write into a directory that is not empty.
    pub force: bool,
    /// The `--ptx` the steps pass on, if one was given.
    pub ptx: Option<PathBuf>,
    /// Run only the steps these select; all if empty.
    pub only: Vec<String>,
    /// Leave out the steps these select.
    pub skip: Vec<String>,
}

impl EvidenceOptions {
    fn wants(&self, step: &str) -> bool {
        let any = |selectors: &[String]| selectors.iter().any(|selector| selects(selector, step));
        (self.only.is_empty() || any(&self.only)) && !any(&self.skip)
    }

    /// Whether this run is a part of one (`--only` or `--skip`).
    fn partial(&self) -> bool {
        !self.only.is_empty() || !self.skip.is_empty()
    }
}

/// Whether `selector` selects the step `step`: its whole name, or a group of
/// steps named by whole words (`litmus` selects `litmus-tuned-mp`, and
/// `litmus-tune` selects only itself, not `litmus-tuned-mp`).
fn selects(selector: &str, step: &str) -> bool {
    step.strip_prefix(selector).is_some_and(|rest| rest.is_empty() || rest.starts_with('-'))
}

/// Refuses a selection that names no step, and a directory that holds files
/// unless `force`. Called before the GPU is opened, so a wrong directory is
/// reported at once.
pub fn prepare(options: &EvidenceOptions) -> Result<(), LabError> {
    let names = RUNS.iter().map(|r| r.name.to_owned()).chain(
        SANITIZER_TOOLS
            .iter()
            .flat_map(|tool| sanitizer_runs().into_iter().map(move |(name, _)| sanitizer_step(tool, &name))),
    );
    if options.partial() && !names.into_iter().any(|name| options.wants(&name)) {
        return Err(LabError::Unrunnable(format!(
            "--only {} --skip {} selects no step; the steps are {} and sanitize-<tool>-<run>",
            options.only.join(","),
            options.skip.join(","),
            RUNS.iter().map(|r| r.name).collect::<Vec<_>>().join(", ")
        )));
    }
    let dir = &options.dir;
    if options.partial()
        && let Some(old) = existing_manifest(dir)
        && old.commit != build_commit()
    {
        return Err(LabError::Unrunnable(format!(
            "{} holds a run of commit {}; --only and --skip add steps to a run of this host's commit ({}) only",
            dir.display(),
            old.commit.hash,
            build_commit().hash
        )));
    }
    if dir.exists() && !dir.is_dir() {
        return Err(LabError::Unrunnable(format!("{} exists and is not a directory", dir.display())));
    }
    if dir.is_dir() && !options.force {
        let mut entries =
            std::fs::read_dir(dir).map_err(|e| LabError::Output { path: dir.clone(), reason: e.to_string() })?;
        if entries.next().is_some() {
            return Err(LabError::Unrunnable(format!(
                "{} is not empty; choose a new directory or pass --force to write into it",
                dir.display()
            )));
        }
    }
    Ok(())
}

/// Runs every step into `options.dir`, writes the manifest, and returns it.
/// A step that fails is recorded and the run goes on; an interrupted step
/// (Ctrl-C) ends the run after the manifest is written.
pub fn run(options: &EvidenceOptions, info: &DeviceInfo, bar: &Progress) -> Result<Manifest, LabError> {
    // A part of a run joins the run already in the directory only if that run
    // is of this GPU: otherwise the book would credit the old part's files to
    // this one. (`prepare` checked the commit before the GPU was opened.)
    if options.partial() && options.dir.join(MANIFEST).is_file() {
        let joinable = existing_manifest(&options.dir).filter(|old| old.gpu == gpu_record(info));
        if joinable.is_none() {
            return Err(LabError::Unrunnable(format!(
                "{} holds a run whose manifest does not read or names another GPU; a part (--only, --skip) \
                 joins a run of this GPU only",
                options.dir.display()
            )));
        }
    }
    std::fs::create_dir_all(&options.dir)
        .map_err(|e| LabError::Output { path: options.dir.clone(), reason: e.to_string() })?;
    let exe = std::env::current_exe().map_err(|e| LabError::Step {
        step: "evidence".to_owned(),
        note: format!("cannot find this program's own path to run its steps: {e}"),
    })?;
    let sanitizer = find_on_path("compute-sanitizer");
    let runs: Vec<&Run> = RUNS.iter().filter(|r| options.wants(r.name)).collect();
    let sanitizer_runs: Vec<(String, String, Vec<String>)> = SANITIZER_TOOLS
        .iter()
        .flat_map(|tool| sanitizer_runs().into_iter().map(move |(name, args)| (tool.to_string(), name, args)))
        .filter(|(tool, name, _)| options.wants(&sanitizer_step(tool, name)))
        .collect();
    let sanitizing = !sanitizer_runs.is_empty();
    let total = runs.len() + if sanitizer.is_some() { sanitizer_runs.len() } else { usize::from(sanitizing) };
    bar.start(total as u64);

    let started = SystemTime::now();
    let clock = Instant::now();
    let mut steps = Vec::with_capacity(total);
    let mut interrupted = false;
    for step in runs {
        bar.message(step.name.to_owned());
        let (mut args, files) = step_arguments(step, &options.dir);
        args.splice(0..0, ptx_arguments(options));
        let mut result = run_step(step.name, &exe, &args, files, None);
        // Every row of the record, also as CSV beside its JSON, for a reader
        // who wants the counts in a spreadsheet rather than in the book.
        if matches!(result.outcome, StepOutcome::Passed | StepOutcome::ChecksFailed) {
            match csv_beside(&exe, &options.dir, step.name) {
                Ok(csv) => result.files.push(csv),
                Err(why) => result.note = Some(result.note.map_or(why.clone(), |note| format!("{note}; {why}"))),
            }
        }
        interrupted = result.outcome == StepOutcome::Interrupted || crate::interrupt::requested();
        steps.push(result);
        bar.step();
        if interrupted {
            break;
        }
    }
    if !interrupted && sanitizing {
        match &sanitizer {
            Some(sanitizer) => {
                let logs = options.dir.join("sanitizer");
                std::fs::create_dir_all(&logs)
                    .map_err(|e| LabError::Output { path: logs.clone(), reason: e.to_string() })?;
                for (tool, name, host_args) in &sanitizer_runs {
                    let step_name = sanitizer_step(tool, name);
                    bar.message(step_name.clone());
                    let log = format!("sanitizer/{tool}-{name}.log");
                    let mut args: Vec<OsString> = sanitizer_arguments(tool);
                    args.push(exe.clone().into());
                    args.extend(ptx_arguments(options));
                    args.extend(host_args.iter().map(OsString::from));
                    let result =
                        run_step(&step_name, sanitizer, &args, vec![log.clone()], Some(&options.dir.join(&log)));
                    let stop = result.outcome == StepOutcome::Interrupted || crate::interrupt::requested();
                    steps.push(result);
                    bar.step();
                    if stop {
                        break;
                    }
                }
            }
            None => {
                steps.push(Step {
                    name: SANITIZE.to_owned(),
                    command: "compute-sanitizer".to_owned(),
                    files: Vec::new(),
                    outcome: StepOutcome::Skipped,
                    exit_code: None,
                    wall_s: 0.0,
                    note: Some("compute-sanitizer is not on PATH (it comes with the CUDA toolkit)".to_owned()),
                });
                bar.step();
            }
        }
    }
    bar.finish();

    let manifest = Manifest {
        tool: crate::commands::tool(),
        commit: build_commit(),
        gpu: gpu_record(info),
        started: humantime::format_rfc3339_seconds(started).to_string(),
        wall_s: clock.elapsed().as_secs_f64(),
        steps,
    };
    // A part of a run (`--only`, `--skip`) into a run of the same commit on
    // the same GPU completes it: one run, made in parts.
    let manifest = match existing_manifest(&options.dir) {
        Some(old) if options.partial() && old.commit == manifest.commit && old.gpu == manifest.gpu => {
            merge(old, manifest)
        }
        _ => manifest,
    };
    let path = options.dir.join(MANIFEST);
    let mut text = serde_json::to_string_pretty(&manifest).expect("a manifest always serializes");
    text.push('\n');
    std::fs::write(&path, text).map_err(|e| LabError::Output { path, reason: e.to_string() })?;
    Ok(manifest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    use lab_records::Gpu as GpuRecord;

    use super::process::outcome_of;
    use super::sanitize::sanitizer_summary;
    use crate::device::driver_version_in;

    #[test]
    fn every_step_writes_json_and_the_plotted_ones_svg() {
        let dir = Path::new("out");
        for step in RUNS {
            let (args, files) = step_arguments(step, dir);
            let json = dir.join(format!("{}.json", step.name));
            assert!(args.windows(2).any(|w| w[0] == "--output" && w[1] == json.as_os_str()));
            assert_eq!(files.len(), if step.plot { 2 } else { 1 });
        }
    }

    #[test]
    fn step_names_are_unique_file_stems() {
        for (i, a) in RUNS.iter().enumerate() {
            assert!(a.name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'));
            assert!(RUNS[i + 1..].iter().all(|b| b.name != a.name), "{} twice", a.name);
        }
    }

    #[test]
    fn every_step_parses_as_a_lab_command() {
        use clap::Parser;
        for step in RUNS {
            let (args, _) = step_arguments(step, Path::new("out"));
            let argv = std::iter::once(OsString::from("host")).chain(args);
            if let Err(e) = crate::cli::Cli::try_parse_from(argv) {
                panic!("{}: {e}", step.name);
            }
        }
    }

    #[test]
    fn every_pitfall_has_its_step() {
        for p in layout::pitfall::Pitfall::ALL {
            let name = format!("pitfalls-{}", p.key());
            let step = RUNS.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no step {name}"));
            assert_eq!(step.args, ["pitfalls", "--only", p.key()]);
        }
    }

    #[test]
    fn the_sanitizer_runs_every_family_publication_variant_and_pitfall() {
        let runs = sanitizer_runs();
        let names: Vec<&str> = runs.iter().map(|(name, _)| name.as_str()).collect();
        assert!(["sweep", "histogram", "bench", "litmus", "scopes"].iter().all(|run| names.contains(run)));
        for v in layout::publish::VARIANTS {
            let run = runs.iter().find(|(name, _)| name == &format!("publish-{}", v.name)).expect("a run per variant");
            assert!(run.1.iter().any(|a| a == v.name));
        }
        for p in layout::pitfall::Pitfall::ALL {
            let run =
                runs.iter().find(|(name, _)| name == &format!("pitfalls-{}", p.key())).expect("a run per pitfall");
            assert!(run.1.iter().any(|a| a == p.key()) && run.1.iter().any(|a| a == "--quick"));
        }
        for v in layout::system::VARIANTS {
            let run =
                runs.iter().find(|(name, _)| name == &format!("publish-sys-{}", v.name)).expect("a run per variant");
            assert!(run.1.iter().any(|a| a == v.name));
        }
        let variants = layout::publish::VARIANTS.len() + layout::system::VARIANTS.len();
        assert_eq!(runs.len(), 5 + variants + layout::pitfall::Pitfall::ALL.len());
        use clap::Parser;
        for (name, args) in &runs {
            let argv = std::iter::once("host".to_owned()).chain(args.iter().cloned());
            assert!(crate::cli::Cli::try_parse_from(argv).is_ok(), "{name}");
        }
    }

    /// The bench run's largest size has more chunks than the handoff route
    /// takes, so the sanitizer sees the deterministic sum's ticket route.
    #[test]
    fn the_bench_run_reaches_the_deterministic_sums_ticket_route() {
        use layout::sum::deterministic::{CHUNK, HANDOFF_CHUNKS};
        let (_, args) = sanitizer_runs().into_iter().find(|(name, _)| name == "bench").expect("a bench run");
        let sizes = args.iter().skip_while(|a| *a != "--sizes").nth(1).expect("--sizes and its value");
        let largest = sizes.split(',').map(|n| n.parse::<usize>().expect("a size")).max().expect("a size");
        assert!(largest.div_ceil(CHUNK) > HANDOFF_CHUNKS, "{largest} floats stay on the handoff route");
    }

    #[test]
    fn only_selects_steps_by_whole_words() {
        let options = |only: &[&str]| EvidenceOptions {
            dir: PathBuf::new(),
            force: false,
            ptx: None,
            only: only.iter().map(|s| (*s).to_owned()).collect(),
            skip: vec!["sweep-1024".to_owned()],
        };
        assert!(options(&[]).wants("sweep-64"));
        assert!(options(&["sweep"]).wants("sweep-64") && !options(&["sweep"]).wants("bench"));
        assert!(options(&["sanitize"]).wants("sanitize-memcheck-sweep"));
        assert!(options(&["litmus-tune"]).wants("litmus-tune") && !options(&["litmus-tune"]).wants("litmus-tuned-mp"));
        assert!(!options(&["sweep-6"]).wants("sweep-64"), "a selector is whole words, not a prefix");
        assert!(!options(&[]).wants("sweep-1024") && options(&[]).wants("sweep-256"), "--skip leaves out");
    }

    #[test]
    fn a_partial_run_completes_the_run_it_joins() {
        let step = |name: &str, wall_s: f64| Step {
            name: name.to_owned(),
            command: format!("host {name}"),
            files: Vec::new(),
            outcome: StepOutcome::Passed,
            exit_code: Some(0),
            wall_s,
            note: None,
        };
        let gpu = GpuRecord {
            name: "GPU".to_owned(),
            compute_capability: "9.0".to_owned(),
            sm_count: 132,
            driver: None,
            cuda: "13.0".to_owned(),
        };
        let manifest = |started: &str, wall_s: f64, steps: Vec<Step>| Manifest {
            tool: "host".to_owned(),
            commit: build_commit(),
            gpu: gpu.clone(),
            started: started.to_owned(),
            wall_s,
            steps,
        };
        let old = manifest("earlier", 10.0, vec![step("sweep-64", 1.0), step("litmus", 2.0)]);
        let new = manifest("later", 5.0, vec![step("litmus", 3.0), step("litmus-mutants", 4.0)]);
        let merged = merge(old, new);
        let names: Vec<&str> = merged.steps.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["sweep-64", "litmus", "litmus-mutants"]);
        assert_eq!(merged.steps[1].wall_s, 3.0, "a step run again replaces the old one");
        assert_eq!((merged.started.as_str(), merged.wall_s), ("earlier", 15.0));
    }

    #[test]
    fn exit_codes_read_as_outcomes() {
        assert_eq!(outcome_of(Some(0)), StepOutcome::Passed);
        assert_eq!(outcome_of(Some(1)), StepOutcome::ChecksFailed);
        assert_eq!(outcome_of(Some(130)), StepOutcome::Interrupted);
        for code in [Some(2), Some(3), Some(137), None] {
            assert_eq!(outcome_of(code), StepOutcome::Error);
        }
    }

    #[test]
    fn the_sanitizer_summary_is_its_last_summary_line() {
        let log = "========= COMPUTE-SANITIZER\n========= Invalid __global__ read\n========= ERROR SUMMARY: 3 errors\n";
        assert_eq!(sanitizer_summary(log), "ERROR SUMMARY: 3 errors");
        assert_eq!(sanitizer_summary("nothing"), "(no summary line: see the log)");
    }

    #[test]
    fn the_driver_version_is_read_from_the_nvrm_line() {
        let text = "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  (dvs-builder@U22)  Tue\nGCC version:  gcc version 12.2.0\n";
        assert_eq!(driver_version_in(text).as_deref(), Some("580.159.04"));
        assert_eq!(driver_version_in("GCC version: 12.2.0"), None);
    }

    #[test]
    fn a_directory_with_files_is_refused_without_force() {
        let dir = std::env::temp_dir().join(format!("lab-evidence-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("old.json"), "{}").unwrap();
        let options = EvidenceOptions { dir: dir.clone(), force: false, ptx: None, only: Vec::new(), skip: Vec::new() };
        let err = prepare(&options).unwrap_err();
        assert!(err.to_string().contains("not empty"), "{err}");
        assert_eq!(err.exit_code(), 2);
        assert!(prepare(&EvidenceOptions { force: true, ..options }).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
