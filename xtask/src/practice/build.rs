//! Compiling a crate of answers: the learner's `practice/` as it is, or a
//! copy of it with one file swapped for a solution or a wrong answer (how
//! the tests prove that each stub fails, each solution passes and each
//! wrong answer is caught).

use std::fs;
use std::path::{Path, PathBuf};

use layout::Module;

use crate::Error;

use super::Puzzle;

/// Where an answer to a puzzle comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer<'a> {
    /// The learner's file, `practice/src/<file>`, as it is now.
    Learner,
    /// The reference solution ([`Puzzle::solution`]).
    Solution,
    /// A typical wrong answer, `practice/wrong/<key>/<name>.rs`.
    Wrong(&'a str),
}

impl Answer<'_> {
    /// The file that holds this answer to `puzzle`.
    pub fn path(self, root: &Path, puzzle: &Puzzle) -> PathBuf {
        let practice = root.join("practice");
        match self {
            Answer::Learner => practice.join("src").join(puzzle.kernel.file),
            Answer::Solution => root.join(puzzle.solution),
            Answer::Wrong(name) => practice.join("wrong").join(puzzle.kernel.key).join(format!("{name}.rs")),
        }
    }
}

/// Builds the learner's crate in place for `module` and returns its PTX.
/// rustc's errors reach the terminal as rustc prints them, naming the
/// learner's own files.
pub fn learner(root: &Path, cargo: &Path, module: Module) -> Result<String, Error> {
    let target = target_dir(root, "practice-learner", module);
    ptx_builder::build_practice(root, cargo, &root.join("practice"), &target, module).map_err(|e| Error(e.0))
}

/// Builds a copy of `practice/` (in `target/practice-stage/`) whose file for
/// each puzzle holds the given answer, every other puzzle's file the stub,
/// and returns its PTX for `module`. The copy's path dependencies point back
/// at the checkout's `device/` and `layout/`.
pub fn staged(root: &Path, cargo: &Path, answers: &[(&Puzzle, Answer<'_>)], module: Module) -> Result<String, Error> {
    let stage = root.join("target/practice-stage");
    let src = stage.join("src");
    fs::create_dir_all(&src).map_err(|e| Error(format!("cannot create {}: {e}", src.display())))?;
    let copy = |from: &Path, to: &Path| {
        fs::copy(from, to).map(drop).map_err(|e| Error(format!("cannot copy {}: {e}", from.display())))
    };
    for entry in fs::read_dir(root.join("practice/src")).map_err(|e| Error(format!("cannot read practice/src: {e}")))? {
        let from = entry.map_err(|e| Error(format!("cannot read practice/src: {e}")))?.path();
        if from.is_file() {
            copy(&from, &src.join(from.file_name().expect("a file has a name")))?;
        }
    }
    for &(puzzle, answer) in answers {
        copy(&answer.path(root, puzzle), &src.join(puzzle.kernel.file))?;
    }
    let manifest = fs::read_to_string(root.join("practice/Cargo.toml"))
        .map_err(|e| Error(format!("cannot read practice/Cargo.toml: {e}")))?;
    let manifest = manifest.replace("path = \"../", &format!("path = \"{}/", root.display()));
    fs::write(stage.join("Cargo.toml"), manifest)
        .map_err(|e| Error(format!("cannot write the staged manifest: {e}")))?;
    let target = target_dir(root, "practice-stage-build", module);
    ptx_builder::build_practice(root, cargo, &stage, &target, module).map_err(|e| Error(e.0))
}

/// The target directory of one crate of answers (`name`: the learner's, or
/// the staged copy's) for `module`. Each has its own: the two crates share
/// a name, and so the path of their PTX in a shared directory, where cargo,
/// seeing one crate's sources unchanged, would leave the other's PTX in
/// place of its own.
fn target_dir(root: &Path, name: &str, module: Module) -> PathBuf {
    root.join("target").join(format!("{name}{}", module.suffix()))
}
