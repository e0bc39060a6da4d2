//! A block barrier inside the bounds check, beside every thread at the
//! barrier.

use layout::pitfall::{BARRIER_EVERY_THREAD, BARRIER_IN_BOUNDS_CHECK};

use super::{Lab, PATTERN, Size, Trial, fill_shared};
use crate::error::LabError;
use crate::gpu::pitfall::{Buffers, PitfallKernel};

/// Threads per block.
const THREADS: u32 = 256;
/// Threads of the last block with an input: the other 156 have none.
const LAST_BLOCK_INPUTS: usize = 100;

/// Both kernels, each launched `launches` times after shared memory was
/// filled with the pattern, each block's sum checked exactly.
pub fn run(lab: &Lab<'_>, size: Size) -> Result<Vec<Trial>, LabError> {
    let blocks = size.pick(64, 2);
    let launches = size.pick(10, 1);
    let n = (blocks - 1) * THREADS as usize + LAST_BLOCK_INPUTS;
    let values: Vec<u32> = (0..n).map(|i| (i % 7) as u32 + 1).collect();
    let expected: Vec<u32> = values.chunks(THREADS as usize).map(|c| c.iter().sum()).collect();
    let input = lab.pitfalls.upload(&values)?;
    let mut trials = Vec::new();
    for (spec, broken) in [(&BARRIER_IN_BOUNDS_CHECK, true), (&BARRIER_EVERY_THREAD, false)] {
        let kernel = PitfallKernel::of(spec);
        let mut wrong = 0u64;
        let mut excess = Vec::new();
        for _ in 0..launches {
            fill_shared(lab)?;
            let mut sums = lab.pitfalls.zeros(blocks)?;
            let buffers = Buffers { input: Some(input.whole()), n, out: Some(sums.whole_mut()), ..Buffers::default() };
            // SAFETY: one output word per block, `n` inputs, a power-of-two
            // block; the shared bytes are the registry's.
            unsafe { lab.pitfalls.launch(kernel, blocks as u32, THREADS, buffers)? };
            let sums = lab.pitfalls.read(&sums)?;
            for (found, want) in sums.iter().zip(&expected) {
                if found != want {
                    wrong += 1;
                    excess.push(found.wrapping_sub(*want));
                }
            }
        }
        excess.dedup();
        let detail = (!excess.is_empty()).then(|| {
            let each: Vec<String> = excess.iter().map(|e| format!("{e:#x}")).collect();
            format!(
                "each wrong sum was over by {} (the fill pattern is {PATTERN:#x} per unwritten slot)",
                each.join(", ")
            )
        });
        trials.push(Trial {
            name: kernel.key().to_owned(),
            broken,
            how: format!(
                "n = {n}: {LAST_BLOCK_INPUTS} of the last block's {THREADS} threads have an input; \
                 shared memory filled with a pattern before each launch"
            ),
            failures: wrong,
            out_of: (blocks * launches) as u64,
            unit: "wrong block sums".to_owned(),
            detail,
            time_ms: None,
            refused: None,
        });
    }
    Ok(trials)
}
