//! The yardsticks the bench measures kernels against, in the same process:
//! the device's own copy bandwidth and the cost of an empty launch; and the
//! two kernels every timed launch is queued behind: the flush that makes a
//! measurement cold, and the hold that keeps the host's queueing out of it.

use cudarc::driver::{CudaFunction, CudaSlice, LaunchConfig};
use layout::ParamRole;
use layout::baseline::{self, Arg};

use super::Gpu;
use super::args::{Args, once};
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
            let args = Args::new(stream, &self.empty, &baseline::EMPTY);
            // SAFETY: `empty`'s registry entry lists no parameters (`Args`
            // checks), and it touches no memory.
            unsafe { args.launch(config) }.doing(|| "launching empty".to_owned())
        })
    }
}

/// The cold-cache flush: `evict_l2` over a zeroed buffer of twice the L2's
/// size, which leaves the L2 holding clean lines of that buffer and none of
/// any input.
pub(super) struct L2Flush {
    kernel: CudaFunction,
    buffer: CudaSlice<f32>,
    /// Where `evict_l2` would store a set bit; the buffer is zero, so it never
    /// does.
    sink: CudaSlice<u32>,
    config: LaunchConfig,
}

impl L2Flush {
    /// Looks up `evict_l2` and allocates its zeroed buffer.
    pub(super) fn new(gpu: &Gpu) -> Result<L2Flush, LabError> {
        let kernel = gpu.instrument(baseline::EVICT_L2.symbol)?;
        let stream = gpu.stream();
        let floats = 2 * gpu.info.l2_bytes.max(16) / size_of::<f32>();
        let buffer =
            stream.alloc_zeros::<f32>(floats).doing(|| format!("allocating a {floats}-float L2 flush buffer"))?;
        let sink = stream.alloc_zeros::<u32>(1).doing(|| "allocating the flush's sink".to_owned())?;
        // Eight blocks of 256 threads per SM: 2,048 threads, as many as an
        // SM of Volta, Ampere or Hopper holds (a Turing SM runs them in two
        // waves), enough loads in flight to stream the buffer.
        let config = LaunchConfig {
            grid_dim: (8 * gpu.info.sm_count.max(1), 1, 1),
            block_dim: (256, 1, 1),
            shared_mem_bytes: 0,
        };
        Ok(L2Flush { kernel, buffer, sink, config })
    }

    /// Queues one flush on `gpu`'s stream.
    pub(super) fn queue(&mut self, gpu: &Gpu) -> Result<(), LabError> {
        let quads = self.buffer.len() / 4;
        let mut args = Args::new(gpu.stream(), &self.kernel, &baseline::EVICT_L2);
        let mut sink = Some(&mut self.sink);
        for param in baseline::EVICT_L2.params {
            match baseline_arg(param) {
                Arg::Buffer => args.push(param, &self.buffer),
                Arg::Quads => args.push(param, &quads),
                Arg::Sink => args.push(param, once(&mut sink, param)),
                Arg::Ns => panic!("evict_l2 takes no `{param}`"),
            }
        }
        // SAFETY: the arguments are `evict_l2`'s registry entry's `params`
        // (`Args` checks order, count and types): `buffer` is a zeroed,
        // 256-byte aligned allocation of `4 * quads` floats or more, which
        // nothing writes; `sink` is one u32. Any grid is valid.
        unsafe { args.launch(self.config) }.doing(|| "flushing L2".to_owned())
    }
}

/// The timing hold: `hold` for [`baseline::HOLD_NS`], queued before every
/// start event so the stream is busy while the host queues the timed work.
pub(super) struct Hold {
    kernel: CudaFunction,
}

impl Hold {
    /// Looks up `hold`.
    pub(super) fn new(gpu: &Gpu) -> Result<Hold, LabError> {
        Ok(Hold { kernel: gpu.instrument(baseline::HOLD.symbol)? })
    }

    /// Queues one hold on `gpu`'s stream.
    pub(super) fn queue(&self, gpu: &Gpu) -> Result<(), LabError> {
        let config = LaunchConfig { grid_dim: (1, 1, 1), block_dim: (1, 1, 1), shared_mem_bytes: 0 };
        let mut args = Args::new(gpu.stream(), &self.kernel, &baseline::HOLD);
        for param in baseline::HOLD.params {
            match baseline_arg(param) {
                Arg::Ns => args.push(param, &baseline::HOLD_NS),
                _ => panic!("hold takes no `{param}`"),
            }
        }
        // SAFETY: the arguments are `hold`'s registry entry's `params`
        // (`Args` checks them); it touches no memory, and one thread is its
        // launch shape.
        unsafe { args.launch(config) }.doing(|| "queueing the timing hold".to_owned())
    }
}

/// What `param`, a baseline kernel's parameter, is for.
fn baseline_arg(param: &layout::Param) -> Arg {
    let ParamRole::Baseline(arg) = param.role else { panic!("`{param}` is no baseline argument") };
    arg
}
