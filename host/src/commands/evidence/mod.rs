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
pub mod report;

pub use args::EvidenceArgs;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Instant, SystemTime};

use lab_records::{
    BENCH_LADDER_SIZES, Commit, Gpu as GpuRecord, MANIFEST, Manifest, SANITIZE, Step, StepOutcome, sanitizer_step,
};

use crate::error::LabError;
use crate::gpu::DeviceInfo;
use crate::progress::Progress;

/// One run of the lab's own CLI: the name of its files and its arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// The step's name and the stem of its files.
    pub name: &'static str,
    /// The command line after `host`.
    pub args: &'static [&'static str],
    /// Whether the command draws a plot (`--plot`).
    pub plot: bool,
}

const fn step(name: &'static str, args: &'static [&'static str]) -> Run {
    Run { name, args, plot: false }
}

const fn plotted(name: &'static str, args: &'static [&'static str]) -> Run {
    Run { name, args, plot: true }
}

/// The runs of record, in the order the book teaches them. Defaults are the
/// settings of record wherever a command has them; a flag appears here only
/// where the book shows a second setting beside the default, or where a
/// default would make the whole run too long to repeat on a learner's card.
pub const RUNS: &[Run] = &[
    // Lesson 1: the page's sweep at the three block sizes of its exercise.
    plotted("sweep-64", &["sweep", "--block", "64"]),
    plotted("sweep-256", &["sweep", "--block", "256"]),
    plotted("sweep-1024", &["sweep", "--block", "1024"]),
    plotted("exercise", &["exercise"]),
    // Lesson 2: the histogram and the publication, with the two stresses that
    // make a broken variant fail where the default layout does not.
    step("histogram", &["histogram"]),
    step("publish", &["publish"]),
    step("publish-preload", &["publish", "--preload"]),
    step("publish-same-slot", &["publish", "--flag", "same-slot"]),
    step("publish-stale", &["publish", "--preload", "--delay-ns", "2000"]),
    // The scope ladder: round trips and fences at .cta, .cluster, .gpu, .sys.
    step("scopes", &["scopes"]),
    // Reductions at the memory limit: warm, cold, and warm from 4,096 floats
    // to 2^31, the largest size a 32-bit float count reaches on the card.
    plotted("bench", &["bench"]),
    plotted("bench-cold", &["bench", "--cold"]),
    plotted("bench-ladder", &["bench", "--sizes", BENCH_LADDER_SIZES]),
    // How accurate is each sum.
    plotted("accuracy", &["accuracy"]),
    // Seeing memory order: the default environment, the stale-L1 preload,
    // the two presets a tuning search chose, and the sequential control.
    // Each row runs for a fixed time rather than a fixed count, so the whole
    // suite takes the same time on a slower card.
    step("litmus", &["litmus", "--seconds", "0.5"]),
    // The default run a user types first: its wall time is in the manifest.
    step("litmus-default", &["litmus"]),
    step("litmus-stale-l1", &["litmus", "--preset", "stale-l1", "--seconds", "0.5"]),
    step("litmus-tuned-mp", &["litmus", "--preset", "tuned-mp", "--seconds", "0.5"]),
    step("litmus-tuned-wrc", &["litmus", "--preset", "tuned-wrc", "--seconds", "0.5"]),
    step("litmus-tuned-iriw", &["litmus", "--preset", "tuned-iriw", "--seconds", "0.5"]),
    step(
        "litmus-tune",
        &[
            "litmus",
            "--tune",
            "100",
            "--seconds",
            "0.03",
            "--placement",
            "inter-block",
            "--test",
            "wrc,iriw",
            "--variant",
            "relaxed-gpu,relaxed-cta,fence-acq-rel-cta",
        ],
    ),
    step("litmus-sequential", &["litmus", "--sequential", "--instances", "1000000"]),
    // Mutation testing: every forbidden row's killable mutants, each until
    // its first weak outcome or a fifth of a second, in two environments.
    step("litmus-mutants", &["litmus", "--mutants", "--seconds", "0.2"]),
    step("litmus-mutants-tuned-wrc", &["litmus", "--mutants", "--preset", "tuned-wrc", "--seconds", "0.2"]),
    // The scope ladder: a publication at each rung the default `publish`
    // does not run as often as the ladder chapter's target asks (10^8 pairs
    // for each correct variant), the `.cluster` litmus rows, and the price of
    // each rung.
    step(
        "publish-cluster",
        &[
            "publish",
            "--variant",
            "cluster-dsmem-release-acquire,cluster-dsmem-wrong-scope,cluster-dsmem-relaxed,cluster-global-release-acquire,cluster-barrier",
            "--launches",
            "50",
        ],
    ),
    // The `.cta` and `.gpu` rungs' correct publications, lesson 2's two,
    // with the live L1 preload that makes their relaxed twin fail, for as
    // many launches as the `.cluster` ones get.
    step(
        "publish-correct",
        &["publish", "--variant", "block-release-acquire,grid-release-acquire", "--preload", "--launches", "50"],
    ),
    step("publish-sys", &["publish-sys"]),
    step(
        "litmus-cluster",
        &[
            "litmus",
            "--placement",
            "intra-cluster,inter-cluster",
            "--test",
            "mp,sb,lb,wrc,iriw",
            "--variant",
            "relaxed-cluster,rel-acq-cluster,fence-acq-rel-cluster,fence-sc-cluster,rel-acq-cta,fence-acq-rel-cta,rel-acq-gpu,relaxed-gpu",
            "--seconds",
            "0.5",
        ],
    ),
    // The pitfalls: each mistake of both pages beside its fix, one record
    // each, so each lesson's pitfalls section includes its own.
    step("pitfalls-divergent-barrier", &["pitfalls", "--only", "divergent-barrier"]),
    step("pitfalls-warp-scope", &["pitfalls", "--only", "warp-scope"]),
    step("pitfalls-device-phase", &["pitfalls", "--only", "device-phase"]),
    step("pitfalls-torn-record", &["pitfalls", "--only", "torn-record"]),
    step("pitfalls-volatile", &["pitfalls", "--only", "volatile"]),
    step("pitfalls-histogram-barrier", &["pitfalls", "--only", "histogram-barrier"]),
    step("pitfalls-unreset-accumulator", &["pitfalls", "--only", "unreset-accumulator"]),
    step("pitfalls-golden-equality", &["pitfalls", "--only", "golden-equality"]),
];

/// The sanitizer's tools, in the order the book discusses them.
pub const SANITIZER_TOOLS: [&str; 4] = ["memcheck", "racecheck", "synccheck", "initcheck"];

/// The commit and tree state the build script saw.
pub fn build_commit() -> Commit {
    Commit { hash: env!("LAB_GIT_COMMIT").to_owned(), dirty: env!("LAB_GIT_DIRTY") == "true" }
}

/// What `evidence` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvidenceOptions {
    /// Where the files go.
    pub dir: PathBuf,
    /// Write into a directory that is not empty.
    pub force: bool,
    /// The `--ptx` the steps pass on, if one was given.
    pub ptx: Option<PathBuf>,
    /// Run only the steps whose names start with one of these; all if empty.
    pub only: Vec<String>,
    /// Leave out the steps whose names start with one of these.
    pub skip: Vec<String>,
}

impl EvidenceOptions {
    fn wants(&self, step: &str) -> bool {
        let starts = |prefixes: &[String]| prefixes.iter().any(|prefix| step.starts_with(prefix.as_str()));
        (self.only.is_empty() || starts(&self.only)) && !starts(&self.skip)
    }

    /// Whether this run is a part of one (`--only` or `--skip`).
    fn partial(&self) -> bool {
        !self.only.is_empty() || !self.skip.is_empty()
    }
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
        let result = run_step(step.name, &exe, &args, files, None);
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

/// The manifest already in `dir`, if there is one that reads.
fn existing_manifest(dir: &Path) -> Option<Manifest> {
    serde_json::from_str(&std::fs::read_to_string(dir.join(MANIFEST)).ok()?).ok()
}

/// `new`'s steps merged into `old`'s: a step run again replaces the old one
/// in its place, a step new to the run is added at the end; the run started
/// when `old` did and took both parts' time. Where one part found the
/// sanitizer and ran it, the other part's note that it could not is dropped.
fn merge(old: Manifest, new: Manifest) -> Manifest {
    let mut steps = old.steps;
    for step in new.steps {
        match steps.iter_mut().find(|s| s.name == step.name) {
            Some(slot) => *slot = step,
            None => steps.push(step),
        }
    }
    if steps.iter().any(|s| s.name != SANITIZE && s.name.starts_with(SANITIZE)) {
        steps.retain(|s| s.name != SANITIZE);
    }
    Manifest { started: old.started, wall_s: old.wall_s + new.wall_s, steps, ..new }
}

/// The lab's exit codes, as a child process reports them.
const PASSED: i32 = crate::error::EXIT_PASSED as i32;
const CHECK_FAILED: i32 = crate::error::EXIT_CHECK_FAILED as i32;
const INTERRUPTED: i32 = crate::error::EXIT_INTERRUPTED as i32;

/// The lab command of `step`, writing into `dir`, and the files it writes.
fn step_arguments(step: &Run, dir: &Path) -> (Vec<OsString>, Vec<String>) {
    let mut args: Vec<OsString> = step.args.iter().map(OsString::from).collect();
    let json = format!("{}.json", step.name);
    args.extend(["--format".into(), "json".into(), "--output".into(), dir.join(&json).into_os_string()]);
    let mut files = vec![json];
    if step.plot {
        let svg = format!("{}.svg", step.name);
        args.extend(["--plot".into(), dir.join(&svg).into_os_string()]);
        files.push(svg);
    }
    (args, files)
}

fn ptx_arguments(options: &EvidenceOptions) -> Vec<OsString> {
    options.ptx.iter().flat_map(|p| [OsString::from("--ptx"), p.clone().into_os_string()]).collect()
}

/// compute-sanitizer's flags for `tool`.
fn sanitizer_arguments(tool: &str) -> Vec<OsString> {
    let mut args: Vec<OsString> =
        ["--tool", tool, "--print-limit", "20", "--show-backtrace", "no"].map(OsString::from).to_vec();
    if tool == "racecheck" {
        // racecheck's default "analysis" report was seen to crash the host
        // process on the publication kernels (exit 11, no hazard printed,
        // compute-sanitizer 2025.3 with CUDA 13.0); the per-hazard report
        // works and shows more.
        args.extend(["--racecheck-report", "hazard"].map(OsString::from));
    }
    args
}

/// The sanitizer's runs: host commands that launch every registered kernel
/// at a small size, named for their logs. Which runs there are follows the
/// registry in `layout`: one per family, and one per publication variant, so
/// a new kernel is sanitized without an edit here.
pub fn sanitizer_runs() -> Vec<(String, Vec<String>)> {
    use layout::Family;
    let strings = |args: &[&str]| args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>();
    let mut families: Vec<Family> = Vec::new();
    for entry in layout::entries() {
        if !families.contains(&entry.family) {
            families.push(entry.family);
        }
    }
    let mut runs = Vec::new();
    for family in families {
        match family {
            // The determinism table launches every sum kernel, not only the page's.
            Family::Sum => runs.push((
                "sweep".to_owned(),
                strings(&["sweep", "--sizes", "1,4097", "--block", "64", "--runs", "1", "--warmup", "1"])
                    .into_iter()
                    .chain(strings(&["--determinism-runs", "2"]))
                    .collect(),
            )),
            Family::Histogram => runs.push((
                "histogram".to_owned(),
                strings(&["histogram", "--sizes", "4097", "--runs", "1", "--warmup", "0"]),
            )),
            // The bench launches the baselines beside every sum kernel, and a
            // cold bench the flush and the hold before each timed launch. One
            // partial chunk past the handoff route's limit, the deterministic sum
            // takes its ticket route, which the sweep's sizes do not reach.
            Family::Baseline => {
                use layout::sum::deterministic::{CHUNK, HANDOFF_CHUNKS};
                let ticket_route = CHUNK * HANDOFF_CHUNKS + CHUNK / 2 + 1;
                let sizes = format!("4097,{ticket_route}");
                let mut args = strings(&["bench", "--sizes"]);
                args.push(sizes);
                args.extend(strings(&["--runs", "1", "--warmup", "0", "--cold"]));
                runs.push(("bench".to_owned(), args));
            }
            // Every test, variant and placement, a few launches each.
            Family::Litmus => {
                runs.push(("litmus".to_owned(), strings(&["litmus", "--instances", "1", "--launches-per-check", "1"])))
            }
            // One run per pitfall, small, so each log holds one pitfall's
            // reports and the book can quote what each tool says of it (or
            // that it says nothing).
            Family::Pitfall => runs.extend(
                layout::pitfall::Pitfall::ALL
                    .iter()
                    .map(|p| (format!("pitfalls-{}", p.key()), strings(&["pitfalls", "--quick", "--only", p.key()]))),
            ),
            // The ladder's every round trip and fence loop, short.
            Family::Ladder => runs.push(("scopes".to_owned(), strings(&["scopes", "--quick"]))),
            // One run per variant, small, so each log holds one variant's
            // reports of the mapped host memory's accesses.
            Family::System => runs.extend(layout::system::VARIANTS.iter().map(|v| {
                (
                    format!("publish-sys-{}", v.name),
                    strings(&["publish-sys", "--launches", "1", "--slots", "4096", "--variant", v.name]),
                )
            })),
            // One run per variant, so each log holds one variant's reports.
            Family::Publish => runs.extend(layout::publish::VARIANTS.iter().map(|v| {
                (
                    format!("publish-{}", v.name),
                    strings(&["publish", "--launches", "1", "--rounds", "4", "--variant", v.name]),
                )
            })),
        }
    }
    runs
}

/// Runs one step, keeping its standard error's last line when it fails.
/// With `log`, everything the process printed goes to that file and the
/// note is the sanitizer's summary line.
fn run_step(name: &str, program: &Path, args: &[OsString], files: Vec<String>, log: Option<&Path>) -> Step {
    let command = command_line(program, args);
    let clock = Instant::now();
    let output = Command::new(program).args(args).stdin(Stdio::null()).output();
    let wall_s = clock.elapsed().as_secs_f64();
    let output = match output {
        Ok(output) => output,
        Err(e) => {
            return Step {
                name: name.to_owned(),
                command,
                files: Vec::new(),
                outcome: StepOutcome::Error,
                exit_code: None,
                wall_s,
                note: Some(format!("cannot start {}: {e}", program.display())),
            };
        }
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    // A child a signal ended has no exit code; it is given the one a shell
    // would report (128 + the signal), so Ctrl-C reads as 130 either way.
    let exit_code = output.status.code().or_else(|| {
        use std::os::unix::process::ExitStatusExt;
        output.status.signal().map(|signal| 128 + signal)
    });
    let (outcome, note) = match log {
        Some(log) => {
            let text = format!("$ {command}\n{}{stderr}", String::from_utf8_lossy(&output.stdout));
            let summary = sanitizer_summary(&text);
            if let Err(e) = std::fs::write(log, &text) {
                (StepOutcome::Error, Some(format!("cannot write {}: {e}", log.display())))
            } else {
                (outcome_of(exit_code), Some(summary))
            }
        }
        None => {
            let outcome = outcome_of(exit_code);
            let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).map(str::to_owned);
            (outcome, if outcome == StepOutcome::Passed { None } else { last })
        }
    };
    Step { name: name.to_owned(), command, files, outcome, exit_code, wall_s, note }
}

/// How a step's exit code reads: the lab's codes (0 passed, 1 a check
/// failed, 130 Ctrl-C, anything else an error of flags, device or
/// environment).
pub fn outcome_of(exit_code: Option<i32>) -> StepOutcome {
    match exit_code {
        Some(PASSED) => StepOutcome::Passed,
        Some(CHECK_FAILED) => StepOutcome::ChecksFailed,
        Some(INTERRUPTED) => StepOutcome::Interrupted,
        _ => StepOutcome::Error,
    }
}

/// The sanitizer's `ERROR SUMMARY` (or `LEAK SUMMARY`, `RACECHECK SUMMARY`)
/// line, without its prefix.
pub fn sanitizer_summary(log: &str) -> String {
    log.lines()
        .rev()
        .find(|l| l.contains("SUMMARY"))
        .map_or("(no summary line: see the log)", |l| l.trim_start_matches("========= ").trim())
        .to_owned()
}

/// The command line as a user would type it: this binary shown as `host`,
/// the evidence directory as given.
fn command_line(program: &Path, args: &[OsString]) -> String {
    let exe = std::env::current_exe().ok();
    let word = |s: &std::ffi::OsStr| -> String {
        if exe.as_deref().is_some_and(|e| e.as_os_str() == s) {
            return "host".to_owned();
        }
        let s = s.to_string_lossy();
        if s.is_empty() || s.contains(|c: char| c.is_whitespace() || c == '\'') {
            format!("'{}'", s.replace('\'', r"'\''"))
        } else {
            s.into_owned()
        }
    };
    std::iter::once(word(program.as_os_str())).chain(args.iter().map(|a| word(a))).collect::<Vec<_>>().join(" ")
}

/// The first executable named `name` on `PATH`.
fn find_on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).map(|dir| dir.join(name)).find(|p| p.is_file())
}

fn gpu_record(info: &DeviceInfo) -> GpuRecord {
    let (major, minor) = info.compute_capability;
    let (cuda_major, cuda_minor) = info.driver_cuda_version;
    GpuRecord {
        name: info.name.clone(),
        compute_capability: format!("{major}.{minor}"),
        sm_count: info.sm_count,
        driver: kernel_driver_version(),
        cuda: format!("{cuda_major}.{cuda_minor}"),
    }
}

/// The NVIDIA kernel module's version, from the line Linux shows in
/// `/proc/driver/nvidia/version` (`NVRM version: ... Kernel Module  580.159.04 ...`).
fn kernel_driver_version() -> Option<String> {
    let text = std::fs::read_to_string("/proc/driver/nvidia/version").ok()?;
    driver_version_in(&text)
}

/// The version in the text of `/proc/driver/nvidia/version`.
pub fn driver_version_in(text: &str) -> Option<String> {
    let line = text.lines().find(|l| l.starts_with("NVRM version"))?;
    line.split_whitespace()
        .find(|w| {
            w.split('.').count() >= 2 && w.split('.').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        })
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn only_selects_steps_by_prefix() {
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
