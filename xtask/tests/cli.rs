//! `cargo xtask` keeps the lab's exit codes: 2, with one line, for input a
//! task cannot use, before the task builds anything.

use std::process::Command;

#[test]
fn a_results_directory_that_is_not_a_run_exits_2_with_one_line() {
    let dir = std::env::temp_dir().join(format!("xtask-not-a-run-{}", std::process::id()));
    let broken = dir.join("broken");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(broken.join("manifest.json"), "{").unwrap();
    for results in [dir.join("missing"), broken, dir.join("two\nlines")] {
        let out =
            Command::new(env!("CARGO_BIN_EXE_xtask")).arg("book").arg("--results").arg(&results).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("is not a run of `host evidence DIR`"), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
