//! Running a puzzle's checks on a compiled answer, layer by layer.

use super::machine::{self, Machine};
use super::outcome::Outcome;
use super::ptx::instruction_lines;
use super::publication::{StoreBuffering, Verdict};
use super::{Between, Check, Expect, MACHINE_CODE, ON_THE_GPU, Promises, Puzzle, SANITIZER, SIGNATURE, written};
use layout::practice::StandsFor;

/// One line of a check's report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The check's name.
    pub check: &'static str,
    /// How it went.
    pub outcome: Outcome,
}

/// What the checker found of one answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Every layer, in order; the layers after the first failure are not run.
    pub lines: Vec<Line>,
}

impl Report {
    /// The first check that failed, if any.
    pub fn first_failure(&self) -> Option<&Line> {
        self.lines.iter().find(|l| matches!(l.outcome, Outcome::Failed(_)))
    }

    /// Whether every check that could run here passed.
    pub fn passed(&self) -> bool {
        self.first_failure().is_none()
    }

    /// The report with its GPU layer run by `gpu`, if every check before it
    /// passed, and then its sanitizer layer by `sanitize`, if the GPU's
    /// passed too; otherwise as it is.
    pub fn on_the_gpu(mut self, gpu: impl FnOnce() -> Outcome, sanitize: impl FnOnce() -> Outcome) -> Report {
        if self.passed() {
            self.run_layer(ON_THE_GPU, gpu);
            if matches!(self.outcome(ON_THE_GPU), Some(Outcome::Passed(_))) {
                self.run_layer(SANITIZER, sanitize);
            }
        }
        self
    }

    /// Sets the outcome of the layer `check`, if the report has it, to what
    /// `run` says.
    fn run_layer(&mut self, check: &str, run: impl FnOnce() -> Outcome) {
        if let Some(line) = self.lines.iter_mut().find(|l| l.check == check) {
            line.outcome = run();
        }
    }

    /// How the layer `check` went, if the report has it.
    fn outcome(&self, check: &str) -> Option<&Outcome> {
        self.lines.iter().find(|l| l.check == check).map(|l| &l.outcome)
    }
}

/// Runs `puzzle`'s checks on `ptx`, the compiled crate of answers, after a
/// build that succeeded; `source` is the answer's file, whose written
/// invariant [`Check::Invariant`] reads. The GPU layer is reported as not run.
pub fn run(puzzle: &Puzzle, ptx: &str, source: &str, machine: &Machine) -> Report {
    let written = matches!(puzzle.kernel.stands_for, StandsFor::Written(_));
    let mut lines = Vec::new();
    // A written answer has no kernel, so no signature to hold.
    if !written {
        let outcome = match signature(puzzle, ptx) {
            Ok(seen) => Outcome::Passed(seen),
            Err(why) => Outcome::Failed(why),
        };
        lines.push(Line { check: SIGNATURE, outcome });
    }
    let failed = |lines: &[Line]| lines.iter().any(|l| matches!(l.outcome, Outcome::Failed(_)));
    for check in puzzle.checks {
        let outcome = if failed(&lines) {
            Outcome::NotRun("an earlier check failed".to_owned())
        } else {
            judge(check, ptx, puzzle, source)
        };
        lines.push(Line { check: check.name(), outcome });
    }
    if let Some(entry) = puzzle.kernel.stands_for.lab() {
        let outcome = if failed(&lines) {
            Outcome::NotRun("an earlier check failed".to_owned())
        } else {
            let whose = format!("the lab's `{}`", entry.symbol);
            let judged = match puzzle.sass {
                Promises::Lab => machine.judge(puzzle.kernel.symbol, &whose, entry.sass_has, entry.sass_lacks),
                Promises::Own { has, lacks } => machine.judge(puzzle.kernel.symbol, "the puzzle asks", has, lacks),
            };
            match judged {
                Ok(seen) => Outcome::Passed(seen),
                Err(machine::Verdict::Failed(why)) => Outcome::Failed(why),
                Err(machine::Verdict::NotRun(why)) => Outcome::NotRun(why),
            }
        };
        lines.push(Line { check: MACHINE_CODE, outcome });
    }
    // A puzzle the model alone judges has no GPU layer at all.
    if !puzzle.on_gpu.is_empty() {
        let gpu = if failed(&lines) { "an earlier check failed" } else { "not asked for" };
        lines.push(Line { check: ON_THE_GPU, outcome: Outcome::NotRun(gpu.to_owned()) });
    }
    // The sanitizer instruments one kernel of the learner's: a written
    // answer's kernels have their own puzzles, and their sanitizer runs.
    if !puzzle.on_gpu.is_empty() && !written {
        let sanitizer = if failed(&lines) {
            "an earlier check failed".to_owned()
        } else {
            format!("runs after `{ON_THE_GPU}` passes")
        };
        lines.push(Line { check: SANITIZER, outcome: Outcome::NotRun(sanitizer) });
    }
    Report { lines }
}

/// The kernel is in the PTX with its entry's parameters, or which parameter
/// differs.
fn signature(puzzle: &Puzzle, ptx: &str) -> Result<String, String> {
    let Some(found) = ptx_builder::entry_params(ptx, puzzle.kernel.symbol) else {
        return Err(format!(
            "no kernel `{}` in the PTX: keep `#[kernel] pub unsafe fn {}(...)` and its name",
            puzzle.kernel.symbol, puzzle.kernel.symbol
        ));
    };
    let wanted = puzzle.kernel.stands_for.params();
    let shown = || wanted.iter().map(|p| format!("{}: {}", p.name, p.ty)).collect::<Vec<_>>().join(", ");
    if found.len() != wanted.len() {
        return Err(format!(
            "`{}` takes {} parameters; the launch passes {}: ({})",
            puzzle.kernel.symbol,
            found.len(),
            wanted.len(),
            shown()
        ));
    }
    for (k, (param, ty)) in wanted.iter().zip(&found).enumerate() {
        if param.ty.ptx() != ty.as_str() {
            return Err(format!(
                "parameter {} of `{}` is `{ty}` in the PTX; the launch passes `{}: {}` ({})",
                k + 1,
                puzzle.kernel.symbol,
                param.name,
                param.ty,
                param.ty.ptx()
            ));
        }
    }
    Ok(match puzzle.kernel.stands_for.lab() {
        Some(lab) => format!("{}({}), as the lab's `{}` is launched", puzzle.kernel.symbol, shown(), lab.symbol),
        None => format!("{}({}), the kernel the model reads", puzzle.kernel.symbol, shown()),
    })
}

/// The publication the kernel `symbol` of `ptx` performs, read as
/// `between` says, and the model's verdict on it.
fn model(ptx: &str, symbol: &str, between: Between) -> Result<Verdict, String> {
    let reads = between.reads(symbol);
    let body = ptx_builder::entry_body(ptx, &reads)
        .ok_or_else(|| format!("no kernel `{reads}` in the PTX: keep it as the puzzle's file has it"))?;
    between.read(body)?.judge(between)
}

/// One check of [`Check`]'s machine-code or model layer, on the kernel
/// `symbol` of `ptx`.
fn judge(check: &Check, ptx: &str, puzzle: &Puzzle, source: &str) -> Outcome {
    let symbol = puzzle.kernel.symbol;
    let body = ptx_builder::entry_body(ptx, symbol).unwrap_or_default();
    match *check {
        Check::Has { instruction, missing, .. } => {
            if instruction_lines(body).any(|l| l.contains(instruction)) {
                Outcome::Passed(format!("`{instruction}` is there"))
            } else {
                Outcome::Failed(format!("no `{instruction}` in your kernel: {missing}"))
            }
        }
        Check::AtLeast { instruction, count, fewer, .. } => {
            let seen = instruction_lines(body).filter(|l| l.contains(instruction)).count();
            if seen >= count {
                Outcome::Passed(format!("{seen} `{instruction}`"))
            } else {
                Outcome::Failed(format!("{seen} `{instruction}` where the idea needs {count}: {fewer}"))
            }
        }
        Check::Lacks { instruction, present, .. } => match instruction_lines(body).find(|l| l.contains(instruction)) {
            None => Outcome::Passed(format!("no `{instruction}`")),
            Some(line) => Outcome::Failed(format!("`{}` in your kernel: {present}", line.trim_end_matches(';'))),
        },
        Check::Around { fence, access, missing, .. } => around(body, fence, access, missing),
        Check::BarrierForAll { .. } => barrier_for_all(body),
        Check::Publication { expect, between, .. } => publication(model(ptx, symbol, between), expect),
        Check::StoreBuffering { .. } => store_buffering(body),
        Check::FlagScope { between, .. } => flag_scope(model(ptx, symbol, between), between),
        Check::Invariant { .. } => invariant(model(ptx, symbol, Between::Warps), source),
        Check::Counts { .. } => written::counts(puzzle, source),
        Check::Column { .. } => written::column(puzzle, source),
        Check::Solved { .. } => written::solved(puzzle, |about| {
            let own = |check: &Check| judge(check, ptx, about, "");
            signature(about, ptx).and_then(|_| {
                about
                    .checks
                    .iter()
                    .find_map(|c| match own(c) {
                        Outcome::Failed(why) => Some(Err(format!("`{}`: {why}", c.name()))),
                        _ => None,
                    })
                    .unwrap_or(Ok(()))
            })
        }),
    }
}

/// `fence` stands before the first `access` and after it, in text order.
fn around(body: &str, fence: &str, access: &str, missing: &str) -> Outcome {
    let lines: Vec<&str> = instruction_lines(body).collect();
    let Some(at) = lines.iter().position(|l| l.contains(access)) else {
        return Outcome::Failed(format!("no `{access}` in your kernel"));
    };
    let (before, after) =
        (lines[..at].iter().any(|l| l.contains(fence)), lines[at..].iter().any(|l| l.contains(fence)));
    match (before, after) {
        (true, true) => Outcome::Passed(format!("`{fence}` before and after `{access}`")),
        _ => Outcome::Failed(format!(
            "`{fence}` {} `{access}`: {missing}",
            match (before, after) {
                (false, false) => "is on neither side of",
                (false, true) => "is only after",
                _ => "is only before",
            }
        )),
    }
}

/// Every thread of the block reaches every barrier: no branch on a value
/// that differs from thread to thread skips one, repeats one, or sends some
/// threads to `ret` before one ([`super::barriers`]).
fn barrier_for_all(body: &str) -> Outcome {
    if !instruction_lines(body).any(|l| l.starts_with("bar.sync") || l.starts_with("barrier.sync")) {
        return Outcome::Failed("no `bar.sync` in your kernel".to_owned());
    }
    match super::barriers::divergent_barrier(body) {
        None => Outcome::Passed("no branch on a thread's own value skips a `bar.sync`".to_owned()),
        Some(line) => Outcome::Failed(format!(
            "`{line}` branches on a value that differs from thread to thread, and takes some threads past a \
             `bar.sync` the others wait at: a block barrier must be reached by every thread of the block, or by \
             none. What a GPU does when some skip it is undefined, and a run may still pass"
        )),
    }
}

/// The model's verdict on the publication the kernel performs.
fn publication(verdict: Result<Verdict, String>, expect: Expect) -> Outcome {
    let verdict = match verdict {
        Ok(verdict) => verdict,
        Err(why) => return Outcome::Failed(why),
    };
    match (expect, verdict.stale_permitted) {
        (Expect::Correct, false) | (Expect::StalePermitted, true) => Outcome::Passed(verdict.because),
        (Expect::Correct, true) => Outcome::Failed(format!(
            "{}. A stress run on your GPU may never show it; the model says the hardware is allowed to",
            verdict.because
        )),
        (Expect::StalePermitted, false) => {
            Outcome::Failed(format!("{}: this is the correct publication, not its relaxed twin", verdict.because))
        }
    }
}

/// The model's verdict on the learner's store buffering: both threads may
/// not read 0.
fn store_buffering(body: &str) -> Outcome {
    match StoreBuffering::read(body).and_then(|sb| sb.judge()) {
        Ok((false, why)) => Outcome::Passed(why),
        Ok((true, why)) => Outcome::Failed(format!(
            "{why}. A stress run on your GPU may never show it; the model says the hardware is allowed to"
        )),
        Err(why) => Outcome::Failed(why),
    }
}

/// The flag's accesses are at the narrowest scope that holds both
/// threads.
fn flag_scope(verdict: Result<Verdict, String>, between: Between) -> Outcome {
    let verdict = match verdict {
        Ok(verdict) => verdict,
        Err(why) => return Outcome::Failed(why),
    };
    let (store, load) = &verdict.scopes;
    let scope = between.narrowest();
    if store == scope && load == scope {
        Outcome::Passed(format!("the flag's store and load are both `.{scope}`"))
    } else {
        Outcome::Failed(format!(
            "the flag's store is `.{store}` and its load `.{load}`: {}, so `.{scope}` is the narrowest scope that \
             holds them. A wider scope is correct, and asks the hardware for more than the protocol needs (\"use \
             the narrowest correct scope\")",
            between.words()
        ))
    }
}

/// The checker's output for one answer: the puzzle, a line per layer, and
/// the verdict with what to do next. `number` is the puzzle's place in the
/// list, from 1.
pub fn render(number: usize, puzzle: &Puzzle, report: &Report) -> String {
    let mut text = format!("puzzle {number}, {}: {}\n", puzzle.kernel.key, puzzle.title);
    text.push_str(&format!("  in practice/src/{}\n", puzzle.kernel.file));
    for line in &report.lines {
        let (mark, said) = match &line.outcome {
            Outcome::Passed(s) => ("ok", s),
            Outcome::Failed(s) => ("FAILED", s),
            Outcome::NotRun(s) => ("not run", s),
        };
        text.push_str(&format!("  {mark:<7}  {}\n", line.check));
        for row in wrap(said, COLUMNS - INDENT.len()) {
            text.push_str(&format!("{INDENT}{row}\n"));
        }
    }
    text
}

/// How wide the checker's output is, so that it reads in a terminal and
/// fits the book's page.
pub const COLUMNS: usize = 84;

/// The indent of what a check says, under its name.
const INDENT: &str = "           ";

/// `text` in rows of at most `width` characters, broken at spaces (a word
/// longer than a row gets a row of its own).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut rows: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match rows.last_mut() {
            Some(row) if row.chars().count() + 1 + word.chars().count() <= width => {
                row.push(' ');
                row.push_str(word);
            }
            _ => rows.push(word.to_owned()),
        }
    }
    rows
}

/// The last line: solved, or the first check that failed and the command
/// for the next hint.
pub fn verdict(puzzle: &Puzzle, report: &Report) -> Result<String, String> {
    match report.first_failure() {
        None if puzzle.on_gpu.is_empty() => Ok("solved: every check passed. Nothing of this puzzle runs on a GPU: \
                                                the model is its judge"
            .to_owned()),
        None if matches!(report.outcome(ON_THE_GPU), Some(Outcome::Passed(_))) => Ok(match report.outcome(SANITIZER) {
            Some(Outcome::NotRun(_)) => {
                format!("solved: every check passed, on the GPU too (`{SANITIZER}` was not run here)")
            }
            Some(_) => "solved: every check passed, on the GPU and under the sanitizer too".to_owned(),
            None => "solved: every check passed, on the GPU too".to_owned(),
        }),
        None => Ok(format!(
            "solved, as far as the checks without a GPU go: `{ON_THE_GPU}` was not run, so this is not yet a pass \
             on a GPU"
        )),
        Some(line) => Err(format!(
            "not solved yet: `{}` failed; `cargo xtask practice hint {}` gives a hint",
            line.check, puzzle.kernel.key
        )),
    }
}

/// The scope-and-order invariant written in the answer's doc comment, held
/// to the compiled flag: a `text` block of four lines, `scope:` (block,
/// cluster, device or system), `releases:` and `acquires:` (each naming the
/// flag, `ready_storage`) and `protects:` (naming the record, `slot`).
fn invariant(verdict: Result<Verdict, String>, source: &str) -> Outcome {
    let field = |key: &str| written::field(source, key);
    let fields = [
        ("scope:", None),
        ("releases:", Some("ready_storage")),
        ("acquires:", Some("ready_storage")),
        ("protects:", Some("slot")),
    ];
    for (key, must_name) in fields {
        match field(key) {
            None => return Outcome::Failed(format!("no `{key}` line in the file's invariant block")),
            Some(text) if text.is_empty() || text.starts_with("TODO") => {
                return Outcome::Failed(format!("the invariant's `{key}` line is not written yet"));
            }
            Some(text) if must_name.is_some_and(|name| !text.contains(name)) => {
                return Outcome::Failed(format!(
                    "the invariant's `{key}` line does not name `{}`",
                    must_name.unwrap_or("")
                ));
            }
            Some(_) => {}
        }
    }
    let written = field("scope:").unwrap_or_default();
    let ptx = match written.split_whitespace().next() {
        Some("block") => "cta",
        Some("cluster") => "cluster",
        Some("device") => "gpu",
        Some("system") => "sys",
        _ => {
            return Outcome::Failed(format!(
                "the invariant's scope `{written}` is none of block, cluster, device, system"
            ));
        }
    };
    let verdict = match verdict {
        Ok(verdict) => verdict,
        Err(why) => return Outcome::Failed(why),
    };
    let (store, load) = &verdict.scopes;
    if store == ptx && load == ptx {
        Outcome::Passed(format!("it says `{written}`, and the flag's store and load are `.{ptx}`"))
    } else {
        Outcome::Failed(format!(
            "it says `{written}` (`.{ptx}`), but the compiled flag's store is `.{store}` and its load `.{load}`"
        ))
    }
}
