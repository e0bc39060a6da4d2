//! The learner's puzzles and their checker: `cargo xtask practice`.
//!
//! A puzzle is a file of `practice/src/` that the learner completes: a
//! kernel with the signature and launch of a lab kernel (its registry entry
//! in `layout`), written in `device`'s words. The checker builds the
//! learner's crate with the lab's builder and holds the compiled kernel to
//! the puzzle's checks, in layers, each named in its output:
//!
//! 1. **builds**: rustc's errors, shown as rustc prints them;
//! 2. **signature**: the kernel is in the PTX with its entry's parameters;
//! 3. **the machine code's promises** ([`Check::Has`], [`Check::AtLeast`],
//!    [`Check::Lacks`], [`Check::Around`], [`Check::BarrierForAll`]): the
//!    instructions the idea
//!    needs are in the learner's PTX, where the idea needs them, and the ones
//!    that would make it another kernel are not;
//! 4. **the model's verdict** ([`Check::Publication`]): the orderings and
//!    scopes read from the learner's PTX, put into message passing's shape
//!    and judged by the `memory-model` checker, which says whether a stale
//!    read is *permitted*, whatever a GPU happened to show;
//! 5. **machine code** ([`machine`]): the learner's PTX assembled for
//!    `sm_90`, its SASS held to the lab kernel's own promises;
//! 6. **on the GPU** ([`gpu`]): the learner's kernel launched by the host
//!    wherever the lab kernel it stands for is launched, with that kernel's
//!    runner and checks; where there is no GPU, "not run", never "passed";
//! 7. **sanitizer** ([`gpu::sanitize`]): the same command, smaller, under
//!    compute-sanitizer's four tools, each instrumenting the learner's
//!    kernel alone.
//!
//! A puzzle the model alone judges (store buffering) stands for no lab
//! kernel, and has neither a machine-code layer nor the GPU's. A written
//! answer (page 1's exercise) has no kernel of its own: its checks read
//! what the learner wrote, and its GPU run launches the kernels it is
//! about ([`Check::Counts`], [`Check::Column`], [`Check::Solved`]).
//!
//! [`puzzles::PUZZLES`] is the list, [`build`] compiles a crate of answers,
//! [`check`] runs the layers, [`publication`] reads and judges a
//! publication.

pub mod barriers;
pub mod build;
pub mod check;
pub mod evidence;
pub mod gpu;
pub mod machine;
pub mod outcome;
pub mod ptx;
pub mod publication;
pub mod puzzles;
pub mod record;
pub mod sets;
pub mod written;

pub use publication::Between;
pub use puzzles::PUZZLES;

/// One puzzle: a stub the learner edits, its checks, its hints, and the
/// typical wrong answers kept beside its solution.
#[derive(Debug)]
pub struct Puzzle {
    /// Its name, file, kernel and the lab kernel it stands for, which the
    /// host shares: `layout::practice`.
    pub kernel: &'static layout::practice::Puzzle,
    /// What it teaches, in a few words.
    pub title: &'static str,
    /// The chapter whose "Your turn" it belongs to.
    pub lesson: &'static str,
    /// The solution, from the checkout's root: the lab's own kernel where
    /// the puzzle is one, else a file of `practice/solutions/`.
    pub solution: &'static str,
    /// What the checker holds the learner's kernel to, in order.
    pub checks: &'static [Check],
    /// The host command that runs the lab kernel this puzzle stands for,
    /// and so the learner's in its place (after `--practice FILE --puzzle
    /// KEY`); empty for a puzzle the model alone judges, which has no GPU
    /// layer.
    pub on_gpu: &'static [&'static str],
    /// The SASS promises the machine-code layer holds its kernel to.
    pub sass: Promises,
    /// Hints, given one at a time.
    pub hints: &'static [&'static str],
    /// The typical wrong answers under `practice/wrong/<key>/`, each with
    /// the check that must catch it.
    pub wrong: &'static [Wrong],
}

/// The SASS promises of a puzzle's kernel.
#[derive(Clone, Copy, Debug)]
pub enum Promises {
    /// The lab kernel's own, from its registry row: the puzzle is that
    /// kernel.
    Lab,
    /// Its own, where the learner's kernel keeps the lab kernel's launch but
    /// is a simpler algorithm (the deterministic sum).
    Own {
        /// Opcodes (or parts of them) its SASS must have.
        has: &'static [&'static str],
        /// Opcodes its SASS must not have.
        lacks: &'static [&'static str],
    },
}

/// A typical wrong answer, kept as a file, and the layer that catches it.
#[derive(Debug)]
pub struct Wrong {
    /// Its file's stem under `practice/wrong/<key>/`.
    pub name: &'static str,
    /// The name of the first check it must fail ([`BUILDS`] for one that
    /// must not compile).
    pub caught_by: &'static str,
}

/// The name of the first layer: the crate compiles.
pub const BUILDS: &str = "builds";
/// The name of the second: the kernel is there with its entry's parameters.
pub const SIGNATURE: &str = "signature";
/// The name of the layer before the GPU's: the SASS of the learner's
/// kernel held to the lab kernel's promises.
pub const MACHINE_CODE: &str = "machine code";
/// The name of the run on a GPU.
pub const ON_THE_GPU: &str = "on the GPU";
/// The name of the last: the GPU run, smaller, under compute-sanitizer.
pub const SANITIZER: &str = "sanitizer";

/// One check of the learner's compiled kernel. Each has a short name, shown
/// in the output and used by [`Wrong::caught_by`].
#[derive(Clone, Copy, Debug)]
pub enum Check {
    /// The kernel's PTX holds `instruction` (a prefix of a PTX line, such
    /// as `red.global.add.f32`); `missing` says what its absence means.
    Has {
        /// The check's name.
        name: &'static str,
        /// The instruction, as PTX writes it.
        instruction: &'static str,
        /// What the kernel lacks without it, in one sentence.
        missing: &'static str,
    },
    /// The kernel's PTX holds `instruction` at least `count` times.
    AtLeast {
        /// The check's name.
        name: &'static str,
        /// The instruction, as PTX writes it.
        instruction: &'static str,
        /// How many.
        count: usize,
        /// What fewer means, in one sentence.
        fewer: &'static str,
    },
    /// The kernel's PTX does not hold `instruction`.
    Lacks {
        /// The check's name.
        name: &'static str,
        /// The instruction, as PTX writes it.
        instruction: &'static str,
        /// What its presence means, in one sentence.
        present: &'static str,
    },
    /// The kernel's PTX holds `fence` both before and after its first
    /// `access`, in text order.
    Around {
        /// The check's name.
        name: &'static str,
        /// The fence, as PTX writes it.
        fence: &'static str,
        /// The access it must stand on both sides of.
        access: &'static str,
        /// What a missing side means, in one sentence.
        missing: &'static str,
    },
    /// Every thread of the block reaches every barrier: no branch on a
    /// per-thread value skips, repeats or leaves before one.
    BarrierForAll {
        /// The check's name.
        name: &'static str,
    },
    /// The kernel publishes a record from one thread to another through a
    /// flag: the model judges the orderings and scopes read from its PTX,
    /// with the threads where `between` puts them.
    Publication {
        /// The check's name.
        name: &'static str,
        /// What the puzzle asks the model to say.
        expect: Expect,
        /// Where the producer and the consumer run.
        between: Between,
    },
    /// The kernel is store buffering's thread (its flag, then the other's,
    /// two threads in two blocks): the model says whether both may read
    /// the other's flag as 0.
    StoreBuffering {
        /// The check's name.
        name: &'static str,
    },
    /// The publication's flag store and flag load are both at the
    /// narrowest scope that holds both threads, as `between` places them.
    FlagScope {
        /// The check's name.
        name: &'static str,
        /// Where the producer and the consumer run.
        between: Between,
    },
    /// The scope-and-order invariant the page asks the learner to write,
    /// in the file's doc comment, agrees with the compiled flag.
    Invariant {
        /// The check's name.
        name: &'static str,
    },
    /// A written answer's count of the atomic adds each of its kernels
    /// sends to the global total in one launch, as a function of `n` and
    /// `block`, agrees with the lab's count for the kernel it stands for.
    Counts {
        /// The check's name.
        name: &'static str,
    },
    /// A written answer names the column whose count has no `block` in it,
    /// and says why in a sentence.
    Column {
        /// The check's name.
        name: &'static str,
    },
    /// The kernels a written answer is about pass their own puzzles' checks
    /// in the same crate, so that its GPU run times kernels that are right.
    Solved {
        /// The check's name.
        name: &'static str,
    },
}

/// What a publication puzzle asks of the model's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// A correct publication: the model forbids the stale read.
    Correct,
    /// The page's relaxed twin: the model permits the stale read.
    StalePermitted,
}

impl Check {
    /// The check's name, as the output shows it.
    pub fn name(&self) -> &'static str {
        match *self {
            Check::Has { name, .. }
            | Check::AtLeast { name, .. }
            | Check::Lacks { name, .. }
            | Check::Around { name, .. }
            | Check::BarrierForAll { name }
            | Check::Publication { name, .. }
            | Check::StoreBuffering { name }
            | Check::FlagScope { name, .. }
            | Check::Invariant { name }
            | Check::Counts { name }
            | Check::Column { name }
            | Check::Solved { name } => name,
        }
    }
}

/// The puzzle called `key`.
pub fn find(key: &str) -> Option<&'static Puzzle> {
    PUZZLES.iter().find(|p| p.kernel.key == key)
}

/// The checker's report on one build of the learner's crate: the build
/// line, then (if it built) every check of `puzzle` on its PTX and on
/// `source`, the answer's file.
pub fn report(
    root: &std::path::Path,
    puzzle: &Puzzle,
    built: &Result<String, crate::Error>,
    source: &str,
) -> check::Report {
    let first = |outcome| check::Line { check: BUILDS, outcome };
    match built {
        Ok(ptx) => {
            let mut report = check::run(puzzle, ptx, source, &machine::Machine::of(root, ptx));
            let module = puzzle.kernel.module();
            let said = format!("practice/ compiled for {} ({})", ptx_builder::TARGET, module.arch());
            report.lines.insert(0, first(outcome::Outcome::Passed(said)));
            report
        }
        Err(e) => check::Report { lines: vec![first(outcome::Outcome::Failed(e.0.clone()))] },
    }
}

/// What `cargo xtask practice check KEY` prints when the learner's file is
/// `answer`, with no GPU layer run: the command, a line per check and the
/// verdict. The book shows these; rustc's own errors, for an answer that does
/// not build, go to standard error and are not part of it.
pub fn transcript(
    root: &std::path::Path,
    cargo: &std::path::Path,
    puzzle: &Puzzle,
    answer: build::Answer<'_>,
) -> String {
    let number = PUZZLES.iter().position(|p| p.kernel.key == puzzle.kernel.key).map_or(0, |k| k + 1);
    let answers: &[(&Puzzle, build::Answer<'_>)] =
        if answer == build::Answer::Learner { &[] } else { &[(puzzle, answer)] };
    let source = std::fs::read_to_string(answer.path(root, puzzle)).unwrap_or_default();
    let report = report(root, puzzle, &build::staged(root, cargo, answers, puzzle.kernel.module()), &source);
    let verdict = check::verdict(puzzle, &report).unwrap_or_else(|failed| format!("error: {failed}"));
    let verdict = check::wrap(&verdict, check::COLUMNS).join("\n");
    format!("$ cargo xtask practice check {}\n{}{verdict}\n", puzzle.kernel.key, check::render(number, puzzle, &report))
}

/// Every puzzle as a Markdown table: its lesson, the checks of its own
/// (every puzzle is also held to [`BUILDS`], [`SIGNATURE`] and, where it
/// stands for a lab kernel, [`MACHINE_CODE`], [`ON_THE_GPU`] and
/// [`SANITIZER`]), and each typical wrong answer with the check that catches
/// it.
pub fn table() -> String {
    let mut text = String::from(
        "| # | puzzle | lesson | its own checks, in order | wrong answers kept (caught by) |\n|---|---|---|---|---|\n",
    );
    for (k, p) in PUZZLES.iter().enumerate() {
        let checks: Vec<String> = p.checks.iter().map(|c| format!("`{}`", c.name())).collect();
        let wrong: Vec<String> = p.wrong.iter().map(|w| format!("`{}` (`{}`)", w.name, w.caught_by)).collect();
        let gpu = if p.on_gpu.is_empty() { " (never launched)" } else { "" };
        text.push_str(&format!(
            "| {} | `{}`: {}{gpu} | {} | {} | {} |\n",
            k + 1,
            p.kernel.key,
            p.title.replace('<', "&lt;"),
            p.lesson,
            checks.join(", "),
            wrong.join(", ")
        ));
    }
    text
}
