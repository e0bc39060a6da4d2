//! The typed wrapper for the page's three sum kernels: their launch contract,
//! written once, and the measured launch loop with the page's timing rule.

use cudarc::driver::{CudaFunction, CudaSlice, CudaView, CudaViewMut, LaunchConfig, PushKernelArg};

use super::Gpu;
use super::driver_error::DriverContext;
use super::launch::Block;
use super::timing::{self, Plan};
use crate::error::LabError;

/// The page's three ways to sum an array, in the page's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SumKernel {
    /// One global atomic add per element (`kernels/src/sum/global_atomic.rs`).
    GlobalAtomic,
    /// A shared-memory accumulator per block (`kernels/src/sum/shared_atomic.rs`).
    SharedAtomic,
    /// A shared-memory tree per block (`kernels/src/sum/tree_atomic.rs`).
    TreeAtomic,
    /// Warp shuffles, then shared memory, per block (`kernels/src/sum/warp_shuffle.rs`).
    WarpShuffle,
    /// Grid-stride 128-bit loads, then the hierarchical combine (`kernels/src/sum/bandwidth.rs`).
    Bandwidth,
    /// Fixed-order chunks and a last-block combine (`kernels/src/sum/deterministic.rs`).
    Deterministic,
}

/// Floats per chunk of `sum_deterministic` (`kernels::sum::CHUNK`).
pub const DETERMINISTIC_CHUNK: usize = 8192;

/// The largest input `sum_deterministic` accepts: 1024 segments of 1024
/// chunks (`kernels::sum::{SEGMENT, MAX_SEGMENTS}`).
pub const DETERMINISTIC_MAX_N: usize = DETERMINISTIC_CHUNK * 1024 * 1024;

impl SumKernel {
    /// The page's three, in the page's order.
    pub const PAGE: [SumKernel; 3] = [SumKernel::GlobalAtomic, SumKernel::SharedAtomic, SumKernel::TreeAtomic];

    /// All six: the page's three, then the roofline kernels.
    pub const ALL: [SumKernel; 6] = [
        SumKernel::GlobalAtomic,
        SumKernel::SharedAtomic,
        SumKernel::TreeAtomic,
        SumKernel::WarpShuffle,
        SumKernel::Bandwidth,
        SumKernel::Deterministic,
    ];

    /// The `.entry` name in the PTX.
    pub const fn symbol(self) -> &'static str {
        match self {
            SumKernel::GlobalAtomic => "sum_global_atomic",
            SumKernel::SharedAtomic => "sum_shared_atomic",
            SumKernel::TreeAtomic => "sum_tree_atomic",
            SumKernel::WarpShuffle => "sum_warp_shuffle",
            SumKernel::Bandwidth => "sum_bandwidth",
            SumKernel::Deterministic => "sum_deterministic",
        }
    }

    /// The name in the determinism table and in messages, as on the page.
    pub const fn label(self) -> &'static str {
        match self {
            SumKernel::GlobalAtomic => "global atomic",
            SumKernel::SharedAtomic => "shared atomic",
            SumKernel::TreeAtomic => "tree + atomic",
            SumKernel::WarpShuffle => "warp shuffle",
            SumKernel::Bandwidth => "bandwidth",
            SumKernel::Deterministic => "deterministic",
        }
    }

    /// The short name in the sweep table's columns and its "fastest" column.
    pub const fn short(self) -> &'static str {
        match self {
            SumKernel::GlobalAtomic => "global",
            SumKernel::SharedAtomic => "shared",
            SumKernel::TreeAtomic => "tree",
            SumKernel::WarpShuffle => "warp",
            SumKernel::Bandwidth => "bandwidth",
            SumKernel::Deterministic => "deterministic",
        }
    }

    /// Dynamic shared-memory bytes each kernel's `# Launch` doc asks for.
    pub fn shared_bytes(self, block: Block) -> u32 {
        let threads = block.threads();
        match self {
            SumKernel::GlobalAtomic => 0,
            SumKernel::SharedAtomic => 4,
            SumKernel::TreeAtomic => threads * 4,
            SumKernel::WarpShuffle | SumKernel::Bandwidth => threads / 32 * 4,
            SumKernel::Deterministic => 4096,
        }
    }

    /// Whether the kernel sizes its grid to the device rather than to `n`.
    pub const fn fills_device(self) -> bool {
        matches!(self, SumKernel::Bandwidth | SumKernel::Deterministic)
    }

    /// The launch contract of each kernel's `# Launch` doc. The page's
    /// kernels and the warp-shuffle kernel use one thread per element. The
    /// bandwidth and deterministic kernels use `resident` blocks, as many as
    /// fit on the device at once (the caller asks the driver's occupancy
    /// calculator), but no more than the input has work for.
    pub fn config(self, n: usize, block: Block, resident: u32) -> LaunchConfig {
        let warps = block.threads() / 32;
        let grid = match self {
            SumKernel::Bandwidth => resident.min(block.grid_for(n.div_ceil(4))),
            SumKernel::Deterministic => {
                let chunks = n.div_ceil(DETERMINISTIC_CHUNK);
                resident.min(chunks.div_ceil(warps as usize) as u32)
            }
            _ => block.grid_for(n),
        };
        LaunchConfig {
            grid_dim: (grid.max(1), 1, 1),
            block_dim: (block.threads(), 1, 1),
            shared_mem_bytes: self.shared_bytes(block),
        }
    }

    /// Global atomic adds one launch sends to the accumulator: the page's
    /// counting argument.
    pub fn global_atomics(self, n: usize, block: Block, resident: u32) -> usize {
        match self {
            SumKernel::GlobalAtomic => n,
            SumKernel::Deterministic => 0,
            _ => self.config(n, block, resident).grid_dim.0 as usize,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(threads: u32) -> Block {
        Block::new(threads).unwrap()
    }

    #[test]
    fn page_kernels_use_one_thread_per_element_and_their_shared_bytes() {
        let c = SumKernel::TreeAtomic.config(1000, block(256), 132);
        assert_eq!((c.grid_dim.0, c.block_dim.0, c.shared_mem_bytes), (4, 256, 1024));
        assert_eq!(SumKernel::SharedAtomic.config(1000, block(64), 132).shared_mem_bytes, 4);
        assert_eq!(SumKernel::GlobalAtomic.config(1000, block(64), 132).shared_mem_bytes, 0);
        assert_eq!(SumKernel::WarpShuffle.config(1000, block(1024), 132).shared_mem_bytes, 128);
    }

    #[test]
    fn grid_filling_kernels_use_the_resident_blocks_but_no_more_than_the_work() {
        // 2^28 floats: the device is the limit.
        let big = 1 << 28;
        assert_eq!(SumKernel::Bandwidth.config(big, block(256), 528).grid_dim.0, 528);
        assert_eq!(SumKernel::Deterministic.config(big, block(1024), 132).grid_dim.0, 132);
        // Small inputs: no more blocks than there is work, and never zero.
        assert_eq!(SumKernel::Bandwidth.config(4096, block(256), 528).grid_dim.0, 4);
        assert_eq!(SumKernel::Bandwidth.config(1, block(256), 528).grid_dim.0, 1);
        assert_eq!(SumKernel::Deterministic.config(8192 * 3, block(64), 528).grid_dim.0, 2);
        assert_eq!(SumKernel::Deterministic.config(1, block(1024), 528).grid_dim.0, 1);
        // The one-thread-per-element kernels ignore it.
        assert_eq!(SumKernel::WarpShuffle.config(big, block(256), 528).grid_dim.0, 1 << 20);
        assert!(SumKernel::Bandwidth.fills_device() && !SumKernel::TreeAtomic.fills_device());
    }

    #[test]
    fn the_counting_argument() {
        let n = 4_194_304;
        assert_eq!(SumKernel::GlobalAtomic.global_atomics(n, block(64), 132), n);
        assert_eq!(SumKernel::SharedAtomic.global_atomics(n, block(64), 132), n / 64);
        assert_eq!(SumKernel::TreeAtomic.global_atomics(n, block(1024), 132), n / 1024);
        assert_eq!(SumKernel::Deterministic.global_atomics(n, block(256), 132), 0);
    }
}

/// An input array in device memory, starting `offset` floats into its
/// allocation (an offset that is not a multiple of 4 makes it misaligned for
/// 128-bit loads, which the tests use).
pub struct DeviceInput {
    values: CudaSlice<f32>,
    offset: usize,
}

impl DeviceInput {
    /// Elements in the array.
    pub fn len(&self) -> usize {
        self.values.len() - self.offset
    }

    /// Whether the array is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn view(&self) -> CudaView<'_, f32> {
        self.values.slice(self.offset..)
    }
}

/// Device memory the deterministic kernel needs besides its input: one
/// partial sum per chunk and the ticket counter.
struct Scratch {
    partials: CudaSlice<f32>,
    counter: CudaSlice<u32>,
}

/// Every launch of one kernel on one input: the time of each timed launch and
/// the sum each launch (warm-ups included) left in its own accumulator.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
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
    functions: [CudaFunction; 6],
    sm_count: u32,
}

impl<'gpu> SumKernels<'gpu> {
    /// Looks the three kernels up in the GPU's module.
    pub fn load(gpu: &'gpu Gpu) -> Result<Self, LabError> {
        let [a, b, c, d, e, f] = SumKernel::ALL.map(|k| gpu.function(k.symbol()));
        Ok(SumKernels { gpu, functions: [a?, b?, c?, d?, e?, f?], sm_count: gpu.info.sm_count })
    }

    /// Sizes the grid-filling kernels as if the device had `sm_count` SMs:
    /// the tests use it to show the deterministic sum does not depend on the
    /// grid.
    pub fn with_sm_count(mut self, sm_count: u32) -> Self {
        self.sm_count = sm_count.max(1);
        self
    }

    /// Copies `values` to the device.
    pub fn upload(&self, values: &[f32]) -> Result<DeviceInput, LabError> {
        self.upload_at(values, 0)
    }

    /// Copies `values` to the device `offset` floats past the start of an
    /// allocation (which is 256-byte aligned), so the kernels see a pointer
    /// with that misalignment.
    pub fn upload_at(&self, values: &[f32], offset: usize) -> Result<DeviceInput, LabError> {
        let stream = self.gpu.stream();
        let doing = || format!("copying {} floats to the device", values.len());
        let values = if offset == 0 {
            stream.clone_htod(values).doing(doing)?
        } else {
            let padded: Vec<f32> = std::iter::repeat_n(f32::NAN, offset).chain(values.iter().copied()).collect();
            stream.clone_htod(&padded).doing(doing)?
        };
        Ok(DeviceInput { values, offset })
    }

    /// Launches `kernel` `plan.warmup + plan.runs` times on `input`, each
    /// launch adding into its own zeroed accumulator, and times the last
    /// `plan.runs` launches with CUDA events.
    ///
    /// The page's timing rule, applied by [`timing::time_launches`].
    pub fn measure(
        &self,
        kernel: SumKernel,
        input: &DeviceInput,
        block: Block,
        plan: Plan,
    ) -> Result<SumMeasurement, LabError> {
        let stream = self.gpu.stream();
        let launches = plan.warmup + plan.runs;
        let mut totals = stream.alloc_zeros::<f32>(launches).doing(|| format!("allocating {launches} accumulators"))?;
        let mut scratch = Scratch {
            partials: stream
                .alloc_zeros::<f32>(input.len().div_ceil(DETERMINISTIC_CHUNK).max(1))
                .doing(|| "allocating partial sums".to_owned())?,
            counter: stream.alloc_zeros::<u32>(1).doing(|| "allocating the ticket counter".to_owned())?,
        };
        let times_ms = timing::time_launches(self.gpu, &mut totals, 1, plan, |slot| {
            self.launch(kernel, input, slot, block, &mut scratch)
        })?;
        let sums = stream.clone_dtoh(&totals).doing(|| format!("copying the sums of {} back", kernel.symbol()))?;
        Ok(SumMeasurement { kernel, times_ms, sums })
    }

    /// Blocks of `kernel` at `block` threads that fit on the device at once:
    /// the driver's occupancy calculator (registers, shared memory, block
    /// limits) per SM, times the SM count. Only the grid-filling kernels use
    /// it; the others get 0.
    pub fn resident_blocks(&self, kernel: SumKernel, block: Block) -> Result<u32, LabError> {
        if !kernel.fills_device() {
            return Ok(0);
        }
        let per_sm = self.functions[kernel as usize]
            .occupancy_max_active_blocks_per_multiprocessor(block.threads(), kernel.shared_bytes(block) as usize, None)
            .doing(|| format!("asking the occupancy of {}", kernel.symbol()))?;
        Ok(per_sm.max(1) * self.sm_count)
    }

    /// Enqueues one launch of `kernel` adding `input` into `total[0]`.
    fn launch(
        &self,
        kernel: SumKernel,
        input: &DeviceInput,
        total: &mut CudaViewMut<'_, f32>,
        block: Block,
        scratch: &mut Scratch,
    ) -> Result<(), LabError> {
        let n = input.len();
        if n == 0 {
            // An empty grid is not a valid launch; the sum of nothing is the
            // zero the accumulator already holds.
            return Ok(());
        }
        if kernel == SumKernel::Deterministic && n > DETERMINISTIC_MAX_N {
            return Err(LabError::Usage(format!("sum_deterministic takes at most {DETERMINISTIC_MAX_N} floats")));
        }
        let function = &self.functions[kernel as usize];
        let resident = self.resident_blocks(kernel, block)?;
        let view = input.view();
        let mut args = self.gpu.stream().launch_builder(function);
        args.arg(&view).arg(total).arg(&n);
        if kernel == SumKernel::Deterministic {
            args.arg(&mut scratch.partials).arg(&mut scratch.counter);
        }
        // SAFETY: the arguments match the kernel's signature
        // `(*const f32, *mut f32, usize[, *mut f32, *mut u32])`: `input`
        // holds `n` floats, `total` one, `partials` one float per chunk and
        // `counter` is zero between launches (the kernel leaves it so); and
        // `config` supplies the grid and the shared-memory bytes that the
        // kernel's `# Launch` doc requires.
        unsafe { args.launch(kernel.config(n, block, resident)) }
            .map(|_| ())
            .doing(|| format!("launching {} (n = {n}, block {block})", kernel.symbol()))
    }
}
