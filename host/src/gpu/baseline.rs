//! The yardsticks the bench measures kernels against, in the same process:
//! the device's own copy bandwidth and the cost of an empty launch; and the
//! two kernels every timed launch is queued behind: the flush that makes a
//! measurement cold, and the hold that keeps the host's queueing out of it.

use cudarc::driver::{CudaFunction, CudaSlice, LaunchConfig};
use layout::ParamRole;
use layout::baseline::{self, Arg};

use super::Gpu;
use super::args::{Args, Launch, max_active_clusters, once};
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

/// What [`cluster_probe`] saw in one block: [`baseline::PROBE_WORDS`] words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbeReport {
    /// The block's rank in its cluster (`%cluster_ctarank`).
    pub rank: u32,
    /// Blocks in its cluster (`%cluster_nctarank`).
    pub size: u32,
    /// Its cluster's index in the grid (`%clusterid.x`).
    pub cluster: u32,
    /// The block index the next rank of its cluster stored in its own shared
    /// memory, read through distributed shared memory.
    pub neighbour_block: u32,
}

/// Launches `cluster_probe` (Hopper module) over `clusters` clusters of
/// `cluster` blocks of `threads` threads, and returns each block's report,
/// in block order. On a GPU without the Hopper module, the one-line error
/// that says so.
pub fn cluster_probe(gpu: &Gpu, clusters: u32, cluster: u32, threads: u32) -> Result<Vec<ProbeReport>, LabError> {
    let function = gpu.function_of(&baseline::CLUSTER_PROBE)?;
    let blocks = clusters * cluster;
    let stream = gpu.stream();
    let words = blocks as usize * baseline::PROBE_WORDS;
    let mut report = stream.alloc_zeros::<u32>(words).doing(|| "allocating the cluster probe's report".to_owned())?;
    let config = LaunchConfig {
        grid_dim: (blocks, 1, 1),
        block_dim: (threads, 1, 1),
        shared_mem_bytes: baseline::PROBE_SHARED_BYTES.bytes(threads, 0),
    };
    let mut args = Args::new(stream, &function, &baseline::CLUSTER_PROBE);
    let mut out = Some(&mut report);
    for param in baseline::CLUSTER_PROBE.params {
        match baseline_arg(param) {
            Arg::Report => args.push(param, once(&mut out, param)),
            _ => panic!("cluster_probe takes no `{param}`"),
        }
    }
    let doing = || format!("launching cluster_probe ({clusters} clusters of {cluster} blocks of {threads})");
    // SAFETY: the arguments are `cluster_probe`'s registry entry's `params`
    // (`Args` checks them); `report` holds `PROBE_WORDS` words per block, the
    // grid is a whole number of clusters, and the block gets the one shared
    // `u32` the kernel stores into.
    unsafe { args.launch_as(config, Launch::Clusters(cluster)) }.doing(doing)?;
    let words = stream.clone_dtoh(&report).doing(|| "reading the cluster probe's report".to_owned())?;
    Ok(words
        .chunks_exact(baseline::PROBE_WORDS)
        .map(|w| ProbeReport { rank: w[0], size: w[1], cluster: w[2], neighbour_block: w[3] })
        .collect())
}

/// How many clusters of `cluster` blocks of `threads` threads of
/// `cluster_probe` the device holds at once.
pub fn probe_max_active_clusters(gpu: &Gpu, cluster: u32, threads: u32) -> Result<u32, LabError> {
    let function = gpu.function_of(&baseline::CLUSTER_PROBE)?;
    let config = LaunchConfig {
        grid_dim: (cluster, 1, 1),
        block_dim: (threads, 1, 1),
        shared_mem_bytes: baseline::PROBE_SHARED_BYTES.bytes(threads, 0),
    };
    max_active_clusters(gpu.stream(), &function, config, cluster)
        .doing(|| format!("asking how many clusters of {cluster} blocks fit"))
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
                Arg::Ns | Arg::Report => panic!("evict_l2 takes no `{param}`"),
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
