//! The `host` binary end to end: help, bad flags and missing devices give one
//! clear line and the documented exit code, never a panic.

use assert_cmd::Command;
use host::data_file::npy_bytes as npy;
use predicates::prelude::*;

fn host() -> Command {
    let mut cmd = Command::cargo_bin("host").unwrap();
    // Hide every GPU, so the no-device path runs on GPU machines too.
    cmd.env("CUDA_VISIBLE_DEVICES", "");
    cmd
}

/// Asserts a failed run printed exactly one line to stderr and no backtrace.
fn one_line(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr).into_owned();
    assert_eq!(text.lines().count(), 1, "expected one line, got:\n{text}");
    assert!(!text.contains("panicked") && !text.contains("backtrace"), "{text}");
    text
}

#[test]
fn help_lists_every_command_and_its_flags() {
    let top = host().arg("--help").assert().success().get_output().stdout.clone();
    let top = String::from_utf8(top).unwrap();
    for command in ["sweep", "exercise", "publish", "histogram", "bench", "accuracy", "litmus"] {
        assert!(top.contains(command), "{command} missing from --help");
    }
    host().args(["sweep", "--help"]).assert().success().stdout(
        predicate::str::contains("--block")
            .and(predicate::str::contains("--sizes"))
            .and(predicate::str::contains("--plot")),
    );
    for command in ["sweep", "exercise", "publish", "histogram", "bench", "accuracy", "litmus"] {
        host()
            .args([command, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains("--format").and(predicate::str::contains("--output")));
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
fn no_cuda_device_is_one_line_and_exit_2_for_every_command() {
    for command in ["sweep", "exercise", "publish", "histogram", "bench", "accuracy", "litmus"] {
        let out = host().arg(command).assert().code(2).get_output().clone();
        assert!(one_line(&out.stderr).starts_with("error: no CUDA device"), "{command}");
    }
}

#[test]
fn a_litmus_selection_of_nothing_is_one_line_and_exit_2_before_any_gpu_is_looked_for() {
    for (args, says) in [
        (&["litmus", "--test", "corr", "--variant", "rel-acq-gpu"][..], "no litmus kernel matches"),
        (&["litmus", "--sequential", "--placement", "inter-block"], "--sequential runs intra-block only"),
    ] {
        let out = host().args(args).assert().code(2).get_output().clone();
        assert!(one_line(&out.stderr).contains(says), "{args:?}");
    }
}

#[test]
fn a_missing_ptx_file_is_named() {
    let out = host().args(["--ptx", "/nonexistent/kernels.ptx", "sweep"]).assert().code(1).get_output().clone();
    assert!(one_line(&out.stderr).contains("cannot read PTX file /nonexistent/kernels.ptx"));
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
