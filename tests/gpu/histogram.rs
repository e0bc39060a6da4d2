//! The histogram kernels, global and privatized, bin for bin against the CPU's
//! counts.

use host::gpu::Gpu;
use host::gpu::histogram::{HistogramKernel, HistogramKernels};
use host::gpu::timing::Plan;
use host::input::{self, Distribution};
use host::launch::Block;
use host::reference;

/// Both histogram kernels, both distributions, sizes that are not multiples
/// of the block: counts equal the CPU's exactly.
pub(super) fn histograms_are_exact(gpu: &Gpu, bins: u32) -> Result<(), String> {
    let kernels = HistogramKernels::load(gpu).map_err(|e| e.to_string())?;
    let mut wrong = Vec::new();
    for threads in [32, 256, 1024] {
        let block = Block::new(threads).map_err(|e| e.to_string())?;
        for n in [1, 31, 4097, 1_000_003] {
            for distribution in [Distribution::Uniform, Distribution::OneBin] {
                let values = input::bin_indices(n, bins, distribution);
                let expected = reference::histogram(&values, bins);
                let device_values = kernels.upload(&values, bins).map_err(|e| e.to_string())?;
                for kernel in HistogramKernel::all() {
                    let m = kernels
                        .measure(kernel, &device_values, block, Plan { warmup: 1, runs: 0, cold: false })
                        .map_err(|e| e.to_string())?;
                    if m.counts.iter().any(|c| *c != expected) {
                        wrong.push(format!("  {} n = {n} block {threads} {distribution:?}", kernel.symbol()));
                    }
                }
            }
        }
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}
