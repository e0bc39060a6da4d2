//! The puzzles are honest by construction: each stub, as the repository
//! holds it, fails its check; each solution passes every check that runs
//! without a GPU; each typical wrong answer kept beside it fails, and fails
//! the check the puzzle names for it. Nothing here needs a GPU: the
//! builds are rustc's, the verdicts the PTX's and the memory model's.
//!
//! Each round builds one crate of answers (one answer per puzzle), so the
//! whole file is a handful of nvptx64 builds; a wrong answer that must not
//! compile is built alone.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use layout::Module;
use xtask::practice::build::{self, Answer};
use xtask::practice::check::{self, Report};
use xtask::practice::machine::Machine;
use xtask::practice::outcome::Outcome;
use xtask::practice::{BUILDS, MACHINE_CODE, ON_THE_GPU, PUZZLES, Puzzle};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// One build at a time: the builds share the staged crate and its target
/// directory, and libtest runs the tests on several threads.
static BUILDING: Mutex<()> = Mutex::new(());

/// [`build::staged`], one at a time.
fn staged(answers: &[(&Puzzle, Answer<'_>)], module: Module) -> Result<String, xtask::Error> {
    let _one = BUILDING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    build::staged(&root(), &cargo(), answers, module)
}

/// The file of an answer.
fn source(puzzle: &Puzzle, answer: Answer<'_>) -> String {
    std::fs::read_to_string(answer.path(&root(), puzzle)).unwrap()
}

fn cargo() -> PathBuf {
    std::env::var_os("CARGO").map_or_else(|| PathBuf::from("cargo"), PathBuf::from)
}

/// Builds one crate with these answers, once for each module that one of
/// them is built into, and checks each answered puzzle in its module's
/// build.
fn round(answers: &[(&'static Puzzle, Answer<'static>)]) -> Vec<(&'static Puzzle, Answer<'static>, Report)> {
    let mut checked = Vec::new();
    for module in Module::ALL {
        let these: Vec<_> = answers.iter().copied().filter(|(p, _)| p.kernel.module() == module).collect();
        if these.is_empty() {
            continue;
        }
        let ptx = staged(&these, module).unwrap_or_else(|e| panic!("{these:?} did not build: {e}"));
        let machine = Machine::of(&root(), &ptx);
        checked.extend(these.iter().map(|&(p, a)| (p, a, check::run(p, &ptx, &source(p, a), &machine))));
    }
    checked
}

#[test]
fn every_stub_fails_and_says_it_is_not_solved() {
    // No answer swapped in: every file as the repository holds it, in the
    // build of its puzzle's module.
    let built = Module::ALL.map(|module| {
        let ptx = staged(&[], module).unwrap_or_else(|e| panic!("the stubs do not build for {}: {e}", module.arch()));
        let machine = Machine::of(&root(), &ptx);
        (ptx, machine)
    });
    for (k, puzzle) in PUZZLES.iter().enumerate() {
        let (ptx, machine) = &built[Module::ALL.iter().position(|&m| m == puzzle.kernel.module()).unwrap()];
        let report = check::run(puzzle, ptx, &source(puzzle, Answer::Learner), machine);
        let text = check::render(k + 1, puzzle, &report);
        let verdict =
            check::verdict(puzzle, &report).expect_err(&format!("the stub of {} passed:\n{text}", puzzle.kernel.key));
        assert!(verdict.starts_with("not solved yet"), "{verdict}");
        assert!(text.contains("FAILED"), "{text}");
        if !puzzle.on_gpu.is_empty() {
            assert!(
                matches!(report.lines.last().unwrap().outcome, Outcome::NotRun(_)),
                "the GPU layer of a failing stub must read `not run`:\n{text}"
            );
        }
    }
}

#[test]
fn every_solution_passes_every_check_that_runs_without_a_gpu() {
    let answers: Vec<_> = PUZZLES.iter().map(|p| (p, Answer::Solution)).collect();
    for (k, (puzzle, _, report)) in round(&answers).into_iter().enumerate() {
        let text = check::render(k + 1, puzzle, &report);
        assert!(report.passed(), "the solution of {} fails:\n{text}", puzzle.kernel.key);
        // Where `ptxas` and `cuobjdump` are installed (`cargo xtask test`
        // installs them), the solution's SASS keeps its lab kernel's promises.
        if let Some(line) = report.lines.iter().find(|l| l.check == MACHINE_CODE)
            && xtask::ptxas::find_tool(&root(), "cuobjdump").is_some()
            && xtask::ptxas::find(&root()).is_some()
        {
            assert!(matches!(line.outcome, Outcome::Passed(_)), "{text}");
        }
        let done = check::verdict(puzzle, &report).unwrap();
        if puzzle.on_gpu.is_empty() {
            // The model alone judges it: no GPU layer, and a pass says so.
            assert!(report.lines.iter().all(|l| l.check != ON_THE_GPU), "{text}");
            assert!(done.contains("the model is its judge"), "{done}");
        } else {
            assert!(done.contains("not yet a pass on a GPU"), "{done}");
            assert!(matches!(report.lines.last().unwrap().outcome, Outcome::NotRun(_)), "{text}");
        }
    }
}

#[test]
fn every_wrong_answer_fails_the_check_its_puzzle_names() {
    let mut caught = 0;
    // Round k holds each puzzle's k-th wrong answer that compiles.
    let most = PUZZLES.iter().map(|p| p.wrong.len()).max().unwrap_or(0);
    for k in 0..most {
        let answers: Vec<_> = PUZZLES
            .iter()
            .filter_map(|p| p.wrong.get(k).filter(|w| w.caught_by != BUILDS).map(|w| (p, Answer::Wrong(w.name))))
            .collect();
        for (puzzle, answer, report) in round(&answers) {
            let Answer::Wrong(name) = answer else { unreachable!() };
            let wrong = puzzle.wrong.iter().find(|w| w.name == name).unwrap();
            let text = check::render(1, puzzle, &report);
            let first =
                report.first_failure().unwrap_or_else(|| panic!("{}/{name} passed:\n{text}", puzzle.kernel.key));
            assert_eq!(first.check, wrong.caught_by, "{}/{name}:\n{text}", puzzle.kernel.key);
            caught += 1;
        }
    }
    for puzzle in &PUZZLES {
        for wrong in puzzle.wrong.iter().filter(|w| w.caught_by == BUILDS) {
            let built = staged(&[(puzzle, Answer::Wrong(wrong.name))], puzzle.kernel.module());
            assert!(built.is_err(), "{}/{} compiled", puzzle.kernel.key, wrong.name);
            caught += 1;
        }
    }
    // Every kept file is named by its puzzle, and every puzzle keeps two.
    let kept: usize = PUZZLES.iter().map(|p| p.wrong.len()).sum();
    assert_eq!(caught, kept);
    for puzzle in &PUZZLES {
        let folder = root().join("practice/wrong").join(puzzle.kernel.key);
        let files = std::fs::read_dir(&folder).unwrap().count();
        assert_eq!(files, puzzle.wrong.len(), "{} holds a wrong answer its puzzle does not name", folder.display());
        assert!(
            !puzzle.wrong.is_empty() && puzzle.hints.len() >= 2,
            "{} needs wrong answers and hints",
            puzzle.kernel.key
        );
    }
}

#[test]
fn a_staged_build_leaves_the_learners_ptx_alone() {
    // The staged copy and the learner's crate share a name, and so the path
    // of their PTX within a target directory: were it one directory, the
    // learner's next check would read the copy's PTX while cargo, seeing
    // the learner's sources unchanged, built nothing.
    let _one = BUILDING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let (root, cargo) = (root(), cargo());
    let before = build::learner(&root, &cargo, Module::Base).expect("the learner's crate builds");
    // An answer to puzzle 1 other than the learner's file as it is now.
    let puzzle = &PUZZLES[0];
    let other = [Answer::Solution, Answer::Wrong(puzzle.wrong[0].name)]
        .into_iter()
        .find(|&a| source(puzzle, a) != source(puzzle, Answer::Learner))
        .expect("the solution and a wrong answer differ");
    let staged = build::staged(&root, &cargo, &[(puzzle, other)], Module::Base).expect("it builds");
    assert_ne!(staged, before, "{other:?} must compile to other PTX than the learner's file");
    let after = build::learner(&root, &cargo, Module::Base).expect("the learner's crate builds");
    assert!(after == before, "a staged build changed the PTX of the learner's own build");
}
