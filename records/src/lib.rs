//! The files the lab writes for another process to read, as types.
//!
//! `host evidence DIR` writes a [`Manifest`] beside the JSON records of its
//! runs; `cargo xtask book` reads it to say, under every generated table,
//! which run the table came from, and to render the reference-run appendix.
//! Both sides compile against these types, so renaming a field breaks the
//! build of the reader instead of a figure in the book.
//!
//! [`host`] is the typed view of the records every host command writes with
//! `--format json`, which `xtask nvcc-compare` and its CUB comparison read,
//! and the book's table of the published litmus anchors.

#![warn(missing_docs)]

pub mod host;

use serde::{Deserialize, Serialize};

/// The name of the manifest inside an evidence directory.
pub const MANIFEST: &str = "manifest.json";

/// What one evidence run did: where, on what, when, and each step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The host's name and version, e.g. `host 0.1.0`.
    pub tool: String,
    /// The git commit the host binary was built from, and whether the
    /// working tree had uncommitted changes then.
    pub commit: Commit,
    /// The GPU the run used.
    pub gpu: Gpu,
    /// When the run started, as RFC 3339 in UTC.
    pub started: String,
    /// Seconds from the first step's start to the last step's end.
    pub wall_s: f64,
    /// The steps, in the order they ran.
    pub steps: Vec<Step>,
}

/// A git commit, as the host's build script saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Commit {
    /// The abbreviated hash, or `unknown` when the build had no git.
    pub hash: String,
    /// The working tree differed from the commit when the host was built.
    pub dirty: bool,
}

impl Commit {
    /// The hash, with ` (modified)` when the build was of a dirty tree.
    pub fn describe(&self) -> String {
        if self.dirty { format!("{} (modified)", self.hash) } else { self.hash.clone() }
    }
}

/// The GPU and its software, as the driver reports them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gpu {
    /// The marketing name, e.g. `NVIDIA H200`.
    pub name: String,
    /// Compute capability as `major.minor`.
    pub compute_capability: String,
    /// Streaming multiprocessors.
    pub sm_count: u32,
    /// The kernel driver's version (`/proc/driver/nvidia/version`), if the
    /// system shows it.
    pub driver: Option<String>,
    /// The CUDA version the driver supports, as `major.minor`.
    pub cuda: String,
}

/// One command the run made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The step's name, which is also the stem of the files it wrote.
    pub name: String,
    /// The command line, as a user would type it.
    pub command: String,
    /// The files it wrote, relative to the evidence directory.
    pub files: Vec<String>,
    /// How it ended.
    pub outcome: StepOutcome,
    /// Its exit code, if it ran and exited.
    pub exit_code: Option<i32>,
    /// Seconds it took.
    pub wall_s: f64,
    /// A line worth keeping: the last line of its standard error when it
    /// failed, a sanitizer's summary, or why it was skipped.
    pub note: Option<String>,
}

/// The sizes of the reference run's `bench-ladder` step, as its `--sizes`
/// argument: every second power of two from 4,096 floats (2^12) to 2^30, and
/// then 2^31, the largest a 32-bit float count reaches. `xtask nvcc-compare`
/// times CUB at the same sizes by default, so that a claim "at every size
/// from 4,096 to 2^31" is checked at each size the ladder shows.
pub const BENCH_LADDER_SIZES: &str =
    "4096,16384,65536,262144,1048576,4194304,16777216,67108864,268435456,1073741824,2147483648";

/// What every sanitizer step's name starts with: `sanitize-<tool>-<run>`,
/// or `sanitize` alone for the step that says the sanitizer was not found.
pub const SANITIZE: &str = "sanitize";

/// The name of the sanitizer step that runs `run` under `tool`.
pub fn sanitizer_step(tool: &str, run: &str) -> String {
    format!("{SANITIZE}-{tool}-{run}")
}

impl Step {
    /// The tool and the run of a sanitizer step ([`sanitizer_step`]); `None`
    /// for any other step. Tool names hold no `-`.
    pub fn sanitizer_parts(&self) -> Option<(&str, &str)> {
        self.name.strip_prefix(SANITIZE)?.strip_prefix('-')?.split_once('-')
    }
}

/// How a step ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StepOutcome {
    /// Every check it makes passed.
    Passed,
    /// It ran to the end and at least one check failed.
    ChecksFailed,
    /// It could not run to the end: a driver, PTX or file error.
    Error,
    /// Ctrl-C stopped it; what it wrote, if anything, is marked partial.
    Interrupted,
    /// It was not run, for the reason in its note (a missing tool).
    Skipped,
}

impl StepOutcome {
    /// The word the book and the progress line use.
    pub fn word(self) -> &'static str {
        match self {
            StepOutcome::Passed => "passed",
            StepOutcome::ChecksFailed => "checks failed",
            StepOutcome::Error => "error",
            StepOutcome::Interrupted => "interrupted",
            StepOutcome::Skipped => "skipped",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::BENCH_LADDER_SIZES;

    #[test]
    fn the_bench_ladder_climbs_by_fours_from_4096_to_2_to_the_31() {
        let sizes: Vec<u64> = BENCH_LADDER_SIZES.split(',').map(|s| s.parse().expect("a number")).collect();
        let mut expected: Vec<u64> = (12..=30).step_by(2).map(|e| 1 << e).collect();
        expected.push(1 << 31);
        assert_eq!(sizes, expected);
    }
}
