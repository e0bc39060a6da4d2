//! The typed wrapper for the litmus kernels: the buffers of the testing
//! environment, the test launch and the classifying launch after it.

use std::time::Instant;

use cudarc::driver::{CudaFunction, CudaSlice, LaunchConfig};
use layout::litmus::{self, Arg, BINS, Params, REGISTERS};
use layout::{Param, ParamRole};

use super::args::{Args, Launch, max_active_clusters, once};
use super::device_repr::OnDevice;
use super::driver_error::DriverContext;
use super::registry::Kernel;
use super::{Functions, Gpu};
use crate::error::LabError;
use crate::interrupt;

/// One litmus kernel (a test in one variant): a handle on its
/// `layout::litmus` registry entry.
pub type LitmusKernel = Kernel<litmus::Kernel>;

/// When a run stops: after at least this many instances, or this much time.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Budget {
    /// Launch until at least this many instances have run.
    Instances(u64),
    /// Launch until this many seconds have passed (checked between batches).
    Seconds(f64),
}

/// What one run of one kernel in one environment counted.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LitmusCounts {
    /// Test launches (each followed by a classifying launch).
    pub launches: u64,
    /// Instances run: launches times instances per launch.
    pub instances: u64,
    /// Instances per outcome bin (`layout::litmus::outcome_bin`).
    pub histogram: Vec<u64>,
    /// Wall-clock seconds from the first launch to the last result.
    pub seconds: f64,
}

/// The litmus kernels, loaded.
pub struct LitmusKernels<'gpu> {
    gpu: &'gpu Gpu,
    functions: Functions,
    classify: CudaFunction,
}

impl<'gpu> LitmusKernels<'gpu> {
    /// Looks up every litmus kernel and the classifier.
    pub fn load(gpu: &'gpu Gpu) -> Result<Self, LabError> {
        Ok(LitmusKernels {
            gpu,
            functions: gpu.functions::<litmus::Kernel>()?,
            classify: gpu.function(litmus::CLASSIFY.symbol)?,
        })
    }

    /// Blocks of `threads` threads of `kernel` that fit on the device at once:
    /// the most a launch may have, since testing blocks wait for each other
    /// and stressing blocks must run beside them.
    pub fn resident_blocks(&self, kernel: LitmusKernel, threads: u32) -> Result<u32, LabError> {
        let per_sm = self
            .functions
            .get(kernel.index())?
            .occupancy_max_active_blocks_per_multiprocessor(threads, 0, None)
            .doing(|| format!("asking the occupancy of {}", kernel.symbol()))?;
        Ok(per_sm.max(1) * self.gpu.info.sm_count)
    }

    /// Blocks of `threads` threads of `kernel` that fit on the device at
    /// once in clusters of `cluster` blocks (`cuOccupancyMaxActiveClusters`
    /// times the cluster size): the most a cluster placement's launch may
    /// have. A cluster's blocks run on one GPU processing cluster, so fewer
    /// fit than without clusters. Below compute capability 9.0 the one-line
    /// refusal of the Hopper module.
    pub fn resident_cluster_blocks(&self, kernel: LitmusKernel, threads: u32, cluster: u32) -> Result<u32, LabError> {
        self.gpu.hopper()?;
        let function = self.functions.get(kernel.index())?;
        let config = LaunchConfig { grid_dim: (cluster, 1, 1), block_dim: (threads, 1, 1), shared_mem_bytes: 0 };
        let clusters = max_active_clusters(self.gpu.stream(), function, config, cluster)
            .doing(|| format!("asking how many clusters of {cluster} blocks of {} fit", kernel.symbol()))?;
        Ok(clusters.max(1) * cluster)
    }

    /// Runs `kernel` in `params`' environment on a grid of `grid` blocks until
    /// `budget` is spent, checking the clock every `batch` launches (in
    /// clusters of [`Params::cluster_blocks`] blocks when that is above 1:
    /// the cluster placements, on compute capability 9.0 only); `shift`
    /// gives each launch's block rotation. At each of those checks, Ctrl-C
    /// ([`interrupt::requested`]) ends the run early, with what it counted so
    /// far. Every launch's outcomes are counted on the device; the histogram
    /// is copied back once, at the end.
    pub fn run(
        &self,
        kernel: LitmusKernel,
        params: Params,
        grid: u32,
        budget: Budget,
        batch: u32,
        shift: impl FnMut() -> u32,
    ) -> Result<LitmusCounts, LabError> {
        self.run_function(self.functions.get(kernel.index())?, kernel, params, grid, budget, batch, shift)
    }

    /// As [`LitmusKernels::run`], with `function` launched in place of
    /// `kernel`'s own: a mutant of it ([`crate::litmus::mutants`]), which
    /// takes the same arguments and so the same buffers and classifier.
    #[allow(clippy::too_many_arguments)]
    pub fn run_function(
        &self,
        function: &CudaFunction,
        kernel: LitmusKernel,
        params: Params,
        grid: u32,
        budget: Budget,
        batch: u32,
        mut shift: impl FnMut() -> u32,
    ) -> Result<LitmusCounts, LabError> {
        let stream = self.gpu.stream();
        let doing = |what: &str| format!("{what} for {}", kernel.symbol());
        let instances = params.instances() as usize;
        let device_params = stream.clone_htod(&[OnDevice(params)]).doing(|| doing("copying the parameters"))?;
        let mut locations =
            stream.alloc_zeros::<u32>(params.location_words()).doing(|| doing("allocating locations"))?;
        let mut results = stream.alloc_zeros::<u32>(instances * REGISTERS).doing(|| doing("allocating registers"))?;
        let mut stress =
            stream.alloc_zeros::<u32>(params.stress_words().max(1)).doing(|| doing("allocating stress"))?;
        let mut control = stream.alloc_zeros::<u32>(1).doing(|| doing("allocating the start counter"))?;
        let mut histogram = stream.alloc_zeros::<u64>(BINS).doing(|| doing("allocating the histogram"))?;

        let test = LaunchConfig { grid_dim: (grid, 1, 1), block_dim: (params.threads, 1, 1), shared_mem_bytes: 0 };
        // The cluster placements launch in clusters of the size their map
        // assumes, which only a Hopper GPU has; the grid is whole clusters.
        let how = match params.cluster_blocks {
            0 | 1 => Launch::Ordinary,
            cluster => {
                self.gpu.hopper()?;
                if !grid.is_multiple_of(cluster) || !params.testing_blocks.is_multiple_of(cluster) {
                    return Err(LabError::Unrunnable(format!(
                        "{}: a grid of {grid} blocks ({} testing) is not whole clusters of {cluster}",
                        kernel.symbol(),
                        params.testing_blocks
                    )));
                }
                Launch::Clusters(cluster)
            }
        };
        let classify_blocks = (instances as u32).div_ceil(256).clamp(1, self.gpu.info.sm_count * 8);
        let classify = LaunchConfig {
            grid_dim: (classify_blocks, 1, 1),
            block_dim: (256, 1, 1),
            shared_mem_bytes: (BINS * size_of::<u32>()) as u32,
        };
        let started = Instant::now();
        let mut launches = 0u64;
        loop {
            for _ in 0..batch {
                let shift = shift();
                let mut args = Args::new(stream, function, kernel.entry());
                let mut buffers = Buffers::of(&mut locations, &mut results, &mut stress, &mut control, None);
                for param in kernel.entry().params {
                    buffers.push(&mut args, param, &device_params, &shift);
                }
                // SAFETY: the arguments are the kernel's registry entry's
                // `params` (`Args` checks order, count and types; a mutant
                // has its kernel's parameters), with
                // `Params` from `layout`. The buffers have
                // `location_words()`, four per instance, `stress_words()` and
                // one word; the classifier below zeroes locations, registers
                // and counter after every launch (they start zeroed). `grid`
                // is at most the resident blocks, and in a cluster launch
                // whole clusters of the size `params` maps instances with
                // (checked above); the kernels use no cluster hardware, so
                // any cluster size is within their contract.
                unsafe { args.launch_as(test, how) }.doing(|| doing("launching"))?;
                let mut args = Args::new(stream, &self.classify, &litmus::CLASSIFY);
                let mut buffers =
                    Buffers::of(&mut locations, &mut results, &mut stress, &mut control, Some(&mut histogram));
                for param in litmus::CLASSIFY.params {
                    buffers.push(&mut args, param, &device_params, &shift);
                }
                // SAFETY: `litmus_classify`'s registry entry's `params`
                // (`Args` checks them) over the same buffers, with `BINS` u64
                // counters and `BINS` u32s of shared memory.
                unsafe { args.launch(classify) }.doing(|| "launching litmus_classify".to_owned())?;
                launches += 1;
            }
            stream.synchronize().doing(|| doing("waiting for launches"))?;
            let done = match budget {
                Budget::Instances(n) => launches * instances as u64 >= n,
                Budget::Seconds(s) => started.elapsed().as_secs_f64() >= s,
            };
            if done || interrupt::requested() {
                break;
            }
        }
        let mut histogram = stream.clone_dtoh(&histogram).doing(|| doing("reading the histogram"))?;
        // A test whose outcome is its registers never reaches the bins past
        // its first 17, and keeps the histogram its recorded results have.
        histogram.truncate(kernel.test.bins());
        Ok(LitmusCounts {
            launches,
            instances: launches * instances as u64,
            histogram,
            seconds: started.elapsed().as_secs_f64(),
        })
    }
}

/// The device buffers of one litmus launch, each pushed at most once: the
/// test kernels and the classifier take different subsets, in different
/// orders, of the same ones.
struct Buffers<'a> {
    locations: Option<&'a mut CudaSlice<u32>>,
    results: Option<&'a mut CudaSlice<u32>>,
    stress: Option<&'a mut CudaSlice<u32>>,
    control: Option<&'a mut CudaSlice<u32>>,
    histogram: Option<&'a mut CudaSlice<u64>>,
}

impl<'a> Buffers<'a> {
    /// The buffers a launch may take; `histogram` only the classifier's.
    fn of(
        locations: &'a mut CudaSlice<u32>,
        results: &'a mut CudaSlice<u32>,
        stress: &'a mut CudaSlice<u32>,
        control: &'a mut CudaSlice<u32>,
        histogram: Option<&'a mut CudaSlice<u64>>,
    ) -> Self {
        Buffers {
            locations: Some(locations),
            results: Some(results),
            stress: Some(stress),
            control: Some(control),
            histogram,
        }
    }

    /// Pushes the value of `param` (a litmus argument) onto `args`.
    fn push(&mut self, args: &mut Args<'a>, param: &Param, params: &'a CudaSlice<OnDevice<Params>>, shift: &'a u32) {
        let ParamRole::Litmus(arg) = param.role else { panic!("`{param}` is no litmus argument") };
        match arg {
            Arg::Params => args.push(param, params),
            Arg::Shift => args.push(param, shift),
            Arg::Locations => args.push(param, once(&mut self.locations, param)),
            Arg::Results => args.push(param, once(&mut self.results, param)),
            Arg::Stress => args.push(param, once(&mut self.stress, param)),
            Arg::Control => args.push(param, once(&mut self.control, param)),
            Arg::Histogram => args.push(param, once(&mut self.histogram, param)),
        }
    }
}
