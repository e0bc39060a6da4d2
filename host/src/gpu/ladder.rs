//! The scope ladder's launches: one round-trip launch per rung (the `.sys`
//! one with this thread as agent B, on mapped host memory) and the fence
//! loops. Each returns the raw nanoseconds its kernel or the host measured;
//! `commands::scopes` turns them into per-round-trip and per-fence figures.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use cudarc::driver::{CudaSlice, LaunchConfig};
use layout::ladder::{self, Arg, FLAG_WORDS, PING_WORD, PONG_WORD, REPORT_WORDS};
use layout::{Entry, ParamRole};

use super::Gpu;
use super::args::{Args, KernelArg, Launch, once};
use super::driver_error::DriverContext;
use super::host_memory::HostMapped;
use crate::error::LabError;

/// A rung of the ladder: the scope the round trip's two agents share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rung {
    /// Two warps of one block.
    Cta,
    /// Two blocks of one cluster (Hopper module).
    Cluster,
    /// Two blocks on two SMs.
    Gpu,
    /// One GPU thread and one CPU thread.
    Sys,
}

impl Rung {
    /// Every rung, narrowest first.
    pub const ALL: [Rung; 4] = [Rung::Cta, Rung::Cluster, Rung::Gpu, Rung::Sys];

    /// The scope as PTX writes it.
    pub const fn scope(self) -> &'static str {
        match self {
            Rung::Cta => ".cta",
            Rung::Cluster => ".cluster",
            Rung::Gpu => ".gpu",
            Rung::Sys => ".sys",
        }
    }

    /// Who the scope includes, in one phrase.
    pub const fn includes(self) -> &'static str {
        match self {
            Rung::Cta => "the threads of one block",
            Rung::Cluster => "the blocks of one cluster",
            Rung::Gpu => "every thread of the device",
            Rung::Sys => "the device and the host",
        }
    }

    /// The round trip's two agents, in one phrase.
    pub const fn agents(self) -> &'static str {
        match self {
            Rung::Cta => "two warps of one block, shared memory",
            Rung::Cluster => "two blocks of one cluster, distributed shared memory",
            Rung::Gpu => "two blocks on two SMs, global memory",
            Rung::Sys => "a GPU thread and a CPU thread, mapped host memory",
        }
    }

    /// The round-trip kernel's registry entry.
    pub const fn trip(self) -> &'static Entry {
        match self {
            Rung::Cta => &ladder::TRIP_CTA,
            Rung::Cluster => &ladder::TRIP_CLUSTER,
            Rung::Gpu => &ladder::TRIP_GPU,
            Rung::Sys => &ladder::TRIP_SYS,
        }
    }

    /// The fence loops at this scope: acq_rel, then sc.
    pub const fn fences(self) -> [&'static Entry; 2] {
        match self {
            Rung::Cta => [&ladder::FENCE_ACQ_REL_CTA, &ladder::FENCE_SC_CTA],
            Rung::Cluster => [&ladder::FENCE_ACQ_REL_CLUSTER, &ladder::FENCE_SC_CLUSTER],
            Rung::Gpu => [&ladder::FENCE_ACQ_REL_GPU, &ladder::FENCE_SC_GPU],
            Rung::Sys => [&ladder::FENCE_ACQ_REL_SYS, &ladder::FENCE_SC_SYS],
        }
    }
}

/// How one round-trip launch is shaped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TripShape {
    /// Batches of round trips per launch, one sample each.
    pub batches: u32,
    /// Round trips per batch.
    pub per_batch: u32,
    /// Nanoseconds each spin may last before it counts a timeout.
    pub budget_ns: u64,
}

/// What one round-trip launch measured.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TripLaunch {
    /// Agent A's `%globaltimer` nanoseconds of each completed batch.
    pub device_ns: Vec<u64>,
    /// The `.sys` rung's host agent's `Instant` nanoseconds of each
    /// completed batch (from seeing a batch's first ping to seeing the next
    /// batch's first); empty on the device rungs.
    pub host_ns: Vec<u64>,
    /// Round trips A completed.
    pub trips: u64,
    /// Timeouts of both agents (each stops at its first).
    pub timeouts: u64,
    /// The SMs A and B ran on (B's is 0 on the `.sys` rung, whose B is the
    /// CPU).
    pub sms: (u32, u32),
}

/// Runs one round-trip launch of `rung`. On a GPU without the Hopper
/// module, the `.cluster` rung is the one-line error that says so.
pub fn round_trips(gpu: &Gpu, rung: Rung, shape: TripShape) -> Result<TripLaunch, LabError> {
    let entry = rung.trip();
    let function = gpu.function_of(entry)?;
    let stream = gpu.stream();
    let doing = |what: &str| format!("{what} for {}", entry.symbol);
    let mut samples =
        stream.alloc_zeros::<u64>(shape.batches as usize).doing(|| doing("allocating the batch samples"))?;
    let mut report = stream.alloc_zeros::<u32>(REPORT_WORDS).doing(|| doing("allocating the report"))?;
    let (blocks, threads, shared, launch) = match rung {
        Rung::Cta => (1, ladder::CTA_THREADS, ladder::CTA_SHARED_BYTES.bytes(ladder::CTA_THREADS, 0), Launch::Ordinary),
        Rung::Cluster => {
            (2, ladder::PAIR_THREADS, ladder::CLUSTER_SHARED_BYTES.bytes(ladder::PAIR_THREADS, 0), Launch::Clusters(2))
        }
        Rung::Gpu => (2, ladder::PAIR_THREADS, 0, Launch::Ordinary),
        Rung::Sys => (1, ladder::PAIR_THREADS, 0, Launch::Ordinary),
    };
    let config = LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (threads, 1, 1), shared_mem_bytes: shared };
    let mut device_flags = stream.alloc_zeros::<u32>(FLAG_WORDS).doing(|| doing("allocating the flags"))?;
    let host_flags = match rung {
        Rung::Sys => Some(HostMapped::<AtomicU32>::zeroed(gpu, FLAG_WORDS)?),
        _ => None,
    };
    let mut args = Args::new(stream, &function, entry);
    let (mut samples_arg, mut report_arg) = (Some(&mut samples), Some(&mut report));
    let mut flags_arg = Some(&mut device_flags);
    for param in entry.params {
        match ladder_arg(param) {
            Arg::Flags => match &host_flags {
                Some(mapped) => push(&mut args, param, mapped.device_write()),
                None => args.push(param, once(&mut flags_arg, param)),
            },
            Arg::Batches => args.push(param, &shape.batches),
            Arg::PerBatch => args.push(param, &shape.per_batch),
            Arg::BudgetNs => args.push(param, &shape.budget_ns),
            Arg::Samples => args.push(param, once(&mut samples_arg, param)),
            Arg::Report => args.push(param, once(&mut report_arg, param)),
            Arg::Sink | Arg::Iterations | Arg::Repeats => panic!("{} takes no `{param}`", entry.symbol),
        }
    }
    // SAFETY: the arguments are the entry's `params` (`Args` checks them);
    // `samples` holds `batches` words and `report` `REPORT_WORDS` zeroed
    // ones; the flags are `FLAG_WORDS` zeroed words of device memory, or of
    // mapped host memory that outlives the kernel (the reads below wait
    // for it); the grid, block, shared bytes and cluster are the kernel's
    // `# Launch`; the host checked that `batches * per_batch` fits a `u32`.
    unsafe { args.launch_as(config, launch) }.doing(|| doing("launching"))?;
    let (host_ns, host_timeouts) = match &host_flags {
        Some(mapped) => {
            let trips = shape.batches * shape.per_batch;
            host_pong(mapped.host(), trips, shape.per_batch, Duration::from_nanos(shape.budget_ns))
        }
        None => (Vec::new(), 0),
    };
    let words = stream.clone_dtoh(&report).doing(|| doing("reading the report"))?;
    let all = stream.clone_dtoh(&samples).doing(|| doing("reading the samples"))?;
    let trips = u64::from(words[ladder::TRIPS]);
    let done = (trips / u64::from(shape.per_batch.max(1))) as usize;
    let pong_timeouts = if rung == Rung::Sys { host_timeouts } else { u64::from(words[ladder::PONG_TIMEOUTS]) };
    Ok(TripLaunch {
        device_ns: all[..done.min(all.len())].to_vec(),
        host_ns,
        trips,
        timeouts: u64::from(words[ladder::PING_TIMEOUTS]) + pong_timeouts,
        sms: (words[ladder::PING_SM], words[ladder::PONG_SM]),
    })
}

/// Pushes a mapped-host-memory pointer (a type `Args::push` takes by value).
fn push<'a>(args: &mut Args<'a>, param: &layout::Param, value: impl KernelArg) {
    args.push(param, value);
}

/// Agent B of the `.sys` rung, on this CPU thread: for each `i` from 1 to
/// `trips`, waits with `Acquire` loads until the ping flag reads `i`, then
/// stores `i` into the pong flag with `Release`. Returns the `Instant`
/// nanoseconds of each completed batch of `per_batch` round trips (from
/// seeing a batch's first ping to seeing the next batch's first) and its
/// timeouts (0 or 1: a wait past `budget` stops it).
pub fn host_pong(flags: &[AtomicU32], trips: u32, per_batch: u32, budget: Duration) -> (Vec<u64>, u64) {
    let (ping, pong) = (&flags[PING_WORD], &flags[PONG_WORD]);
    let mut batches = Vec::new();
    let mut batch_start: Option<Instant> = None;
    for i in 1..=trips {
        let start = Instant::now();
        loop {
            if ping.load(Ordering::Acquire) == i {
                break;
            }
            if start.elapsed() > budget {
                return (batches, 1);
            }
            std::hint::spin_loop();
        }
        // A batch's first ping is `k * per_batch + 1`.
        if (i - 1) % per_batch.max(1) == 0 {
            let now = Instant::now();
            if let Some(began) = batch_start {
                batches.push(u64::try_from(now.duration_since(began).as_nanos()).unwrap_or(u64::MAX));
            }
            batch_start = Some(now);
        }
        pong.store(i, Ordering::Release);
    }
    (batches, 0)
}

/// Runs one launch of the fence loop `entry` and returns each timed loop's
/// `%globaltimer` nanoseconds. On a GPU without the Hopper module, a
/// `.cluster` fence is the one-line error that says so.
pub fn fence_loop(gpu: &Gpu, entry: &'static Entry, iterations: u32, repeats: u32) -> Result<Vec<u64>, LabError> {
    let function = gpu.function_of(entry)?;
    let stream = gpu.stream();
    let doing = |what: &str| format!("{what} for {}", entry.symbol);
    let mut sink = stream.alloc_zeros::<u32>(1).doing(|| doing("allocating the sink"))?;
    let mut samples: CudaSlice<u64> =
        stream.alloc_zeros::<u64>(repeats as usize).doing(|| doing("allocating the samples"))?;
    let mut args = Args::new(stream, &function, entry);
    let (mut sink_arg, mut samples_arg) = (Some(&mut sink), Some(&mut samples));
    for param in entry.params {
        match ladder_arg(param) {
            Arg::Sink => args.push(param, once(&mut sink_arg, param)),
            Arg::Iterations => args.push(param, &iterations),
            Arg::Repeats => args.push(param, &repeats),
            Arg::Samples => args.push(param, once(&mut samples_arg, param)),
            _ => panic!("{} takes no `{param}`", entry.symbol),
        }
    }
    let config = LaunchConfig { grid_dim: (1, 1, 1), block_dim: (1, 1, 1), shared_mem_bytes: 0 };
    // SAFETY: the arguments are the entry's `params` (`Args` checks them);
    // `sink` is one word and `samples` `repeats` words; one thread is the
    // kernel's launch shape.
    unsafe { args.launch_as(config, Launch::Ordinary) }.doing(|| doing("launching"))?;
    stream.clone_dtoh(&samples).doing(|| doing("reading the samples"))
}

/// What `param`, a ladder kernel's parameter, is for.
fn ladder_arg(param: &layout::Param) -> Arg {
    let ParamRole::Ladder(arg) = param.role else { panic!("`{param}` is no ladder argument") };
    arg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_agent_answers_every_ping_and_times_whole_batches() {
        let flags: Vec<AtomicU32> = (0..FLAG_WORDS).map(|_| AtomicU32::new(0)).collect();
        let (trips, per_batch) = (64, 8);
        let (batches, timeouts) = std::thread::scope(|s| {
            let pinger = s.spawn(|| {
                for i in 1..=trips {
                    flags[PING_WORD].store(i, Ordering::Release);
                    while flags[PONG_WORD].load(Ordering::Acquire) != i {
                        std::hint::spin_loop();
                    }
                }
            });
            let answer = host_pong(&flags, trips, per_batch, Duration::from_secs(10));
            pinger.join().unwrap();
            answer
        });
        assert_eq!(timeouts, 0);
        // Eight batches begin; the last has no next first ping to end it.
        assert_eq!(batches.len(), 7);
        assert_eq!(flags[PONG_WORD].load(Ordering::Relaxed), trips);
    }

    #[test]
    fn a_silent_device_is_one_host_timeout_not_a_hang() {
        let flags: Vec<AtomicU32> = (0..FLAG_WORDS).map(|_| AtomicU32::new(0)).collect();
        let (batches, timeouts) = host_pong(&flags, 4, 2, Duration::from_millis(5));
        assert_eq!((batches.len(), timeouts), (0, 1));
        assert_eq!(flags[PONG_WORD].load(Ordering::Relaxed), 0);
    }

    #[test]
    fn every_rung_names_its_kernels() {
        for rung in Rung::ALL {
            assert!(rung.trip().symbol.ends_with(&rung.scope()[1..]));
            for fence in rung.fences() {
                assert!(fence.symbol.ends_with(&rung.scope()[1..]), "{}", fence.symbol);
            }
        }
    }
}
