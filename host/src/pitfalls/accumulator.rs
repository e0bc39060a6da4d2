//! An accumulator timed in a loop without a reset, beside the lab's fresh
//! slot per launch.

use layout::sum::GLOBAL_ATOMIC;

use super::{Lab, Size, Trial};
use crate::error::LabError;
use crate::gpu::sum::SumKernel;
use crate::gpu::timing::Plan;
use crate::input;
use crate::launch::Block;
use crate::reference;
use crate::stats;

/// Timed launches, as a benchmark loop would make them.
const LAUNCHES: usize = 10;

/// The page's global-atomic sum on exact input, launched ten times into one
/// accumulator, then ten times into ten zeroed ones.
pub fn run(lab: &Lab<'_>, size: Size) -> Result<Vec<Trial>, LabError> {
    let n = size.pick(1 << 20, 4096);
    let values = input::exact(n);
    let sum = reference::kahan_sum(&values) as f32;
    let kernel = SumKernel::of(&GLOBAL_ATOMIC);
    let input = lab.sums.upload(&values)?;
    let block = Block::DEFAULT;
    let left = lab.sums.accumulate_without_reset(kernel, &input, block, LAUNCHES)?;
    let how = format!("{LAUNCHES} launches of sum_{} on {n} exact values (sum {sum})", kernel.key());
    let broken = Trial {
        name: "one accumulator, never reset".to_owned(),
        broken: true,
        how: how.clone(),
        failures: u64::from(left != sum),
        out_of: 1,
        unit: "wrong sums reported".to_owned(),
        per: "timing loops (the value the loop leaves)".to_owned(),
        detail: Some(format!("the accumulator held {left}: {:.2} times the sum", f64::from(left) / f64::from(sum))),
        time_ms: None,
        refused: None,
        also: Vec::new(),
    };
    let measured = lab.sums.measure(kernel, &input, block, Plan { warmup: 0, runs: LAUNCHES, cold: false })?;
    let wrong = measured.sums.iter().filter(|&&s| s != sum).count() as u64;
    let fixed = Trial {
        name: "a zeroed slot per launch (gpu::timing)".to_owned(),
        broken: false,
        how,
        failures: wrong,
        out_of: measured.sums.len() as u64,
        unit: "wrong sums".to_owned(),
        per: "launches".to_owned(),
        detail: None,
        time_ms: stats::median(&measured.times_ms),
        refused: None,
        also: Vec::new(),
    };
    Ok(vec![broken, fixed])
}
