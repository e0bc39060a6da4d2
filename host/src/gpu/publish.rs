//! The typed wrapper for the `publish` kernels: their geometry, buffers and
//! counters, in the layouts of `layout::publish`.

use cudarc::driver::LaunchConfig;
use layout::ParamRole;
use layout::publish::{Arg, BLOCKS_PER_SM, Counts, Memory, Payload, Slot, Variant};

use super::args::{Args, Launch, once};
use super::device_repr::OnDevice;
use super::driver_error::DriverContext;
use super::registry::Kernel;
use super::{Functions, Gpu};
use crate::error::LabError;

/// One of the publication variants: a handle on its `layout::publish`
/// registry entry.
pub type PublishVariant = Kernel<Variant>;

/// How much work one launch does, from the device's SM count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PublishGeometry {
    /// Blocks per launch.
    pub blocks: u32,
    /// Threads per block.
    pub threads: u32,
    /// Producer/consumer rounds each pair runs per launch.
    pub rounds: u32,
    /// Each consumer's time budget in nanoseconds before waits time out.
    pub budget_ns: u64,
    /// Across blocks: where each round's flag sits.
    pub flags: FlagPlacement,
    /// Across blocks: the consumer reads the payload once before it waits.
    pub preload: bool,
    /// Across blocks: nanoseconds the producer waits before each round.
    #[serde(default)]
    pub delay_ns: u32,
}

/// Where a cross-block round keeps its flag (`--flag`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum FlagPlacement {
    /// In the round's own 16-byte slot, beside the payload: the page's layout.
    SameSlot,
    /// Half the slots away: another line, likely in another L2 slice, so the
    /// flag and the payload travel as two lines, and a consumer can see one
    /// before the other.
    Apart,
}

impl PublishGeometry {
    /// [`BLOCKS_PER_SM`] blocks per SM, of the placement's threads. Same
    /// block: each block an independent copy of the page's example, 64
    /// threads. Across blocks: 32 threads, so every producer is resident
    /// beside its consumer (a Hopper SM holds 32 blocks). Both give
    /// `sm_count * 16384` pairs per launch at the default rounds.
    ///
    /// The cluster variants take the cross-block shape, launched in clusters
    /// of two: each cluster is one pair.
    pub fn for_device(variant: PublishVariant, sm_count: u32) -> PublishGeometry {
        let placement = variant.placement;
        PublishGeometry {
            blocks: sm_count * BLOCKS_PER_SM,
            threads: placement.threads(),
            rounds: placement.default_rounds(),
            budget_ns: 1_000_000_000,
            flags: FlagPlacement::Apart,
            preload: false,
            delay_ns: 0,
        }
    }

    /// Producer/consumer pairs that meet per launch.
    pub fn pairs_per_launch(self, variant: PublishVariant) -> u64 {
        u64::from(variant.placement.pairs(self.blocks)) * u64::from(self.rounds)
    }
}

/// What the consumers of every launch saw, summed.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PublishCounts {
    /// Launches run.
    pub launches: usize,
    /// Pairs in which the consumer saw the flag and read the payload.
    pub pairs: u64,
    /// Of those, payloads that were not `{42, 3.5}`.
    pub stale: u64,
    /// Waits that passed the deadline without seeing the flag.
    pub timeouts: u64,
    /// The payload the first consumer of the last launch read last, as
    /// `(id, score)`: the page's `observed[0]`.
    pub observed: (i32, f32),
}

/// The publication kernels, loaded.
pub struct PublishKernels<'gpu> {
    gpu: &'gpu Gpu,
    /// One per registry entry, in registry order.
    functions: Functions,
}

impl<'gpu> PublishKernels<'gpu> {
    /// Looks the kernels up in the GPU's module.
    pub fn load(gpu: &'gpu Gpu) -> Result<Self, LabError> {
        Ok(PublishKernels { gpu, functions: gpu.functions::<Variant>()? })
    }

    /// Runs `variant` `launches` times with `geometry` and sums the counts.
    pub fn run(
        &self,
        variant: PublishVariant,
        geometry: PublishGeometry,
        launches: usize,
    ) -> Result<PublishCounts, LabError> {
        let stream = self.gpu.stream();
        let doing = |what: &str| format!("{what} for {}", variant.symbol());
        // Only a record in global memory needs `slots`.
        let across = variant.memory == Memory::Global;
        let consumers = variant.placement.pairs(geometry.blocks) as usize;
        // Cross-block pairs keep one slot per round in global memory; a
        // same-block pair keeps its slot in shared memory, and the argument is
        // not passed.
        let slot_count = if across { consumers * geometry.rounds as usize } else { 1 };
        let mut slots = stream.alloc_zeros::<OnDevice<Slot>>(slot_count).doing(|| doing("allocating slots"))?;
        let mut observed = stream.alloc_zeros::<OnDevice<Payload>>(consumers).doing(|| doing("allocating payloads"))?;
        let mut totals = stream.alloc_zeros::<OnDevice<Counts>>(1).doing(|| doing("allocating counters"))?;
        let mut counts = PublishCounts { launches, pairs: 0, stale: 0, timeouts: 0, observed: (0, 0.0) };

        let config = LaunchConfig {
            grid_dim: (geometry.blocks, 1, 1),
            block_dim: (geometry.threads, 1, 1),
            shared_mem_bytes: variant.memory.shared().bytes(geometry.threads, 0),
        };
        // The cluster variants pair the two blocks of each cluster.
        let launch = variant.cluster().map_or(Launch::Ordinary, Launch::Clusters);
        let function = self.functions.get(variant.index())?;
        let flag_apart = match geometry.flags {
            FlagPlacement::SameSlot => 0u32,
            FlagPlacement::Apart => (slot_count / 2) as u32,
        };
        let preload = u32::from(geometry.preload);
        for _ in 0..launches {
            // Each launch starts from zeroed slots and counters, so a stale
            // read is one that sees the `{0, 0}` written here.
            stream.memset_zeros(&mut slots).doing(|| doing("zeroing slots"))?;
            stream.memset_zeros(&mut totals).doing(|| doing("zeroing counters"))?;
            let mut args = Args::new(stream, function, variant.entry());
            let (mut slots_arg, mut observed_arg, mut totals_arg) =
                (Some(&mut slots), Some(&mut observed), Some(&mut totals));
            for param in variant.entry().params {
                let ParamRole::Publish(arg) = param.role else {
                    panic!("{}: `{param}` is no publication argument", variant.symbol())
                };
                match arg {
                    Arg::Slots => args.push(param, once(&mut slots_arg, param)),
                    Arg::Rounds => args.push(param, &geometry.rounds),
                    Arg::BudgetNs => args.push(param, &geometry.budget_ns),
                    Arg::FlagApart => args.push(param, &flag_apart),
                    Arg::Preload => args.push(param, &preload),
                    Arg::DelayNs => args.push(param, &geometry.delay_ns),
                    Arg::Observed => args.push(param, once(&mut observed_arg, param)),
                    Arg::Totals => args.push(param, once(&mut totals_arg, param)),
                }
            }
            // SAFETY: the arguments are the variant's registry entry's
            // `params` (`Args` checks order, count and types): a same-block
            // kernel keeps its slot in shared memory and takes no `slots`.
            // `slots` holds `consumers * rounds` zeroed slots (the kernel
            // takes the flag offset mod that count), `observed` one payload
            // per consumer and `totals` one `Counts`; `config` gives the
            // placement's block shape and its memory's shared bytes; a
            // cluster variant's grid (`sm_count * 16` blocks) is a whole
            // number of clusters of two.
            unsafe { args.launch_as(config, launch) }.doing(|| doing("launching"))?;
            // One `Counts` was allocated, so one comes back.
            let launch_totals = stream.clone_dtoh(&totals).doing(|| doing("reading counters"))?[0].0;
            counts.pairs += u64::from(launch_totals.pairs);
            counts.stale += u64::from(launch_totals.stale);
            counts.timeouts += u64::from(launch_totals.timeouts);
        }
        let payloads = stream.clone_dtoh(&observed).doing(|| doing("reading payloads"))?;
        let first = payloads.first().map_or(Payload::EMPTY, |p| p.0);
        counts.observed = (first.id, first.score);
        Ok(counts)
    }
}
