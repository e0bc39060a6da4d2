//! Every answer the repository keeps, compiled to PTX for a GPU run: the
//! solutions in one crate, and each round of typical wrong answers (one per
//! puzzle) in another, as the CPU tests build them. `cargo xtask practice
//! sets DIR` writes them with a manifest that the GPU test binary reads, so
//! that a GPU machine without Rust can run every solution and every wrong
//! answer through the host.

use std::fs;
use std::path::Path;

use layout::Module;

use crate::Error;

use super::build::{self, Answer};
use super::{BUILDS, PUZZLES, Puzzle};

/// The manifest's file name in a sets folder.
pub const MANIFEST: &str = "sets.txt";

/// One answer in one compiled set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The set's PTX file, in the sets folder.
    pub ptx: String,
    /// The puzzle it answers.
    pub key: String,
    /// `solution`, or the wrong answer's name.
    pub answer: String,
}

/// One compiled set: its PTX file, the module it is built for, and its
/// answers.
type Round = (String, Module, Vec<(&'static Puzzle, Answer<'static>)>);

/// The rounds of answers to compile: the solutions, then round `k` of each
/// puzzle's `k`-th wrong answer that compiles, each round split by module
/// (`wrong-1.ptx`, and `wrong-1-sm90.ptx` for the puzzles of the Hopper
/// build). Puzzles the model alone judges have nothing to run and are left
/// out, and so are a written answer's wrong answers: its GPU run launches
/// the kernels it is about, whatever it says.
fn rounds() -> Vec<Round> {
    let runs = || PUZZLES.iter().filter(|p| !p.on_gpu.is_empty());
    let mut rounds = vec![("solutions".to_owned(), runs().map(|p| (p, Answer::Solution)).collect::<Vec<_>>())];
    let most = PUZZLES.iter().map(|p| p.wrong.len()).max().unwrap_or(0);
    for k in 0..most {
        let answers: Vec<_> = runs()
            .filter(|p| !written(p))
            .filter_map(|p| p.wrong.get(k).filter(|w| w.caught_by != BUILDS).map(|w| (p, Answer::Wrong(w.name))))
            .collect();
        if !answers.is_empty() {
            rounds.push((format!("wrong-{}", k + 1), answers));
        }
    }
    let mut split = Vec::new();
    for (stem, answers) in rounds {
        for module in Module::ALL {
            let these: Vec<_> = answers.iter().copied().filter(|(p, _)| p.kernel.module() == module).collect();
            if !these.is_empty() {
                split.push((format!("{stem}{}.ptx", module.suffix()), module, these));
            }
        }
    }
    split
}

/// Whether `puzzle` is a written answer, with no kernel of its own.
pub fn written(puzzle: &Puzzle) -> bool {
    matches!(puzzle.kernel.stands_for, layout::practice::StandsFor::Written(_))
}

/// Compiles every round into `dir` and writes the manifest: one line per
/// answer, `PTX KEY ANSWER`.
pub fn write(root: &Path, cargo: &Path, dir: &Path) -> Result<Vec<Member>, Error> {
    fs::create_dir_all(dir).map_err(|e| Error(format!("cannot create {}: {e}", dir.display())))?;
    let mut members = Vec::new();
    for (file, module, answers) in rounds() {
        let ptx = build::staged(root, cargo, &answers, module)?;
        fs::write(dir.join(&file), ptx).map_err(|e| Error(format!("cannot write {file}: {e}")))?;
        for (puzzle, answer) in answers {
            let answer = match answer {
                Answer::Wrong(name) => name.to_owned(),
                Answer::Solution | Answer::Learner => "solution".to_owned(),
            };
            members.push(Member { ptx: file.clone(), key: puzzle.kernel.key.to_owned(), answer });
        }
    }
    let text: String = members.iter().map(|m| format!("{} {} {}\n", m.ptx, m.key, m.answer)).collect();
    fs::write(dir.join(MANIFEST), text).map_err(|e| Error(format!("cannot write the manifest: {e}")))?;
    Ok(members)
}

/// Reads a sets folder's manifest.
pub fn read(dir: &Path) -> Result<Vec<Member>, Error> {
    let path = dir.join(MANIFEST);
    let text = fs::read_to_string(&path).map_err(|e| Error(format!("cannot read {}: {e}", path.display())))?;
    text.lines()
        .map(|line| match line.split_whitespace().collect::<Vec<_>>()[..] {
            [ptx, key, answer] => Ok(Member { ptx: ptx.to_owned(), key: key.to_owned(), answer: answer.to_owned() }),
            _ => Err(Error(format!("{}: not `PTX KEY ANSWER`: {line:?}", path.display()))),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_answer_that_compiles_and_runs_is_in_one_round() {
        let rounds = rounds();
        assert_eq!(rounds[0].0, "solutions.ptx");
        for puzzle in PUZZLES.iter().filter(|p| !p.on_gpu.is_empty()) {
            let wrong = if written(puzzle) { 0 } else { puzzle.wrong.iter().filter(|w| w.caught_by != BUILDS).count() };
            let seen = rounds.iter().flat_map(|(_, _, a)| a).filter(|(p, _)| p.kernel.key == puzzle.kernel.key);
            assert_eq!(seen.count(), 1 + wrong, "{}", puzzle.kernel.key);
        }
        for (file, module, answers) in &rounds {
            assert!(answers.iter().all(|(p, _)| p.kernel.module() == *module), "{file}");
            assert_eq!(file.ends_with("-sm90.ptx"), *module == Module::Hopper, "{file}");
        }
    }
}
