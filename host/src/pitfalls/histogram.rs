//! The r/CUDA histogram without one of its barriers, beside the lab's.

use layout::histogram::PRIVATIZED;
use layout::pitfall::{HISTOGRAM_NO_FLUSH_BARRIER, HISTOGRAM_NO_ZEROING_BARRIER};

use super::{Figure, Lab, Size, Trial, fill_shared};
use crate::error::LabError;
use crate::gpu::histogram::HistogramKernel;
use crate::gpu::pitfall::{Buffers, PitfallKernel};
use crate::gpu::timing::Plan;
use crate::input::{self, Distribution};
use crate::launch::Block;
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
    let compare = |counts: &[u32]| Off::of(counts, &expected);
    for spec in [&HISTOGRAM_NO_ZEROING_BARRIER, &HISTOGRAM_NO_FLUSH_BARRIER] {
        let kernel = PitfallKernel::of(spec);
        let mut off = Off::default();
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
            off = off.plus(compare(&counts));
        }
        trials.push(bins_trial(kernel.key().to_owned(), true, how.clone(), off, n, launches));
    }
    // The fix is the lab's own kernel, through its own wrapper.
    fill_shared(lab)?;
    let fix = HistogramKernel::of(&PRIVATIZED);
    let device_values = lab.histograms.upload(&values, BINS)?;
    let measured =
        lab.histograms.measure(fix, &device_values, block, Plan { warmup: 0, runs: launches, cold: false })?;
    let off = measured.counts.iter().fold(Off::default(), |off, counts| off.plus(compare(counts)));
    trials.push(bins_trial(format!("histogram_{}", fix.key()), false, how, off, n, launches));
    Ok(trials)
}

/// How far a histogram is from the CPU's, bin for bin. A bin below its count
/// lost values (a zeroing store that wiped increments out, a flush before
/// they landed); a bin above it holds counts no value made (the fill pattern
/// in a bin never zeroed). Kept apart, so that one never hides the other in
/// a net total.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Off {
    /// Bins whose count differs.
    wrong_bins: u64,
    /// Values missing from the bins that came out low.
    lost: u64,
    /// Counts beyond the values in the bins that came out high.
    extra: u64,
}

impl Off {
    /// `counts` against `expected`, bin for bin.
    fn of(counts: &[u32], expected: &[u32]) -> Off {
        counts.iter().zip(expected).fold(Off::default(), |off, (&c, &e)| Off {
            wrong_bins: off.wrong_bins + u64::from(c != e),
            lost: off.lost + u64::from(e.saturating_sub(c)),
            extra: off.extra + u64::from(c.saturating_sub(e)),
        })
    }

    /// Two launches' differences together.
    fn plus(self, other: Off) -> Off {
        Off {
            wrong_bins: self.wrong_bins + other.wrong_bins,
            lost: self.lost + other.lost,
            extra: self.extra + other.extra,
        }
    }
}

/// One version's trial: its wrong bins out of every bin of every launch,
/// then the values lost and the extra counts, each out of every value
/// counted.
fn bins_trial(name: String, broken: bool, how: String, off: Off, n: usize, launches: usize) -> Trial {
    let values = n as u64 * launches as u64;
    let bins = u64::from(BINS) * launches as u64;
    Trial {
        also: vec![
            Figure::failures(off.lost, values, "values lost", "values counted"),
            Figure::failures(off.extra, values, "extra counts", "values counted"),
        ],
        ..Trial::new(
            name,
            broken,
            how,
            Figure::failures(off.wrong_bins, bins, "wrong bins", "bins (every bin of every launch)"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::Off;

    #[test]
    fn lost_values_and_extra_counts_are_kept_apart() {
        let expected = [5, 5, 5, 5];
        // One bin lost 3, another gained 3: the net total is right, and
        // both are still reported.
        let off = Off::of(&[2, 8, 5, 5], &expected);
        assert_eq!(off, Off { wrong_bins: 2, lost: 3, extra: 3 });
        assert_eq!(Off::of(&expected, &expected), Off::default());
        let both = off.plus(Off::of(&[5, 5, 5, 0x0100_0005], &expected));
        assert_eq!(both, Off { wrong_bins: 3, lost: 3, extra: 3 + 0x0100_0000 });
    }
}
