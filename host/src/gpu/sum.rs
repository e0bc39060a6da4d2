//! The typed wrapper for the page's three sum kernels: their launch contract,
//! written once, and the measured launch loop with the page's timing rule.

use cudarc::driver::{CudaFunction, CudaSlice, LaunchConfig, PushKernelArg};

use super::launch::Block;
use super::timing;
use super::Gpu;
use crate::error::{DriverContext, LabError};

/// The page's three ways to sum an array, in the page's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SumKernel {
    /// One global atomic add per element (`kernels/src/sum/global_atomic.rs`).
    GlobalAtomic,
    /// A shared-memory accumulator per block (`kernels/src/sum/shared_atomic.rs`).
    SharedAtomic,
    /// A shared-memory tree per block (`kernels/src/sum/tree_atomic.rs`).
    TreeAtomic,
}

impl SumKernel {
    /// All three, in the page's order.
    pub const ALL: [SumKernel; 3] = [SumKernel::GlobalAtomic, SumKernel::SharedAtomic, SumKernel::TreeAtomic];

    /// The `.entry` name in the PTX.
    pub const fn symbol(self) -> &'static str {
        match self {
            SumKernel::GlobalAtomic => "sum_global_atomic",
            SumKernel::SharedAtomic => "sum_shared_atomic",
            SumKernel::TreeAtomic => "sum_tree_atomic",
        }
    }

    /// The name in the determinism table and in messages, as on the page.
    pub const fn label(self) -> &'static str {
        match self {
            SumKernel::GlobalAtomic => "global atomic",
            SumKernel::SharedAtomic => "shared atomic",
            SumKernel::TreeAtomic => "tree + atomic",
        }
    }

    /// The short name in the sweep table's columns and its "fastest" column.
    pub const fn short(self) -> &'static str {
        match self {
            SumKernel::GlobalAtomic => "global",
            SumKernel::SharedAtomic => "shared",
            SumKernel::TreeAtomic => "tree",
        }
    }

    /// The launch contract of each kernel's `# Launch` doc: one thread per
    /// element, and the dynamic shared memory the kernel indexes.
    pub fn config(self, n: usize, block: Block) -> LaunchConfig {
        let shared_mem_bytes = match self {
            SumKernel::GlobalAtomic => 0,
            SumKernel::SharedAtomic => size_of::<f32>() as u32,
            SumKernel::TreeAtomic => block.threads() * size_of::<f32>() as u32,
        };
        LaunchConfig { grid_dim: (block.grid_for(n), 1, 1), block_dim: (block.threads(), 1, 1), shared_mem_bytes }
    }

    /// Global atomic adds one launch sends to the accumulator: the page's
    /// counting argument.
    pub fn global_atomics(self, n: usize, block: Block) -> usize {
        match self {
            SumKernel::GlobalAtomic => n,
            SumKernel::SharedAtomic | SumKernel::TreeAtomic => block.grid_for(n) as usize,
        }
    }
}

/// An input array in device memory.
pub struct DeviceInput {
    values: CudaSlice<f32>,
}

impl DeviceInput {
    /// Elements in the array.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the array is empty.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// Every launch of one kernel on one input: the time of each timed launch and
/// the sum each launch (warm-ups included) left in its own accumulator.
#[derive(Clone, Debug, PartialEq)]
pub struct SumMeasurement {
    /// Which kernel.
    pub kernel: SumKernel,
    /// Milliseconds of each timed launch, in launch order.
    pub times_ms: Vec<f32>,
    /// The sum of each launch, warm-ups first.
    pub sums: Vec<f32>,
}

/// The three sum kernels, loaded.
pub struct SumKernels<'gpu> {
    gpu: &'gpu Gpu,
    functions: [CudaFunction; 3],
}

impl<'gpu> SumKernels<'gpu> {
    /// Looks the three kernels up in the GPU's module.
    pub fn load(gpu: &'gpu Gpu) -> Result<Self, LabError> {
        let [a, b, c] = SumKernel::ALL.map(|k| gpu.function(k.symbol()));
        Ok(SumKernels { gpu, functions: [a?, b?, c?] })
    }

    /// Copies `values` to the device.
    pub fn upload(&self, values: &[f32]) -> Result<DeviceInput, LabError> {
        let values = self
            .gpu
            .stream()
            .clone_htod(values)
            .doing(|| format!("copying {} floats to the device", values.len()))?;
        Ok(DeviceInput { values })
    }

    /// Launches `kernel` `warmup + runs` times on `input`, each launch adding
    /// into its own zeroed accumulator, and times the last `runs` launches
    /// with CUDA events.
    ///
    /// The page's timing rule, applied by [`timing::time_launches`].
    pub fn measure(
        &self,
        kernel: SumKernel,
        input: &DeviceInput,
        block: Block,
        warmup: usize,
        runs: usize,
    ) -> Result<SumMeasurement, LabError> {
        let stream = self.gpu.stream();
        let launches = warmup + runs;
        let mut totals = stream
            .alloc_zeros::<f32>(launches)
            .doing(|| format!("allocating {launches} accumulators"))?;
        let times_ms = timing::time_launches(self.gpu, &mut totals, 1, warmup, runs, |slot| {
            self.launch(kernel, input, slot, block)
        })?;
        let sums = stream
            .clone_dtoh(&totals)
            .doing(|| format!("copying the sums of {} back", kernel.symbol()))?;
        Ok(SumMeasurement { kernel, times_ms, sums })
    }

    /// Enqueues one launch of `kernel` adding `input` into `total[0]`.
    fn launch(
        &self,
        kernel: SumKernel,
        input: &DeviceInput,
        total: &mut cudarc::driver::CudaViewMut<'_, f32>,
        block: Block,
    ) -> Result<(), LabError> {
        let n = input.len();
        if n == 0 {
            // An empty grid is not a valid launch; the sum of nothing is the
            // zero the accumulator already holds.
            return Ok(());
        }
        let function = &self.functions[kernel as usize];
        let mut args = self.gpu.stream().launch_builder(function);
        args.arg(&input.values).arg(total).arg(&n);
        // SAFETY: the arguments match the kernel's signature
        // `(*const f32, *mut f32, usize)`: `input` holds `n` floats, `total`
        // at least one, and `config` supplies the grid and the shared-memory
        // bytes that the kernel's `# Launch` doc requires.
        unsafe { args.launch(kernel.config(n, block)) }
            .map(|_| ())
            .doing(|| format!("launching {} (n = {n}, block {block})", kernel.symbol()))
    }
}
