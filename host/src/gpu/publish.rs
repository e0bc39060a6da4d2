//! The typed wrapper for the `publish` kernels: their geometry, buffers and
//! counters.

use cudarc::driver::{CudaFunction, LaunchConfig, PushKernelArg};

use super::Gpu;
use super::driver_error::DriverContext;
use crate::error::LabError;

/// The four publication variants, in the order the README discusses them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PublishVariant {
    /// The page's example: `st.release.cta` / `ld.acquire.cta` in one block.
    BlockReleaseAcquire,
    /// Both flag operations relaxed, in one block.
    BlockRelaxed,
    /// `st.release.gpu` / `ld.acquire.gpu` across two blocks.
    GridReleaseAcquire,
    /// `st.release.cta` / `ld.acquire.cta` across two blocks.
    GridWrongScope,
}

impl PublishVariant {
    /// All four.
    pub const ALL: [PublishVariant; 4] = [
        PublishVariant::BlockReleaseAcquire,
        PublishVariant::BlockRelaxed,
        PublishVariant::GridReleaseAcquire,
        PublishVariant::GridWrongScope,
    ];

    /// The `.entry` name in the PTX.
    pub const fn symbol(self) -> &'static str {
        match self {
            PublishVariant::BlockReleaseAcquire => "publish_block_release_acquire",
            PublishVariant::BlockRelaxed => "publish_block_relaxed",
            PublishVariant::GridReleaseAcquire => "publish_grid_release_acquire",
            PublishVariant::GridWrongScope => "publish_grid_wrong_scope",
        }
    }

    /// Where producer and consumer are.
    pub const fn participants(self) -> &'static str {
        match self {
            PublishVariant::BlockReleaseAcquire | PublishVariant::BlockRelaxed => "same block",
            PublishVariant::GridReleaseAcquire | PublishVariant::GridWrongScope => "two blocks",
        }
    }

    /// The scope of the flag operations.
    pub const fn scope(self) -> &'static str {
        match self {
            PublishVariant::GridReleaseAcquire => "device (.gpu)",
            _ => "block (.cta)",
        }
    }

    /// The ordering of the flag operations.
    pub const fn ordering(self) -> &'static str {
        match self {
            PublishVariant::BlockRelaxed => "relaxed",
            _ => "release/acquire",
        }
    }

    /// Whether the memory model guarantees the consumer sees `{42, 3.5}`.
    pub const fn guaranteed(self) -> bool {
        matches!(self, PublishVariant::BlockReleaseAcquire | PublishVariant::GridReleaseAcquire)
    }

    const fn across_blocks(self) -> bool {
        matches!(self, PublishVariant::GridReleaseAcquire | PublishVariant::GridWrongScope)
    }
}

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
}

impl PublishGeometry {
    /// Same-block variants: 16 blocks of 64 threads per SM, each an
    /// independent copy of the page's example. Cross-block variants: 16 blocks
    /// of 32 threads per SM, so every producer is resident beside its
    /// consumer (a Hopper SM holds 32 blocks). Both give
    /// `sm_count * 16384` pairs per launch.
    pub fn for_device(variant: PublishVariant, sm_count: u32) -> PublishGeometry {
        let budget_ns = 1_000_000_000;
        if variant.across_blocks() {
            PublishGeometry { blocks: sm_count * 16, threads: 32, rounds: 2048, budget_ns }
        } else {
            PublishGeometry { blocks: sm_count * 16, threads: 64, rounds: 1024, budget_ns }
        }
    }

    /// Producer/consumer pairs that meet per launch.
    pub fn pairs_per_launch(self, variant: PublishVariant) -> u64 {
        let pairs = if variant.across_blocks() { self.blocks / 2 } else { self.blocks };
        u64::from(pairs) * u64::from(self.rounds)
    }
}

/// What the consumers of every launch saw, summed.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PublishCounts {
    /// Launches run.
    pub launches: usize,
    /// Pairs in which the consumer saw the flag and read the record.
    pub pairs: u64,
    /// Of those, records that were not `{42, 3.5}`.
    pub stale: u64,
    /// Waits that passed the deadline without seeing the flag.
    pub timeouts: u64,
    /// The record the first consumer of the last launch read last, as
    /// `(id, score)`: the page's `observed[0]`.
    pub observed: (i32, f32),
}

/// The four publication kernels, loaded.
pub struct PublishKernels<'gpu> {
    gpu: &'gpu Gpu,
    functions: [CudaFunction; 4],
}

impl<'gpu> PublishKernels<'gpu> {
    /// Looks the kernels up in the GPU's module.
    pub fn load(gpu: &'gpu Gpu) -> Result<Self, LabError> {
        let [a, b, c, d] = PublishVariant::ALL.map(|v| gpu.function(v.symbol()));
        Ok(PublishKernels { gpu, functions: [a?, b?, c?, d?] })
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
        let consumers = if variant.across_blocks() { geometry.blocks / 2 } else { geometry.blocks } as usize;
        // Slot = { id: i32, score: f32, ready: u32, padding: u32 }: 4 words.
        let slot_words = if variant.across_blocks() { consumers * geometry.rounds as usize * 4 } else { 1 };
        let mut slots = stream.alloc_zeros::<u32>(slot_words).doing(|| doing("allocating slots"))?;
        // Record = { id: i32, score: f32 }: 2 words per consumer.
        let mut observed = stream.alloc_zeros::<u32>(consumers * 2).doing(|| doing("allocating records"))?;
        let mut totals = stream.alloc_zeros::<u32>(3).doing(|| doing("allocating counters"))?;
        let mut counts = PublishCounts { launches, pairs: 0, stale: 0, timeouts: 0, observed: (0, 0.0) };

        let config = LaunchConfig {
            grid_dim: (geometry.blocks, 1, 1),
            block_dim: (geometry.threads, 1, 1),
            shared_mem_bytes: if variant.across_blocks() { 0 } else { 16 },
        };
        let function = &self.functions[variant as usize];
        for _ in 0..launches {
            // Each launch starts from zeroed slots and counters, so a stale
            // read is one that sees the `{0, 0}` written here.
            stream.memset_zeros(&mut slots).doing(|| doing("zeroing slots"))?;
            stream.memset_zeros(&mut totals).doing(|| doing("zeroing counters"))?;
            let mut args = stream.launch_builder(function);
            if variant.across_blocks() {
                args.arg(&mut slots);
            }
            args.arg(&geometry.rounds).arg(&geometry.budget_ns).arg(&mut observed).arg(&mut totals);
            // SAFETY: the arguments match the kernel's signature,
            // `([slots: *mut Slot,] rounds: u32, budget_ns: u64,
            // observed: *mut Record, totals: *mut u32)`, the slots only for
            // the cross-block kernels. `slots` holds `consumers * rounds`
            // zeroed slots, `observed` one record per consumer and `totals`
            // three counters; `config` gives the block shape and shared
            // bytes the kernel's doc requires.
            unsafe { args.launch(config) }.doing(|| doing("launching"))?;
            let launch_totals = stream.clone_dtoh(&totals).doing(|| doing("reading counters"))?;
            counts.pairs += u64::from(launch_totals[0]);
            counts.stale += u64::from(launch_totals[1]);
            counts.timeouts += u64::from(launch_totals[2]);
        }
        let records = stream.clone_dtoh(&observed).doing(|| doing("reading records"))?;
        counts.observed = (records[0] as i32, f32::from_bits(records[1]));
        Ok(counts)
    }
}
