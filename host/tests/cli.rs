//! The `host` binary end to end: help, bad flags and missing devices give one
//! clear line and the documented exit code, never a panic.
//!
//! The commands come from clap's definition (`Cli::command()`), so a new
//! command is held to every rule here with no edit, unless it has required
//! arguments (`valid_arguments`) or needs no GPU (`NEEDS_NO_GPU`).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use clap::CommandFactory;
use host::cli::{Cli, EXIT_CODES};
use host::data_file::npy_bytes as npy;
use predicates::prelude::*;

fn host() -> Command {
    let mut cmd = Command::cargo_bin("host").unwrap();
    // Hide every GPU, so the no-device path runs on GPU machines too.
    cmd.env("CUDA_VISIBLE_DEVICES", "");
    cmd
}

/// A directory of this test process's own, named `name`, created empty.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lab-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Asserts a failed run printed exactly one line to stderr and no backtrace.
fn one_line(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr).into_owned();
    assert_eq!(text.lines().count(), 1, "expected one line, got:\n{text}");
    assert!(!text.contains("panicked") && !text.contains("backtrace"), "{text}");
    text
}

/// Every command clap defines, by name, in the order `--help` lists them.
fn commands() -> Vec<String> {
    Cli::command().get_subcommands().map(|c| c.get_name().to_owned()).filter(|name| name != "help").collect()
}

/// The commands that open no GPU. Every other command, run with valid flags
/// where no GPU is visible, must stop with one line saying so; a new command
/// that needs no GPU belongs here, with the reason.
const NEEDS_NO_GPU: &[&str] = &[
    // `render` prints a record saved with `--format json` again: it reads a
    // file and writes text, and opens no GPU.
    "render", // `compare A B` reads two evidence runs' records and writes text.
    "compare",
];

/// The commands that write no table, and so have no `--format` or `--output`.
const WRITES_NO_TABLE: &[&str] = &[
    // `evidence DIR` writes a directory: one JSON record per run and a
    // manifest.
    "evidence",
];

/// What `command` needs on its command line beyond its defaults to be valid
/// (its required arguments), with `scratch` a directory of this test's own.
fn valid_arguments(command: &str, scratch: &Path) -> Vec<OsString> {
    match command {
        // `evidence DIR` needs a DIR that is new or empty.
        "evidence" => vec![scratch.join(format!("evidence-{}", std::process::id())).into()],
        // `compare A B` needs two evidence runs: the reference run twice.
        "compare" => vec![reference_run().into(), reference_run().into()],
        _ => Vec::new(),
    }
}

#[test]
fn help_lists_every_command_its_flags_and_the_exit_codes() {
    let top = host().arg("--help").assert().success().get_output().stdout.clone();
    let top = String::from_utf8(top).unwrap();
    assert!(top.contains(EXIT_CODES), "the exit codes are missing from --help");
    for command in commands() {
        assert!(top.contains(&command), "{command} missing from --help");
    }
    host().args(["sweep", "--help"]).assert().success().stdout(
        predicate::str::contains("--block")
            .and(predicate::str::contains("--sizes"))
            .and(predicate::str::contains("--plot")),
    );
    let definition = Cli::command();
    for command in definition.get_subcommands().filter(|c| c.get_name() != "help") {
        let name = command.get_name();
        let help = host().args([name, "--help"]).assert().success().get_output().stdout.clone();
        let help = String::from_utf8(help).unwrap();
        assert!(help.contains(EXIT_CODES), "the exit codes are missing from {name} --help");
        for flag in command.get_arguments().filter_map(|a| a.get_long()) {
            assert!(help.contains(&format!("--{flag}")), "--{flag} missing from {name} --help");
        }
        if !WRITES_NO_TABLE.contains(&name) {
            assert!(help.contains("--format") && help.contains("--output"), "{name} has no --format or --output");
        }
    }
}

#[test]
fn an_unknown_flag_is_one_line_and_exit_2_for_every_command() {
    let scratch = scratch("unknown-flag");
    for command in commands() {
        let out = host()
            .arg(&command)
            .args(valid_arguments(&command, &scratch))
            .arg("--no-such-flag")
            .assert()
            .code(2)
            .get_output()
            .clone();
        assert!(one_line(&out.stderr).contains("--no-such-flag"), "{command}");
    }
}

#[test]
fn bad_flags_give_one_line_naming_the_flag_and_exit_2() {
    for (args, flag) in [
        (&["sweep", "--block", "48"][..], "--block"),
        (&["sweep", "--block", "4096"], "--block"),
        (&["sweep", "--sizes", "0"], "--sizes"),
        (&["sweep", "--sizes", ""], "--sizes"),
        (&["sweep", "--sizes", "6000000"], "--sizes"),
        (&["sweep", "--runs", "x"], "--runs"),
        (&["sweep", "--blok", "64"], "--blok"),
        (&["sweep", "--format", "xml"], "--format"),
        (&["bench", "--sizes", "9999999999"], "--sizes"),
        (&["publish", "--variant", "loose"], "--variant"),
        (&["histogram", "--bins", "0"], "--bins"),
        (&["exercise", "--sizes", "x"], "--sizes"),
        (&["histogram", "--plot", "x.svg"], "--plot"),
        (&["accuracy", "--spread", "zipf"], "--spread"),
        (&["accuracy", "--input", "a.npy", "--sizes", "10"], "--sizes"),
        (&["accuracy", "--runs", "0"], "--runs"),
        (&["litmus", "--variant", "fence-full"], "--variant"),
        (&["litmus", "--threads", "96"], "--threads"),
        (&["litmus", "--preload", "all"], "--preload"),
        (&["litmus", "--tune", "0"], "--tune"),
        (&["litmus", "--lane-multiplier", "2"], "--lane-multiplier"),
        (&["litmus", "--location-stride", "12"], "--location-stride"),
        (&["tune", "--budget", "0"], "--budget"),
        (&["tune", "--location-stride", "6"], "--location-stride"),
        (&["pitfalls", "--only", "deadlock"], "--only"),
        (&["pitfalls", "--only", ""], "--only"),
        (&["pitfalls", "--quick", "yes"], "yes"),
    ] {
        let out = host().args(args).assert().code(2).get_output().clone();
        let line = one_line(&out.stderr);
        assert!(line.contains(flag), "{args:?}: {line}");
    }
}

#[test]
fn no_subcommand_is_a_usage_error() {
    host().assert().code(2);
}

#[test]
fn no_cuda_device_is_one_line_and_exit_2_for_every_command_that_needs_one() {
    let scratch = scratch("no-device");
    for command in commands().into_iter().filter(|c| !NEEDS_NO_GPU.contains(&c.as_str())) {
        let args = valid_arguments(&command, &scratch);
        let out = host().arg(&command).args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.code() == Some(2) && stderr.starts_with("error: no CUDA device"),
            "`host {command} {args:?}` did not stop at the missing GPU (exit {:?}: {stderr}): if it needs \
             arguments, give them in `valid_arguments`; if it needs no GPU, list it in NEEDS_NO_GPU",
            out.status.code()
        );
        one_line(&out.stderr);
    }
}

#[test]
fn a_litmus_selection_of_nothing_is_one_line_and_exit_2_before_any_gpu_is_looked_for() {
    for (args, says) in [
        (&["litmus", "--test", "corr", "--variant", "rel-acq-gpu"][..], "no litmus kernel matches"),
        (&["litmus", "--sequential", "--placement", "inter-block"], "--sequential runs in one block or one warp only"),
        (&["litmus", "--sequential", "--placement", "blocks-01-2"], "not blocks-01-2"),
        (&["litmus", "--sequential", "--placement", "all"], "--sequential runs in one block or one warp only"),
        (&["litmus", "--test", "mp,iriw", "--placement", "blocks-0-12"], "splits 3 roles"),
        (&["litmus", "--placement", "blocks-9"], "invalid value 'blocks-9'"),
        (
            &["litmus", "--mutants", "--test", "mp", "--variant", "relaxed-gpu,weak"],
            "the model forbids no selected row",
        ),
        (&["litmus", "--mutants", "--tune", "3"], "cannot be used with"),
        (&["litmus", "--tune", "3", "--threads", "256"], "cannot be used with"),
        (&["litmus", "--tune", "3", "--preset", "tuned-wrc"], "cannot be used with"),
        (&["litmus", "--tune", "3", "--preload", "observer"], "cannot be used with"),
        (&["litmus", "--tune", "3", "--layout-seed", "7"], "cannot be used with"),
        (&["litmus", "--layout-seed", "-1"], "unexpected argument"),
        (&["litmus", "--location-stride", "8", "--distance", "different-lines"], "a slot of 8 words has one line"),
        (&["litmus", "--preset", "quiet", "--location-stride", "16"], "a slot of 16 words has one line"),
        (&["litmus", "--tuned", "--sequential"], "cannot be used with"),
        (&["tune", "--budget", "1", "--row-seconds", "0.5"], "leaves 0.7 s for drawing environments"),
        (&["tune", "--test", "corr,coww"], "nothing to tune"),
    ] {
        let out = host().args(args).assert().code(2).get_output().clone();
        assert!(one_line(&out.stderr).contains(says), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn every_litmus_placement_gets_as_far_as_the_gpu() {
    for args in [
        &["litmus", "--placement", "all"][..],
        &["litmus", "--placement", "warp,blocks-01-2,blocks-0-1-23"],
        &["litmus", "--sequential", "--placement", "warp,intra-block"],
        // The default preset is no conflict for --tune, and a stride holds its search.
        &["litmus", "--tune", "3"],
        &["litmus", "--tune", "3", "--location-stride", "4"],
        // The winners are read once the GPU is known: a folder holds one
        // file per GPU and driver.
        &["litmus", "--tuned"],
        &["litmus", "--tuned", "no/such/folder"],
        &["tune", "--budget", "10", "--test", "mp,iriw"],
    ] {
        let out = host().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.code() == Some(2) && stderr.starts_with("error: no CUDA device"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_missing_ptx_file_is_named_and_exits_3() {
    let out = host().args(["--ptx", "/nonexistent/kernels.ptx", "sweep"]).assert().code(3).get_output().clone();
    assert!(one_line(&out.stderr).contains("cannot read PTX file /nonexistent/kernels.ptx"));
}

#[test]
fn ptx_that_is_not_text_exits_3_before_any_gpu_is_looked_for() {
    let path = scratch("ptx-binary").join("binary.ptx");
    std::fs::write(&path, b".version 8.0\0\x7fELF").unwrap();
    let out = host().arg("--ptx").arg(&path).arg("sweep").assert().code(3).get_output().clone();
    let line = one_line(&out.stderr);
    assert!(line.contains(&format!("PTX {} did not load", path.display())) && line.contains("NUL byte"), "{line}");
}

#[test]
fn ptx_text_is_loaded_only_by_a_gpu_so_without_one_it_is_the_missing_gpu_that_exits_2() {
    // Only the driver can say whether PTX text loads; where there is none,
    // the missing GPU is the one cause reported. The GPU tests check that
    // broken PTX is named with the driver's error.
    let path = scratch("ptx-text").join("broken.ptx");
    std::fs::write(&path, "this is not PTX\n").unwrap();
    let out = host().arg("--ptx").arg(&path).arg("sweep").assert().code(2).get_output().clone();
    assert!(one_line(&out.stderr).starts_with("error: no CUDA device"));
}

#[test]
fn a_bad_data_file_is_one_line_naming_it_before_any_gpu_is_looked_for() {
    let dir = std::env::temp_dir().join(format!("lab-cli-data-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut trailing = npy("<f4", "(2,)", &[0; 8]);
    trailing.extend(b"junk");
    let cases: [(&str, Vec<u8>, &str); 7] = [
        ("double.npy", npy("<f8", "(3,)", &[0; 24]), "dtype is <f8"),
        ("half.npy", npy("<f2", "(3,)", &[0; 6]), "dtype is <f2"),
        ("ints.npy", npy("<i8", "(3,)", &[0; 24]), "dtype is <i8"),
        ("matrix.npy", npy("<f4", "(2, 3)", &[0; 24]), "2 dimensions"),
        ("empty.npy", npy("<f4", "(0,)", &[]), "empty"),
        ("notes.npy", b"not numpy".to_vec(), "not a .npy file"),
        ("trailing.npy", trailing, "4 bytes follow the array's 2 floats"),
    ];
    for (name, bytes, reason) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        // No GPU is hidden here: the file is refused before one is opened, so
        // the message is the file's on every machine.
        let out = Command::cargo_bin("host")
            .unwrap()
            .arg("accuracy")
            .arg("--input")
            .arg(&path)
            .assert()
            .code(2)
            .get_output()
            .clone();
        let line = one_line(&out.stderr);
        assert!(line.starts_with(&format!("error: {}: ", path.display())) && line.contains(reason), "{name}: {line}");
    }
    let missing = dir.join("missing.npy");
    let out = host().arg("accuracy").arg("--input").arg(&missing).assert().code(2).get_output().clone();
    assert!(one_line(&out.stderr).contains("missing.npy: cannot open"));
}

#[test]
fn a_good_data_file_gets_as_far_as_the_gpu() {
    let path = std::env::temp_dir().join(format!("lab-cli-good-{}.npy", std::process::id()));
    std::fs::write(&path, npy("<f4", "(2,)", &[0, 0, 0x80, 0x3f, 0, 0, 0, 0x40])).unwrap();
    let out = host().arg("accuracy").arg("--input").arg(&path).assert().code(2).get_output().clone();
    assert!(one_line(&out.stderr).starts_with("error: no CUDA device"));
}

#[test]
fn save_arrays_writes_the_generated_arrays_with_no_gpu() {
    let dir = scratch("save-arrays");
    let out = host()
        .args(["accuracy", "--spread", "cancel,tiny", "--sizes", "100,4096", "--seed", "7", "--save-arrays"])
        .arg(&dir)
        .assert()
        .success()
        .get_output()
        .clone();
    let listed: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_owned).collect();
    let mut expected = Vec::new();
    for (spread, name) in [(host::input::Spread::Cancel, "cancel"), (host::input::Spread::Tiny, "tiny")] {
        for n in [100, 4096] {
            let path = dir.join(format!("{name}-{n}.f32"));
            // The file is the array `accuracy` sums, bit for bit, and
            // `--input` reads it back.
            let values = host::data_file::load(&path).unwrap();
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&values), bits(&host::input::spread(spread, n, 7)), "{name}-{n}");
            expected.push(path.display().to_string());
        }
    }
    assert_eq!(listed, expected);
}

#[test]
fn save_arrays_into_a_path_that_cannot_be_a_folder_is_one_line_and_exit_3() {
    let file = scratch("save-arrays-bad").join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let target = file.join("arrays");
    let out =
        host().args(["accuracy", "--sizes", "16", "--save-arrays"]).arg(&target).assert().code(3).get_output().clone();
    let line = one_line(&out.stderr);
    assert!(line.starts_with(&format!("error: cannot write {}: ", target.display())), "{line}");
    let both =
        host().args(["accuracy", "--input", "x.npy", "--save-arrays", "d"]).assert().code(2).get_output().clone();
    assert!(String::from_utf8_lossy(&both.stderr).contains("cannot be used with"));
}

/// The reference run, an evidence directory.
fn reference_run() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/h200")
}

#[test]
fn compare_sees_the_same_bits_in_a_run_beside_itself() {
    let out = host().arg("compare").arg(reference_run()).arg(reference_run()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Same bits on both GPUs: 40 sums of the reproducible kernels"), "{text}");
}

#[test]
fn compare_names_a_reproducible_sum_whose_bits_differ_and_exits_1() {
    // A copy of the reference run's manifest and accuracy record, with one
    // deterministic sum's last bit flipped in every launch.
    let dir = scratch("compare-flipped");
    // The manifest of a run that made the accuracy record alone.
    let text = std::fs::read_to_string(reference_run().join("manifest.json")).unwrap();
    let mut manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
    for step in manifest["steps"].as_array_mut().unwrap() {
        step["files"].as_array_mut().unwrap().retain(|f| f == "accuracy.json");
    }
    std::fs::write(dir.join("manifest.json"), manifest.to_string()).unwrap();
    let text = std::fs::read_to_string(reference_run().join("accuracy.json")).unwrap();
    let mut record: serde_json::Value = serde_json::from_str(&text).unwrap();
    let row = &mut record["results"]["rows"][3];
    let (data, n) = (row["data"].as_str().unwrap().to_owned(), row["n"].as_u64().unwrap());
    let method =
        row["results"].as_array_mut().unwrap().iter_mut().find(|m| m["method"]["gpu"] == "deterministic").unwrap();
    for sum in method["sums"].as_array_mut().unwrap() {
        let bits = (sum.as_f64().unwrap() as f32).to_bits() ^ 1;
        *sum = serde_json::json!(f32::from_bits(bits));
    }
    std::fs::write(dir.join("accuracy.json"), serde_json::to_string(&record).unwrap()).unwrap();
    let out = host().arg("compare").arg(reference_run()).arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let line = one_line(&out.stderr);
    assert!(
        line.contains("different bits: the deterministic sum") && line.contains(&format!("{data} array of n = {n}")),
        "{line}"
    );
}

#[test]
fn compare_earns_its_verdict_or_exits_2_saying_why() {
    // Run B: the reference run's manifest, with an accuracy record that has
    // no rows, and every record the manifest lists otherwise there.
    let dir = scratch("compare-unearned");
    for entry in std::fs::read_dir(reference_run()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    let text = std::fs::read_to_string(dir.join("accuracy.json")).unwrap();
    let mut record: serde_json::Value = serde_json::from_str(&text).unwrap();
    record["results"]["rows"] = serde_json::json!([]);
    std::fs::write(dir.join("accuracy.json"), record.to_string()).unwrap();
    let out = host().arg("compare").arg(reference_run()).arg(&dir).assert().code(2).get_output().clone();
    let line = one_line(&out.stderr);
    assert!(line.contains("lacks 40 of the 40 reproducible sums"), "{line}");
    // A record the manifest lists, gone.
    std::fs::remove_file(dir.join("accuracy.json")).unwrap();
    let out = host().arg("compare").arg(reference_run()).arg(&dir).assert().code(2).get_output().clone();
    assert!(one_line(&out.stderr).contains("the run is incomplete"));
    // A time that is not a measurement.
    std::fs::copy(reference_run().join("accuracy.json"), dir.join("accuracy.json")).unwrap();
    let text = std::fs::read_to_string(dir.join("sweep-256.json")).unwrap();
    let mut record: serde_json::Value = serde_json::from_str(&text).unwrap();
    record["results"]["sweep"]["rows"][0]["measurements"][0]["times_ms"][0] = serde_json::json!(-5.0);
    std::fs::write(dir.join("sweep-256.json"), record.to_string()).unwrap();
    let out = host().arg("compare").arg(reference_run()).arg(&dir).assert().code(2).get_output().clone();
    assert!(one_line(&out.stderr).contains("finite and above zero"));
}

#[test]
fn compare_refuses_a_directory_that_is_not_an_evidence_run_with_exit_2() {
    let dir = scratch("compare-empty");
    let out = host().arg("compare").arg(reference_run()).arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let line = one_line(&out.stderr);
    assert!(line.contains("manifest.json") && line.contains("not an evidence run"), "{line}");
}

/// The README's first listing is `host render` of the reference run's
/// `sweep-64.json`, its lines in order (rows may be left out), and the line
/// above it names that run's driver, date and commit: a new reference run
/// cannot leave the front page quoting the one before.
#[test]
fn the_readmes_sweep_listing_is_the_reference_runs_rendering() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md")).unwrap();
    let (_, after) = readme.split_once("Its first lines, from the reference run").expect("the README's sweep listing");
    let (heading, after) = after.split_once("```text\n").unwrap();
    let listing = after.split_once("```").unwrap().0;
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(reference_run().join("manifest.json")).unwrap()).unwrap();
    for named in [
        format!("driver {}", manifest["gpu"]["driver"].as_str().unwrap()),
        manifest["started"].as_str().unwrap()[..10].to_owned(),
        format!("commit `{}`", &manifest["commit"]["hash"].as_str().unwrap()[..7]),
    ] {
        assert!(heading.contains(&named), "the README's listing does not name the reference run's {named}: {heading}");
    }
    let out = host().arg("render").arg(reference_run().join("sweep-64.json")).output().unwrap();
    assert!(out.status.success(), "{}", one_line(&out.stderr));
    let rendered = String::from_utf8_lossy(&out.stdout);
    let mut rendered = rendered.lines().map(str::trim_end);
    for line in listing.lines().map(str::trim_end) {
        assert!(rendered.any(|r| r == line), "not in the reference run's rendering, or out of order: {line:?}");
    }
}

/// The golden records, as the exporters' own tests keep them.
fn golden(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/record/golden").join(name)
}

#[test]
fn render_prints_a_saved_record_as_the_command_did_with_no_gpu() {
    for command in ["sweep", "bench", "publish", "histogram", "accuracy", "litmus", "exercise"] {
        let expected = std::fs::read_to_string(golden(&format!("{command}.md"))).unwrap();
        let out = host()
            .arg("render")
            .arg(golden(&format!("{command}.json")))
            .args(["--format", "markdown"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{command}: {}", one_line(&out.stderr));
        assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "{command}");
    }
}

#[test]
fn render_refuses_a_file_that_is_not_a_record_with_exit_2() {
    let path = golden("sweep.md");
    let out = host().arg("render").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let line = one_line(&out.stderr);
    assert!(line.contains("sweep.md") && line.contains("not a record"), "{line}");
}

#[test]
fn render_to_an_unwritable_file_exits_3() {
    let out = host()
        .arg("render")
        .arg(golden("sweep.json"))
        .args(["--output", "/nonexistent-directory/sweep.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(one_line(&out.stderr).contains("cannot write /nonexistent-directory/sweep.txt"));
}

#[test]
fn evidence_refuses_a_directory_that_holds_files_with_exit_2_before_any_gpu_is_looked_for() {
    let dir = scratch("evidence-not-empty");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("old.json"), "{}").unwrap();
    let out = host().arg("evidence").arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(one_line(&out.stderr).contains("is not empty"), "{}", one_line(&out.stderr));
}

#[test]
fn render_refuses_a_plot_of_a_record_that_draws_none_with_exit_2_and_prints_nothing() {
    let out = host()
        .arg("render")
        .arg(golden("histogram.json"))
        .args(["--plot", "/tmp/lab-never-written.svg"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(one_line(&out.stderr).contains("--plot: nothing to plot"));
}

/// A record the reference run keeps, which `render` prints without a GPU.
fn a_record() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/h200/sweep-256.json")
}

#[test]
fn a_closed_pipe_ends_quietly_with_141_and_a_full_disk_is_one_line_and_exit_3() {
    use std::process::{Command as Process, Stdio};
    // The reader is gone before the host starts: `host render ... | head -0`.
    // Closing the read end before the spawn, not after, keeps a busy machine
    // from letting the host write its whole output into the pipe first.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Process::new(assert_cmd::cargo::cargo_bin("host"))
        .arg("render")
        .arg(a_record())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(141), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    // A device that takes no bytes: `host render ... > /dev/full`.
    if Path::new("/dev/full").exists() {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let out = Process::new(assert_cmd::cargo::cargo_bin("host"))
            .arg("render")
            .arg(a_record())
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3));
        let line = one_line(&out.stderr);
        assert!(line.starts_with("error: cannot write standard output:"), "{line}");
    }
}

#[test]
fn a_missing_argument_is_named_on_its_one_line() {
    let out = host().args(["compare", "results/h200"]).assert().code(2);
    let line = one_line(&out.get_output().stderr);
    assert!(line.contains("<RUN_B>"), "{line}");
}

#[test]
fn an_output_that_names_an_input_is_refused_and_the_input_kept() {
    let scratch = scratch("overwrite");
    let record = scratch.join("x.json");
    std::fs::copy(a_record(), &record).unwrap();
    let before = std::fs::read(&record).unwrap();
    for flag in ["--output", "--plot"] {
        let out = host().arg("render").arg(&record).arg(flag).arg(&record).assert().code(2);
        assert!(one_line(&out.get_output().stderr).contains("which this command reads"));
    }
    // Run B's manifest, named as the comparison's output, through another
    // spelling of its path.
    let run_b = scratch.join("b");
    std::fs::create_dir_all(&run_b).unwrap();
    for file in ["manifest.json", "sweep-256.json"] {
        std::fs::copy(reference_run().join(file), run_b.join(file)).unwrap();
    }
    let manifest = std::fs::read(run_b.join("manifest.json")).unwrap();
    let out = host()
        .arg("compare")
        .arg(reference_run())
        .arg(&run_b)
        .arg("--output")
        .arg(run_b.join("../b/manifest.json"))
        .assert()
        .code(2);
    assert!(one_line(&out.get_output().stderr).contains("which this command reads"));
    assert_eq!(std::fs::read(&record).unwrap(), before);
    assert_eq!(std::fs::read(run_b.join("manifest.json")).unwrap(), manifest);
}

#[test]
fn an_input_that_is_not_a_regular_file_is_refused_not_waited_on() {
    let scratch = scratch("fifo");
    let fifo = scratch.join("record.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        println!("skipped: no mkfifo on this machine");
        return;
    }
    let timeout = std::time::Duration::from_secs(20);
    let out = host().arg("render").arg(&fifo).timeout(timeout).assert().code(2);
    assert!(one_line(&out.get_output().stderr).contains("not a regular file"));
    // A run whose manifest is a FIFO.
    let run = scratch.join("run");
    std::fs::create_dir_all(&run).unwrap();
    std::process::Command::new("mkfifo").arg(run.join("manifest.json")).status().unwrap();
    let out = host().arg("compare").arg(&run).arg(reference_run()).timeout(timeout).assert().code(2);
    assert!(one_line(&out.get_output().stderr).contains("not a regular file"));
    // A folder given as a record.
    let out = host().arg("render").arg(&scratch).assert().code(2);
    assert!(one_line(&out.get_output().stderr).contains("not a regular file"));
}

#[test]
fn a_write_that_fails_leaves_every_file_as_it_was() {
    let scratch = scratch("all-or-none");
    let existing = scratch.join("existing.txt");
    std::fs::write(&existing, "kept").unwrap();
    let record = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/h200/exercise.json");
    // The results file could be written; the plot's folder is not there.
    let out = host()
        .arg("render")
        .arg(&record)
        .arg("--output")
        .arg(&existing)
        .arg("--plot")
        .arg(scratch.join("missing/x.svg"))
        .assert()
        .code(3);
    assert!(one_line(&out.get_output().stderr).contains("missing/x.svg"));
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "kept");
    let left: Vec<_> = std::fs::read_dir(&scratch).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["existing.txt"], "nothing half-written is left behind");
    // Both written, when both can be.
    host()
        .arg("render")
        .arg(&record)
        .arg("--output")
        .arg(&existing)
        .arg("--plot")
        .arg(scratch.join("x.svg"))
        .assert()
        .code(0);
    assert!(std::fs::read_to_string(&existing).unwrap().contains("nine ratios"));
    assert!(scratch.join("x.svg").is_file());
}

#[test]
fn a_plot_that_cannot_be_drawn_is_one_line_and_exit_2_never_a_hang() {
    let scratch = scratch("plots");
    let timeout = std::time::Duration::from_secs(30);
    let reference = |name: &str| -> serde_json::Value {
        let path = reference_run().join(name);
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    // A bench whose copy took no time (infinite GB/s), and an accuracy run
    // whose every array is empty (n = 0 on a log axis).
    let mut bench = reference("bench.json");
    for row in bench["results"]["rows"].as_array_mut().unwrap() {
        row["copy_ms"] = serde_json::json!([0.0, 0.0]);
    }
    let mut accuracy = reference("accuracy.json");
    for row in accuracy["results"]["rows"].as_array_mut().unwrap() {
        row["n"] = serde_json::json!(0);
    }
    for (name, record) in [("bench.json", bench), ("accuracy.json", accuracy)] {
        let path = scratch.join(name);
        std::fs::write(&path, record.to_string()).unwrap();
        let out = host()
            .arg("render")
            .arg(&path)
            .arg("--plot")
            .arg(scratch.join("x.svg"))
            .timeout(timeout)
            .assert()
            .code(2)
            .get_output()
            .clone();
        let line = one_line(&out.stderr);
        assert!(line.contains("--plot"), "{name}: {line}");
        assert!(!scratch.join("x.svg").exists(), "{name}");
    }
}

#[test]
fn a_path_with_a_newline_is_shown_on_one_line() {
    let dir = scratch("newline");
    let odd = dir.join("two\nlines");
    std::fs::create_dir_all(&odd).unwrap();
    let out = host().arg("compare").arg(&odd).arg(&odd).assert().code(2).get_output().clone();
    let line = one_line(&out.stderr);
    assert!(line.contains("two\\nlines"), "{line}");
}
