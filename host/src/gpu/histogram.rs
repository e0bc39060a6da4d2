//! The typed wrapper for the histogram kernels of `layout::histogram`.

use cudarc::driver::{CudaSlice, LaunchConfig};
use layout::ParamRole;
use layout::histogram::{Arg, Histogram};

use super::args::{Args, once};
use super::driver_error::DriverContext;
use super::registry::Kernel;
use super::timing::{self, Plan};
use super::{Functions, Gpu};
use crate::error::LabError;
use crate::launch::Block;

/// One of the histogram kernels: a handle on its `layout::histogram`
/// registry entry.
pub type HistogramKernel = Kernel<Histogram>;

impl Kernel<Histogram> {
    /// The launch configuration: one thread per value, and the registry's
    /// shared bytes for `bins` bins.
    pub fn config(self, n: usize, bins: u32, block: Block) -> LaunchConfig {
        LaunchConfig {
            grid_dim: (block.grid_for(n), 1, 1),
            block_dim: (block.threads(), 1, 1),
            shared_mem_bytes: self.shared.bytes(block.threads(), bins),
        }
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
    /// One per registry entry, in registry order.
    functions: Functions,
}

impl<'gpu> HistogramKernels<'gpu> {
    /// Looks the kernels up in the GPU's module.
    pub fn load(gpu: &'gpu Gpu) -> Result<Self, LabError> {
        Ok(HistogramKernels { gpu, functions: gpu.functions::<Histogram>()? })
    }

    /// Copies `values` to the device. Every value must be below `bins`; the
    /// kernels index with them unchecked.
    pub fn upload(&self, values: &[u32], bins: u32) -> Result<DeviceValues, LabError> {
        assert!(values.iter().all(|&v| v < bins), "a value indexes past the last bin");
        let values =
            self.gpu.stream().clone_htod(values).doing(|| format!("copying {} values to the device", values.len()))?;
        Ok(DeviceValues { values, bins })
    }

    /// Launches `kernel` per `plan`, each into its own zeroed histogram,
    /// timing the last `runs` (the sweep's timing rule).
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
        let width = bins as usize;
        let mut all =
            stream.alloc_zeros::<u32>(launches * width).doing(|| format!("allocating {launches} histograms"))?;
        let function = self.functions.get(kernel.index())?;
        let config = kernel.config(n, bins, block);
        let times_ms = timing::time_launches(self.gpu, plan, |k| {
            let mut out = all.slice_mut(k * width..(k + 1) * width);
            let mut counters = Some(&mut out);
            let mut args = Args::new(stream, function, kernel.entry());
            for param in kernel.entry().params {
                let ParamRole::Histogram(arg) = param.role else {
                    panic!("{}: `{param}` is no histogram argument", kernel.symbol())
                };
                match arg {
                    Arg::Input => args.push(param, &input.values),
                    Arg::N => args.push(param, &n),
                    Arg::Bins => args.push(param, once(&mut counters, param)),
                    Arg::BinCount => args.push(param, &bins),
                }
            }
            // SAFETY: the arguments are the kernel's registry entry's
            // `params` (`Args` checks order, count and types); every value is
            // below `bins` (checked in `upload`), `out` holds `bins` zeroed
            // counters, and `config` supplies the registry's shared bytes.
            unsafe { args.launch(config) }
                .doing(|| format!("launching {} (n = {n}, bins {bins}, block {block})", kernel.symbol()))
        })?;
        let flat = stream.clone_dtoh(&all).doing(|| "copying histograms back".to_owned())?;
        let counts = flat.chunks(width).map(<[u32]>::to_vec).collect();
        Ok(HistogramMeasurement { kernel, times_ms, counts })
    }
}
