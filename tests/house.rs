//! The house rules that `ARCHITECTURE.md` states as absences, held by tests
//! where a test can hold them: what the kernels crate depends on, that the
//! code map names every command and crate, and that no source file grows
//! past the size one reader can hold. The host's layering (no import circle,
//! `report/` a leaf, only `gpu/` naming the driver) is `host/tests/layers.rs`.

use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The names under `[dependencies]` of a `Cargo.toml`.
fn dependencies(manifest: &Path) -> Vec<String> {
    let text = fs::read_to_string(manifest).unwrap();
    let mut names = Vec::new();
    let mut inside = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == "[dependencies]";
        } else if inside && !line.is_empty() && !line.starts_with('#') {
            names.push(line.split(['=', ' ', '.']).next().unwrap().to_owned());
        }
    }
    names
}

#[test]
fn the_gpu_crates_depend_on_layout_and_device_alone_and_layout_on_nothing() {
    assert_eq!(dependencies(&root().join("kernels/Cargo.toml")), ["layout", "device"]);
    assert_eq!(dependencies(&root().join("practice/Cargo.toml")), ["device", "layout"]);
    assert_eq!(dependencies(&root().join("device/Cargo.toml")), ["layout"]);
    assert!(dependencies(&root().join("layout/Cargo.toml")).is_empty());
    // The host builds its PTX with the builder alone, not the task runner.
    let host = fs::read_to_string(root().join("host/Cargo.toml")).unwrap();
    let build = host.split("[build-dependencies]").nth(1).unwrap().split("\n[").next().unwrap();
    assert!(!build.contains("xtask") && build.contains("ptx-builder"), "host's build-dependencies: {build}");
}

#[test]
fn the_code_map_names_every_command_folder_and_every_crate() {
    let map = fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    for entry in fs::read_dir(root().join("host/src/commands")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            assert!(map.contains(&format!("`{name}`")), "ARCHITECTURE.md does not name the command folder `{name}`");
        }
    }
    let workspace = fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let members = workspace.split("members = [").nth(1).unwrap().split(']').next().unwrap();
    for member in members
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .chain(["kernels", "device", "practice"])
    {
        assert!(
            map.contains(&format!("**`{member}/`**")),
            "ARCHITECTURE.md's code map has no paragraph for `{member}/`"
        );
    }
}

/// Source files under `dir`, but none in a `tests/` folder inside it (a
/// crate's test folder is passed on its own) or a `target/` one. A module
/// that its parent declares under `#[cfg(test)]` (a golden-file fixture) is
/// left out by [`test_only`].
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if name != "tests" && name != "target" {
                sources(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// Whether the module in `path` is declared `#[cfg(test)] mod name;` by its
/// parent (`mod.rs` or `lib.rs` beside it, or the file named for its folder).
fn test_only(path: &Path) -> bool {
    let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
    let dir = path.parent().unwrap();
    let folder_file = dir.with_extension("rs");
    let declaration = format!("#[cfg(test)]\nmod {stem};");
    [dir.join("mod.rs"), dir.join("lib.rs"), folder_file]
        .iter()
        .any(|parent| fs::read_to_string(parent).is_ok_and(|text| text.contains(&declaration)))
}

#[test]
fn no_source_file_is_over_800_lines() {
    let mut files = Vec::new();
    for dir in [
        "kernels/src",
        "host/src",
        "layout/src",
        "memory-model/src",
        "xtask/src",
        "ptx-builder/src",
        "device/src",
        "practice/src",
        "records/src",
        "stats/src",
        // The test folders themselves: a test file holds one concern too.
        "tests",
        "host/tests",
        "memory-model/tests",
        "xtask/tests",
    ] {
        sources(&root().join(dir), &mut files);
    }
    assert!(files.len() > 50, "found only {} files", files.len());
    let long: Vec<String> = files
        .iter()
        .filter(|f| !test_only(f))
        .filter_map(|f| {
            let lines = fs::read_to_string(f).unwrap().lines().count();
            (lines > 800).then(|| format!("{} ({lines} lines)", f.strip_prefix(root()).unwrap().display()))
        })
        .collect();
    assert!(long.is_empty(), "split these by concern: {}", long.join(", "));
}

/// Every file under `dir`, walked on disk (in CI a fresh clone, so what git
/// tracks).
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// `results/` stays curated: an exploration leaves one summary file, the
/// scripts that made it stay in git's history, and the folder as a whole
/// has a budget, so the next exploration cannot refill it.
#[test]
fn results_keep_their_budgets_and_hold_no_code() {
    let results = root().join("results");
    let mut all = Vec::new();
    files_under(&results, &mut all);
    assert!(all.len() <= 400, "results/ holds {} files; the budget is 400", all.len());
    let mut explore = Vec::new();
    files_under(&results.join("explore"), &mut explore);
    assert!(
        explore.len() <= 40,
        "results/explore/ holds {} files; the budget is 40, one summary an exploration",
        explore.len()
    );
    let code: Vec<String> = all
        .iter()
        .filter(|f| f.extension().is_some_and(|e| ["py", "cu", "sh", "patch"].contains(&e.to_string_lossy().as_ref())))
        .map(|f| f.strip_prefix(root()).unwrap_or(f).display().to_string())
        .collect();
    assert!(code.is_empty(), "code under results/ (it belongs to xtask, or to git's history): {code:?}");
    let folders: Vec<String> = fs::read_dir(results.join("explore"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.display().to_string())
        .collect();
    assert!(folders.is_empty(), "an exploration keeps one summary file, not a folder: {folders:?}");
}
