//! The `host` binary end to end: help, bad flags and missing devices give one
//! clear line and the documented exit code, never a panic.

use assert_cmd::Command;
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
    for command in ["sweep", "exercise", "publish", "histogram", "bench"] {
        assert!(top.contains(command), "{command} missing from --help");
    }
    host().args(["sweep", "--help"]).assert().success().stdout(
        predicate::str::contains("--block")
            .and(predicate::str::contains("--sizes"))
            .and(predicate::str::contains("--plot")),
    );
    for command in ["sweep", "exercise", "publish", "histogram", "bench"] {
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
        (&["bench", "--sizes", "999999999"], "--sizes"),
        (&["publish", "--variant", "loose"], "--variant"),
        (&["histogram", "--bins", "0"], "--bins"),
        (&["exercise", "--sizes", "x"], "--sizes"),
        (&["histogram", "--plot", "x.svg"], "--plot"),
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
    for command in ["sweep", "exercise", "publish", "histogram", "bench"] {
        let out = host().arg(command).assert().code(2).get_output().clone();
        assert!(one_line(&out.stderr).starts_with("error: no CUDA device"), "{command}");
    }
}

#[test]
fn a_missing_ptx_file_is_named() {
    let out = host().args(["--ptx", "/nonexistent/kernels.ptx", "sweep"]).assert().code(1).get_output().clone();
    assert!(one_line(&out.stderr).contains("cannot read PTX file /nonexistent/kernels.ptx"));
}
