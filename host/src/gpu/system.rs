//! The typed wrapper for the `system` kernels: the GPU's half of a
//! publication with a CPU thread through mapped host memory, launched while
//! CPU threads (`crate::cpu_agent`) do the other half.
//!
//! One launch is one round over every slot: the kernel is queued, the CPU
//! threads run their stripes of the same slots at once (a launch returns as
//! soon as it is queued), then the host joins them and waits for the stream.
//! Flags carry the round, so nothing is reset between launches, and the
//! mapped memory is allocated once per [`SystemKernels::run`].
//!
//! # Expected rate
//!
//! A slot is 20 bytes of mapped host memory (a 16-byte record and a 4-byte
//! flag) crossing the bus once, written by one side and read by the other.
//! At the default 2^20 slots a launch moves 20 MiB each way over PCIe, which
//! at the tens of GB/s of a PCIe 5 link is on the order of a millisecond,
//! plus the CPU threads' pass over the same memory; so each launch should
//! take milliseconds, and the default 100 launches (over 10^8 pairs) tens of
//! seconds at most. A GPU consumer's spins cross the bus too, which can make
//! the CPU-to-GPU direction slower than the other. These are expectations
//! only: the rates the lab reports are measured on the GPU.

use std::sync::atomic::AtomicU32;
use std::time::{Duration, Instant};

use cudarc::driver::LaunchConfig;
use layout::ParamRole;
use layout::publish::Counts;
use layout::system::{Arg, BLOCKS_PER_SM, DEFAULT_SLOTS, Direction, THREADS, VARIANTS, Variant};

use super::args::{Args, once};
use super::device_repr::OnDevice;
use super::driver_error::DriverContext;
use super::host_memory::HostMapped;
use super::registry::Kernel;
use super::{Functions, Gpu};
use crate::cpu_agent::{self, AtomicRecord, HostCounts};
use crate::error::LabError;

/// One of the family's GPU kernels: a handle on its `layout::system`
/// registry entry.
pub type SystemKernel = Kernel<layout::system::Kernel>;

/// One variant of `layout::system::VARIANTS` (a kernel and the CPU's
/// ordering), named by its `name` in JSON.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SystemVariant(usize);

impl SystemVariant {
    /// Every variant, in registry order.
    pub fn all() -> impl Iterator<Item = SystemVariant> {
        (0..VARIANTS.len()).map(SystemVariant)
    }

    /// The variant named `name`.
    pub fn from_name(name: &str) -> Option<SystemVariant> {
        VARIANTS.iter().position(|v| v.name == name).map(SystemVariant)
    }

    /// The handle of `spec`, one of `VARIANTS`.
    ///
    /// # Panics
    ///
    /// If `spec` is not in the registry (a constant built elsewhere).
    pub fn of(spec: &Variant) -> SystemVariant {
        SystemVariant::from_name(spec.name).unwrap_or_else(|| panic!("{} is not a system variant", spec.name))
    }

    /// Its registry entry.
    pub fn spec(self) -> &'static Variant {
        &VARIANTS[self.0]
    }

    /// Its GPU kernel's handle.
    pub fn kernel(self) -> SystemKernel {
        SystemKernel::of(&self.spec().kernel)
    }
}

impl std::ops::Deref for SystemVariant {
    type Target = Variant;
    fn deref(&self) -> &Variant {
        self.spec()
    }
}

impl std::fmt::Debug for SystemVariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

impl serde::Serialize for SystemVariant {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name)
    }
}

impl<'de> serde::Deserialize<'de> for SystemVariant {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        SystemVariant::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown system-scope variant `{name}`")))
    }
}

/// How much work one launch does, and how many CPU threads take part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SystemGeometry {
    /// Blocks per launch.
    pub blocks: u32,
    /// Threads per block.
    pub threads: u32,
    /// Slots per launch: one pair each.
    pub slots: u32,
    /// CPU threads, each taking one contiguous stripe of the slots.
    pub cpu_threads: u32,
    /// Each consumer's time budget per launch (a GPU thread's from its start,
    /// a CPU thread's from the launch), in nanoseconds.
    pub budget_ns: u64,
}

impl SystemGeometry {
    /// [`BLOCKS_PER_SM`] blocks of [`THREADS`] per SM, [`DEFAULT_SLOTS`]
    /// slots, `cpu_threads` CPU threads and a one-second budget.
    pub fn for_device(sm_count: u32, cpu_threads: u32) -> SystemGeometry {
        SystemGeometry {
            blocks: sm_count * BLOCKS_PER_SM,
            threads: THREADS,
            slots: DEFAULT_SLOTS,
            cpu_threads,
            budget_ns: 1_000_000_000,
        }
    }

    /// Half the CPUs this process may use, at least one and at most eight:
    /// enough consumers to keep up with the bus, and CPUs left for the
    /// driver's own thread and the rest of the machine.
    pub fn default_cpu_threads() -> u32 {
        let cpus = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
        (cpus / 2).clamp(1, 8) as u32
    }
}

/// What one variant's launches saw, summed.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SystemCounts {
    /// Launches (rounds) run.
    pub launches: usize,
    /// Pairs, stale records and timeouts, from the consumers of every launch.
    #[serde(flatten)]
    pub counts: HostCounts,
    /// Wall-clock seconds of the launches, CPU halves included, from the
    /// first launch's queueing to the last one's end.
    pub wall_s: f64,
}

/// The system-scope kernels, loaded.
pub struct SystemKernels<'gpu> {
    gpu: &'gpu Gpu,
    /// One per registry entry, in registry order.
    functions: Functions,
}

impl<'gpu> SystemKernels<'gpu> {
    /// Looks the kernels up in the GPU's module.
    pub fn load(gpu: &'gpu Gpu) -> Result<Self, LabError> {
        Ok(SystemKernels { gpu, functions: gpu.functions::<layout::system::Kernel>()? })
    }

    /// Runs `variant` for `launches` rounds with `geometry` and sums what
    /// its consumers saw.
    pub fn run(
        &self,
        variant: SystemVariant,
        geometry: SystemGeometry,
        launches: usize,
    ) -> Result<SystemCounts, LabError> {
        let kernel = variant.kernel();
        let stream = self.gpu.stream();
        let doing = |what: &str| format!("{what} for {}", kernel.symbol());
        let slots = geometry.slots as usize;
        let records = HostMapped::<AtomicRecord>::zeroed(self.gpu, slots)?;
        let flags = HostMapped::<AtomicU32>::zeroed(self.gpu, slots)?;
        let mut totals = stream.alloc_zeros::<OnDevice<Counts>>(1).doing(|| doing("allocating counters"))?;
        let config = LaunchConfig {
            grid_dim: (geometry.blocks, 1, 1),
            block_dim: (geometry.threads, 1, 1),
            shared_mem_bytes: 0,
        };
        let function = self.functions.get(kernel.index())?;
        let stripes = cpu_agent::stripes(slots, geometry.cpu_threads as usize);
        let budget = Duration::from_nanos(geometry.budget_ns);
        let mut counts = HostCounts::default();
        let clock = Instant::now();
        for launch in 0..launches {
            // Round 0 is the zeroed memory's, so rounds start at 1.
            let round = u32::try_from(launch + 1).map_err(|_| LabError::Driver {
                doing: doing("numbering rounds"),
                error: format!("{launches} launches is more rounds than a u32 flag holds"),
            })?;
            if kernel.direction == Direction::CpuToGpu {
                stream.memset_zeros(&mut totals).doing(|| doing("zeroing counters"))?;
            }
            let mut args = Args::new(stream, function, kernel.entry());
            let mut totals_arg = Some(&mut totals);
            for param in kernel.entry().params {
                let ParamRole::System(arg) = param.role else {
                    panic!("{}: `{param}` is no system-scope argument", kernel.symbol())
                };
                let writes = matches!(param.ty, layout::Type::MutPtr(_));
                match arg {
                    Arg::Records if writes => args.push(param, records.device_write()),
                    Arg::Records => args.push(param, records.device_read()),
                    Arg::Flags if writes => args.push(param, flags.device_write()),
                    Arg::Flags => args.push(param, flags.device_read()),
                    Arg::Slots => args.push(param, &geometry.slots),
                    Arg::Round => args.push(param, &round),
                    Arg::BudgetNs => args.push(param, &geometry.budget_ns),
                    Arg::Totals => args.push(param, once(&mut totals_arg, param)),
                }
            }
            // SAFETY: the arguments are the kernel's registry entry's `params`
            // (`Args` checks order, count and types). `records` and `flags`
            // hold `slots` elements each of mapped host memory, which outlives
            // the launch: the stream is synchronized below before either can
            // be dropped, and on the only error path after the launch
            // (synchronization failing) the context is lost with the kernel.
            // `totals` is one zeroed `Counts`; `config` gives whole warps.
            unsafe { args.launch(config) }.doing(|| doing("launching"))?;
            let deadline = Instant::now() + budget;
            let (records, flags) = (records.host(), flags.host());
            let cpu = variant.cpu;
            let host = std::thread::scope(|s| {
                let workers: Vec<_> = stripes
                    .iter()
                    .cloned()
                    .map(|stripe| {
                        s.spawn(move || match kernel.direction {
                            Direction::GpuToCpu => cpu_agent::consume(records, flags, stripe, round, cpu, deadline),
                            Direction::CpuToGpu => {
                                cpu_agent::produce(records, flags, stripe, round, cpu);
                                HostCounts::default()
                            }
                        })
                    })
                    .collect();
                let mut sum = HostCounts::default();
                for worker in workers {
                    sum += worker.join().expect("a CPU agent thread panicked");
                }
                sum
            });
            stream.synchronize().doing(|| doing("waiting for the launch"))?;
            counts += host;
            if kernel.direction == Direction::CpuToGpu {
                // One `Counts` was allocated, so one comes back.
                let device = stream.clone_dtoh(&totals).doing(|| doing("reading counters"))?[0].0;
                counts += HostCounts {
                    pairs: u64::from(device.pairs),
                    stale: u64::from(device.stale),
                    timeouts: u64::from(device.timeouts),
                };
            }
        }
        Ok(SystemCounts { launches, counts, wall_s: clock.elapsed().as_secs_f64() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_serialize_as_their_names_and_back() {
        for v in SystemVariant::all() {
            let json = serde_json::to_string(&v).unwrap();
            assert_eq!(json, format!("\"{}\"", v.name));
            assert_eq!(serde_json::from_str::<SystemVariant>(&json).unwrap(), v);
        }
        assert!(serde_json::from_str::<SystemVariant>("\"gpu-cpu-nothing\"").is_err());
    }

    #[test]
    fn a_variants_kernel_is_its_registry_entrys() {
        for v in SystemVariant::all() {
            assert_eq!(*v.kernel(), v.kernel);
        }
    }

    #[test]
    fn the_default_grid_fits_any_gpu_at_once_and_takes_whole_warps() {
        let g = SystemGeometry::for_device(132, 8);
        assert_eq!(g.threads % layout::WARP_SIZE, 0);
        // 2048 resident threads an SM from Volta on.
        assert!(g.threads * (g.blocks / 132) <= 2048);
        assert!((1..=8).contains(&SystemGeometry::default_cpu_threads()));
    }
}
