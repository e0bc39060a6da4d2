//! The machine-code layer: the learner's PTX assembled by `ptxas` for
//! Hopper (`sm_90`) and disassembled by `cuobjdump`, and each kernel's
//! synchronizing instructions held to the SASS promises of the lab kernel it
//! stands for (its registry row's `sass_has` and `sass_lacks`, or the
//! puzzle's own where the learner's algorithm is simpler than the lab's):
//! what the hardware will execute, not only what the PTX asks for.

use std::path::Path;

use crate::{ptxas, sass};

/// The SASS of one build of the learner's crate, or why there is none.
#[derive(Clone, Debug)]
pub enum Machine {
    /// Every kernel's synchronizing instructions.
    Sass(Vec<sass::Summary>),
    /// `ptxas` rejected the PTX: the learner's code is at fault.
    Rejected(String),
    /// The tools are not on this machine.
    NoTools(String),
}

/// The architecture the layer assembles for: the lab's GPUs.
pub const ARCH: &str = "sm_90";

impl Machine {
    /// Assembles `ptx` (in `target/practice/sass/`) and summarizes its SASS.
    pub fn of(root: &Path, ptx: &str) -> Machine {
        let (Some(ptxas), Some(cuobjdump)) = (ptxas::find(root), ptxas::find_tool(root, "cuobjdump")) else {
            return Machine::NoTools(
                "ptxas and cuobjdump are not installed here; `cargo xtask ptxas` installs them under .tools/"
                    .to_owned(),
            );
        };
        let work = root.join("target/practice/sass");
        let file = work.join("practice.ptx");
        if let Err(e) = std::fs::create_dir_all(&work).and_then(|()| std::fs::write(&file, ptx)) {
            return Machine::NoTools(format!("cannot write {}: {e}", file.display()));
        }
        match sass::disassemble(&ptxas, &cuobjdump, &file, ARCH, &work) {
            Ok((text, _)) => Machine::Sass(sass::summarize(&text)),
            Err(e) => Machine::Rejected(e.0),
        }
    }

    /// The promises that the SASS of `symbol` breaks, or why the layer
    /// cannot say: `has` and `lacks`, made by `whose` (the lab's
    /// `sum_deterministic`, or the puzzle).
    pub fn judge(&self, symbol: &str, whose: &str, has: &[&str], lacks: &[&str]) -> Result<String, Verdict> {
        let summaries = match self {
            Machine::Sass(summaries) => summaries,
            Machine::Rejected(why) => return Err(Verdict::Failed(format!("ptxas rejected the PTX: {why}"))),
            Machine::NoTools(why) => return Err(Verdict::NotRun(why.clone())),
        };
        let Some(summary) = summaries.iter().find(|s| s.kernel == symbol) else {
            return Err(Verdict::Failed(format!("no `{symbol}` in the SASS")));
        };
        let missing = has.iter().filter(|p| !summary.has(p)).map(|p| format!("lacks {p}"));
        let broken: Vec<String> =
            missing.chain(lacks.iter().filter(|p| summary.has(p)).map(|p| format!("has {p}"))).collect();
        let promised: Vec<String> =
            has.iter().map(|p| format!("has {p}")).chain(lacks.iter().map(|p| format!("no {p}"))).collect();
        if broken.is_empty() {
            Ok(format!("{ARCH} SASS as {whose}: {}", promised.join(", ")))
        } else {
            Err(Verdict::Failed(format!(
                "{ARCH} SASS {}, where {whose} {}; yours: {}",
                broken.join(" and "),
                promised.join(", "),
                summary.line()
            )))
        }
    }
}

/// Why the machine-code layer did not pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The SASS breaks a promise, or there is none.
    Failed(String),
    /// The layer could not run here.
    NotRun(String),
}
