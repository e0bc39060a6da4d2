//! A block barrier inside the bounds check, beside every thread at the
//! barrier.

use layout::pitfall::{BARRIER_EVERY_THREAD, BARRIER_IN_BOUNDS_CHECK};

use super::{Figure, Lab, PATTERN, Size, Trial, fill_shared};
use crate::error::LabError;
use crate::gpu::pitfall::{Buffers, PitfallKernel};

/// Threads per block.
const THREADS: u32 = 256;
/// Threads of the last block with an input: the other 156 have none.
const LAST_BLOCK_INPUTS: usize = 100;

/// Both kernels, each launched `launches` times after shared memory was
/// filled with the pattern, each block's sum checked exactly.
///
/// Only a block with threads past `n` can make the mistake: its other
/// blocks' threads all reach the barrier. So the main figure is the wrong
/// sums of those blocks (here the last block of each launch) per such block,
/// and the full blocks' sums, which are checked too, are a figure of their
/// own.
pub fn run(lab: &Lab<'_>, size: Size) -> Result<Vec<Trial>, LabError> {
    let blocks = size.pick(64, 2);
    let launches = size.pick(10, 1);
    let n = (blocks - 1) * THREADS as usize + LAST_BLOCK_INPUTS;
    let values: Vec<u32> = (0..n).map(|i| (i % 7) as u32 + 1).collect();
    let expected: Vec<u32> = values.chunks(THREADS as usize).map(|c| c.iter().sum()).collect();
    let exposed = (0..blocks).filter(|&b| has_threads_past(b, THREADS as usize, n)).count();
    let input = lab.pitfalls.upload(&values)?;
    let mut trials = Vec::new();
    for (spec, broken) in [(&BARRIER_IN_BOUNDS_CHECK, true), (&BARRIER_EVERY_THREAD, false)] {
        let kernel = PitfallKernel::of(spec);
        let (mut wrong_exposed, mut wrong_full) = (0u64, 0u64);
        let mut excess = Vec::new();
        for _ in 0..launches {
            fill_shared(lab)?;
            let mut sums = lab.pitfalls.zeros(blocks)?;
            let buffers = Buffers { input: Some(input.whole()), n, out: Some(sums.whole_mut()), ..Buffers::default() };
            // SAFETY: one output word per block, `n` inputs, a power-of-two
            // block; the shared bytes are the registry's.
            unsafe { lab.pitfalls.launch(kernel, blocks as u32, THREADS, buffers)? };
            let sums = lab.pitfalls.read(&sums)?;
            for (block, (found, want)) in sums.iter().zip(&expected).enumerate() {
                if found != want {
                    if has_threads_past(block, THREADS as usize, n) {
                        wrong_exposed += 1;
                    } else {
                        wrong_full += 1;
                    }
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
        let how = format!(
            "n = {n}: {LAST_BLOCK_INPUTS} of the last block's {THREADS} threads have an input; \
             shared memory filled with a pattern before each launch; {launches} launches of {blocks} blocks"
        );
        let counted =
            Figure::failures(wrong_exposed, (exposed * launches) as u64, "wrong sums", "blocks with threads past n");
        let full = Figure::failures(
            wrong_full,
            ((blocks - exposed) * launches) as u64,
            "wrong sums",
            "blocks with no thread past n",
        );
        trials.push(Trial { detail, also: vec![full], ..Trial::new(kernel.key(), broken, how, counted) });
    }
    Ok(trials)
}

/// Whether block `block` of `threads` threads has a thread with no input,
/// `n` inputs in all: the only kind of block whose threads can skip the
/// barrier.
fn has_threads_past(block: usize, threads: usize, n: usize) -> bool {
    (block + 1) * threads > n
}

#[cfg(test)]
mod tests {
    use super::has_threads_past;

    #[test]
    fn only_a_block_that_reaches_past_n_can_skip_the_barrier() {
        let (threads, blocks) = (256, 64);
        let n = (blocks - 1) * threads + 100;
        let exposed: Vec<usize> = (0..blocks).filter(|&b| has_threads_past(b, threads, n)).collect();
        assert_eq!(exposed, vec![blocks - 1]);
        assert!(!has_threads_past(0, threads, threads), "a block that ends at n has every input");
        assert!(has_threads_past(1, threads, threads + 1));
    }
}
