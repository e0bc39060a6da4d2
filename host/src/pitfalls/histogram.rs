//! The r/CUDA histogram without one of its barriers, beside the lab's.

use layout::histogram::PRIVATIZED;
use layout::pitfall::{HISTOGRAM_NO_FLUSH_BARRIER, HISTOGRAM_NO_ZEROING_BARRIER};

use super::{Lab, Size, Trial, fill_shared};
use crate::error::LabError;
use crate::gpu::histogram::HistogramKernel;
use crate::gpu::launch::Block;
use crate::gpu::pitfall::{Buffers, PitfallKernel};
use crate::gpu::timing::Plan;
use crate::input::{self, Distribution};
use crate::reference;

/// Bins: as many as shared memory holds, twelve per thread of a 1024-thread
/// block, so that zeroing them takes as long as a warp's wait for its input
/// from L2. With `host histogram`'s 256, one store per thread, the zeroing
/// can finish long before any warp's input arrives, and the missing first
/// barrier may never show.
const BINS: u32 = layout::histogram::MAX_BINS;

/// Both broken kernels and the fix, every bin of every launch checked.
pub fn run(lab: &Lab<'_>, size: Size) -> Result<Vec<Trial>, LabError> {
    let n = size.pick(1 << 20, 4096);
    let launches = size.pick(5, 1);
    let block = Block::new(Block::MAX).expect("the largest block is a block");
    let values = input::bin_indices(n, BINS, Distribution::Uniform);
    let expected = reference::histogram(&values, BINS);
    let how =
        format!("n = {n} uniform values, {BINS} bins, blocks of {block}; shared memory filled before each launch");
    let mut trials = Vec::new();
    let input = lab.pitfalls.upload(&values)?;
    let grid = block.grid_for(n);
    let wrong_bins = |counts: &[u32]| counts.iter().zip(&expected).filter(|(c, e)| c != e).count() as u64;
    let lost = |counts: &[u32]| n as i64 - counts.iter().map(|&c| i64::from(c)).sum::<i64>();
    for spec in [&HISTOGRAM_NO_ZEROING_BARRIER, &HISTOGRAM_NO_FLUSH_BARRIER] {
        let kernel = PitfallKernel::of(spec);
        let (mut wrong, mut missing) = (0, 0);
        for _ in 0..launches {
            fill_shared(lab)?;
            let mut bins = lab.pitfalls.zeros(BINS as usize)?;
            let buffers = Buffers {
                input: Some(input.whole()),
                n,
                out: Some(bins.whole_mut()),
                value: BINS,
                ..Buffers::default()
            };
            // SAFETY: `bins` holds `BINS` zeroed counters, every value is
            // below `BINS` (`bin_indices`), one thread per value.
            unsafe { lab.pitfalls.launch(kernel, grid, block.threads(), buffers)? };
            let counts = lab.pitfalls.read(&bins)?;
            wrong += wrong_bins(&counts);
            missing += lost(&counts);
        }
        trials.push(bins_trial(kernel.key().to_owned(), true, how.clone(), wrong, missing, n, launches));
    }
    // The fix is the lab's own kernel, through its own wrapper.
    fill_shared(lab)?;
    let fix = HistogramKernel::of(&PRIVATIZED);
    let device_values = lab.histograms.upload(&values, BINS)?;
    let measured =
        lab.histograms.measure(fix, &device_values, block, Plan { warmup: 0, runs: launches, cold: false })?;
    let wrong: u64 = measured.counts.iter().map(|c| wrong_bins(c)).sum();
    let missing: i64 = measured.counts.iter().map(|c| lost(c)).sum();
    trials.push(bins_trial(format!("histogram_{}", fix.key()), false, how, wrong, missing, n, launches));
    Ok(trials)
}

/// One version's trial: its wrong bins out of every bin of every launch, and
/// how far the counts were off when any bin was wrong.
fn bins_trial(name: String, broken: bool, how: String, wrong: u64, missing: i64, n: usize, launches: usize) -> Trial {
    Trial {
        name,
        broken,
        how,
        failures: wrong,
        out_of: u64::from(BINS) * launches as u64,
        unit: "wrong bins".to_owned(),
        detail: (wrong > 0).then(|| counted(missing, n, launches)),
        time_ms: None,
        refused: None,
    }
}

/// How far the bins' total was from the values counted, over all launches.
fn counted(missing: i64, n: usize, launches: usize) -> String {
    let total = n as i64 * launches as i64;
    if missing >= 0 {
        format!("{missing} of {total} values lost")
    } else {
        format!("{} counts more than the {total} values", -missing)
    }
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn lost_and_extra_counts_are_said_as_such() {
        assert_eq!(counted(30, 1 << 20, 5), "30 of 5242880 values lost");
        assert_eq!(counted(-4, 100, 1), "4 counts more than the 100 values");
    }
}
