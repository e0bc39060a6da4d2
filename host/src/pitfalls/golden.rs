//! A golden-value `==` test on a float atomic sum, run again and again.

use layout::sum::{DETERMINISTIC, GLOBAL_ATOMIC};

use super::{Lab, Size, Trial};
use crate::error::LabError;
use crate::gpu::sum::SumKernel;
use crate::gpu::timing::Plan;
use crate::input;
use crate::launch::Block;
use crate::stats;

/// Times the test runs after its golden value was recorded.
const RUNS: usize = 20;

/// Records a golden sum of inexact input from one launch, then runs the
/// test `RUNS` times: the page's global-atomic sum, and the deterministic
/// sum as the fix.
pub fn run(lab: &Lab<'_>, size: Size) -> Result<Vec<Trial>, LabError> {
    let n = size.pick(1 << 20, 4096);
    let runs = size.pick(RUNS, 2);
    let values = input::inexact(n);
    let input = lab.sums.upload(&values)?;
    let mut trials = Vec::new();
    for (spec, broken) in [(&GLOBAL_ATOMIC, true), (&DETERMINISTIC, false)] {
        let kernel = SumKernel::of(spec);
        // The first launch is the run that wrote the golden file; the rest
        // are the test, run again.
        let measured = lab.sums.measure(kernel, &input, Block::DEFAULT, Plan { warmup: 1, runs, cold: false })?;
        let (golden, tests) = measured.sums.split_first().expect("warm-up plus runs is never empty");
        // A golden file holds bits: the test it stands for compares them all,
        // which for these finite sums is `==`.
        let failed = tests.iter().filter(|s| s.to_bits() != golden.to_bits()).count() as u64;
        trials.push(Trial {
            name: format!("sum_{}", kernel.key()),
            broken,
            how: format!("golden value from one launch on {n} inexact values, then the == test run {runs} times"),
            failures: failed,
            out_of: tests.len() as u64,
            unit: "test runs that failed".to_owned(),
            per: "test runs".to_owned(),
            detail: Some(format!(
                "{} distinct sums in {} launches",
                stats::distinct_bits(&measured.sums),
                measured.sums.len()
            )),
            time_ms: None,
            refused: None,
            also: Vec::new(),
        });
    }
    Ok(trials)
}
