//! The typed wrapper for the histogram kernels.

use cudarc::driver::{CudaFunction, CudaSlice, LaunchConfig, PushKernelArg};

use super::Gpu;
use super::driver_error::DriverContext;
use super::launch::Block;
use super::timing::{self, Plan};
use crate::error::LabError;

/// The most bins the privatized kernel can hold: 48 KiB of shared memory, the
/// per-block default on every GPU since Kepler, at 4 bytes a bin.
pub const MAX_BINS: u32 = 48 * 1024 / 4;

/// The two histogram kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HistogramKernel {
    /// One global atomic per element (`kernels/src/histogram/global_atomic.rs`).
    GlobalAtomic,
    /// Shared-memory bins per block (`kernels/src/histogram/privatized.rs`).
    Privatized,
}

impl HistogramKernel {
    /// Both, naive first.
    pub const ALL: [HistogramKernel; 2] = [HistogramKernel::GlobalAtomic, HistogramKernel::Privatized];

    /// The `.entry` name in the PTX.
    pub const fn symbol(self) -> &'static str {
        match self {
            HistogramKernel::GlobalAtomic => "histogram_global_atomic",
            HistogramKernel::Privatized => "histogram_privatized",
        }
    }

    /// The short name in tables.
    pub const fn short(self) -> &'static str {
        match self {
            HistogramKernel::GlobalAtomic => "global",
            HistogramKernel::Privatized => "privatized",
        }
    }

    /// The launch contract of each kernel's `# Launch` doc.
    pub fn config(self, n: usize, bins: u32, block: Block) -> LaunchConfig {
        let shared_mem_bytes = match self {
            HistogramKernel::GlobalAtomic => 0,
            HistogramKernel::Privatized => bins * size_of::<u32>() as u32,
        };
        LaunchConfig { grid_dim: (block.grid_for(n), 1, 1), block_dim: (block.threads(), 1, 1), shared_mem_bytes }
    }
}

/// Bin indices in device memory, each below the bin count they were made for.
pub struct DeviceValues {
    values: CudaSlice<u32>,
    bins: u32,
}

/// Every launch of one histogram kernel: timings and each launch's counts.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HistogramMeasurement {
    /// Which kernel.
    pub kernel: HistogramKernel,
    /// Milliseconds of each timed launch.
    pub times_ms: Vec<f32>,
    /// The counts of each launch, warm-ups first.
    pub counts: Vec<Vec<u32>>,
}

/// The histogram kernels, loaded.
pub struct HistogramKernels<'gpu> {
    gpu: &'gpu Gpu,
    functions: [CudaFunction; 2],
}

impl<'gpu> HistogramKernels<'gpu> {
    /// Looks both kernels up in the GPU's module.
    pub fn load(gpu: &'gpu Gpu) -> Result<Self, LabError> {
        let [a, b] = HistogramKernel::ALL.map(|k| gpu.function(k.symbol()));
        Ok(HistogramKernels { gpu, functions: [a?, b?] })
    }

    /// Copies `values` to the device. Every value must be below `bins`; the
    /// kernels index with them unchecked.
    pub fn upload(&self, values: &[u32], bins: u32) -> Result<DeviceValues, LabError> {
        assert!(values.iter().all(|&v| v < bins), "a value indexes past the last bin");
        let values =
            self.gpu.stream().clone_htod(values).doing(|| format!("copying {} values to the device", values.len()))?;
        Ok(DeviceValues { values, bins })
    }

    /// Launches `kernel` per `plan`, each into its own zeroed
    /// histogram, timing the last `runs` (the sweep's timing rule).
    pub fn measure(
        &self,
        kernel: HistogramKernel,
        input: &DeviceValues,
        block: Block,
        plan: Plan,
    ) -> Result<HistogramMeasurement, LabError> {
        let stream = self.gpu.stream();
        let (n, bins) = (input.values.len(), input.bins);
        let launches = plan.warmup + plan.runs;
        let mut all = stream
            .alloc_zeros::<u32>(launches * bins as usize)
            .doing(|| format!("allocating {launches} histograms"))?;
        let function = &self.functions[kernel as usize];
        let times_ms = timing::time_launches(self.gpu, &mut all, bins as usize, plan, |out| {
            let mut args = stream.launch_builder(function);
            args.arg(&input.values).arg(&n).arg(out);
            if kernel == HistogramKernel::Privatized {
                args.arg(&bins);
            }
            // SAFETY: the arguments match `(input: *const u32, n: usize,
            // bins: *mut u32[, num_bins: u32])`; every value is below `bins`
            // (checked in `upload`), `out` holds `bins` zeroed counters, and
            // `config` supplies the shared bytes the privatized kernel needs.
            unsafe { args.launch(kernel.config(n, bins, block)) }
                .map(|_| ())
                .doing(|| format!("launching {} (n = {n}, bins {bins}, block {block})", kernel.symbol()))
        })?;
        let flat = stream.clone_dtoh(&all).doing(|| "copying histograms back".to_owned())?;
        let counts = flat.chunks(bins as usize).map(<[u32]>::to_vec).collect();
        Ok(HistogramMeasurement { kernel, times_ms, counts })
    }
}
