//! The yardsticks the bench measures kernels against, in the same process:
//! the device's own copy bandwidth and the cost of an empty launch.

use cudarc::driver::{CudaFunction, LaunchConfig};
use layout::baseline;

use super::Gpu;
use super::driver_error::DriverContext;
use super::timing::{self, Plan};
use crate::error::LabError;

/// The copy and the empty kernel, ready to time.
pub struct Baselines<'gpu> {
    gpu: &'gpu Gpu,
    empty: CudaFunction,
}

impl<'gpu> Baselines<'gpu> {
    /// Looks up the `empty` kernel.
    pub fn load(gpu: &'gpu Gpu) -> Result<Self, LabError> {
        Ok(Baselines { gpu, empty: gpu.function(baseline::EMPTY.symbol)? })
    }

    /// Milliseconds of each timed device-to-device copy of `n` floats
    /// (`cuMemcpyDtoDAsync`). The copy reads and writes `4n` bytes each, so its
    /// bandwidth counts `8n` bytes.
    pub fn copy_ms(&self, n: usize, plan: Plan) -> Result<Vec<f32>, LabError> {
        let stream = self.gpu.stream();
        let src = stream.alloc_zeros::<f32>(n).doing(|| format!("allocating {n} floats to copy"))?;
        let mut dst = stream.alloc_zeros::<f32>(n).doing(|| format!("allocating {n} floats to copy into"))?;
        timing::time_launches(self.gpu, plan, |_| {
            stream.memcpy_dtod(&src, &mut dst).doing(|| format!("copying {n} floats"))
        })
    }

    /// Milliseconds of each timed launch of the empty kernel, one block of
    /// 32 threads: what a launch costs before any work.
    pub fn empty_launch_ms(&self, plan: Plan) -> Result<Vec<f32>, LabError> {
        let stream = self.gpu.stream();
        let config = LaunchConfig { grid_dim: (1, 1, 1), block_dim: (32, 1, 1), shared_mem_bytes: 0 };
        timing::time_launches(self.gpu, plan, |_| {
            let mut args = stream.launch_builder(&self.empty);
            // SAFETY: `empty` takes no arguments and touches no memory.
            unsafe { args.launch(config) }.map(|_| ()).doing(|| "launching empty".to_owned())
        })
    }
}
