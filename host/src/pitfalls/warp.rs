//! A lane exchange through shared memory, synchronized by the warp barrier
//! or the block's, with the partner in the same warp or the next.

use layout::pitfall::{
    BLOCK_SYNC_OTHER_WARP, BLOCK_SYNC_SAME_WARP, EXCHANGE_COUNTERS as WORDS, EXCHANGE_READS, EXCHANGE_WRONG,
    WARP_SYNC_OTHER_WARP, WARP_SYNC_SAME_WARP,
};

use super::{Lab, Size, Trial};
use crate::error::LabError;
use crate::gpu::pitfall::{Buffers, PitfallKernel};
use crate::gpu::timing::{self, Plan};
use crate::stats;

/// The four kernels, timed, every read checked on the device.
pub fn run(lab: &Lab<'_>, size: Size) -> Result<Vec<Trial>, LabError> {
    let threads = size.pick(1024, 64);
    let rounds = size.pick(4096, 16);
    // Two blocks per SM, but never so many that a launch's read count (every
    // thread adds `rounds` to one `u32`) could wrap.
    let most = u32::MAX / (threads * rounds);
    let grid = size.pick(lab.gpu.info.sm_count * 2, 2).min(most);
    let plan = Plan { warmup: size.pick(1, 0), runs: size.pick(5, 1), cold: false };
    let mut trials = Vec::new();
    let cases = [
        (&WARP_SYNC_OTHER_WARP, true, "partner in the next warp, warp barrier"),
        (&BLOCK_SYNC_OTHER_WARP, false, "partner in the next warp, block barrier"),
        (&WARP_SYNC_SAME_WARP, false, "partner in the same warp, warp barrier"),
        (&BLOCK_SYNC_SAME_WARP, false, "partner in the same warp, block barrier"),
    ];
    for (spec, broken, how) in cases {
        let kernel = PitfallKernel::of(spec);
        let launches = plan.warmup + plan.runs;
        let mut counts = lab.pitfalls.zeros(launches * WORDS)?;
        let times = timing::time_launches(lab.gpu, plan, |k| {
            let out = counts.part_mut(k * WORDS..(k + 1) * WORDS);
            // SAFETY: two zeroed counters per launch; the block is a multiple
            // of 64 threads, at most 1024.
            unsafe {
                lab.pitfalls.launch(
                    kernel,
                    grid,
                    threads,
                    Buffers { out: Some(out), value: rounds, ..Buffers::default() },
                )
            }
        })?;
        let counts = lab.pitfalls.read(&counts)?;
        let total = |word: usize| counts.chunks(WORDS).map(|c| u64::from(c[word])).sum::<u64>();
        trials.push(Trial {
            name: kernel.key().to_owned(),
            broken,
            how: format!("{how}: {grid} blocks of {threads}, {rounds} rounds"),
            failures: total(EXCHANGE_WRONG),
            out_of: total(EXCHANGE_READS),
            unit: "wrong reads".to_owned(),
            per: "reads".to_owned(),
            detail: None,
            time_ms: stats::median(&times),
            refused: None,
            also: Vec::new(),
        });
    }
    Ok(trials)
}
